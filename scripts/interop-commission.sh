#!/usr/bin/env bash
# Interop: `home commission` puts CircuitMatter devices (written by others) on our fabric, inside a network
# namespace that holds only `lo`:
#   - by QR payload with DNS-SD discovery, by 11-digit manual code with discovery (CircuitMatter has no _S
#     subtype, so this needs the browse filtered on TXT D=), and by --address;
#   - each then answers `home ping` from a fresh process (CASE from what the hub persisted, VendorName read);
#   - a wrong passcode fails with a clear error and leaves the hub's devices untouched;
#   - a PAA trust store without the test PAA makes commissioning fail at attestation, saying why;
#   - two devices sharing a short discriminator with different passcodes: the manual code of one commissions that
#     one (when the other answers discovery first, its PASE fails and the hub goes on with the next device found).
#
#   sudo scripts/interop-commission.sh        (after `swift build`; needs root for ip netns)
#
# Nothing leaves the namespace. Every wait is bounded; devices and namespace go on exit.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
peers="$(dirname "$0")/../../shared/peers"
export PEERS_HOME="${PEERS_HOME:-$HOME/.cache/matter-peers}"
export LAB_NS="${LAB_NS:-swifthome-commission-$$}"
home_tool="$repo/.build/debug/home"
[ -x "$home_tool" ] || { echo "FAIL: $home_tool missing; run swift build first" >&2; exit 1; }

source "$(dirname "$0")/lab-work.sh"
fail() { echo "FAIL: $*" >&2; exit 1; }
home() { timeout 120 "$peers/lab.sh" exec "$home_tool" "$@"; }

timeout 300 "$peers/setup.sh"
"$peers/lab.sh" up

start_device() {  # start_device <name> <port> <discriminator> [passcode]: sets $qr, $manual
  local name="$1" port="$2" discriminator="$3" passcode="${4:-20202021}" out="$work/$1.out"
  "$peers/lab.sh" device --state-dir "$work/$name" --port "$port" --discriminator "$discriminator" \
    --passcode "$passcode" >"$out" 2>&1 &
  pids+=($!)
  timeout 30 bash -c "until head -n1 '$out' | grep -q '^{'; do sleep 0.2; done" || { cat "$out"; fail "$name printed no setup line"; }
  timeout 30 bash -c "until grep -q '\[mdns\] advertise' '$out'; do sleep 0.2; done" || { cat "$out"; fail "$name never advertised"; }
  read -r qr manual < <(python3 -c 'import json,sys; s=json.loads(sys.argv[1]); print(s["qr"], s["manual_code"])' "$(head -n1 "$out")")
  echo "$name: port $port, discriminator $discriminator, $qr, $manual"
}

hub="$work/hub"
# The home's hub, for the whole run: every command below (commission, ping, devices) is its client.
"$peers/lab.sh" exec "$home_tool" serve --state "$hub" --interface lo 2>"$work/serve.err" &
pids+=($!)
timeout 30 bash -c "until grep -q 'clients connect at' '$work/serve.err'; do sleep 0.1; done" \
  || fail "home serve did not start: $(cat "$work/serve.err")"
check_commissioned() {  # check_commissioned <label> <json>: both endpoints became devices, then ping each from a fresh process
  local label="$1" json="$2"
  python3 - "$json" "$label" <<'PY'
import json, sys
result, label = json.loads(sys.argv[1]), sys.argv[2]
if result["vendorID"] != 0xFFF4 or result["productID"] != 0x1234 or len(result["deviceIDs"]) != 2:
    sys.exit(f"FAIL ({label}): unexpected result {result}")
steps = {step["step"]: step["seconds"] for step in result["steps"]}
if "PASE session" not in steps or "commissioning complete" not in steps or sum(steps.values()) > result["elapsedSeconds"] + 0.001:
    sys.exit(f"FAIL ({label}): the steps do not account for the commissioning: {result}")
print(f"PASS ({label}): node {result['nodeID']} with devices {', '.join(result['deviceIDs'])} in {result['elapsedSeconds']} s"
      f" ({', '.join(f'{name} {seconds:.3f} s' for name, seconds in steps.items())})")
PY
  for id in $(python3 -c 'import json,sys; print(" ".join(json.loads(sys.argv[1])["deviceIDs"]))' "$json"); do
    local pong
    pong="$(home ping "$id" --state "$hub")" || fail "ping $id"
    [[ "$pong" == CircuitMatter* ]] || fail "ping $id answered: $pong"
    echo "PASS (ping $id): $pong"
  done
}

start_device qr-device 5541 3840
json="$(home commission "$qr" --interface lo --paa-trust-store "$PEERS_HOME/paa" --state "$hub" --json)" || fail "commission by QR with discovery"
check_commissioned "QR payload, discovered by DNS-SD" "$json"

