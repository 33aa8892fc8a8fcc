#!/usr/bin/env bash
# Interop: live connections to a CircuitMatter device (written by others), inside a network namespace that holds
# only `lo`:
#   - commission it (QR payload, DNS-SD on lo); `home devices` shows its on/off light and dimmable light as two
#     devices, `home devices --multipart` as one device of two parts, `home show` prints types, tags, connectivity
#     and every endpoint's traits;
#   - then `home watch` in the background (max interval 3 s; its subscriptions ask for every event, which
#     CircuitMatter has none of: nothing may fail for it, and the Home API's `device.events` yields none, no error);
#   - last, `home serve` brings the node online from its last known address and stops cleanly on SIGTERM;
#   - `home on`/`off` on the on/off light and `home level` on the dimmable one: the device prints what it did,
#     `home watch` prints the change;
#   - `home read` answers OnOff.OnOff, LevelControl.CurrentLevel and BasicInformation.VendorName from the cache;
#   - `home toggle` falls back to On/Off (CircuitMatter lists Toggle but refuses it); bad input exits 2;
#   - killing the device turns it offline in `home watch` within the liveness time (max interval + the device's
#     MRP retransmission time), `home on` then exits 1 saying it is unreachable, and restarting the device on the
#     same state folder brings it back online.
#
#   sudo scripts/interop-live.sh        (after `swift build`; needs root for ip netns)
#
# Nothing leaves the namespace. Every wait is bounded; devices and namespace go on exit.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
peers="$(dirname "$0")/../../shared/peers"
export PEERS_HOME="${PEERS_HOME:-$HOME/.cache/matter-peers}"
export LAB_NS="${LAB_NS:-swifthome-live-$$}"
home_tool="$repo/.build/debug/home"
[ -x "$home_tool" ] || { echo "FAIL: $home_tool missing; run swift build first" >&2; exit 1; }

# The watch's max interval ceiling, and CircuitMatter's MRP retransmission time at the default intervals it falls
# back to (it advertises none): 5 transmissions at idle 500 ms with backoff and full jitter, about 7.1 s.
max_interval=3
mrp_allowance=7.1

source "$(dirname "$0")/lab-work.sh"
fail() { echo "FAIL: $*" >&2; [ -f "$work/watch.out" ] && sed 's/^/  watch: /' "$work/watch.out" >&2; exit 1; }
home() { timeout 120 "$peers/lab.sh" exec "$home_tool" "$@"; }
now() { date +%s.%N; }
# wait_for <seconds> <file> <extended regex> [count]: until the file has `count` (default 1) matching lines.
wait_for() {
  local seconds="$1" file="$2" pattern="$3" count="${4:-1}"
  timeout "$seconds" bash -c "until [ \"\$(grep -cE -- '$pattern' '$file' || true)\" -ge $count ]; do sleep 0.1; done"
}

timeout 300 "$peers/setup.sh"
"$peers/lab.sh" up

device_out="$work/device.out"
start_device() {
  "$peers/lab.sh" device --state-dir "$work/light" --port 5541 --discriminator 3840 >>"$device_out" 2>&1 &
  device_pid=$!
  pids+=("$device_pid")
  wait_for 30 "$device_out" '\[device\] ready' "$1" || { cat "$device_out"; fail "the device did not start"; }
}
start_device 1
qr="$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["qr"])' "$(head -n1 "$device_out")")"

hub="$work/hub"
json="$(home commission "$qr" --interface lo --paa-trust-store "$PEERS_HOME/paa" --state "$hub" --json)" || fail "commission"
read -r light dimmer < <(python3 -c 'import json,sys; print(*json.loads(sys.argv[1])["deviceIDs"])' "$json")
echo "PASS (commission): on/off light $light, dimmable light $dimmer"

# Before `home watch` starts: `home show` subscribes to the whole node, and CircuitMatter reports only to its most
# recent wildcard subscription.
node="${light%-*}"
list="$(home devices --state "$hub")" || fail "home devices"
[ "$(grep -cE "^$node-[0-9]+ " <<<"$list")" = 2 ] && grep -qE "^$light .*On/Off Light$" <<<"$list" \
  && grep -qE "^$dimmer .*Dimmable Light$" <<<"$list" || fail "home devices printed: $list"
echo "PASS (home devices): two devices"; echo "$list"
multipart="$(home devices --multipart --state "$hub")" || fail "home devices --multipart"
[ "$(grep -cE "^$node " <<<"$multipart")" = 1 ] && grep -qE "^$node .* 2 parts$" <<<"$multipart" \
  && grep -qE "^  $light .*On/Off Light +-$" <<<"$multipart" && grep -qE "^  $dimmer .*Dimmable Light +-$" <<<"$multipart" \
  || fail "home devices --multipart printed: $multipart"
