package app

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/aws/jsii-runtime-go"
	"github.com/cdk8s-team/cdk8s-core-go/cdk8s/v2"
	"github.com/node-reporter/node-reporter-go/nodereporter"
)

// manifests reads every *.k8s.yaml of a folder, by name.
func manifests(t *testing.T, folder string) map[string][]byte {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(folder, "*.k8s.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		files[filepath.Base(p)] = data
	}
	return files
}

func names(files map[string][]byte) []string {
	keys := []string{}
	for k := range files {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func TestTheReporterSynthesizesTheCommittedDistByteForByte(t *testing.T) {
	// GIVEN main.ts's app, written in Go
	out := t.TempDir()
	// WHEN it synthesizes
	ReporterApp(out).Synth()
	// THEN every file is the committed dist/'s, and there is no other
	got, want := manifests(t, out), manifests(t, os.Getenv("NODE_REPORTER_DIST"))
	if strings.Join(names(got), ",") != strings.Join(names(want), ",") || len(want) == 0 {
		t.Fatalf("files %v, want %v", names(got), names(want))
	}
	for name := range want {
		if !bytes.Equal(got[name], want[name]) {
			t.Errorf("%s differs from dist/%s", name, name)
		}
	}
}

func TestTheAgentSynthesizesWhatTheTypeScriptAppDoes(t *testing.T) {
	// GIVEN the realistic agent (host network, read-only host path, privileged with its reason, tolerations)
	out := t.TempDir()
	// WHEN it synthesizes
	AgentApp(out).Synth()
	// THEN the bytes are languages/typescript/agent.ts's
	got, err := os.ReadFile(filepath.Join(out, "agent.k8s.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(os.Getenv("NODE_REPORTER_TS_AGENT"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("agent.k8s.yaml differs from TypeScript's:\n%s", got)
	}
}

func TestABadPropRaisesTheLibrarysMessageNamingIt(t *testing.T) {
	// GIVEN an app
	app := cdk8s.NewApp(&cdk8s.AppProps{Outdir: jsii.String(t.TempDir())})
	// WHEN a chart is given a version with a space
	message := func() (message string) {
		defer func() { message = fmt.Sprint(recover()) }()
		nodereporter.NewNodeReporterChart(app, jsii.String("bad"), &nodereporter.NodeReporterChartProps{Version: jsii.String("not a version!")})
		return ""
	}()
	// THEN the panic is the library's message, naming the prop, the value and what is allowed
	for _, part := range []string{"'version' must be a plain token", `"not a version!"`} {
		if !strings.Contains(message, part) {
			t.Errorf("message %q does not contain %q", message, part)
		}
	}
}

func TestInIsCalledAsGoNamesIt(t *testing.T) {
	// GIVEN NodeRequirement.in, a reserved word in C# and Python
	// WHEN Go calls it
	r := nodereporter.NodeRequirement_In(jsii.String("node-role"), jsii.String("worker"))
	// THEN it is the requirement TypeScript's NodeRequirement.in returns
	if *r.Key != "node-role" || *r.Operator != "In" || len(*r.Values) != 1 || *(*r.Values)[0] != "worker" {
		t.Fatalf("got %v %v %v", *r.Key, *r.Operator, *r.Values)
	}
}
