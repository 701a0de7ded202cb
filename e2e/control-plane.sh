#!/usr/bin/env bash
# A local Kubernetes control plane for machines without a cluster: etcd,
# kube-apiserver, kube-controller-manager and kube-scheduler on 127.0.0.1,
# built from Debian's Kubernetes v1.20.2 source package. There is no kubelet.
#
#   e2e/control-plane.sh build   install the Debian packages, build the binaries once (cached)
#   e2e/control-plane.sh start   start everything; prints `export KUBECONFIG=...`
#   e2e/control-plane.sh add-node NAME   register a Ready node object (no kubelet behind it)
#   e2e/control-plane.sh stop    stop every process that start started, by PID
#
# The binaries are cached under $NODE_REPORTER_E2E_CACHE (default
# ~/.cache/node-reporter-e2e), outside the repository: a second run starts in
# seconds. Run state (certificates, etcd data, logs, PIDs) lives in
# $NODE_REPORTER_E2E_RUN (default /tmp/node-reporter-e2e).
set -euo pipefail

CACHE=${NODE_REPORTER_E2E_CACHE:-$HOME/.cache/node-reporter-e2e}
RUN=${NODE_REPORTER_E2E_RUN:-/tmp/node-reporter-e2e}
K8S_VERSION=1.20.2
# The recipe's revision is part of the cache key: a changed build rebuilds.
BIN=$CACHE/bin-$K8S_VERSION-r2
APISERVER_PORT=${NODE_REPORTER_E2E_PORT:-16443}
ETCD_PORT=12379

log() { echo "[control-plane] $*" >&2; }

need_root_apt() {
  if [[ $(id -u) -ne 0 ]]; then
    log "installing Debian packages needs root: $*"
    exit 1
  fi
}

