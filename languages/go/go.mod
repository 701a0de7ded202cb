module example.com/node-reporter-app

go 1.25.0

require (
	github.com/aws/jsii-runtime-go v1.140.0
	github.com/cdk8s-team/cdk8s-core-go/cdk8s/v2 v2.70.106
	github.com/cdk8s-team/cdk8s-plus-go/cdk8splus28/v2 v2.5.6
	github.com/node-reporter/node-reporter-go/nodereporter v0.2.0
)

require (
	github.com/Masterminds/semver/v3 v3.5.0 // indirect
	github.com/aws/constructs-go/constructs/v10 v10.8.1 // indirect
	github.com/fatih/color v1.19.0 // indirect
	github.com/mattn/go-colorable v0.1.14 // indirect
	github.com/mattn/go-isatty v0.0.24 // indirect
	github.com/yuin/goldmark v1.7.16 // indirect
	golang.org/x/lint v0.0.0-20241112194109-818c5a804067 // indirect
	golang.org/x/mod v0.39.0 // indirect
	golang.org/x/sync v0.22.0 // indirect
	golang.org/x/sys v0.47.0 // indirect
	golang.org/x/telemetry v0.0.0-20260811182544-a038080d80e5 // indirect
	golang.org/x/tools v0.49.0 // indirect
	golang.org/x/tools/cmd/godoc v0.1.0-deprecated // indirect
	golang.org/x/tools/godoc v0.1.0-deprecated // indirect
)

// The module npm run package generated, and the cdk8s modules it built beside
// it from node_modules (the Go module proxy serves no cdk8s-core-go).
replace (
	github.com/aws/constructs-go/constructs/v10 => ../../dist-packages/go/constructs
	github.com/cdk8s-team/cdk8s-core-go/cdk8s/v2 => ../../dist-packages/go/cdk8s
	github.com/cdk8s-team/cdk8s-plus-go/cdk8splus28/v2 => ../../dist-packages/go/cdk8splus28
	github.com/node-reporter/node-reporter-go/nodereporter => ../../dist-packages/go/nodereporter
)
