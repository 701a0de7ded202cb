# Sourced by e2e/cluster.sh (its variables and log/die): the host state that
# start changes and stop restores. The packet filter rules are saved, restored
# and printed with the iptables userland of images.sh; host-state prints the
# whole state for a before/after diff.

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
