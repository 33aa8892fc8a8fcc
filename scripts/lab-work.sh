# Shared by the scripts that run peers in a lab namespace (../shared/peers/lab.sh); sourced, not run. Needs $peers and
# $LAB_NS set. Gives $work (a scratch directory) and $pids (processes to stop); on exit, every process in $pids is
# stopped, the namespace taken down and $work removed (kept, for a look, with KEEP_WORK=1).
work="$(mktemp -d)"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
  ip netns list | grep -qw "$LAB_NS" && "$peers/lab.sh" down || true
  if [ -n "${KEEP_WORK:-}" ]; then echo "kept $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT
