package example;

import io.github.nodereporter.AgentContainer;
import io.github.nodereporter.AgentPodSecurity;
import io.github.nodereporter.DownwardApi;
import io.github.nodereporter.HostPathMount;
import io.github.nodereporter.NodeAgent;
import io.github.nodereporter.NodePolicy;
import io.github.nodereporter.NodeReporterChart;
import io.github.nodereporter.NodeRequirement;
import io.github.nodereporter.NodeToleration;
import io.github.nodereporter.PodSecurityLevel;
import io.github.nodereporter.PodSecurityNamespace;
import io.github.nodereporter.TaintEffect;
import java.util.List;
import java.util.Map;
import org.cdk8s.AppProps;
import org.cdk8s.Chart;
import org.cdk8s.ChartProps;
import org.cdk8s.Size;
import org.cdk8s.plus28.ContainerResources;
import org.cdk8s.plus28.Cpu;
import org.cdk8s.plus28.CpuResources;
import org.cdk8s.plus28.HostPathVolumeType;
import org.cdk8s.plus28.MemoryResources;
import org.cdk8s.plus28.Probe;

/** The Java app: the seed's reporter as main.ts writes it, and the agent of languages/typescript/agent.ts. */
public final class App {
    /** KUBERNETES_VERSION_CONTEXT of node-reporter/checks, a TypeScript-only subpath. */
    public static final String KUBERNETES_VERSION_CONTEXT = "node-reporter:kubernetesVersion";

    private App() {
    }

    /** main.ts with its defaults: v1 and v2, each creating its namespace, for Kubernetes 1.35. */
    public static org.cdk8s.App reporterApp(String outdir) {
        org.cdk8s.App app = new org.cdk8s.App(AppProps.builder().outdir(outdir).build());
        app.getNode().setContext(KUBERNETES_VERSION_CONTEXT, "1.35");
        for (String version : List.of("v1", "v2")) {
            NodeReporterChart.Builder.create(app, "node-reporter-" + version).version(version).createNamespace(true).build();
        }
        return app;
    }

    /** The agent of languages/typescript/agent.ts, prop for prop. */
    public static org.cdk8s.App agentApp(String outdir) {
        org.cdk8s.App app = new org.cdk8s.App(AppProps.builder().outdir(outdir).build());
        app.getNode().setContext(KUBERNETES_VERSION_CONTEXT, "1.35");
        Chart chart = new Chart(app, "agent", ChartProps.builder().namespace("inventory").build());
        PodSecurityNamespace.Builder.create(chart, "Namespace").name("inventory").enforce(PodSecurityLevel.PRIVILEGED).build();
        NodePolicy policy = NodePolicy.Builder.create(chart, "Workers")
            .operatingSystem("linux")
            .matchExpressions(List.of(NodeRequirement.in("node-role", "worker", "edge")))
            .tolerations(List.of(NodeToleration.controlPlane(), NodeToleration.exists("dedicated", TaintEffect.NO_SCHEDULE)))
            .build();
        NodeAgent.Builder.create(chart, "Inventory")
            .policy(policy)
            .name("node-inventory")
            .containers(List.of(AgentContainer.builder()
                .name("inventory")
                .image("busybox:1.36")
                .command(List.of("sh", "-c", "while true; do cat /host/etc/os-release; echo \"on $NODE_NAME\"; sleep 300; done"))
                .env(Map.of("NODE_NAME", DownwardApi.nodeName()))
                .liveness(Probe.fromCommand(List.of("cat", "/host/etc/os-release")))
                .resources(ContainerResources.builder()
                    .cpu(CpuResources.builder().request(Cpu.millis(10)).build())
                    .memory(MemoryResources.builder().request(Size.mebibytes(16)).limit(Size.mebibytes(32)).build())
                    .build())
                .build()))
            .hostNetwork(true)
            .hostPaths(List.of(HostPathMount.builder()
                .name("os-release").hostPath("/etc/os-release").mountPath("/host/etc/os-release").type(HostPathVolumeType.FILE)
                .build()))
            .podSecurity(AgentPodSecurity.builder().level(PodSecurityLevel.PRIVILEGED).reason("reads the host network and the node's os-release").build())
            .build();
        return app;
    }
}
