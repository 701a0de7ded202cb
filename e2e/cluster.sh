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

# Writes a `docker save` tarball: manifest.json, the config and one layer.
image_tar() {
  local out=$1 tag=$2 rootfs=$3 config_body=$4
  local work
  work=$(mktemp -d)
  mkdir -p "$work/layer"
  tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -cf "$work/layer/layer.tar" -C "$rootfs" .
  local diff_id config_sha
  diff_id=$(sha256sum "$work/layer/layer.tar" | cut -d' ' -f1)
  printf '{"architecture":"amd64","os":"linux","config":%s,"rootfs":{"type":"layers","diff_ids":["sha256:%s"]}}' \
    "$config_body" "$diff_id" >"$work/config.json"
  config_sha=$(sha256sum "$work/config.json" | cut -d' ' -f1)
  mv "$work/config.json" "$work/$config_sha.json"
  printf '[{"Config":"%s.json","RepoTags":["%s"],"Layers":["layer/layer.tar"]}]' "$config_sha" "$tag" >"$work/manifest.json"
  tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -cf "$out" -C "$work" manifest.json "$config_sha.json" layer
  rm -rf "$work"
}

# The busybox userland of the images: Debian's busybox-static (the 1.35
# binary), its applets, nobody (65534) in /etc/passwd, a /tmp.
busybox_rootfs() {
  local rootfs=$1 applet
  mkdir -p "$rootfs/bin" "$rootfs/etc" "$rootfs/tmp"
  cp /bin/busybox "$rootfs/bin/busybox"
  for applet in $(/bin/busybox --list); do
    [[ $applet == busybox ]] || ln -s busybox "$rootfs/bin/$applet"
  done
  printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/bin/false\n' >"$rootfs/etc/passwd"
  printf 'root:x:0:\nnogroup:x:65534:\n' >"$rootfs/etc/group"
  chmod 1777 "$rootfs/tmp"
}

# One Debian package, downloaded once into the cache (apt verifies it against
# the signed index). Never installed: prometheus-node-exporter's postinst
# would add a user and start a service on this machine, and iptables on the
# host would let the kubelet program the host's packet filter.
debian_deb() {
  local pkg=$1 dir=$CACHE/debs deb
  mkdir -p "$dir"
  deb=$(ls "$dir/${pkg}"_*.deb 2>/dev/null | tail -n 1)
  if [[ -z $deb ]]; then
    deb=$(ls /var/cache/apt/archives/"${pkg}"_*.deb 2>/dev/null | tail -n 1)
    if [[ -n $deb ]]; then
      cp "$deb" "$dir/"
    else
      log "apt-get download $pkg"
      # A machine whose apt lists are missing or stale needs an update first.
      (cd "$dir" && apt-get -qq -o APT::Sandbox::User=root download "$pkg" >/dev/null 2>&1) ||
        { apt-get update -qq && (cd "$dir" && apt-get -qq -o APT::Sandbox::User=root download "$pkg" >/dev/null); } ||
        die "could not download Debian's $pkg package (apt-get download $pkg)"
    fi
    deb=$(ls "$dir/${pkg}"_*.deb | tail -n 1)
  fi
  echo "$deb"
}

node_exporter_deb() {
  debian_deb prometheus-node-exporter
}

# The node-exporter example's image: from its synthesized manifest when there
# is one, else from its source. A tag is needed (a digest cannot be rebuilt).
node_exporter_tag() {
  local repo=$HERE/.. tag=
  if [[ -f $repo/examples/dist/node-exporter.k8s.yaml ]]; then
    tag=$(sed -n 's/^[ -]*image: *["'"'"']\{0,1\}\([^"'"'"' ]*node-exporter[^"'"'"' ]*\).*/\1/p' "$repo/examples/dist/node-exporter.k8s.yaml" | head -n 1)
  elif [[ -f $repo/examples/node-exporter.ts ]]; then
    tag=$(sed -n "s/.*image: *'\([^']*node-exporter[^']*\)'.*/\1/p" "$repo/examples/node-exporter.ts" | head -n 1)
  fi
  [[ $tag =~ ^[a-z0-9./_-]+(:[A-Za-z0-9._-]+)$ ]] ||
    die "the node-exporter example's image must be NAME:TAG (no digest) to be built here, but got \"$tag\" (examples/dist/node-exporter.k8s.yaml or examples/node-exporter.ts)"
  echo "$tag"
}

