"""The Python app: the seed's reporter as main.ts writes it, and the realistic agent
of languages/typescript/agent.ts, built from the node-reporter wheel."""
import cdk8s
import cdk8s_plus_28 as kplus
from node_reporter import (
    DownwardApi,
    HostPathMount,
    NodeAgent,
    NodePolicy,
    NodeReporterChart,
    NodeRequirement,
    NodeToleration,
    PodSecurityLevel,
    PodSecurityNamespace,
    TaintEffect,
)

# KUBERNETES_VERSION_CONTEXT of node-reporter/checks, a TypeScript-only subpath.
KUBERNETES_VERSION_CONTEXT = "node-reporter:kubernetesVersion"


def reporter_app(outdir: str) -> cdk8s.App:
    """main.ts with its defaults: v1 and v2, each creating its namespace, for Kubernetes 1.35."""
    app = cdk8s.App(outdir=outdir)
    app.node.set_context(KUBERNETES_VERSION_CONTEXT, "1.35")
    for version in ["v1", "v2"]:
        NodeReporterChart(app, f"node-reporter-{version}", version=version, create_namespace=True)
    return app


def agent_app(outdir: str) -> cdk8s.App:
    """The agent of languages/typescript/agent.ts, prop for prop."""
    app = cdk8s.App(outdir=outdir)
    app.node.set_context(KUBERNETES_VERSION_CONTEXT, "1.35")
    chart = cdk8s.Chart(app, "agent", namespace="inventory")
    PodSecurityNamespace(chart, "Namespace", name="inventory", enforce=PodSecurityLevel.PRIVILEGED)
    policy = NodePolicy(
        chart,
        "Workers",
        operating_system="linux",
        # `in` is a Python keyword: jsii names it `in_`.
        match_expressions=[NodeRequirement.in_("node-role", "worker", "edge")],
        tolerations=[NodeToleration.control_plane(), NodeToleration.exists("dedicated", TaintEffect.NO_SCHEDULE)],
    )
    NodeAgent(
        chart,
        "Inventory",
        policy=policy,
        name="node-inventory",
        containers=[
            {
                "name": "inventory",
                "image": "busybox:1.36",
                "command": ["sh", "-c", 'while true; do cat /host/etc/os-release; echo "on $NODE_NAME"; sleep 300; done'],
                "env": {"NODE_NAME": DownwardApi.node_name()},
                "liveness": kplus.Probe.from_command(["cat", "/host/etc/os-release"]),
                "resources": kplus.ContainerResources(
                    cpu=kplus.CpuResources(request=kplus.Cpu.millis(10)),
                    memory=kplus.MemoryResources(request=cdk8s.Size.mebibytes(16), limit=cdk8s.Size.mebibytes(32)),
                ),
            }
        ],
        host_network=True,
        host_paths=[
            HostPathMount(
                name="os-release",
                host_path="/etc/os-release",
                mount_path="/host/etc/os-release",
                type=kplus.HostPathVolumeType.FILE,
            )
        ],
        pod_security={"level": PodSecurityLevel.PRIVILEGED, "reason": "reads the host network and the node's os-release"},
    )
    return app
