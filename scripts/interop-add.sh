#!/usr/bin/env bash
# Interop: the Home API's add-device flow puts CircuitMatter devices (written by others) on our fabric, inside a
# network namespace that holds only `lo`:
#   - `home add CODE --room Kitchen --name "Desk lamp"` (prepare → perform with the terminal interaction → complete),
#     then `home devices` shows the device in Kitchen under that name; `home remove` takes it out of the home (and
#     says CircuitMatter refused to leave our fabric), after which adding it again fails as already commissioned;
#   - with no terminal and no --name, `home add` fails at once saying so, cancels (the device leaves our fabric) and
#     leaves the hub's devices as they were;
#   - the example pair across two processes: the app configures an app group, prepares, performs the request through
#     the helper executable (which commissions, lists rooms and configures with HomeMatterCommissioner), completes.
#
#   sudo scripts/interop-add.sh        (after `swift build`; needs root for ip netns)
#
# Nothing leaves the namespace. Every wait is bounded; devices and namespace go on exit.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
peers="$(dirname "$0")/../../shared/peers"
export PEERS_HOME="${PEERS_HOME:-$HOME/.cache/matter-peers}"
export LAB_NS="${LAB_NS:-swifthome-add-$$}"
home_tool="$repo/.build/debug/home"
app="$repo/.build/debug/ExampleAddDeviceApp"
helper="$repo/.build/debug/ExampleAddDeviceHelper"
for tool in "$home_tool" "$app" "$helper"; do [ -x "$tool" ] || { echo "FAIL: $tool missing; run swift build first" >&2; exit 1; }; done

source "$(dirname "$0")/lab-work.sh"
fail() { echo "FAIL: $*" >&2; exit 1; }
in_lab() { timeout 180 "$peers/lab.sh" exec "$@" </dev/null; }

timeout 300 "$peers/setup.sh"
"$peers/lab.sh" up

start_device() {  # start_device <name> <port> <discriminator>: sets $qr
  local name="$1" port="$2" discriminator="$3" out="$work/$1.out"
  "$peers/lab.sh" device --state-dir "$work/$name" --port "$port" --discriminator "$discriminator" >"$out" 2>&1 &
  pids+=($!)
  timeout 30 bash -c "until head -n1 '$out' | grep -q '^{'; do sleep 0.2; done" || { cat "$out"; fail "$name printed no setup line"; }
  timeout 30 bash -c "until grep -q '\[mdns\] advertise' '$out'; do sleep 0.2; done" || { cat "$out"; fail "$name never advertised"; }
  qr="$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["qr"])' "$(head -n1 "$out")")"
  echo "$name: port $port, discriminator $discriminator, $qr"
}

check_devices() {  # check_devices <label> <devices json> <ids> <room> <name>: each added device is in the room under the name
  python3 - "$@" <<'PY'
import json, sys
label, devices, ids, room, name = sys.argv[1], json.loads(sys.argv[2]), sys.argv[3].split(), sys.argv[4], sys.argv[5]
added = [d for d in devices if d["id"] in ids]
if not ids or len(added) != len(ids):
    sys.exit(f"FAIL ({label}): added {ids}, home devices shows {[d['id'] for d in devices]}")
expected = [name] if len(added) == 1 else [f"{name} {n + 1}" for n in range(len(added))]
if sorted(d["name"] for d in added) != expected or any(d["room"] != room for d in added):
    sys.exit(f"FAIL ({label}): expected {expected} in {room}, got {[(d['name'], d['room']) for d in added]}")
print(f"PASS ({label}): {', '.join(d['id'] + ' ' + repr(d['name']) for d in added)} in {room}")
PY
}

hub="$work/hub"
start_device lamp 5541 3840
ids="$(in_lab "$home_tool" add "$qr" --room Kitchen --name "Desk lamp" --interface lo --paa-trust-store "$PEERS_HOME/paa" --state "$hub")" \
  || fail "home add"
check_devices "home add --room Kitchen --name 'Desk lamp'" "$(in_lab "$home_tool" devices --state "$hub" --json)" "$ids" Kitchen "Desk lamp"

# `home remove` by node ID: the device is told to leave our fabric (RemoveFabric over CASE) and the node leaves the
# home. CircuitMatter 0.4.1 answers RemoveFabric with FAILURE, so it keeps our fabric:
# `home remove` must say so, and adding it again must then fail as "already commissioned to this hub" and change
# nothing. A device that did leave must be addable again.
node="${ids%%-*}"
removed="$(in_lab "$home_tool" remove "$node" --interface lo --state "$hub")" || fail "home remove $node"
[ "$(in_lab "$home_tool" devices --state "$hub" --json)" = "[]" ] || fail "home remove left devices: $(in_lab "$home_tool" devices --state "$hub")"
echo "PASS (home remove $node): $(echo "$removed" | tr '\n' ' ')"
if echo "$removed" | grep -q "did not leave the hub's fabric"; then
  if error="$(in_lab "$home_tool" add "$qr" --room Kitchen --name "Desk lamp" --interface lo --paa-trust-store "$PEERS_HOME/paa" \
              --state "$hub" 2>&1 >/dev/null)"; then
    fail "a device still on our fabric was added again"
  fi
  echo "$error" | grep -q "alreadyExists: .*already commissioned to this hub" || fail "re-adding a device on our fabric said: $error"
  [ "$(in_lab "$home_tool" devices --state "$hub" --json)" = "[]" ] || fail "a refused add changed the hub's devices"
  echo "PASS (added again while still on our fabric): $error; devices unchanged"
else
  ids="$(in_lab "$home_tool" add "$qr" --room Kitchen --name "Desk lamp" --interface lo --paa-trust-store "$PEERS_HOME/paa" --state "$hub")" \
    || fail "home add after home remove"
  check_devices "added again after home remove" "$(in_lab "$home_tool" devices --state "$hub" --json)" "$ids" Kitchen "Desk lamp"
fi

start_device unnamed 5542 2816
devices_before="$(in_lab "$home_tool" devices --state "$hub" --json)"
if error="$(in_lab "$home_tool" add "$qr" --room Kitchen --interface lo --paa-trust-store "$PEERS_HOME/paa" --state "$hub" 2>&1 >/dev/null)"; then
  fail "home add without a terminal or --name succeeded"
fi
echo "$error" | grep -q "no terminal to ask for the device's name" || fail "no-terminal error was: $error"
[ "$(in_lab "$home_tool" devices --state "$hub" --json)" = "$devices_before" ] || fail "a cancelled add changed the hub's devices"
echo "PASS (no terminal, no --name): $(echo "$error" | tail -n1); devices unchanged"

export XDG_DATA_HOME="$work/xdg"
group="group.com.example.app"
start_device floor-lamp 5543 1792
ids="$(in_lab env XDG_DATA_HOME="$XDG_DATA_HOME" "$app" --app-group "$group" --helper "$helper" --interface lo \
  --paa-trust-store "$PEERS_HOME/paa" "$qr" Office "Floor lamp")" || fail "example app with its helper"
check_devices "example app + helper, two processes" \
  "$(in_lab "$home_tool" devices --state "$XDG_DATA_HOME/swift-home/app-groups/$group" --json)" "$ids" Office "Floor lamp"

echo "interop-add: all checks passed"