# The node-exporter image, laid out as upstream's (busybox, /bin/node_exporter,
# user nobody, entrypoint the binary) with Debian's binary and the glibc files
# ldd names.
node_exporter_rootfs() {
  local rootfs=$1 deb=$2 lib
  busybox_rootfs "$rootfs"
  dpkg-deb -x "$deb" "$rootfs.deb"
  cp "$rootfs.deb/usr/bin/prometheus-node-exporter" "$rootfs/bin/node_exporter"
  rm -rf "$rootfs.deb"
  for lib in $(ldd "$rootfs/bin/node_exporter" | awk '$2 == "=>" && $3 ~ /^\// {print $3} $1 ~ /^\// {print $1}'); do
    install -D -m 0755 "$lib" "$rootfs$lib"
  done
  # The libraries are complete when the binary runs in the image's root alone.
  chroot "$rootfs" /bin/node_exporter --version >/dev/null 2>&1 ||
    die "node_exporter does not run in its image root: $(chroot "$rootfs" /bin/node_exporter --version 2>&1 | head -n 1)"
}

# The iptables userland kube-proxy execs (iptables, iptables-save,
# iptables-restore and their ip6tables twins, checked by `iptables --version`
# and used by its iptables mode), from Debian's packages, in a root of its own
# with the libraries the binary and its extensions link (ldd) and glibc. The
# legacy backend (x_tables; the kernel has CONFIG_IP_NF_IPTABLES_LEGACY=y):
# the kernel lists its tables in /proc/net/ip_tables_names, and this
# machine's state needs no nft binary to read. The root is both the kube-proxy
# image's and what start, stop and host-state run (chroot) to save, restore
# and print the host's rules, so that both use one backend. The host itself
# gets no iptables: the kubelet would program the host's rules with it.
XTABLES_DEBS=(iptables libip4tc2 libip6tc2 libxtables12 libnetfilter-conntrack3 libnfnetlink0 libmnl0 libnftnl11)
XTABLES_COMMANDS=(iptables iptables-save iptables-restore ip6tables ip6tables-save ip6tables-restore)
XTABLES=$CACHE/xtables-legacy
xtables_root() {
  local debs=() pkg deb stamp work=$XTABLES.partial file lib name
  for pkg in "${XTABLES_DEBS[@]}"; do debs+=("$(debian_deb "$pkg")"); done
  stamp=$({ cat "${debs[@]}"; declare -f xtables_root; } | sha256sum | cut -c1-16)
  [[ -f $XTABLES/.stamp && $(cat "$XTABLES/.stamp") == "$stamp" ]] && return 0
  rm -rf "$XTABLES" "$work"
  mkdir -p "$work"
  for deb in "${debs[@]}"; do dpkg-deb -x "$deb" "$work"; done
  rm -rf "$work/usr/share" "$work/etc"
  for name in "${XTABLES_COMMANDS[@]}"; do ln -sfn xtables-legacy-multi "$work/usr/sbin/$name"; done
  for file in "$work"/usr/sbin/xtables-*-multi "$work"/usr/lib/x86_64-linux-gnu/xtables/*.so; do
    for lib in $(LD_LIBRARY_PATH=$work/usr/lib/x86_64-linux-gnu ldd "$file" | awk '$2 == "=>" && $3 ~ /^\// {print $3} $1 ~ /^\// {print $1}'); do
      [[ $lib == "$work"/* || -e $work$lib ]] || install -D -m 0755 "$lib" "$work$lib"
    done
  done
  # iptables-restore -w takes the lock /run/xtables.lock (in a pod: the host's, mounted).
  mkdir -p "$work/run"
  # The libraries are complete when each command runs in this root alone.
  for name in "${XTABLES_COMMANDS[@]}"; do
    [[ $(chroot "$work" "/usr/sbin/$name" --version 2>&1) == *"v1.8"*"(legacy)"* ]] ||
      die "$name does not run in its root $work: $(chroot "$work" "/usr/sbin/$name" --version 2>&1 | head -n 1)"
  done
  echo "$stamp" >"$work/.stamp"
  mv "$work" "$XTABLES"
}

# The legacy tables the kernel holds for a family (iptables or ip6tables).
# Only these are read: reading a table instantiates it.
xtables_tables() {
  local names=/proc/net/ip_tables_names
  [[ $1 == ip6tables ]] && names=/proc/net/ip6_tables_names
  sort "$names" 2>/dev/null || true
}

# The host's rules of one backend (legacy or nft) and family, each line
# `TABLE LINE`, without counters or comments. A table that holds nothing
# (built-in chains ACCEPT, no chains of its own, no rules) is as absent: the
# kernel cannot unregister a legacy table once it is used.
xtables_rules() {
  local backend=$1 family=$2 t
  if [[ $backend == legacy ]]; then
    for t in $(xtables_tables "$family"); do chroot "$XTABLES" /usr/sbin/xtables-legacy-multi "$family-save" -t "$t"; done
  else
    chroot "$XTABLES" /usr/sbin/xtables-nft-multi "$family-nft-save"
  fi | awk '/^\*/ {t = substr($0, 2)} /^:/ {sub(/ \[[0-9]+:[0-9]+\]$/, ""); if ($2 != "ACCEPT") print t, $0} /^-/ {print t, $0}'
}

