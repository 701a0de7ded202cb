# Sourced by e2e/cluster.sh (its variables and log/die): the images start
# imports into containerd, built from this machine's files and apt, nothing
# pulled from an image registry; and the legacy iptables userland, which is
# both the kube-proxy image's and what host.sh reads the host's rules with.

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
  stamp=$({ cat /bin/busybox "$HERE/pause.c" "$0" "$HERE/cluster/images.sh" "$deb"; echo "$tag"; } | sha256sum | cut -c1-16)
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
