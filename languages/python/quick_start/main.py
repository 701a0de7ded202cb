# Quick start: one agent pod on every Linux node, secure by default, checked at synth.
from cdk8s import App, Chart, Size
from cdk8s_plus_28 import ContainerResources, Cpu, CpuResources, MemoryResources
from node_reporter import AgentContainer, DownwardApi, NodeAgent, NodePolicy, RestrictedNamespace

app = App()
chart = Chart(app, "agents", namespace="agents")
RestrictedNamespace(chart, "Namespace", name="agents")

# Which nodes are eligible: every Linux node.
linux = NodePolicy(chart, "Linux", operating_system="linux")

# What runs on each of them: a DaemonSet that passes Pod Security "restricted".
NodeAgent(chart, "Hello",
    policy=linux,
    name="hello",
    containers=[AgentContainer(
        name="hello",
        image="busybox:1.36",
        command=["sh", "-c", 'while true; do echo "hello from $NODE_NAME"; sleep 60; done'],
        env={"NODE_NAME": DownwardApi.node_name()},
        resources=ContainerResources(
            cpu=CpuResources(request=Cpu.millis(10)),
            memory=MemoryResources(request=Size.mebibytes(16), limit=Size.mebibytes(32)),
        ),
    )],
)

app.synth()