# Saves the host's legacy rules of both families into the run directory (start).
xtables_save() {
  local family t
  for family in iptables ip6tables; do
    for t in $(xtables_tables "$family"); do chroot "$XTABLES" /usr/sbin/xtables-legacy-multi "$family-save" -t "$t"; done >"$RUN/$family.saved"
  done
}

# Restores the rules start saved (stop): every table saved as it was, every
# table instantiated since (kube-proxy's nat, say) empty with its built-in
# chains ACCEPT. iptables-restore flushes each table it is given and deletes
# its chains, KUBE-* included.
xtables_restore() {
  local family t
  for family in iptables ip6tables; do
    [[ -f $RUN/$family.saved && -d $XTABLES ]] || continue
    {
      cat "$RUN/$family.saved"
      for t in $(xtables_tables "$family"); do
        grep -qx "\*$t" "$RUN/$family.saved" && continue
        chroot "$XTABLES" /usr/sbin/xtables-legacy-multi "$family-save" -t "$t" |
          awk '/^\*/ {print} /^:/ && $2 != "-" {print $1, "ACCEPT"} END {print "COMMIT"}'
      done
    } | chroot "$XTABLES" /usr/sbin/xtables-legacy-multi "$family-restore" -w 5 ||
      log "could not restore the $family rules saved at start ($RUN/$family.saved)"
  done
}

# The kube-proxy example's image (registry.k8s.io/kube-proxy:vX.Y.Z), from its
# synthesized manifest.
kube_proxy_tag() {
  local tag
  tag=$(sed -n 's/^[ -]*image: *["'"'"']\{0,1\}\([^"'"'"' ]*\/kube-proxy:[^"'"'"' ]*\).*/\1/p' "$HERE/../examples/dist/kube-proxy.k8s.yaml" 2>/dev/null | head -n 1)
  [[ $tag =~ ^[a-z0-9./_-]+:v[0-9]+\.[0-9]+\.[0-9]+$ ]] ||
    die "the kube-proxy example's image must be NAME:vX.Y.Z (examples/dist/kube-proxy.k8s.yaml), but got \"$tag\""
  echo "$tag"
}