start_device manual-device 5542 2816
json="$(home commission "$manual" --interface lo --paa-trust-store "$PEERS_HOME/paa" --state "$hub" --json)" || fail "commission by manual code with discovery"
check_commissioned "11-digit manual code, discovered by browsing on TXT D=" "$json"

start_device address-device 5543 1792
json="$(home commission "$manual" --address "[::1]:5543" --paa-trust-store "$PEERS_HOME/paa" --state "$hub" --json --name Lamp --room Office)" \
  || fail "commission by --address"
check_commissioned "--address [::1]:5543" "$json"

devices_before="$(home devices --state "$hub" --json)"
[ "$(python3 -c 'import json,sys; print(len(json.loads(sys.argv[1])))' "$devices_before")" = 6 ] || fail "expected 6 devices: $devices_before"

start_device spare-device 5544 768
wrong="$("$home_tool" onboarding generate --vendor-id 0xFFF4 --product-id 0x1234 --discriminator 768 --passcode 20202022 | awk '/^Manual code/ {print $3}')"
if error="$(home commission "$wrong" --address "[::1]:5544" --paa-trust-store "$PEERS_HOME/paa" --state "$hub" 2>&1 >/dev/null)"; then
  fail "a wrong passcode was accepted"
fi
echo "$error" | grep -q "PASE session failed: wrong passcode" || fail "wrong passcode error was: $error"
[ "$(home devices --state "$hub" --json)" = "$devices_before" ] || fail "a failed commissioning changed the hub's devices"
echo "PASS (wrong passcode): $(echo "$error" | tail -n1); devices unchanged"

# A trust store holding only some other PAA (a fresh self-signed CA, not the test PAA CircuitMatter chains to).
mkdir -p "$work/other-paa"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout "$work/other-paa.key" \
  -subj "/CN=Some Other PAA" -days 30 -addext "basicConstraints=critical,CA:TRUE,pathlen:1" \
  -addext "keyUsage=critical,keyCertSign,cRLSign" -out "$work/other-paa/other.pem" 2>/dev/null
if error="$(home commission "$manual" --address "[::1]:5544" --paa-trust-store "$work/other-paa" --state "$hub" 2>&1 >/dev/null)"; then
  fail "a device whose PAA is not trusted was commissioned"
fi
echo "$error" | grep -q "device attestation failed: .*no PAA in the trust store" || fail "attestation error was: $error"
[ "$(home devices --state "$hub" --json)" = "$devices_before" ] || fail "a refused device changed the hub's devices"
echo "PASS (untrusted PAA): $(echo "$error" | tail -n1)"

# Two devices answer the same short discriminator (1280 and 1281 are both short 5; 1536 and 1537 short 6, for the
# second round, as a commissioned CircuitMatter keeps answering); only one has the passcode.
fallbacks=0
for round in 1 2; do
  base=$((5544 + 2 * round)) discriminator=$((1024 + 256 * round))
  if [ "$round" = 1 ]; then
    start_device "twin-$round-a" "$base" "$discriminator" 20202024
    start_device "twin-$round-b" "$((base + 1))" "$((discriminator + 1))" 20202025
  else
    start_device "twin-$round-b" "$((base + 1))" "$((discriminator + 1))" 20202025
    start_device "twin-$round-a" "$base" "$discriminator" 20202024
  fi
  twin_manual="$("$home_tool" onboarding generate --vendor-id 0xFFF4 --product-id 0x1234 --discriminator "$((discriminator + 1))" --passcode 20202025 | awk '/^Manual code/ {print $3}')"
  json="$(home commission "$twin_manual" --interface lo --paa-trust-store "$PEERS_HOME/paa" --state "$hub" --json 2>"$work/twin-$round.err")" \
    || { cat "$work/twin-$round.err" >&2; fail "commission one of two devices sharing a short discriminator"; }
  id="$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["deviceIDs"][0])' "$json")"
  pong="$(home ping "$id" --state "$hub")" || fail "ping $id"
  [[ "$pong" == *"]:$((base + 1)):"* ]] || fail "the wrong twin was commissioned: $pong"
  if grep -q "PASE with the device at .* failed" "$work/twin-$round.err"; then fallbacks=$((fallbacks + 1)); fi
  echo "PASS (shared short discriminator, round $round): the device with the passcode, at port $((base + 1)), was commissioned$(grep -q 'PASE with the device at' "$work/twin-$round.err" && echo ' after the other one failed PASE')"
done
echo "(the other device answered first in $fallbacks of 2 rounds)"

status_line="$(home status --state "$hub")" || fail "home status"
[[ "$status_line" == "hub PID "*", up "*": 5 node(s) online, 0 offline"* ]] || fail "home status said: $status_line"
echo "PASS (through home serve): every command above was its client; $status_line"

echo "interop-commission: all checks passed"
