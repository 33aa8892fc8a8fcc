#!/usr/bin/env bash
# Interop: real Home Assistant (2025.4.4 on Python 3.13.0, its matter integration unchanged, with the
# python-matter-server 7.0.0 client it pins) uses `home serve` as its Matter server, inside a network namespace that
# holds only `lo`. Three virtual devices are added with `home commission` (one hub, two views: Home Assistant sees the
# devices the Home API added), and a CircuitMatter device:
#   - the integration's own config flow (the manual URL step) creates the entry, and it loads;
#   - the dimmable light is a light entity with brightness, the contact sensor a door binary sensor, the switch
#     panel's four buttons event entities;
#   - light.turn_on, turn_on with a brightness, and turn_off reach the device (it says so) and come back as the
#     entity's state;
#   - a button pressed on the panel reaches its event entity, a contact opened and closed the binary sensor;
#   - a plug added through Home Assistant (by its manual code, found by DNS-SD on lo) is on the hub (`home devices`),
#     Home Assistant switches it, and removing it in Home Assistant takes it off the hub;
#   - CircuitMatter's two lights (a device nobody here wrote) are light entities, switched through Home Assistant;
#   - home serve restarted while Home Assistant runs: the entities come back and answer;
#   - a firmware image for version 2 in the hub's folder (made by connectedhomeip's TLV writer): the light's update
#     entity offers it, update.install installs it through the hub, and the light reports it;
#   - Home Assistant's log has no error.
# scripts/interop-homeassistant.py drives Home Assistant in-process; see it for how.
#
#   sudo scripts/interop-homeassistant.sh        (after `swift build`; needs root for ip netns)
#
# Home Assistant comes from PyPI, every package pinned (scripts/interop-homeassistant.txt), into a cached virtual
# environment; its install builds a few small C extensions (a few minutes, once). Every wait is bounded.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
peers="$(dirname "$0")/../../shared/peers"
export LAB_NS="${LAB_NS:-swifthome-ha-$$}"
bin="$repo/.build/debug"
[ -x "$bin/home" ] && [ -x "$bin/matter-device" ] || { echo "FAIL: run swift build first" >&2; exit 1; }
source "$(dirname "$0")/lab-work.sh"
fail() {
  echo "FAIL: $*" >&2
  [ -f "$work/serve.out" ] && sed 's/^/  serve: /' "$work/serve.out" | tail -n 40 >&2
  # What each device says it did (opened, closed, pressed, switched): a change that never reached Home Assistant
  # shows whether the device made it.
  for name in light contact panel plug; do
    [ -f "$work/$name.out" ] && tail -n +2 "$work/$name.out" | tail -n 15 | sed "s/^/  $name: /" >&2
  done
  [ -f "$work/ha/home-assistant.log" ] && grep -E " (ERROR|WARNING) |Traceback|Error" "$work/ha/home-assistant.log" | tail -n 40 | sed 's/^/  hass: /' >&2
  exit 1
}

python="$HOME/.pyenv/versions/3.13.0/bin/python"
venv="$HOME/.cache/swift-home-peers/homeassistant-2025.4.4"
if ! "$venv/bin/python" -c "import homeassistant, matter_server.client" 2>/dev/null; then
  [ -x "$python" ] || fail "Home Assistant 2025.4.4 needs Python 3.13.0 ($python)"
  rm -rf "$venv"
  "$python" -m venv "$venv"
  timeout 1200 "$venv/bin/pip" install -q --no-deps -r "$repo/scripts/interop-homeassistant.txt" \
    || fail "cannot install Home Assistant 2025.4.4 from PyPI"
fi
timeout 300 "$peers/setup.sh" >/dev/null
export PEERS_HOME="${PEERS_HOME:-$HOME/.cache/matter-peers}"
"$peers/lab.sh" up
# Home Assistant's HTTP client resolves through zeroconf, which joins the IPv4 mDNS group: that needs a multicast
# route, here on lo, the namespace's only interface.
"$peers/lab.sh" exec ip route add 224.0.0.0/4 dev lo

# device <name> <kind> <port> [matter-device options…]: a virtual device, its setup line in $work/<name>.out, its
# console at fd $console_<name>, its PAA trusted by the hub (the state directory's paa/).
device() {
  local name="$1" kind="$2" port="$3"
  shift 3
  mkfifo "$work/$name.in"
  "$peers/lab.sh" exec "$bin/matter-device" --state "$work/$name" --type "$kind" --port "$port" "$@" <"$work/$name.in" \
    >"$work/$name.out" 2>&1 &
  pids+=($!)
  exec {console}>"$work/$name.in"  # held open, so the device keeps reading its console
  eval "console_$name=$console"
  timeout 30 bash -c "until head -n1 '$work/$name.out' | grep -q '^{'; do sleep 0.1; done" || fail "$name printed no setup line"
  "$bin/matter-device" attestation export "$work/$name-paa" --state "$work/$name" >/dev/null
  mkdir -p "$work/hub/paa" && cp "$work/$name-paa/paa.der" "$work/hub/paa/$name.der"
}
# commission <name> <port>: added with the Home API's tool, by its QR code at its address.
commission() {
  local code
  code="$(python3 -c 'import json,sys; print(json.loads(open(sys.argv[1]).readline())["qr"])' "$work/$1.out")"
  timeout 60 "$peers/lab.sh" exec "$bin/home" commission "$code" --address "[::1]:$2" --paa-trust-store "$work/hub/paa" \
    --state "$work/hub" --name "$1" \
    >/dev/null 2>"$work/commission.err" || fail "commissioning $1: $(cat "$work/commission.err")"
}
device light dimmable-light 5541 && commission light 5541
device contact contact-sensor 5542 && commission contact 5542
device panel switch-panel 5543 && commission panel 5543
# CircuitMatter (written by others): an on/off light on endpoint 1, a dimmable light on endpoint 2.
"$peers/lab.sh" device --state-dir "$work/circuitmatter" --port 5544 --discriminator 3841 >"$work/circuitmatter.out" 2>&1 &
pids+=($!)
timeout 30 bash -c "until grep -q '\[device\] ready' '$work/circuitmatter.out'; do sleep 0.1; done" || fail "CircuitMatter did not start"
cm_qr="$(python3 -c 'import json,sys; print(json.loads(open(sys.argv[1]).readline())["qr"])' "$work/circuitmatter.out")"
timeout 90 "$peers/lab.sh" exec "$bin/home" commission "$cm_qr" --address "[::1]:5544" --paa-trust-store "$PEERS_HOME/paa" \
  --state "$work/hub" --name circuitmatter >/dev/null 2>"$work/commission.err" || fail "commissioning CircuitMatter: $(cat "$work/commission.err")"
# CircuitMatter's dimmer starts with CurrentLevel null (the attribute is nullable), which Home Assistant 2025.4's
# light cannot take (it renormalizes the level as a number): given a level first, as a user would have dimmed it.
timeout 60 "$peers/lab.sh" exec "$bin/home" level "circuitmatter 2" 128 --state "$work/hub" >/dev/null 2>"$work/level.err" \
  || fail "dimming CircuitMatter: $(cat "$work/level.err")"
# For Home Assistant to add: advertised on lo (Matter's port), found by its manual code.
device plug plug 5540 --interface lo
plug_code="$(python3 -c 'import json,sys; print(json.loads(open(sys.argv[1]).readline())["manual_code"])' "$work/plug.out")"

# A firmware image for version 2 of our virtual devices (vendor 0xFFF1, product 0x8000), written with connectedhomeip's
# TLV writer in ota_image_tool.py's layout, in the hub's folder: Home Assistant's update entities offer it, and the
# light's is installed through Home Assistant.
"$venv/bin/python" - "$work/v2.ota" <<'PY'
import hashlib, struct, sys
from chip.tlv import TLVWriter, uint
payload = bytes((i * 13) & 0xFF for i in range(100_000))
writer = TLVWriter()
writer.put(None, {0: uint(0xFFF1), 1: uint(0x8000), 2: uint(2), 3: "2.0-ha", 4: uint(len(payload)), 8: uint(1),
                  9: hashlib.sha256(payload).digest()})
