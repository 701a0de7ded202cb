# Sourced by e2e/cluster.sh (its variables and log/die): the cluster's
# certificates and kubeconfigs, and each node's pieces: its values, its
# containerd and kubelet configuration, its namespaces (nodes 2..N) and its
# processes.

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
