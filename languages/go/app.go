// Package app is the Go app: the seed's reporter as main.ts writes it, and the
// realistic agent of languages/typescript/agent.ts, from the generated module.
package app

import (
	"fmt"

	"github.com/aws/jsii-runtime-go"
	"github.com/cdk8s-team/cdk8s-core-go/cdk8s/v2"
	kplus "github.com/cdk8s-team/cdk8s-plus-go/cdk8splus28/v2"
	"github.com/node-reporter/node-reporter-go/nodereporter"
)

// KubernetesVersionContext is KUBERNETES_VERSION_CONTEXT of node-reporter/checks, a TypeScript-only subpath.
const KubernetesVersionContext = "node-reporter:kubernetesVersion"

// ReporterApp is main.ts with its defaults: v1 and v2, each creating its namespace, for Kubernetes 1.35.
func ReporterApp(outdir string) cdk8s.App {
	app := cdk8s.NewApp(&cdk8s.AppProps{Outdir: jsii.String(outdir)})
	app.Node().SetContext(jsii.String(KubernetesVersionContext), jsii.String("1.35"))
	for _, version := range []string{"v1", "v2"} {
		nodereporter.NewNodeReporterChart(app, jsii.String(fmt.Sprintf("node-reporter-%s", version)), &nodereporter.NodeReporterChartProps{
			Version:         jsii.String(version),
			CreateNamespace: jsii.Bool(true),
		})
	}
	return app
}

// AgentApp is the agent of languages/typescript/agent.ts, prop for prop.
func AgentApp(outdir string) cdk8s.App {
	app := cdk8s.NewApp(&cdk8s.AppProps{Outdir: jsii.String(outdir)})
	app.Node().SetContext(jsii.String(KubernetesVersionContext), jsii.String("1.35"))
	chart := cdk8s.NewChart(app, jsii.String("agent"), &cdk8s.ChartProps{Namespace: jsii.String("inventory")})
	nodereporter.NewPodSecurityNamespace(chart, jsii.String("Namespace"), &nodereporter.PodSecurityNamespaceProps{
		Name:    jsii.String("inventory"),
		Enforce: nodereporter.PodSecurityLevel_PRIVILEGED,
	})
	policy := nodereporter.NewNodePolicy(chart, jsii.String("Workers"), &nodereporter.NodePolicyProps{
		OperatingSystem:  jsii.String("linux"),
		MatchExpressions: &[]*nodereporter.NodeSelectorRequirement{nodereporter.NodeRequirement_In(jsii.String("node-role"), jsii.String("worker"), jsii.String("edge"))},
		Tolerations: &[]nodereporter.NodeToleration{
			nodereporter.NodeToleration_ControlPlane(),
			nodereporter.NodeToleration_Exists(jsii.String("dedicated"), nodereporter.TaintEffect_NO_SCHEDULE, nil),
		},
	})
	nodereporter.NewNodeAgent(chart, jsii.String("Inventory"), &nodereporter.NodeAgentProps{
		Policy: policy,
		Name:   jsii.String("node-inventory"),
		Containers: &[]*nodereporter.AgentContainer{{
			Name:     jsii.String("inventory"),
			Image:    jsii.String("busybox:1.36"),
			Command:  jsii.Strings("sh", "-c", `while true; do cat /host/etc/os-release; echo "on $NODE_NAME"; sleep 300; done`),
			Env:      &map[string]kplus.EnvValue{"NODE_NAME": nodereporter.DownwardApi_NodeName()},
			Liveness: kplus.Probe_FromCommand(jsii.Strings("cat", "/host/etc/os-release"), nil),
			Resources: &kplus.ContainerResources{
				Cpu:    &kplus.CpuResources{Request: kplus.Cpu_Millis(jsii.Number(10))},
				Memory: &kplus.MemoryResources{Request: cdk8s.Size_Mebibytes(jsii.Number(16)), Limit: cdk8s.Size_Mebibytes(jsii.Number(32))},
			},
		}},
		HostNetwork: jsii.Bool(true),
		HostPaths: &[]*nodereporter.HostPathMount{{
			Name:      jsii.String("os-release"),
			HostPath:  jsii.String("/etc/os-release"),
			MountPath: jsii.String("/host/etc/os-release"),
			// `type` is a Go keyword: jsii names the field Type.
			Type: kplus.HostPathVolumeType_FILE,
		}},
		PodSecurity: &nodereporter.AgentPodSecurity{
			Level:  nodereporter.PodSecurityLevel_PRIVILEGED,
			Reason: jsii.String("reads the host network and the node's os-release"),
		},
	})
	return app
}