header = bytes(writer.encoding)
open(sys.argv[1], "wb").write(struct.pack("<IQI", 0x1BEEF11E, 16 + len(header) + len(payload), len(header)) + header + payload)
PY
timeout 60 "$peers/lab.sh" exec "$bin/home" update add "$work/v2.ota" --state "$work/hub" >/dev/null 2>"$work/update.err" \
  || fail "home update add: $(cat "$work/update.err")"

"$peers/lab.sh" exec "$bin/home" serve --state "$work/hub" --interface lo --listen 127.0.0.1:5580 >"$work/serve.out" 2>&1 &
serve_pid=$!
pids+=($serve_pid)
timeout 30 bash -c "until grep -q 'Matter-server API at' '$work/serve.out' && [ \$(grep -c ')  online' '$work/serve.out') -ge 4 ]; do sleep 0.1; done" \
  || fail "home serve never listened with the four devices online"

mkdir -p "$work/ha"
cat >"$work/ha/configuration.yaml" <<'YAML'
homeassistant:
  name: Home
  latitude: 52.37
  longitude: 4.89
  elevation: 0
  unit_system: metric
  time_zone: UTC
  country: NL
http:
  server_host: 127.0.0.1
  server_port: 18123
YAML
# The presses and the contact's changes, once Home Assistant has its entities: the script waits for the line
# "ACT" before it looks, so what the devices do by hand happens while it watches (the contact is closed then, whatever
# its simulation did), for "OPEN" (the closed contact was seen) before it opens it, and for "CLOSE" (the open was
# seen) before it closes it again.
(
  timeout 240 bash -c "until grep -q '^ACT' '$work/ha.out' 2>/dev/null; do sleep 0.2; done" || exit 0
  echo "press 2" >&"$console_panel"
  echo "contact closed" >&"$console_contact"
  timeout 60 bash -c "until grep -q '^OPEN' '$work/ha.out' 2>/dev/null; do sleep 0.2; done" || exit 0
  echo "contact open" >&"$console_contact"
  timeout 60 bash -c "until grep -q '^CLOSE' '$work/ha.out' 2>/dev/null; do sleep 0.2; done" || exit 0
  echo "contact closed" >&"$console_contact"
) &
pids+=($!)
# home serve restarted while Home Assistant runs, once it says RESTART: the new one's PID in $work/serve.pid.
(
  timeout 240 bash -c "until grep -q '^RESTART' '$work/ha.out' 2>/dev/null; do sleep 0.2; done" || exit 0
  kill "$serve_pid"
  while kill -0 "$serve_pid" 2>/dev/null; do sleep 0.05; done
  "$peers/lab.sh" exec "$bin/home" serve --state "$work/hub" --interface lo --listen 127.0.0.1:5580 >>"$work/serve.out" 2>&1 &
  echo $! >"$work/serve.pid"
) &
pids+=($!)
"$peers/lab.sh" exec timeout 240 "$venv/bin/python" -u "$repo/scripts/interop-homeassistant.py" "$work/ha" \
  ws://127.0.0.1:5580/ws "$work/light.out" "$plug_code" "$work/plug.out" "$bin/home" "$work/hub" \
  "$work/circuitmatter.out" 2>&1 | tee "$work/ha.out" | grep -E "^(PASS|FIGURE|FAIL|Traceback|AssertionError|  )" \
  || true
[ -f "$work/serve.pid" ] && kill "$(cat "$work/serve.pid")" 2>/dev/null
grep -q "^DONE" "$work/ha.out" || fail "Home Assistant: $(grep -E 'Error|error' "$work/ha.out" | tail -n 5)"
echo "interop-homeassistant: all checks passed"
