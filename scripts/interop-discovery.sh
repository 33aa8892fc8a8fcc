#!/usr/bin/env bash
# Interop: `home discover` finds a CircuitMatter device (written by others) over mDNS, inside a
# network namespace that holds only `lo`, by long discriminator 3840 and by short discriminator 15
# (CircuitMatter advertises no _S subtype, so the second needs the browse filtered on TXT D=).
#
#   sudo scripts/interop-discovery.sh        (after `swift build`; needs root for ip netns)
#
# Nothing leaves the namespace. Every wait is bounded; the device and the namespace go on exit.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
peers="$(dirname "$0")/../../shared/peers"
export PEERS_HOME="${PEERS_HOME:-$HOME/.cache/matter-peers}"
# A namespace of our own, so a run never collides with another one using the default name.
export LAB_NS="${LAB_NS:-swifthome-discovery-$$}"
home_tool="$repo/.build/debug/home"
[ -x "$home_tool" ] || { echo "FAIL: $home_tool missing; run swift build first" >&2; exit 1; }

state_dir="$(mktemp -d)"
device_out="$state_dir/device.out"
device_pid=""
cleanup() {
  if [ -n "$device_pid" ]; then kill "$device_pid" 2>/dev/null || true; wait "$device_pid" 2>/dev/null || true; fi
  ip netns list | grep -qw "$LAB_NS" && "$peers/lab.sh" down || true
  rm -rf "$state_dir"
}
trap cleanup EXIT

timeout 300 "$peers/setup.sh"
"$peers/lab.sh" up
echo "namespace $LAB_NS: $(ip netns exec "$LAB_NS" ip -o link | awk -F': ' '{print $2}' | tr '\n' ' ')"

"$peers/lab.sh" device --state-dir "$state_dir" >"$device_out" 2>&1 &
device_pid=$!
timeout 30 bash -c "until head -n1 '$device_out' | grep -q '^{'; do sleep 0.2; done" \
  || { echo "FAIL: the device printed no setup line"; cat "$device_out"; exit 1; }
setup="$(head -n1 "$device_out")"
read -r discriminator port < <(python3 -c 'import json,sys; s=json.loads(sys.argv[1]); print(s["discriminator"], s["port"])' "$setup")
echo "device: discriminator $discriminator, port $port"
# Give the device a moment to start its responder (it announces once it listens).
timeout 30 bash -c "until grep -q '\[mdns\] advertise' '$device_out'; do sleep 0.2; done" \
  || { echo "FAIL: the device never advertised"; cat "$device_out"; exit 1; }

check() {  # check <label> <home discover options...>
  local label="$1"; shift
  local output
  output="$(timeout 30 "$peers/lab.sh" exec "$home_tool" discover --interface lo --timeout 5 --json "$@")"
  echo "$label: $output"
  python3 - "$output" "$discriminator" "$port" "$label" <<'PY'
import json, sys
nodes, discriminator, port, label = json.loads(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
found = [n for n in nodes if n["discriminator"] == discriminator and n["port"] == port]
if len(found) != 1:
    sys.exit(f"FAIL ({label}): expected one node with discriminator {discriminator} on port {port}, got {nodes}")
print(f"PASS ({label}): {found[0]['instance']} at {found[0]['host']} port {port}, discriminator {discriminator}, addresses {found[0]['addresses']}")
PY
}

check "long discriminator $discriminator" --discriminator "$discriminator"
check "short discriminator $((discriminator >> 8))" --short-discriminator "$((discriminator >> 8))"
echo "text output:"
timeout 30 "$peers/lab.sh" exec "$home_tool" discover --interface lo --timeout 2 --short-discriminator "$((discriminator >> 8))"
echo "interop-discovery: all checks passed"
