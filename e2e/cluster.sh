#!/usr/bin/env bash
# A local Kubernetes cluster (v1.35.6 or v1.32.13) of one control plane and
# one or more real kubelets, for the walkthrough (npm run e2e) on machines
# without a cluster, and for CI.
#
#   e2e/cluster.sh start [1.35|1.32] [--nodes N]
#                                     start everything (default 1.35, or $NODE_REPORTER_K8S_VERSION), with
#                                     N nodes (1 to 5, default 1); prints `export KUBECONFIG=... PATH=...`
#                                     on stdout (eval it)
#   e2e/cluster.sh stop               stop what start started (by PID) and undo its host changes
#   e2e/cluster.sh kubelet-stop I     stop node I's kubelet (its pods keep running): the node goes NotReady
#   e2e/cluster.sh kubelet-start I    start node I's kubelet again
#   e2e/cluster.sh host-state         print the host state start changes (for a before/after diff)
#   e2e/cluster.sh images [1.35|1.32] build the images only (start imports them), and list them
#
# Binaries: the bundle of the version, ../shared/k8s/v1.35.6 or
# ../shared/k8s/v1.32.13 beside the repository (another folder of bundles:
# $NODE_REPORTER_K8S_BUNDLES; one bundle folder named vX.Y.Z:
# $NODE_REPORTER_K8S_BUNDLE), checked against its SHA256SUMS and unpacked into
# $NODE_REPORTER_E2E_CACHE (default ~/.cache/node-reporter-e2e), outside the
# repository. kubectl: the bundle's when it has one (v1.35.6 does), else the
# system's, which must be within one minor of the server; the PATH that start
# prints puts it first, so that every later kubectl matches the server (a
# 1.32 kubectl warns on every call to a 1.35 server). Images (busybox:1.36,
# pause, node-exporter from Debian's package, and for v1.35.6 kube-proxy from
# the bundle's static binary with Debian's iptables) are built from this
# machine's files and apt: nothing is pulled from an image registry. The
# apiserver serves a certificate of the cluster CA (every ServiceAccount's
# ca.crt), so that pods verify it. Run state lives in $NODE_REPORTER_E2E_RUN
# (default /tmp/node-reporter-e2e). stop restores what kube-proxy changes on
# the host: its iptables rules, sysctls and conntrack's hash size.
#
# Everything listens on 127.0.0.1, except the kubelet on the bridge k132br0
# (10.245.0.1) that this script creates. With --nodes N, node 1 is as above
# (the host's network, mount and cgroup root /k132) and node I (2..N), named
# $NODE-I, runs its own containerd and kubelet in network, mount and UTS
# namespaces of its own: address 10.245.0.I on the bridge (a veth), pods in
# 10.245.I.0/24 behind a bridge of its own (the host routes that range to the
# node), cgroup root /k132nI, its own device-plugin folder bound over the
# kubelet's fixed /var/lib/kubelet/device-plugins; node 1's pods then take
# 10.245.0.128-254, clear of the nodes' addresses. The API server listens on
# every address then (the kubelets of nodes 2..N reach it at 10.245.0.1).
# The ports are below the kernel's ephemeral range (32768-60999), where an
# outgoing connection of any program could hold one. Every recipe detail comes from
# ../shared/k8s/v1.32.13/FACTS.md (and, for what differs in 1.35,
# ../shared/k8s/v1.35.6/FACTS.md). Needs root (mounts, cgroups, netlink).
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
# The bundles this script knows, by minor: the patch release each one holds.
declare -A RELEASES=([1.35]=1.35.6 [1.32]=1.32.13)
DEFAULT_MINOR=1.35
CACHE=${NODE_REPORTER_E2E_CACHE:-$HOME/.cache/node-reporter-e2e}
IMAGES=$CACHE/images
RUN=${NODE_REPORTER_E2E_RUN:-/tmp/node-reporter-e2e}
NODE=${NODE_REPORTER_E2E_NODE:-labex-v135}
BRIDGE=k132br0
NODE_IP=10.245.0.1
POD_SUBNET=10.245.0.0/24
CGROUP_ROOT=k132
CNI_NETWORK=node-reporter-e2e
ETCD_PORT=12379
ETCD_PEER_PORT=12380
APISERVER_PORT=16443
KUBELET_PORT=10250
KUBELET_HEALTHZ_PORT=10248
CONTROLLER_MANAGER_PORT=10257
SCHEDULER_PORT=10259
# The ports the host itself listens on (127.0.0.1, and the bridge's address).
HOST_PORTS=($ETCD_PORT $ETCD_PEER_PORT $APISERVER_PORT $KUBELET_PORT $KUBELET_HEALTHZ_PORT $CONTROLLER_MANAGER_PORT $SCHEDULER_PORT)
# The most nodes start takes (each costs a containerd and a kubelet).
MAX_NODES=5
NODES=1
# The sysctls the kubelet sets (protectKernelDefaults: false), the one the
# bridge plugin sets for a gateway, and kube-proxy's (as measured with
# `sysctl -a` before and after e2e/adoption.ts): route_localnet for its
# localhost NodePorts (pkg/proxy/iptables), and conntrack's table size and
# TCP timeouts (pkg/proxy/conntrack SetMax, SetTCPEstablishedTimeout,
# SetTCPCloseWaitTimeout: 131072 for 2 cores, 86400 s, 3600 s). Saved at
# start, restored at stop; a sysctl this kernel lacks is skipped.
SYSCTLS=(vm.overcommit_memory vm.panic_on_oom kernel.panic kernel.panic_on_oops kernel.keys.root_maxkeys kernel.keys.root_maxbytes net.ipv4.ip_forward
  net.ipv4.conf.all.route_localnet net.netfilter.nf_conntrack_max net.netfilter.nf_conntrack_tcp_timeout_established net.netfilter.nf_conntrack_tcp_timeout_close_wait)
# kube-proxy also grows conntrack's hash table to a quarter of its size when
# it is smaller (SetMax): saved at start, restored at stop.
MODULE_PARAMETERS=(/sys/module/nf_conntrack/parameters/hashsize)
# Host paths containerd 1.6 and the kubelet use outside the run directory;
# removed at stop when this run created them.
# kube-proxy's (e2e/adoption.ts): its xtables lock (FileOrCreate) and the
# /lib/modules containerd makes for a hostPath volume of no type.
HOST_PATHS=(/run/containerd /var/lib/cni /var/log/containers /var/lib/kubelet /run/xtables.lock /lib/modules)

# The parts, each a file of functions (and the variables only they use).
# shellcheck source=cluster/images.sh
source "$HERE/cluster/images.sh"
# shellcheck source=cluster/host.sh
source "$HERE/cluster/host.sh"
# shellcheck source=cluster/nodes.sh
source "$HERE/cluster/nodes.sh"

log() { echo "[cluster] $*" >&2; }
die() { log "$*"; exit 1; }

require_root() {
  [[ $(id -u) -eq 0 ]] || die "needs root (mounts, cgroups, a bridge, containerd); run it as root"
}

install_packages() {
  local missing=() pkg
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
  done
  if ((${#missing[@]})); then
    log "apt-get install ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
}

# Which Kubernetes: the version asked for (1.35 or 1.32, or a full 1.35.6),
# or the one NODE_REPORTER_K8S_BUNDLE's folder name says. Sets K8S_VERSION,
# K8S_MINOR, BUNDLE and BIN.
choose_version() {
  local asked=${1:-${NODE_REPORTER_K8S_VERSION:-}} minor
  if [[ -n ${NODE_REPORTER_K8S_BUNDLE:-} ]]; then
    BUNDLE=$NODE_REPORTER_K8S_BUNDLE
    [[ $(basename "$BUNDLE") =~ ^v([0-9]+\.[0-9]+)\.[0-9]+$ ]] ||
      die "NODE_REPORTER_K8S_BUNDLE must be a bundle folder named vX.Y.Z (as ../shared/k8s/v1.35.6), but got \"$BUNDLE\""
    K8S_VERSION=$(basename "$BUNDLE" | cut -c2-)
    K8S_MINOR=${BASH_REMATCH[1]}
    [[ -z $asked || $asked == "$K8S_MINOR" || $asked == "$K8S_VERSION" ]] ||
      die "version $asked was asked for, but NODE_REPORTER_K8S_BUNDLE holds $K8S_VERSION"
  else
    minor=${asked:-$DEFAULT_MINOR}
    [[ $minor =~ ^v?([0-9]+\.[0-9]+)(\.[0-9]+)?$ ]] && minor=${BASH_REMATCH[1]}
    [[ -n ${RELEASES[$minor]:-} && ( -z ${BASH_REMATCH[2]:-} || v${asked#v} == "v${RELEASES[$minor]}" ) ]] ||
      die "the Kubernetes version must be 1.35 (bundle v${RELEASES[1.35]}) or 1.32 (bundle v${RELEASES[1.32]}), but got \"$asked\""
    K8S_MINOR=$minor
    K8S_VERSION=${RELEASES[$minor]}
    BUNDLE=${NODE_REPORTER_K8S_BUNDLES:-$HERE/../../shared/k8s}/v$K8S_VERSION
  fi
  BIN=$CACHE/bin-$K8S_VERSION
}

kubectl_minor() {
  "$1" version --client -o json 2>/dev/null | sed -n 's/.*"minor": *"\([0-9]*\).*/\1/p' | head -n 1
}

prerequisites() {
  install_packages containerd runc containernetworking-plugins busybox-static xz-utils openssl iproute2 curl gcc libc6-dev
}

# The kubectl for this server, linked alone into $BIN/client (the folder start
# puts first on PATH): the bundle's, or the system's when it is within one
# minor of the server (kubectl's supported skew). Debian 13's apt has kubectl
# 1.32 (Debian 12's own kubernetes-client is 1.20, too old). Sets KUBECTL.
client() {
  local server=${K8S_MINOR#1.} minor
  if [[ -x $BIN/kubectl ]]; then
    KUBECTL=$BIN/kubectl
  else
    # The system's: PATH without the client folders an earlier start printed.
    local system_path
    system_path=$(tr ':' '\n' <<<"$PATH" | grep -vx "$CACHE/bin-[^/]*/client" | paste -sd:)
    KUBECTL=$(PATH=$system_path command -v kubectl || true)
    minor=$([[ -n $KUBECTL ]] && kubectl_minor "$KUBECTL" || true)
    if [[ -z $minor || $minor -lt $((server - 1)) || $minor -gt $((server + 1)) ]]; then
      install_packages kubectl
      KUBECTL=$(PATH=$system_path command -v kubectl || true)
      minor=$([[ -n $KUBECTL ]] && kubectl_minor "$KUBECTL" || true)
    fi
    [[ -n $minor && $minor -ge $((server - 1)) && $minor -le $((server + 1)) ]] ||
      die "kubectl 1.$((server - 1))-1.$((server + 1)) is needed for a $K8S_MINOR server (its bundle has none); found 1.${minor:-?}"
  fi
  mkdir -p "$BIN/client"
  ln -sfn "$KUBECTL" "$BIN/client/kubectl"
}

# Unpacks the bundle into the cache and checks every binary against SHA256SUMS.
binaries() {
  [[ -f $BUNDLE/SHA256SUMS ]] || die "no Kubernetes bundle at $BUNDLE (set NODE_REPORTER_K8S_BUNDLES to the folder of bundles, or NODE_REPORTER_K8S_BUNDLE to one)"
  mkdir -p "$BIN"
  local name
  for name in $(awk '{print $2}' "$BUNDLE/SHA256SUMS"); do
    if [[ ! -x $BIN/$name ]]; then
      log "unpacking $name"
      xz -dc "$BUNDLE/$name.xz" >"$BIN/$name.partial"
      chmod 0755 "$BIN/$name.partial"
      mv "$BIN/$name.partial" "$BIN/$name"
    fi
  done
  (cd "$BIN" && sha256sum --quiet -c "$BUNDLE/SHA256SUMS") || {
    rm -rf "$BIN"
    die "a binary does not match $BUNDLE/SHA256SUMS; removed the cache, run again to unpack afresh"
  }
}

start_process() {
  local name=$1
  shift
  "$@" >>"$RUN/$name.log" 2>&1 &
  echo $! >"$RUN/$name.pid"
  log "started $name (pid $!)"
}

wait_for() {
  local what=$1 tries=$2 i
  shift 2
  for ((i = 0; i < tries; i++)); do
    if "$@" >/dev/null 2>&1; then
      return 0
    fi
    sleep 0.5
  done
  log "$what did not come up; the last lines of its log:"
  tail -n 20 "$RUN/$what.log" >&2 2>/dev/null || true
  return 1
}

# Parses start's arguments: [VERSION] [--nodes N]. Sets NODES and VERSION_ASKED.
start_arguments() {
  local version=
  while (($#)); do
    case $1 in
      --nodes) (($# >= 2)) || die "--nodes needs a number of nodes, 1 to $MAX_NODES"; NODES=$2; shift 2 ;;
      --nodes=*) NODES=${1#--nodes=}; shift ;;
      -*) die "start takes [1.35|1.32] [--nodes N], but got \"$1\"" ;;
      *) [[ -z $version ]] || die "start takes one version, but got \"$version\" and \"$1\""; version=$1; shift ;;
    esac
  done
  [[ $NODES =~ ^[1-9][0-9]*$ ]] && ((NODES <= MAX_NODES)) ||
    die "--nodes must be a whole number from 1 to $MAX_NODES, but got \"$NODES\""
  VERSION_ASKED=$version
}

# Fails, naming the port and what holds it, when a port start needs is taken.
ports_free() {
  local port holder
  for port in "${HOST_PORTS[@]}"; do
    holder=$(ss -Hltnp "sport = :$port" 2>/dev/null | head -n 1)
    [[ -z $holder ]] || die "port $port, which the cluster needs, is taken: $holder"
  done
}

start() {
  start_arguments "$@"
  choose_version "$VERSION_ASKED"
  require_root
  [[ -d $RUN ]] && stop
  ports_free
  prerequisites
  binaries
  client
  images
  kube_proxy_image
  mkdir -p "$RUN"
  echo "$NODES" >"$RUN/nodes"
  # What stop must restore: the sysctls and which host paths already existed.
  local s
  local value
  for s in "${SYSCTLS[@]}"; do value=$(sysctl -n "$s" 2>/dev/null) && echo "$s=$value"; done >"$RUN/sysctls.saved"
  for s in "${MODULE_PARAMETERS[@]}"; do [[ -f $s ]] && echo "$s $(cat "$s")"; done >"$RUN/parameters.saved"
  for s in "${HOST_PATHS[@]}"; do [[ -e $s ]] || echo "$s"; done >"$RUN/paths.created"
  # And the legacy packet filter rules (kube-proxy's backend).
  xtables_root
  xtables_save
  # HostToContainer propagation (node-exporter's hostPath / at /host/root)
  # needs the host path's mount to be shared or a slave, or containerd refuses
  # the container: 'path "/" is mounted on "/" but it is not a shared or slave
  # mount'. systemd makes / shared on every real node; a machine booted
  # without it may have / private: shared until stop, which makes it private again.
  findmnt -no PROPAGATION / >"$RUN/root-propagation.saved"
  if [[ $(cat "$RUN/root-propagation.saved") == private ]]; then
    mount --make-shared /
    log "made / a shared mount, as systemd does on a real node (HostToContainer needs it); private again at stop"
  fi

  # The node's address: the kubelet refuses a loopback --node-ip.
  ip link show "$BRIDGE" >/dev/null 2>&1 || ip link add "$BRIDGE" type bridge
  ip addr replace "$NODE_IP/24" dev "$BRIDGE"
  ip link set "$BRIDGE" up
  # The host routes between node 1's pods and the other nodes (restored at stop).
  ((NODES == 1)) || sysctl -qw net.ipv4.ip_forward=1
  # The kubelet requires its cgroup root in every v1 hierarchy.
  local h i root
  for h in /sys/fs/cgroup/*/; do
    [[ $(stat -f -c %T "$h") == cgroupfs ]] || continue
    for ((i = 1; i <= NODES; i++)); do
      node_vars "$i"
      root=$h$N_CGROUP
      mkdir -p "$root"
      if [[ -f ${h}cpuset.cpus ]]; then
        cat "${h}cpuset.cpus" >"$root/cpuset.cpus"
        cat "${h}cpuset.mems" >"$root/cpuset.mems"
      fi
    done
  done

  pki
  for ((i = 1; i <= NODES; i++)); do
    node_vars "$i"
    kubelet_config
    ((i == 1)) || node_namespaces "$i"
    # The node's hostname is its name, as on a real node, while the machine's
    # stays as it is: containerd (so every shim, runc and host-network pod, e.g.
    # node-exporter's node_uname_info) and the kubelet run in a UTS namespace
    # named after the node. `exec` keeps the PID start_process records.
    node_containerd "$i"
  done
  log "imported into each node's containerd, built here (nothing pulled): $(cat "$IMAGES/tags" ${KUBE_PROXY_IMAGE:+"${KUBE_PROXY_IMAGE%/*}/tags"} | paste -sd ';' | sed 's/;/; /g')"

  start_process etcd "$BIN/etcd" --name "$NODE" --data-dir "$RUN/etcd" \
    --listen-client-urls "http://127.0.0.1:$ETCD_PORT" --advertise-client-urls "http://127.0.0.1:$ETCD_PORT" \
    --listen-peer-urls "http://127.0.0.1:$ETCD_PEER_PORT" --initial-advertise-peer-urls "http://127.0.0.1:$ETCD_PEER_PORT" \
    --initial-cluster "$NODE=http://127.0.0.1:$ETCD_PEER_PORT" --listen-metrics-urls ''
  wait_for etcd 60 curl -fsS "http://127.0.0.1:$ETCD_PORT/health"

  # With several nodes, the kubelets of nodes 2..N reach the API server at 10.245.0.1.
  local bind=127.0.0.1
  ((NODES == 1)) || bind=0.0.0.0
  start_process kube-apiserver "$BIN/kube-apiserver" \
    --etcd-servers "http://127.0.0.1:$ETCD_PORT" \
    --bind-address "$bind" --advertise-address 127.0.0.1 --secure-port "$APISERVER_PORT" --cert-dir "$RUN/pki/apiserver" \
    --tls-cert-file "$RUN/pki/apiserver.crt" --tls-private-key-file "$RUN/pki/apiserver.key" \
    --token-auth-file "$RUN/pki/tokens.csv" --authorization-mode Node,RBAC --enable-admission-plugins NodeRestriction \
    --service-account-issuer https://kubernetes.default.svc.cluster.local \
    --service-account-key-file "$RUN/pki/sa.pub" --service-account-signing-key-file "$RUN/pki/sa.key" \
    --service-cluster-ip-range 10.96.0.0/16 --endpoint-reconciler-type none --allow-privileged=true \
    --kubelet-preferred-address-types InternalIP \
    --kubelet-client-certificate "$RUN/pki/kubelet-client.crt" --kubelet-client-key "$RUN/pki/kubelet-client.key"
  wait_for kube-apiserver 120 "$KUBECTL" --kubeconfig "$RUN/kubeconfig" get --raw /readyz

  local kube=(--kubeconfig "$RUN/kubeconfig" --authentication-kubeconfig "$RUN/kubeconfig" --authorization-kubeconfig "$RUN/kubeconfig" --bind-address 127.0.0.1 --leader-elect=false)
  # With several nodes, a lost node is marked in 20 s instead of 40-50 s, so that the e2e sees it soon.
  local lifecycle=()
  ((NODES == 1)) || lifecycle=(--node-monitor-grace-period 20s --node-monitor-period 2s)
  start_process kube-controller-manager "$BIN/kube-controller-manager" "${kube[@]}" --secure-port "$CONTROLLER_MANAGER_PORT" \
    --controllers '*' --service-account-private-key-file "$RUN/pki/sa.key" --use-service-account-credentials=false \
    --root-ca-file "$RUN/pki/ca.crt" "${lifecycle[@]}"
  start_process kube-scheduler "$BIN/kube-scheduler" "${kube[@]}" --secure-port "$SCHEDULER_PORT"

  for ((i = 1; i <= NODES; i++)); do node_kubelet "$i"; done
  for ((i = 1; i <= NODES; i++)); do node_ready "$i"; done
  wait_for kube-controller-manager 60 "$KUBECTL" --kubeconfig "$RUN/kubeconfig" get serviceaccount default -n default
  echo "$K8S_VERSION" >"$RUN/version"
  local names=$NODE
  ((NODES == 1)) || names="$NODES nodes ($("$KUBECTL" --kubeconfig "$RUN/kubeconfig" get nodes -o jsonpath='{.items[*].metadata.name}' | sed 's/ /, /g'))"
  log "node $names Ready (Kubernetes v$K8S_VERSION, containerd $(containerd --version | awk '{print $3}'), kubectl $("$KUBECTL" version --client -o json | sed -n 's/.*"gitVersion": *"\([^"]*\)".*/\1/p' | head -n 1))"
  # \$PATH stays for the eval: the caller's PATH, with this server's kubectl first.
  echo "export KUBECONFIG=$RUN/kubeconfig PATH=$BIN/client:\$PATH"
}

stop_pid() {
  local name=$1 pidfile=$RUN/$1.pid pid
  [[ -f $pidfile ]] || return 0
  pid=$(cat "$pidfile")
  if kill "$pid" 2>/dev/null; then
    for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null && sleep 0.2 || true
    log "stopped $name (pid $pid)"
  fi
  rm -f "$pidfile"
}

# The nodes a run started, or was starting (an interrupted start too).
run_nodes() {
  local n=1 dir
  [[ -f $RUN/nodes ]] && n=$(cat "$RUN/nodes")
  for dir in "$RUN"/node[0-9]*; do
    [[ -d $dir && ${dir##*/node} =~ ^[0-9]+$ ]] && ((${dir##*/node} > n)) && n=${dir##*/node}
  done
  echo "$n"
}

# Kills every pod task of a containerd while it runs: pod processes and their shims go with their tasks.
kill_tasks() {
  local sock=$1 task
  if [[ -S $sock ]] && ctr --address "$sock" version >/dev/null 2>&1; then
    for task in $(ctr --address "$sock" -n k8s.io tasks ls -q 2>/dev/null); do
      ctr --address "$sock" -n k8s.io tasks kill -s SIGKILL "$task" >/dev/null 2>&1 || true
    done
    sleep 0.5
    for task in $(ctr --address "$sock" -n k8s.io tasks ls -q 2>/dev/null); do
      ctr --address "$sock" -n k8s.io tasks delete -f "$task" >/dev/null 2>&1 || true
    done
  fi
}

stop() {
  require_root
  [[ -d $RUN ]] || { log "nothing to stop ($RUN does not exist)"; return 0; }
  NODES=$(run_nodes)
  local i
  for ((i = NODES; i >= 1; i--)); do stop_pid "$(node_process kubelet "$i")"; done
  for ((i = NODES; i >= 1; i--)); do
    node_vars "$i"
    kill_tasks "$N_DIR/containerd/containerd.sock"
    stop_pid "$(node_process containerd "$i")"
    # Shims left behind (containerd was killed before their tasks were deleted).
    pkill -9 -f "containerd-shim-runc-v2 .*-address $N_DIR/containerd/containerd.sock" 2>/dev/null || true
    # Nodes 2..N: their namespaces go with the last process in them (their mounts with them).
    if ((i > 1)); then
      stop_pid "node-$i"
      ip link del "k132v$i" 2>/dev/null || true
    fi
  done
  local name
  for name in kube-scheduler kube-controller-manager kube-apiserver etcd; do stop_pid "$name"; done
  local mnt
  for mnt in $(awk -v run="$RUN" 'index($2, run) == 1 {print $2}' /proc/mounts | awk '{print length, $0}' | sort -rn | cut -d' ' -f2-); do
    umount -l "$mnt" 2>/dev/null || true
  done
  ip link del "$BRIDGE" 2>/dev/null || true
  if [[ -f $RUN/root-propagation.saved && $(cat "$RUN/root-propagation.saved") == private ]]; then
    mount --make-private / || log "could not make / a private mount again"
  fi
  local dir
  for dir in /sys/fs/cgroup/*/$CGROUP_ROOT /sys/fs/cgroup/*/${CGROUP_ROOT}n*; do
    [[ -d $dir ]] && find "$dir" -depth -type d -exec rmdir {} + 2>/dev/null || true
  done
  # This run's files in the host paths containerd 1.6 and the kubelet hard-code.
  rm -f /var/lib/cni/results/"$CNI_NETWORK"-* 2>/dev/null || true
  find /var/log/containers -maxdepth 1 -lname "$RUN/*" -delete 2>/dev/null || true
  rm -f /var/lib/kubelet/device-plugins/kubelet.sock 2>/dev/null || true
  if [[ -f $RUN/paths.created ]]; then
    while read -r path; do
      [[ -n $path ]] && rm -rf "$path"
    done <"$RUN/paths.created"
  fi
  xtables_restore
  if [[ -f $RUN/sysctls.saved ]]; then
    local line
    while read -r line; do sysctl -q -w "$line" >/dev/null || log "could not restore $line"; done <"$RUN/sysctls.saved"
  fi
  if [[ -f $RUN/parameters.saved ]]; then
    local file value
    while read -r file value; do
      [[ $(cat "$file") == "$value" ]] || echo "$value" >"$file" || log "could not restore $file to $value"
    done <"$RUN/parameters.saved"
  fi
  local left
  left=$(ls -d /sys/fs/cgroup/*/$CGROUP_ROOT /sys/fs/cgroup/*/${CGROUP_ROOT}n* 2>/dev/null || true)
  [[ -z $left ]] || log "cgroups still in use, not removed: $left"
  rm -rf "$RUN"
  log "stopped; host restored"
}

# kubelet-stop I / kubelet-start I: node I's kubelet alone, on a running cluster.
node_index() {
  require_root
  [[ -f $RUN/version ]] || die "no cluster is running ($RUN/version does not exist)"
  NODES=$(run_nodes)
  [[ ${1:-} =~ ^[1-9][0-9]*$ ]] && (($1 <= NODES)) || die "the node must be a number from 1 to $NODES, but got \"${1:-}\""
  choose_version "$(cat "$RUN/version")"
}

case "${1:-}" in
  start) shift; start "$@" ;;
  stop) stop ;;
  host-state) host_state ;;
  kubelet-stop) node_index "${2:-}"; stop_pid "$(node_process kubelet "$2")" ;;
  kubelet-start) node_index "${2:-}"; node_kubelet "$2" ;;
  images)
    shift; choose_version "$@"; require_root; binaries; images; kube_proxy_image
    cat "$IMAGES/tags" ${KUBE_PROXY_IMAGE:+"${KUBE_PROXY_IMAGE%/*}/tags"}; ls "$IMAGES"/*.tar $KUBE_PROXY_IMAGE ;;
  *) echo "usage: $0 start [1.35|1.32] [--nodes N]|stop|kubelet-stop I|kubelet-start I|host-state|images" >&2; exit 2 ;;
esac
