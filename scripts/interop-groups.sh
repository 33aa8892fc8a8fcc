#!/usr/bin/env bash
# A room in one message (Matter groups over real IPv6 multicast), inside a network namespace that holds only `lo`
# (multicast on, and a local route for ff00::/8 so group datagrams are delivered on it):
#   - a farm of 20 virtual lights, hearing their groups on lo, commissioned into the room Kitchen;
#   - `home serve --interface lo` gives each light the home's key set, the room's group and an ACL entry for it;
#     the room is then switched by one group message: 20 lines "group … confirmed after", each that light's own
#     subscription reporting the change, and each light's own log saying it acted on the group message. Every try
#     switches the other way (on, off, on…), so a light already as asked ("confirmed (already so)", which proves no
#     message) never counts, and every confirmation is a change made after that try's message;
#   - a 21st light, offline when it is moved into the room, is given the room's group when it comes back: the next
#     `home off --room Kitchen` reaches all 21 by group;
#   - a named group across rooms (`home group create Corner` of two farm lights and the 21st): `home on --group
#     Corner` reaches the three by group; `home groups` lists it;
#   - bad input: --room and a device together, an unknown room, exit 2.
#
#   sudo scripts/interop-groups.sh        (after `swift build`; needs root for ip netns)
#
# Nothing leaves the namespace. Every wait is bounded; devices and namespace go on exit.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
peers="$(dirname "$0")/../../shared/peers"
export PEERS_HOME="${PEERS_HOME:-$HOME/.cache/matter-peers}"
export LAB_NS="${LAB_NS:-swifthome-groups-$$}"
home_tool="$repo/.build/debug/home"
device_tool="$repo/.build/debug/matter-device"
[ -x "$home_tool" ] && [ -x "$device_tool" ] || { echo "FAIL: run swift build first" >&2; exit 1; }

source "$(dirname "$0")/lab-work.sh"
fail() { echo "FAIL: $*" >&2; [ -f "$work/serve.err" ] && tail -20 "$work/serve.err" | sed 's/^/  serve: /' >&2; exit 1; }
home() { timeout 120 "$peers/lab.sh" exec "$home_tool" "$@" --state "$work/hub"; }
wait_for() {
  local seconds="$1" file="$2" pattern="$3" count="${4:-1}"
  timeout "$seconds" bash -c "until [ \"\$(grep -cE -- '$pattern' '$file' || true)\" -ge $count ]; do sleep 0.1; done"
}

lights=20
"$peers/lab.sh" up
"$peers/lab.sh" exec ip -6 route add local ff00::/8 dev lo table local

"$peers/lab.sh" exec "$device_tool" --count "$lights" --base-port 22000 --type light --interface lo \
  --state "$work/farm" >"$work/farm.out" 2>&1 &
pids+=("$!")
wait_for 60 "$work/farm.out" '^\[farm\] [0-9]+ devices running' || fail "the farm did not start: $(tail "$work/farm.out")"
mkdir -p "$work/paa"
"$device_tool" attestation export "$work/paa" --state "$work/farm/0" >/dev/null
python3 - "$work/farm.out" >"$work/devices.txt" <<'EOF'
import json, sys
for line in open(sys.argv[1]):
    if line.startswith("{"):
        setup = json.loads(line)
        print(f"{setup['qr']} 127.0.0.1:{setup['port']}")
EOF
[ "$(wc -l <"$work/devices.txt")" -eq "$lights" ] || fail "the farm printed $(wc -l <"$work/devices.txt") setups"

home room add Kitchen >/dev/null || fail "room add"
home commission --from "$work/devices.txt" --paa-trust-store "$work/paa" --room Kitchen >/dev/null \
  2>"$work/commission.err" || fail "commissioning the farm: $(tail "$work/commission.err")"
echo "PASS (setup): $lights lights commissioned into Kitchen"

# The 21st light, in no room yet.
start_single() {
  "$peers/lab.sh" exec "$device_tool" --port 22100 --type light --interface lo --passcode 20202021 \
    --discriminator 1234 --state "$work/single" >>"$work/single.out" 2>&1 &
  single_pid=$!
  pids+=("$single_pid")
  wait_for 30 "$work/single.out" '^\{' || fail "the single light did not start"
}
start_single
single_qr="$(python3 -c 'import json,sys; print(json.loads(open(sys.argv[1]).readline())["qr"])' "$work/single.out")"
"$device_tool" attestation export "$work/paa-single" --state "$work/single" >/dev/null
cp "$work/paa-single/paa.der" "$work/paa/single.der"
single_id="$(home commission "$single_qr" --address 127.0.0.1:22100 --paa-trust-store "$work/paa" --name Single \
  --json 2>>"$work/commission.err" | python3 -c 'import json,sys; print(json.load(sys.stdin)["deviceIDs"][0])')" || fail "commissioning the single light"