home devices --multipart --json --state "$hub" | python3 -c '
import json, sys
nodes = json.load(sys.stdin)
assert len(nodes) == 1 and nodes[0]["id"] == sys.argv[1], nodes
types = [[t["name"] for t in part["deviceTypes"]] for part in nodes[0]["parts"]]
assert [part["id"] for part in nodes[0]["parts"]] == sys.argv[2:] and types[0] == ["On/Off Light"] and "Dimmable Light" in types[1], types
' "$node" "$light" "$dimmer" || fail "home devices --multipart --json"
echo "PASS (home devices --multipart): one device, two parts"; echo "$multipart"
shown="$(home show "$dimmer" --state "$hub" --interface lo)" || fail "home show $dimmer"
for line in "  Device types:  .*Dimmable Light \(0x0101" "  Tags:          -" "  Connectivity:  online" "  Locality:      direct" \
            "^Endpoint 1 \(.*\): On/Off Light" "^Endpoint 2 \(this device\): .*Dimmable Light" "^  OnOff \(0x0006\)" \
            "^  LevelControl \(0x0008\)" "^    CurrentLevel: "; do
  grep -qE -- "$line" <<<"$shown" || fail "home show $dimmer lacks '$line': $shown"
done
echo "PASS (home show): types, tags, connectivity and the traits of every endpoint"; sed -n '1,9p' <<<"$shown"

"$peers/lab.sh" exec "$home_tool" watch --state "$hub" --interface lo --max-interval "$max_interval" --duration 240 \
  >"$work/watch.out" 2>"$work/watch.err" &
pids+=($!)
wait_for 60 "$work/watch.out" 'online$' || fail "home watch never came online"
echo "PASS (watch): $(grep -m1 'online$' "$work/watch.out")"

expect_command() {  # expect_command <stdout glob> <device line regex> <watch line regex> -- home arguments…: one more of each
  local expected="$1" device_line="$2" watch_line="$3"; shift 4
  local device_before watch_before output
  device_before="$(grep -cE -- "$device_line" "$device_out" || true)"
  watch_before="$(grep -cE -- "$watch_line" "$work/watch.out" || true)"
  output="$(home "$@" --state "$hub" --interface lo)" || fail "home $*"
  [[ "$output" == *$expected ]] || fail "home $* printed: $output"
  wait_for 15 "$device_out" "$device_line" $((device_before + 1)) || fail "home $*: the device never printed $device_line"
  wait_for 15 "$work/watch.out" "$watch_line" $((watch_before + 1)) || fail "home $*: home watch never printed $watch_line"
  echo "PASS (home $*): '$output'; device: '$(grep -E -- "$device_line" "$device_out" | tail -n1)'; watch: '$(grep -E -- "$watch_line" "$work/watch.out" | tail -n1)'"
}
expect_command "on" '\[light light1\] ON' "$light\)  OnOff.OnOff  true" -- on "$light"
expect_command "off" '\[light light1\] OFF' "$light\)  OnOff.OnOff  false" -- off "$light"
expect_command "level 127" '\[light dimmer1\] brightness 0.50' "$dimmer\)  LevelControl.CurrentLevel  127" -- level "$dimmer" 127

check_read() {  # check_read <device> <attribute> <expected>
  local value
  value="$(home read "$1" "$2" --state "$hub" --interface lo)" || fail "home read $1 $2"
  [ "$value" = "$3" ] || fail "home read $1 $2 printed $value, expected $3"
  echo "PASS (home read $2): $value"
}
check_read "$light" OnOff.OnOff false
check_read "$dimmer" LevelControl.CurrentLevel 127
check_read "$light" BasicInformation.VendorName '"CircuitMatter"'

expect_command "on (it does not accept Toggle; it was off)" '\[light light1\] ON' "$light\)  OnOff.OnOff  true" -- toggle "$light"

for bad in "level $dimmer 255" "read $light OnOff.Nothing" "on NoSuchLamp"; do
  set +e; error="$(home $bad --state "$hub" 2>&1 >/dev/null)"; status=$?; set -e
  [ "$status" = 2 ] || fail "home $bad exited $status: $error"
  echo "PASS (bad input, exit 2): home $bad: $error"
done
# The on/off light serves no Level Control: refused from its Descriptor before anything is sent, naming what it has.
set +e; error="$(home level "$light" 128 --state "$hub" 2>&1 >/dev/null)"; status=$?; set -e
[ "$status" = 2 ] || fail "home level on the on/off light exited $status: $error"
case "$error" in *"has no LevelControl (its clusters: "*OnOff*) ;; *) fail "home level on the on/off light said: $error" ;; esac
echo "PASS (no such cluster, exit 2): home level $light 128: $error"