install_packages() {
  local missing=()
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
  done
  if ((${#missing[@]})); then
    need_root_apt "${missing[*]}"
    log "apt-get install ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
}

enable_deb_src() {
  if ! grep -rqs '^Types:.*deb-src' /etc/apt/sources.list.d/ && ! grep -qs '^deb-src' /etc/apt/sources.list; then
    need_root_apt "deb-src entry"
    log "adding a deb-src entry for bookworm"
    cat >/etc/apt/sources.list.d/node-reporter-e2e-src.sources <<'EOF'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
    apt-get update -qq
  fi
}

build() {
  # openssl for keys and certificates; kubectl (Debian's kubernetes-client)
  # only when the machine has none.
  install_packages etcd-server openssl curl
  command -v kubectl >/dev/null || install_packages kubernetes-client
  if [[ -x $BIN/kube-apiserver && -x $BIN/kube-controller-manager && -x $BIN/kube-scheduler ]]; then
    log "binaries cached in $BIN"
    return
  fi
  install_packages golang-go rsync dpkg-dev make golang-github-modern-go-reflect2-dev
  enable_deb_src
  local src=$CACHE/src
  mkdir -p "$src"
  if ! compgen -G "$src/kubernetes-*/Makefile" >/dev/null; then
    log "apt-get source kubernetes (v$K8S_VERSION with its dependencies vendored)"
    (cd "$src" && apt-get source -qq kubernetes >/dev/null 2>&1)
  fi
  local tree
  tree=$(dirname "$(compgen -G "$src/kubernetes-*/Makefile" | head -n 1)")
  # The vendored reflect2 1.0.1 misbehaves with Go 1.18+; Debian ships 1.0.2.
  if [[ -d /usr/share/gocode/src/github.com/modern-go/reflect2 ]]; then
    rm -rf "$tree/vendor/github.com/modern-go/reflect2"
    cp -r /usr/share/gocode/src/github.com/modern-go/reflect2 "$tree/vendor/github.com/modern-go/reflect2"
  fi
  local gopath=$CACHE/gopath
  mkdir -p "$gopath/src/k8s.io"
  ln -sfn "$tree" "$gopath/src/k8s.io/kubernetes"
  local repo=$gopath/src/k8s.io/kubernetes
  export GOPATH=$gopath GO111MODULE=off GOCACHE=$CACHE/go-build
  log "make generated_files (a few minutes, once)"
  (cd "$repo" && make generated_files >"$CACHE/generated_files.log" 2>&1) || { tail -n 30 "$CACHE/generated_files.log" >&2; exit 1; }
  # The version stamps hack/lib/version.sh would set; without them the
  # server reports v0.0.0 and clients cannot tell what it supports.
  local ldflags='' major=${K8S_VERSION%%.*} minor
  minor=${K8S_VERSION#*.}
  minor=${minor%%.*}
  for pkg in k8s.io/kubernetes/vendor/k8s.io/component-base/version k8s.io/kubernetes/vendor/k8s.io/client-go/pkg/version; do
    ldflags+=" -X $pkg.gitVersion=v$K8S_VERSION -X $pkg.gitMajor=$major -X $pkg.gitMinor=$minor -X $pkg.gitTreeState=clean"
  done
  mkdir -p "$BIN.partial"
  for cmd in kube-apiserver kube-controller-manager kube-scheduler; do
    log "go build $cmd"
    (cd "$repo" && go build -ldflags "$ldflags" -o "$BIN.partial/$cmd" "./cmd/$cmd") >"$CACHE/build-$cmd.log" 2>&1 || { tail -n 30 "$CACHE/build-$cmd.log" >&2; exit 1; }
  done
  rm -rf "$BIN" && mv "$BIN.partial" "$BIN"
  # Binaries of earlier recipes are 350 MB each.
  find "$CACHE" -maxdepth 1 -name 'bin-*' ! -name "$(basename "$BIN")" -exec rm -rf {} +
  log "built into $BIN"
}

wait_for() {
  local what=$1 tries=$2
  shift 2
  for ((i = 0; i < tries; i++)); do
    if "$@" >/dev/null 2>&1; then
      return 0
    fi
    sleep 1
  done
  log "$what did not come up; see $RUN/*.log"
  tail -n 20 "$RUN"/*.log >&2 || true
  return 1
}

start_process() {
  local name=$1
  shift
  "$@" >"$RUN/$name.log" 2>&1 &
  echo $! >"$RUN/$name.pid"
  log "started $name (pid $!)"
}

start() {
  [[ -x $BIN/kube-apiserver ]] || build
  if [[ -d $RUN ]]; then stop; fi
  mkdir -p "$RUN/etcd" "$RUN/pki"
  local pki=$RUN/pki
  openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj '/CN=node-reporter-e2e-ca' \
    -keyout "$pki/ca.key" -out "$pki/ca.crt" 2>/dev/null
  openssl req -newkey rsa:2048 -nodes -subj '/CN=kube-apiserver' -keyout "$pki/apiserver.key" -out "$pki/apiserver.csr" 2>/dev/null
  printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\n' >"$pki/san.ext"
  openssl x509 -req -in "$pki/apiserver.csr" -CA "$pki/ca.crt" -CAkey "$pki/ca.key" -CAcreateserial -days 2 \
    -extfile "$pki/san.ext" -out "$pki/apiserver.crt" 2>/dev/null
  openssl genrsa -out "$pki/sa.key" 2048 2>/dev/null
  openssl rsa -in "$pki/sa.key" -pubout -out "$pki/sa.pub" 2>/dev/null
  local token
  token=$(openssl rand -hex 16)
  echo "$token,admin,admin,system:masters" >"$pki/tokens.csv"

  start_process etcd etcd --name e2e --data-dir "$RUN/etcd" \
    --listen-client-urls "http://127.0.0.1:$ETCD_PORT" --advertise-client-urls "http://127.0.0.1:$ETCD_PORT" \
    --listen-peer-urls http://127.0.0.1:12380 --initial-advertise-peer-urls http://127.0.0.1:12380 \
    --initial-cluster e2e=http://127.0.0.1:12380
  wait_for etcd 30 curl -fsS "http://127.0.0.1:$ETCD_PORT/health"

  start_process kube-apiserver "$BIN/kube-apiserver" \
    --etcd-servers "http://127.0.0.1:$ETCD_PORT" \
    --bind-address 127.0.0.1 --advertise-address 127.0.0.1 --secure-port "$APISERVER_PORT" \
    --tls-cert-file "$pki/apiserver.crt" --tls-private-key-file "$pki/apiserver.key" \
    --token-auth-file "$pki/tokens.csv" --authorization-mode AlwaysAllow \
    --service-account-key-file "$pki/sa.pub" --service-account-signing-key-file "$pki/sa.key" \
    --service-account-issuer https://kubernetes.default.svc \
    --service-cluster-ip-range 10.96.0.0/16 --allow-privileged=false
  cat >"$RUN/kubeconfig" <<EOF
apiVersion: v1
kind: Config
clusters:
- name: e2e
  cluster:
    server: https://127.0.0.1:$APISERVER_PORT
    certificate-authority: $pki/ca.crt
users:
- name: admin
  user:
    token: $token
contexts:
- name: node-reporter-e2e
  context: {cluster: e2e, user: admin}
current-context: node-reporter-e2e
EOF
  wait_for kube-apiserver 90 kubectl --kubeconfig "$RUN/kubeconfig" get --raw /readyz

  # No kubelet here, so the node lifecycle controller would mark the node
  # unreachable and taint it; it stays off.
  start_process kube-controller-manager "$BIN/kube-controller-manager" \
    --kubeconfig "$RUN/kubeconfig" --bind-address 127.0.0.1 --secure-port 0 --port 0 \
    --controllers '*,-nodelifecycle' --leader-elect=false \
    --service-account-private-key-file "$pki/sa.key" --root-ca-file "$pki/ca.crt" --use-service-account-credentials=false
  start_process kube-scheduler "$BIN/kube-scheduler" \
    --kubeconfig "$RUN/kubeconfig" --bind-address 127.0.0.1 --secure-port 0 --port 0 --leader-elect=false
  wait_for kube-controller-manager 30 kubectl --kubeconfig "$RUN/kubeconfig" get serviceaccount default -n default
  echo "export KUBECONFIG=$RUN/kubeconfig"
}

api() {
  local method=$1 url=$2 type=${3:-application/json} body=${4:-}
  local token
  token=$(cut -d, -f1 "$RUN/pki/tokens.csv")
  curl -fsS --cacert "$RUN/pki/ca.crt" -H "Authorization: Bearer $token" -H "Content-Type: $type" \
    -X "$method" "https://127.0.0.1:$APISERVER_PORT$url" ${body:+--data "$body"} >/dev/null
}

add_node() {
  local name=${1:?add-node needs a node name}
  [[ $name =~ ^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$ ]] || { log "not a node name: $name"; exit 2; }
  [[ -f $RUN/kubeconfig ]] || { log "the control plane is not running; run: $0 start"; exit 1; }
  # As kubeadm registers a single control-plane node, minus the kubelet.
  api POST /api/v1/nodes application/json "{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"$name\",\"labels\":{\"kubernetes.io/hostname\":\"$name\",\"kubernetes.io/os\":\"linux\",\"kubernetes.io/arch\":\"amd64\",\"node-role.kubernetes.io/control-plane\":\"\"}}}"
  local now
  now=$(date -u +%Y-%m-%dT%H:%M:%SZ)
  api PATCH "/api/v1/nodes/$name/status" application/merge-patch+json "{\"status\":{\"capacity\":{\"cpu\":\"2\",\"memory\":\"8Gi\",\"pods\":\"110\"},\"allocatable\":{\"cpu\":\"2\",\"memory\":\"8Gi\",\"pods\":\"110\"},\"conditions\":[{\"type\":\"Ready\",\"status\":\"True\",\"reason\":\"RegisteredByHand\",\"message\":\"no kubelet: registered by e2e/control-plane.sh\",\"lastHeartbeatTime\":\"$now\",\"lastTransitionTime\":\"$now\"}]}}"
  # The TaintNodesByCondition admission plugin adds not-ready:NoSchedule
  # to every new node; a kubelet would clear it once Ready.
  KUBECONFIG=$RUN/kubeconfig kubectl taint node "$name" node.kubernetes.io/not-ready:NoSchedule- >/dev/null 2>&1 || true
  log "registered node $name (Ready, no kubelet)"
}

stop() {
  shopt -s nullglob
  for pidfile in "$RUN"/*.pid; do
    local pid
    pid=$(cat "$pidfile")
    if kill "$pid" 2>/dev/null; then
      log "stopped $(basename "$pidfile" .pid) (pid $pid)"
      for _ in $(seq 20); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
      kill -9 "$pid" 2>/dev/null || true
    fi
    rm -f "$pidfile"
  done
  rm -rf "$RUN"
}

case "${1:-}" in
  build) build ;;
  start) start ;;
  add-node) add_node "${2:-}" ;;
  stop) stop ;;
  *) echo "usage: $0 build|start|add-node NAME|stop" >&2; exit 2 ;;
esac