"$peers/lab.sh" exec "$home_tool" serve --state "$work/hub" --interface lo 2>"$work/serve.err" &
pids+=("$!")
wait_for 60 "$work/serve.err" ' online$' $((lights + 1)) || fail "home serve never had every node online"

# switch_by_group TARGET MEMBERS SECONDS FARM_LIGHTS SINGLE: switches TARGET (--room R, --group G) the other way
# from the last try until all MEMBERS confirm a change made by group, then checks the lights' own logs since that
# try: FARM_LIGHTS lights of the farm, and the single light when SINGLE is 1, each acted on the group message.
state=off  # the lights start off
switch_by_group() {
  local target="$1" members="$2" seconds="$3" farm_lights="$4" single="$5"
  local deadline=$((SECONDS + seconds)) farm_mark single_mark command acted
  while :; do
    state="$([ "$state" = on ] && echo off || echo on)"
    farm_mark="$(wc -l <"$work/farm.out")"
    single_mark="$(wc -l <"$work/single.out")"
    out="$(home "$state" $target 2>&1)" || true
    [ "$(grep -cE '  group +confirmed after ' <<<"$out")" -eq "$members" ] && break
    [ "$SECONDS" -lt "$deadline" ] || fail "$target never changed all $members lights by group ($state): $out"
    sleep 1
  done
  # OnOff Off is command 0x0000, On 0x0001 (Matter Application Cluster §1.5.7).
  command="$([ "$state" = on ] && echo 0x0001 || echo 0x0000)"
  acted="$(tail -n +$((farm_mark + 1)) "$work/farm.out" \
    | grep -E "^#[0-9]+ \[group\] .*: cluster 0x0006 command $command on endpoint 1 acted on$" | cut -d' ' -f1 | sort -u \
    | wc -l)"
  [ "$acted" -eq "$farm_lights" ] || fail "$target $state: $acted farm lights say they acted on the group message, not $farm_lights"
  if [ "$single" = 1 ]; then
    tail -n +$((single_mark + 1)) "$work/single.out" \
      | grep -qE "^\[group\] .*: cluster 0x0006 command $command on endpoint 1 acted on$" \
      || fail "$target $state: the single light does not say it acted on the group message"
  fi
}

# Each light is given the room's group in the background: the first try that changes all 20 by group passes.
switch_by_group "--room Kitchen" "$lights" 60 "$lights" 0
grep -q "one group message (group 0x[0-9A-F]*) to $lights devices" <<<"$out" || fail "the summary: $out"
echo "PASS (group): $(head -1 <<<"$out"); each of the $lights lights' own log says it acted on the group message"
sed -n '2,6p' <<<"$out"; echo "  …"

# Offline when moved into the room: given the group when it returns.
kill "$single_pid"; wait "$single_pid" 2>/dev/null || true
wait_for 60 "$work/serve.err" "Single.* offline|offline.*Single|node .* offline" || true
home move Single Kitchen >/dev/null || fail "moving the offline light"
start_single
switch_by_group "--room Kitchen" $((lights + 1)) 90 "$lights" 1
echo "PASS (repair): the light offline during its move reached by group once back: $(head -1 <<<"$out")"

# A named group across rooms: two lights of the farm and the 21st.
read -r first second < <(home devices --json | python3 -c '
import json, sys
lights = sorted(d["id"] for d in json.load(sys.stdin) if d["name"] != "Single")
print(lights[0], lights[1])')
home group create Corner "$first" "$second" Single >/dev/null || fail "group create"
home groups | grep -q '^Corner' || fail "home groups does not list Corner: $(home groups)"
switch_by_group "--group Corner" 3 60 2 1
echo "PASS (named group): $(head -1 <<<"$out")"

set +e
out="$(home on "$single_id" --room Kitchen 2>&1)"; status=$?
set -e
[ "$status" -eq 2 ] || fail "a device and --room together exited $status: $out"
set +e
out="$(home on --room Attic 2>&1)"; status=$?
set -e
[ "$status" -eq 2 ] && [[ "$out" == *'no room "Attic"'* ]] || fail "an unknown room exited $status: $out"
echo "PASS (bad input): exit 2 for a device with --room and for an unknown room"