kill -9 "$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["pid"])' "$(head -n1 "$device_out")")"
killed_at="$(now)"
liveness="$(python3 -c "print($max_interval + $mrp_allowance)")"
wait_for 30 "$work/watch.out" 'offline \(' || fail "home watch never reported the device offline"
offline_after="$(python3 -c "print(round($(now) - $killed_at, 1))")"
python3 -c "import sys; sys.exit(0 if $offline_after <= $liveness + 1 else 1)" \
  || fail "offline only after $offline_after s; the liveness time is $liveness s"
echo "PASS (killed): offline after $offline_after s (liveness: max interval $max_interval s + MRP $mrp_allowance s = $liveness s): $(grep -m1 'offline (' "$work/watch.out")"

set +e; error="$(home on "$light" --state "$hub" 2>&1 >/dev/null)"; status=$?; set -e
[ "$status" = 1 ] && [[ "$error" == *"is unreachable"* ]] || fail "home on while the device is dead exited $status: $error"
echo "PASS (unreachable, exit 1): $error"

restarted_at="$(now)"
start_device 2
wait_for 90 "$work/watch.out" 'online$' 2 || fail "home watch never reported the device online again"
echo "PASS (restarted): online again $(python3 -c "print(round($(now) - $restarted_at, 1))") s after the restart: $(grep 'online$' "$work/watch.out" | tail -n1)"
# Toggle once more after the restart, from whatever state the device came back in.
expect_command "does not accept Toggle; it was o*" '\[light light1\] O' "$light\)  OnOff.OnOff  (true|false)" -- toggle "$light"

# The watch's subscriptions ask for every event too; CircuitMatter keeps none: no event line, and nothing failed.
[ ! -s "$work/watch.err" ] || fail "home watch wrote to standard error: $(cat "$work/watch.err")"
echo "PASS (events): the subscriptions asked for every event; CircuitMatter reported none and nothing failed"
# The Home API's EventController on it, attached to home watch's hub: none, and no error.
events="$(timeout 60 "$peers/lab.sh" exec "$repo/.build/debug/home-examples" --state "$hub" events "$light" 2 2>"$work/events.err")" \
  || fail "home-examples events: $(cat "$work/events.err")"
[ "$events" = "CircuitMatter 1: 0 event(s) in 2 s" ] && [ ! -s "$work/events.err" ] \
  || fail "home-examples events printed: $events / $(cat "$work/events.err")"
echo "PASS (Home API events): $events"

# One hub per home: home watch was the hub for every command above. Stopped, home serve takes over, from the node's
# last known address (no --interface); a second one is refused naming the first.
for pid in "${pids[@]}"; do [ "$pid" = "$device_pid" ] || { kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; }; done
"$peers/lab.sh" exec "$home_tool" serve --state "$hub" 2>"$work/serve.err" &
serve_pid=$!
pids+=("$serve_pid")
wait_for 30 "$work/serve.err" "node $node \\(CircuitMatter 1, CircuitMatter 2\\)  online$" || fail "home serve never had the node online: $(cat "$work/serve.err")"
set +e; second="$(home serve --state "$hub" 2>&1 >/dev/null)"; status=$?; set -e
[ "$status" = 1 ] && [[ "$second" == *"a hub already serves $hub (PID "* ]] || fail "a second home serve exited $status: $second"
echo "PASS (one hub): a second home serve exits 1: $second"
for round in 1 2 3 4 5; do
  home on "$light" --state "$hub" >/dev/null || fail "home on through home serve"
  home off "$light" --state "$hub" >/dev/null || fail "home off through home serve"
done
[ "$(home read "$light" OnOff.OnOff --state "$hub")" = false ] || fail "home read through home serve"
status_line="$(home status --state "$hub")" || fail "home status"
echo "PASS (through home serve): ten on/off and a read from client processes; status: $status_line"

pkill -TERM -f "home serve --state $hub" || true
timeout 30 bash -c "while kill -0 $serve_pid 2>/dev/null; do sleep 0.1; done" || fail "home serve did not stop on SIGTERM"
wait "$serve_pid" || fail "home serve exited $? on SIGTERM: $(cat "$work/serve.err")"
grep -q "stopped$" "$work/serve.err" || fail "home serve did not say it stopped: $(cat "$work/serve.err")"
echo "PASS (home serve): $(grep -m1 ' online$' "$work/serve.err"); stopped on SIGTERM"

echo "--- home watch output:"
cat "$work/watch.out"
echo "interop-live: all checks passed"