# kube-proxy's image, only for a bundle that has a kube-proxy of the
# example's version (v1.35.6): the bundle's static binary at
# /usr/local/bin/kube-proxy (as upstream's image has it), the legacy iptables
# userland on PATH, busybox for a shell. In its own folder of the cache, with
# its own stamp, so that switching bundles rebuilds nothing else. Sets
# KUBE_PROXY_IMAGE (the tarball) or leaves it empty.
kube_proxy_image() {
  KUBE_PROXY_IMAGE=
  [[ -x $BIN/kube-proxy ]] || return 0
  local tag dir=$CACHE/images-kube-proxy stamp root
  tag=$(kube_proxy_tag)
  if [[ ${tag##*:} != "v$K8S_VERSION" ]]; then
    log "no kube-proxy image: the example's is $tag, the bundle's kube-proxy is v$K8S_VERSION"
    return 0
  fi
  xtables_root
  stamp=$({ cat "$BIN/kube-proxy" /bin/busybox "$XTABLES/.stamp"; declare -f kube_proxy_image busybox_rootfs image_tar; echo "$tag"; } | sha256sum | cut -c1-16)
  KUBE_PROXY_IMAGE=$dir/kube-proxy.tar
  [[ -f $dir/$stamp ]] && return 0
  rm -rf "$dir"
  mkdir -p "$dir"
  root=$(mktemp -d)
  busybox_rootfs "$root/rootfs"
  cp -a "$XTABLES"/. "$root/rootfs/"
  rm -f "$root/rootfs/.stamp"
  install -D -m 0755 "$BIN/kube-proxy" "$root/rootfs/usr/local/bin/kube-proxy"
  chroot "$root/rootfs" /usr/local/bin/kube-proxy --version >/dev/null 2>&1 ||
    die "kube-proxy does not run in its image root: $(chroot "$root/rootfs" /usr/local/bin/kube-proxy --version 2>&1 | head -n 1)"
  image_tar "$KUBE_PROXY_IMAGE" "$tag" "$root/rootfs" \
    '{"Env":["PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"],"Entrypoint":["/usr/local/bin/kube-proxy"]}'
  rm -rf "$root"
  echo "$tag ($("$BIN/kube-proxy" --version | awk '{print $2}') from the bundle, iptables $(chroot "$XTABLES" /usr/sbin/iptables --version | awk '{print $2, $3}') from Debian $(basename "$(debian_deb iptables)" .deb))" >"$dir/tags"
  touch "$dir/$stamp"
}

# busybox:1.36 from Debian's busybox-static (the 1.35 binary, under the tag
# the manifests use: for this test only), node-exporter from Debian's package
# (1.5.0, under the example's tag: for this test only) and the pause image
# from e2e/pause.c.
images() {
  mkdir -p "$IMAGES"
  local deb tag stamp
  deb=$(node_exporter_deb)
  tag=$(node_exporter_tag)
  stamp=$({ cat /bin/busybox "$HERE/pause.c" "$0" "$deb"; echo "$tag"; } | sha256sum | cut -c1-16)
  if [[ -f $IMAGES/$stamp ]]; then
    return
  fi
  rm -rf "${IMAGES:?}"/*
  local root
  root=$(mktemp -d)
  busybox_rootfs "$root/busybox"
  image_tar "$IMAGES/busybox.tar" docker.io/library/busybox:1.36 "$root/busybox" \
    '{"Env":["PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"],"Cmd":["sh"]}'
  mkdir -p "$root/pause"
  gcc -static -Os -s -o "$root/pause/pause" "$HERE/pause.c"
  image_tar "$IMAGES/pause.tar" registry.k8s.io/pause:3.10 "$root/pause" '{"Entrypoint":["/pause"],"User":"65535:65535"}'
  node_exporter_rootfs "$root/node-exporter" "$deb"
  image_tar "$IMAGES/node-exporter.tar" "$(docker_reference "$tag")" "$root/node-exporter" \
    '{"Env":["PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"],"Entrypoint":["/bin/node_exporter"],"User":"nobody","ExposedPorts":{"9100/tcp":{}}}'
  rm -rf "$root"
  printf 'docker.io/library/busybox:1.36 (busybox %s)\nregistry.k8s.io/pause:3.10 (e2e/pause.c)\n%s (Debian %s)\n' \
    "$(/bin/busybox | head -n 1 | awk '{print $2}')" "$(docker_reference "$tag")" "$(basename "$deb" .deb)" >"$IMAGES/tags"
  touch "$IMAGES/$stamp"
}

# The full name containerd's CRI gives an image reference: docker.io/ (and
# library/) when the first part is not a registry host.
docker_reference() {
  local ref=$1
  if [[ $ref != */* ]]; then
    ref=docker.io/library/$ref
  elif [[ ${ref%%/*} != *.* && ${ref%%/*} != *:* && ${ref%%/*} != localhost ]]; then
    ref=docker.io/$ref
  fi
  echo "$ref"
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

pki() {
  local p=$RUN/pki
  mkdir -p "$p"
  openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=node-reporter-e2e-ca -keyout "$p/ca.key" -out "$p/ca.crt" 2>/dev/null
  # The apiserver's client certificate towards the kubelet (logs, exec).
  openssl req -newkey rsa:2048 -nodes -subj '/O=system:masters/CN=kube-apiserver-kubelet-client' \
    -keyout "$p/kubelet-client.key" -out "$p/kubelet-client.csr" 2>/dev/null
  printf 'extendedKeyUsage=clientAuth\n' >"$p/client.ext"
  openssl x509 -req -in "$p/kubelet-client.csr" -CA "$p/ca.crt" -CAkey "$p/ca.key" -CAcreateserial -days 2 \
    -extfile "$p/client.ext" -out "$p/kubelet-client.crt" 2>/dev/null
  # The apiserver's serving certificate, signed by the cluster CA, which is
  # also every ServiceAccount's ca.crt (the kcm's --root-ca-file): a pod that
  # verifies the server with it (kube-proxy's kubeconfig, kubeadm's) reaches
  # https://127.0.0.1:$APISERVER_PORT (host network) or the kubernetes Service.
  openssl req -newkey rsa:2048 -nodes -subj /CN=kube-apiserver \
    -keyout "$p/apiserver.key" -out "$p/apiserver.csr" 2>/dev/null
  printf 'extendedKeyUsage=serverAuth\nsubjectAltName=IP:127.0.0.1,IP:10.96.0.1,IP:%s,DNS:localhost,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc,DNS:kubernetes.default.svc.cluster.local\n' "$NODE_IP" >"$p/server.ext"
  openssl x509 -req -in "$p/apiserver.csr" -CA "$p/ca.crt" -CAkey "$p/ca.key" -CAcreateserial -days 2 \
    -extfile "$p/server.ext" -out "$p/apiserver.crt" 2>/dev/null
  openssl genrsa -out "$p/sa.key" 2048 2>/dev/null
  openssl rsa -in "$p/sa.key" -pubout -out "$p/sa.pub" 2>/dev/null
  local admin kubelet i
  admin=$(openssl rand -hex 16)
  printf '%s,admin,admin-uid,"system:masters"\n' "$admin" >"$p/tokens.csv"
  kubeconfig "$RUN/kubeconfig" admin "$admin"
  # A token of its own for each node's kubelet (system:node:NAME, as the Node authorizer and NodeRestriction want).
  for ((i = 1; i <= NODES; i++)); do
    node_vars "$i"
    kubelet=$(openssl rand -hex 16)
    printf '%s,system:node:%s,kubelet-uid-%s,"system:nodes"\n' "$kubelet" "$N_NAME" "$i" >>"$p/tokens.csv"
    mkdir -p "$N_DIR"
    kubeconfig "$N_DIR/kubelet.kubeconfig" "system:node:$N_NAME" "$kubelet" "$N_SERVER"
  done
}

# Writes a kubeconfig: FILE USER TOKEN [SERVER ADDRESS, default 127.0.0.1].
kubeconfig() {
  cat >"$1" <<EOF
apiVersion: v1
kind: Config
clusters:
- name: node-reporter-e2e
  cluster:
    server: https://${4:-127.0.0.1}:$APISERVER_PORT
    insecure-skip-tls-verify: true
users:
- name: $2
  user:
    token: $3
contexts:
- name: node-reporter-e2e
  context: {cluster: node-reporter-e2e, user: $2}
current-context: node-reporter-e2e
EOF
}

# Node I's values (node_vars I): N_NAME, N_IP, N_DIR (its folder: the run
# folder itself for node 1, as with one node), N_CGROUP, N_BRIDGE (its pods'
# bridge), N_SUBNET and N_RANGE (their addresses), N_SERVER (the API server's
# address as the node reaches it).
node_vars() {
  local i=$1
  if ((i == 1)); then
    N_NAME=$NODE N_IP=$NODE_IP N_DIR=$RUN N_CGROUP=$CGROUP_ROOT N_BRIDGE=$BRIDGE N_SUBNET=$POD_SUBNET N_SERVER=127.0.0.1 N_RANGE=
    # With more nodes on the bridge (10.245.0.2, ...), node 1's pods keep clear of their addresses.
    ((NODES == 1)) || N_RANGE='"rangeStart": "10.245.0.128", "rangeEnd": "10.245.0.254", '
  else
    N_NAME=$NODE-$i N_IP=10.245.0.$i N_DIR=$RUN/node$i N_CGROUP=${CGROUP_ROOT}n$i N_BRIDGE=k132pods N_SUBNET=10.245.$i.0/24 N_SERVER=$NODE_IP N_RANGE=
  fi
}

# Node I's process names: node 1's as with one node, node I's with -I.
node_process() {
  (($2 == 1)) && echo "$1" || echo "$1-$2"
}

containerd_config() {
  local c=$N_DIR/containerd
  mkdir -p "$c/root" "$c/state" "$c/opt" "$c/runc" "$c/cni/conf" "$c/cni/ipam"
  cat >"$c/config.toml" <<EOF
version = 2
root = "$c/root"
state = "$c/state"
disabled_plugins = ["io.containerd.snapshotter.v1.btrfs", "io.containerd.snapshotter.v1.zfs", "io.containerd.snapshotter.v1.aufs", "io.containerd.snapshotter.v1.devmapper", "io.containerd.tracing.processor.v1.otlp"]
[grpc]
  address = "$c/containerd.sock"
[ttrpc]
  address = "$c/containerd.sock.ttrpc"
[debug]
  address = "$c/debug.sock"
[metrics]
  address = ""
[plugins."io.containerd.internal.v1.opt"]
  path = "$c/opt"
[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = "registry.k8s.io/pause:3.10"
  restrict_oom_score_adj = true
  netns_mounts_under_state_dir = true
  stream_server_address = "127.0.0.1"
  stream_server_port = "0"
  [plugins."io.containerd.grpc.v1.cri".containerd]
    snapshotter = "overlayfs"
    default_runtime_name = "runc"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
        BinaryName = "/usr/sbin/runc"
        Root = "$c/runc"
        SystemdCgroup = false
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "/usr/lib/cni"
    conf_dir = "$c/cni/conf"
    max_conf_num = 1
EOF
  cat >"$c/cni/conf/10-$CNI_NETWORK.conflist" <<EOF
{
  "cniVersion": "0.4.0",
  "name": "$CNI_NETWORK",
  "plugins": [
    {
      "type": "bridge",
      "bridge": "$N_BRIDGE",
      "isGateway": true,
      "ipMasq": false,
      "hairpinMode": true,
      "ipam": {
        "type": "host-local",
        "ranges": [[{${N_RANGE}"subnet": "$N_SUBNET"}]],
        "routes": [{"dst": "0.0.0.0/0"}],
        "dataDir": "$c/cni/ipam"
      }
    }
  ]
}
EOF
}

kubelet_config() {
  local k=$N_DIR/kubelet
  mkdir -p "$k/root" "$k/pki" "$k/pod-logs"
  cat >"$k/config.yaml" <<EOF
apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
containerRuntimeEndpoint: unix://$N_DIR/containerd/containerd.sock
runtimeRequestTimeout: 5m
address: $N_IP
port: $KUBELET_PORT
readOnlyPort: 0
healthzBindAddress: 127.0.0.1
healthzPort: $KUBELET_HEALTHZ_PORT
authentication:
  anonymous: {enabled: false}
  webhook: {enabled: true}
  x509: {clientCAFile: $RUN/pki/ca.crt}
authorization: {mode: Webhook}
failCgroupV1: false
cgroupDriver: cgroupfs
cgroupRoot: /$N_CGROUP
makeIPTablesUtilChains: false
failSwapOn: false
podLogsDir: $k/pod-logs
imageGCHighThresholdPercent: 100
imageGCLowThresholdPercent: 99
evictionHard: {memory.available: 100Mi, nodefs.available: 1%, imagefs.available: 1%, nodefs.inodesFree: 1%}
clusterDomain: cluster.local
resolvConf: /etc/resolv.conf
syncFrequency: 10s
fileCheckFrequency: 10s
EOF
}

# What start changes on the host, one line each, for a before/after diff.
# The host paths the kubelet creates for the examples' agents when they are
# missing (hostPath type DirectoryOrCreate or FileOrCreate; path precedes type
# in the synthesized YAML): the agents e2e must remove those it made.
agent_host_paths() {
  awk '/^ +path: /{p=$2} /^ +type: (DirectoryOrCreate|FileOrCreate)$/ && p ~ /^\//{print p}' "$HERE"/../examples/dist/*.k8s.yaml 2>/dev/null | sort -u
}

host_state() {
  echo "hostname: $(hostname)"
  echo "links: $(ip -o link show | awk -F': ' '{print $2}' | sort | tr '\n' ' ')"
  echo "mounts under $RUN: $(grep -c " $RUN" /proc/mounts || true)"
  echo "propagation of /: $(findmnt -no PROPAGATION /)"
  local s
  # ip_forward also switches these (and every interface's forwarding).
  for s in "${SYSCTLS[@]}" net.ipv4.conf.all.forwarding net.ipv4.conf.all.accept_redirects; do echo "sysctl $s = $(sysctl -n "$s" 2>/dev/null)"; done
  for s in "${MODULE_PARAMETERS[@]}"; do echo "parameter $s = $(cat "$s" 2>/dev/null)"; done
  echo "cgroups: $(ls -d /sys/fs/cgroup/*/$CGROUP_ROOT /sys/fs/cgroup/*/${CGROUP_ROOT}n* 2>/dev/null | tr '\n' ' ')"
  for s in $({ printf '%s\n' "${HOST_PATHS[@]}"; agent_host_paths; } | awk '!seen[$0]++'); do echo "path $s: $([[ -e $s ]] && echo exists || echo absent)"; done
  echo "processes: $(ps -eo comm= | grep -cxE 'etcd|kube-apiserver|kube-controller|kube-scheduler|kubelet|containerd|containerd-shim|pause' || true)"
  # The packet filter rules (kube-proxy on the node programs them), of both
  # backends, read with the iptables userland of the kube-proxy image (not
  # the host's, which apt may install with start's packages): the rules
  # themselves, without comments and packet counters.
  local backend family rules
  if [[ $(id -u) -ne 0 ]]; then
    echo "packet filter rules: not read (needs root)"
  elif ! (xtables_root) >/dev/null; then
    echo "packet filter rules: not read (no iptables userland: see above)"
  else
    for backend in legacy nft; do
      for family in iptables ip6tables; do
        rules=$(xtables_rules "$backend" "$family")
        echo "$family ($backend): $(sha256sum <<<"$rules" | cut -c1-16) ($(grep -c ' -A ' <<<"$rules" || true) rules)"
      done
    done
  fi
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

# Sets NODE_EXEC, the command prefix that runs a program as node I: its
# hostname (a UTS namespace named after it, as on a real node), and for nodes
# 2..N its network and mount namespaces, held by its node-I process.
node_exec() {
  local i=$1
  node_vars "$i"
  if ((i == 1)); then
    NODE_EXEC=(unshare --uts sh -c 'hostname "$0" && exec "$@"' "$N_NAME")
  else
    NODE_EXEC=(nsenter -t "$(cat "$RUN/node-$i.pid")" --net --mount --uts)
  fi
}

# Starts node I's namespaces (nodes 2..N): a process that holds them, with the
# node's hostname, its own device-plugin folder bound over the kubelet's fixed
# path (a mount that stays inside: the namespace is a slave of the host's, so
# host mounts reach it but its own do not leave), and a veth to the bridge
# carrying the node's address; the host routes the node's pod range to it.
node_namespaces() {
  local i=$1 pid
  node_vars "$i"
  mkdir -p "$N_DIR/device-plugins" /var/lib/kubelet/device-plugins
  start_process "node-$i" unshare --net --mount --uts --propagation slave sh -c \
    'hostname "$0" && mount --bind "$1" /var/lib/kubelet/device-plugins && ip link set lo up && touch "$1/.ready" && exec sleep infinity' \
    "$N_NAME" "$N_DIR/device-plugins"
  wait_for "node-$i" 20 test -f "$N_DIR/device-plugins/.ready"
  pid=$(cat "$RUN/node-$i.pid")
  ip link add "k132v$i" type veth peer name "k132e$i"
  ip link set "k132e$i" netns "$pid"
  ip link set "k132v$i" master "$BRIDGE" up
  nsenter -t "$pid" --net sh -c "ip link set k132e$i name eth0 && ip addr add $N_IP/24 dev eth0 && ip link set eth0 up &&
    ip route add default via $NODE_IP && sysctl -qw net.ipv4.ip_forward=1"
  ip route replace "$N_SUBNET" via "$N_IP" dev "$BRIDGE"
}

# Starts node I's containerd (its own config, sockets, root and CNI range)
# and imports the images into it.
node_containerd() {
  local i=$1 name sock tar
  node_vars "$i"
  containerd_config
  name=$(node_process containerd "$i")
  sock=$N_DIR/containerd/containerd.sock
  node_exec "$i"
  start_process "$name" "${NODE_EXEC[@]}" containerd --config "$N_DIR/containerd/config.toml"
  wait_for "$name" 40 ctr --address "$sock" version
  for tar in "$IMAGES"/*.tar $KUBE_PROXY_IMAGE; do
    ctr --address "$sock" -n k8s.io images import --snapshotter overlayfs "$tar" >/dev/null
  done
}

# Starts node I's kubelet (kubelet-start runs this again after kubelet-stop).
node_kubelet() {
  local i=$1 name
  node_vars "$i"
  name=$(node_process kubelet "$i")
  node_exec "$i"
  start_process "$name" "${NODE_EXEC[@]}" "$BIN/kubelet" --config "$N_DIR/kubelet/config.yaml" --kubeconfig "$N_DIR/kubelet.kubeconfig" \
    --hostname-override "$N_NAME" --node-ip "$N_IP" --root-dir "$N_DIR/kubelet/root" --cert-dir "$N_DIR/kubelet/pki" --v=2
}

# Waits until node I is Ready and the node lifecycle controller has removed its not-ready taint.
node_ready() {
  local i=$1 name
  node_vars "$i"
  name=$(node_process kubelet "$i")
  wait_for "$name" 120 "$KUBECTL" --kubeconfig "$RUN/kubeconfig" wait --for=condition=Ready "node/$N_NAME" --timeout=1s
  wait_for kube-controller-manager 60 bash -c "[[ -z \$('$KUBECTL' --kubeconfig '$RUN/kubeconfig' get node '$N_NAME' -o jsonpath='{.spec.taints}') ]]"
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
