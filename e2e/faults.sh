#!/usr/bin/env bash
# The walkthrough's refusals, against a running cluster (e2e/cluster.sh): each
# must exit non-zero with a one-line reason and change nothing. Then manifests
# that cannot run: the walkthrough and the agents e2e must fail with the
# kubelet's or the API server's own reason.
#   KUBECONFIG=... bash e2e/faults.sh NODE
set -euo pipefail
cd "$(dirname "$0")/.."
node_name=${1:?usage: e2e/faults.sh NODE}

expect_refusal() {
  local title=$1 want=$2
  shift 2
  local out status=0
  out=$("$@" 2>&1) || status=$?
  if [[ $status -eq 0 ]] || ! grep -qF -- "$want" <<<"$out"; then
    echo "FAIL: $title: exit $status, wanted a refusal saying \"$want\"; got:" >&2
    echo "$out" >&2
    exit 1
  fi
  echo "ok: $title -> $(grep -F -- "$want" <<<"$out" | head -n 1)"
}

labels_before=$(kubectl get node "$node_name" -o jsonpath='{.metadata.labels}')

expect_refusal 'no cluster reachable' 'no cluster reachable with the current kubeconfig' \
  env KUBECONFIG=/nonexistent/kubeconfig npm run --silent e2e
wrong=$(mktemp)
sed 's/^current-context: .*/current-context: no-such-context/' "$KUBECONFIG" >"$wrong"
expect_refusal 'a current context that does not exist' 'context no-such-context' \
  env KUBECONFIG="$wrong" npm run --silent e2e
rm -f "$wrong"
expect_refusal 'a node that does not exist' 'node "no-such-node" does not exist' \
  npm run --silent e2e -- --node no-such-node

kubectl create namespace practice-daemon >/dev/null
kubectl create configmap foreign -n practice-daemon --from-literal=owner=someone-else >/dev/null
expect_refusal 'a namespace practice-daemon that already exists' 'namespace practice-daemon already exists' \
  npm run --silent e2e -- --node "$node_name"
if [[ $(kubectl get configmap foreign -n practice-daemon -o jsonpath='{.data.owner}') != someone-else ]]; then
  echo "FAIL: the foreign object in practice-daemon was touched" >&2
  exit 1
fi
kubectl delete namespace practice-daemon --wait=true >/dev/null

# A copy of dist/ whose v1 is changed by the sed expression: the agent cannot run.
expect_cannot_run() {
  local title=$1 want=$2 edit=$3 dir
  dir=$(mktemp -d)
  cp dist/*.k8s.yaml "$dir"
  sed -i -e "$edit" "$dir/node-reporter-v1.k8s.yaml"
  expect_refusal "$title" "$want" npm run --silent e2e -- --node "$node_name" --dist "$dir" --timeout 30
  rm -rf "$dir"
}
expect_cannot_run 'runAsNonRoot without a uid' 'container has runAsNonRoot and image will run as root' \
  '/runAsUser:/d; /runAsGroup:/d'
expect_cannot_run 'runAsGroup without runAsUser' 'user group "65534" is specified without user' '/runAsUser:/d'
expect_cannot_run 'a memory limit under what the container needs' 'container init was OOM-killed' \
  's/memory: 32Mi/memory: 1Mi/; s/memory: 16Mi/memory: 1Mi/'

# Agents that cannot run (npm run e2e:agents): the run must fail with the
# kubelet's or the API server's reason, and delete what it created.
plan=$(mktemp -d)
npm run --silent e2e:agents -- --write "$plan" >/dev/null
expect_agent_fails() {
  local title=$1 want=$2 edit=$3 file=${4:-node-exporter.k8s.yaml}
  sed -e "$edit" "$plan/$file" >"$plan/broken.k8s.yaml"
  if cmp -s "$plan/$file" "$plan/broken.k8s.yaml"; then
    echo "FAIL: $title: the edit '$edit' does not change $file" >&2
    exit 1
  fi
  expect_refusal "$title" "$want" npm run --silent e2e:agents -- --node "$node_name" --run "$plan/broken.k8s.yaml" --steps run --timeout 30
}
# The host path / (the volume's path line is followed by its type).
expect_agent_fails 'a hostPath of type File that is a directory (the kubelet)' 'hostPath type check failed: / is not a file' \
  '/^ *path: \/$/{n;s/type: Directory/type: File/}'
expect_agent_fails 'Bidirectional propagation in an unprivileged container (the API server)' \
  'Bidirectional mount propagation is available only to privileged containers' \
  's/mountPropagation: HostToContainer/mountPropagation: Bidirectional/'
# node-inventory's init container without its one capability: root cannot hand the host path to nobody.
expect_agent_fails 'an init container without the capability it needs (CHOWN)' 'container prepare: Error (exit code 1): chown: /data: Operation not permitted' \
  '/^ *add:$/{N;/- CHOWN$/d}' node-inventory.k8s.yaml
expect_refusal 'an agent whose image is not on the node' 'runs cr.fluentbit.io/fluent/fluent-bit:' \
  npm run --silent e2e:agents -- --node "$node_name" --run "$plan/fluent-bit.k8s.yaml" --steps run
# The binding's subject (indented under subjects), not the objects' namespace.
sed 's/^\(    namespace: \)logging$/\1elsewhere/' "$plan/fluent-bit.k8s.yaml" >"$plan/unbound.k8s.yaml"
expect_refusal 'a ClusterRole bound to another account than the agent runs as' 'ClusterRole node-agent:logging:fluent-bit is bound to none of the service accounts' \
  npm run --silent e2e:agents -- --node "$node_name" --rbac "$plan/unbound.k8s.yaml" --steps rbac
rm -rf "$plan"
if [[ -n $(kubectl get namespace monitoring logging node-inventory e2e-agents-restricted --ignore-not-found -o name) ]]; then
  echo "FAIL: a failed agents run left its namespaces" >&2
  exit 1
fi

if [[ $(kubectl get node "$node_name" -o jsonpath='{.metadata.labels}') != "$labels_before" ]]; then
  echo "FAIL: the node's labels changed" >&2
  exit 1
fi
echo "ok: nothing changed by the refusals"
