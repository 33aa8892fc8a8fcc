#!/usr/bin/env bash
# A sleepy device kept live by `home serve`, inside a network namespace that holds only `lo`:
#   - a Long Idle Time contact sensor (`matter-device --type contact-sensor --icd lit --icd-idle 20`: awake 10 s, then
#     its radio off for 20 s), commissioned by `home`; `home serve` registers with it for check-ins at first contact;
#   - `home serve` restarted: the new hub finds the device asleep (its session gone, its radio off), tries nothing,
#     and subscribes again when the device checks in at a wake; the sensor's log says so;
#   - over three of its idle periods `home devices --live` never says offline (online or asleep only);
#   - the device stopped for good: the hub says offline once it has missed two check-ins, not before.
#
#   sudo scripts/interop-icd.sh        (after `swift build`; needs root for ip netns)
#
# Nothing leaves the namespace. Every wait is bounded; devices and namespace go on exit.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
peers="$(dirname "$0")/../../shared/peers"
export LAB_NS="${LAB_NS:-swifthome-icd-$$}"
home_tool="$repo/.build/debug/home"
device_tool="$repo/.build/debug/matter-device"
[ -x "$home_tool" ] && [ -x "$device_tool" ] || { echo "FAIL: run swift build first" >&2; exit 1; }

source "$(dirname "$0")/lab-work.sh"
fail() {
  echo "FAIL: $*" >&2
  for log in serve.err serve2.err sensor.out; do
    [ -f "$work/$log" ] && tail -20 "$work/$log" | sed "s/^/  $log: /" >&2
  done
  exit 1
}
home() { timeout 120 "$peers/lab.sh" exec "$home_tool" "$@" --state "$work/hub"; }
wait_for() {
  local seconds="$1" file="$2" pattern="$3"
  timeout "$seconds" bash -c "until grep -qE -- '$pattern' '$file'; do sleep 0.1; done"
}
serve() {  # serve <log>: home serve in the background; its PID in $serve_pid
  "$peers/lab.sh" exec "$home_tool" serve --state "$work/hub" --interface lo 2>"$work/$1" &
  serve_pid=$!
  pids+=("$serve_pid")
}
connectivity() {
  home devices --live --json | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["connectivity"])'
}

"$peers/lab.sh" up
# In a subshell whose own messages go nowhere: the sensor is killed at the end, and bash would report it.
("$peers/lab.sh" exec "$device_tool" --port 22400 --type contact-sensor --icd lit --icd-idle 20 --passcode 20202021 \
  --discriminator 1234 --state "$work/sensor" --interface lo >"$work/sensor.out" 2>&1 || true) 2>/dev/null &
pids+=("$!")
wait_for 30 "$work/sensor.out" '^\{' || fail "the sensor did not start"
sensor_pid="$(python3 -c 'import json,sys; print(json.loads(open(sys.argv[1]).readline())["pid"])' "$work/sensor.out")"
pids+=("$sensor_pid")
"$device_tool" attestation export "$work/paa" --state "$work/sensor" >/dev/null
qr="$(python3 -c 'import json,sys; print(json.loads(open(sys.argv[1]).readline())["qr"])' "$work/sensor.out")"
# Commissioned while it is awake: it stays so for 10 s after it starts and 5 s after each message.
home commission "$qr" --address 127.0.0.1:22400 --paa-trust-store "$work/paa" --name Door >/dev/null \
  2>"$work/commission.err" || fail "commissioning: $(cat "$work/commission.err")"
echo "PASS (setup): a LIT contact sensor (idle 20 s) commissioned as Door"

serve serve.err
wait_for 60 "$work/serve.err" ' online$' || fail "home serve never had the sensor online"
wait_for 60 "$work/sensor.out" 'registered for check-ins' || fail "the hub never registered with the sensor"
echo "PASS (registered): $(grep -m1 'registered for check-ins' "$work/sensor.out")"

# A new hub process: its first attempt finds the radio off; the device checks in once it has dropped the old hub's
# subscription (its next report goes unanswered) and wakes again.
kill "$serve_pid"
while kill -0 "$serve_pid" 2>/dev/null; do sleep 0.05; done
sleep 12
serve serve2.err
checkins_before="$(grep -c 'checked in with node' "$work/sensor.out" || true)"
timeout 120 bash -c "until [ \"\$(grep -c 'checked in with node' '$work/sensor.out')\" -gt $checkins_before ]; do sleep 0.2; done" \
  || fail "the sensor never checked in with the restarted hub"
wait_for 30 "$work/serve2.err" ' online$' || fail "the restarted hub did not subscribe again after the check-in"
echo "PASS (check-in): $(grep 'checked in with node' "$work/sensor.out" | tail -n1); the hub: $(grep -E 'asleep|online$' "$work/serve2.err" | head -n2 | tr '\n' ';')"

# Three idle periods with their active times (90 s): never offline.
seen=()
end=$((SECONDS + 90))
while [ "$SECONDS" -lt "$end" ]; do
  state="$(connectivity)" || fail "home devices --live"
  [ "$state" != offline ] || fail "home devices --live said offline at $((90 - end + SECONDS)) s: $(home devices --live)"
  seen+=("$state")
  sleep 5
done
echo "PASS (kept): home devices --live over 90 s: ${seen[*]}"

# Gone for good: offline after two missed check-ins (two periods and half one more since last heard: 75 s).
kill -9 "$sensor_pid"
stopped=$SECONDS
wait_for 150 "$work/serve2.err" ' offline' || fail "the hub never said the stopped sensor is offline"
after=$((SECONDS - stopped))
[ "$after" -ge 40 ] || fail "offline after $after s: sooner than a missed check-in"
echo "PASS (stopped): offline after $after s: $(grep -m1 ' offline' "$work/serve2.err")"
echo "interop-icd: all checks passed"
