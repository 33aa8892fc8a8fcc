#!/usr/bin/env bash
# A device fresh from its box, commissioned over Bluetooth LE through the BLE proxy protocol (matterjs-server's
# docs/ble-proxy-protocol.md, version 1), inside a network namespace that holds only `lo`:
#   - `home serve --listen` offers /ble; the hub holds the home's Wi-Fi credentials (`home network wifi`);
#   - `matter-device --ble-proxy ws://…/ble --wifi home:…` is on no IP network: its QR code says BLE, it answers
#     nothing on UDP and advertises nothing by mDNS; it connects to /ble as a proxy client owning one peripheral;
#   - `home commission QR --ble proxy --scan-networks --interface lo`: found over BLE, BTP, PASE, network setup (the
#     device scans, sees "home" and joins it), then found on IP by operational discovery and CASE there: it ends
#     online, switchable (`home on`);
#   - with wrong credentials held by the hub, the commissioning fails naming the device's own status (AuthFailure),
#     nothing is stored, and the device advertises again over BLE once its fail-safe expires;
#   - bad input: --ble with --address, and an adapter BlueZ does not have, are refused clearly.
#
#   sudo scripts/interop-ble.sh        (after `swift build`; needs root for ip netns)
#
# Nothing leaves the namespace. Every wait is bounded; devices and namespace go on exit.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
peers="$(dirname "$0")/../../shared/peers"
export PEERS_HOME="${PEERS_HOME:-$HOME/.cache/matter-peers}"
export LAB_NS="${LAB_NS:-swifthome-ble-$$}"
home_tool="$repo/.build/debug/home"
device_tool="$repo/.build/debug/matter-device"
[ -x "$home_tool" ] && [ -x "$device_tool" ] || { echo "FAIL: run swift build first" >&2; exit 1; }

source "$(dirname "$0")/lab-work.sh"
fail() {
  echo "FAIL: $*" >&2
  for log in serve.err device.out wrong.out; do
    [ -f "$work/$log" ] && tail -15 "$work/$log" | sed "s/^/  $log: /" >&2
  done
  exit 1
}
home() { timeout 120 "$peers/lab.sh" exec "$home_tool" "$@" --state "$work/hub"; }
wait_for() {
  local seconds="$1" file="$2" pattern="$3"
  timeout "$seconds" bash -c "until grep -qE -- '$pattern' '$file' 2>/dev/null; do sleep 0.1; done"
}

"$peers/lab.sh" up
"$peers/lab.sh" exec "$home_tool" serve --state "$work/hub" --interface lo --listen 127.0.0.1:5580 \
  2>"$work/serve.err" &
pids+=("$!")
wait_for 60 "$work/serve.err" 'Matter-server API at' || fail "home serve did not start"
printf 'secret99\n' | home network wifi home --password-file - >/dev/null || fail "home network wifi"

# The device, fresh from its box.
start_device() { # state port log
  "$peers/lab.sh" exec "$device_tool" --type light --port "$2" --interface lo --state "$work/$1" \
    --wifi home:secret99 --ble-proxy ws://127.0.0.1:5580/ble >"$work/$3" 2>&1 &
  pids+=("$!")
  wait_for 30 "$work/$3" '^\{' || fail "the device did not start"
  wait_for 30 "$work/$3" 'connected to the hub at ws://127.0.0.1:5580/ble as a BLE proxy' \
    || fail "the device never connected to /ble"
}
start_device device 5541 device.out
mkdir -p "$work/paa"
"$device_tool" attestation export "$work/paa" --state "$work/device" >/dev/null
qr="$(python3 -c 'import json,sys; print(json.loads(open(sys.argv[1]).readline())["qr"])' "$work/device.out")"
grep -q 'advertising' "$work/device.out" && fail "a device fresh from its box advertised by mDNS before joining"

# Not on IP: discovery over mDNS finds nothing, and the hub's BLE proxy is what reaches it.
discovered="$(timeout 30 "$peers/lab.sh" exec "$home_tool" discover --interface lo --timeout 2 --json)" || fail "home discover"
[ "$discovered" = "[]" ] || fail "the device was found on IP before it joined a network: $discovered"
echo "PASS (off IP): fresh from its box, the device is found by no mDNS browse and answers only over /ble"

# Bad input first: nothing is sent.
if out="$(home commission "$qr" --ble proxy --address 127.0.0.1:5541 2>&1)"; then fail "--ble with --address was taken"; fi
grep -q 'takes no address' <<<"$out" || fail "--ble with --address: $out"
if out="$(home commission "$qr" --ble hci7 --interface lo --paa-trust-store "$work/paa" 2>&1)"; then
  fail "an adapter BlueZ does not have was taken"
fi
grep -qE 'BlueZ|D-Bus' <<<"$out" || fail "--ble hci7: $out"
echo "PASS (bad input): --ble with an address, and an adapter BlueZ does not have, are refused, saying why"

started=$(date +%s%N)
out="$(home commission "$qr" --ble proxy --scan-networks --interface lo --paa-trust-store "$work/paa" --name Lamp 2>&1)" \
  || fail "commissioning over BLE: $out"
[ -n "${SHOW_TRANSCRIPT:-}" ] && echo "$out"
for step in 'discover the device done' 'BTP session done' 'PASE session done' 'network setup done' \
  'operational discovery done' 'CASE session done'; do
  grep -q "$step" <<<"$out" || fail "the transcript lacks '$step': $out"
done
grep -q 'over Bluetooth LE through the BLE proxy' <<<"$out" || fail "the transcript does not say BLE: $out"
grep -q 'the device sees the Wi-Fi network "home"' <<<"$out" || fail "the transcript does not show the scan: $out"
grep -q 'the device joined the Wi-Fi network "home"' <<<"$out" || fail "the transcript does not show the join: $out"
grep -q '\[network\] joined Wi-Fi "home"' "$work/device.out" || fail "the device never joined the network"
grep -q '\[network\] on IP now' "$work/device.out" || fail "the device never came up on IP"
device_id="$(grep -E '^[0-9A-F]{16}-[0-9]+$' <<<"$out" | head -1)"
[ -n "$device_id" ] || fail "no device ID: $out"
echo "PASS (BLE): commissioned over the BLE proxy in $((($(date +%s%N) - started) / 1000000)) ms, joined Wi-Fi, found on IP ($device_id)"

home on "$device_id" >/dev/null || fail "home on"
wait_for 15 "$work/device.out" '\[light\] ON' || fail "the light never turned on"
echo "PASS (online): switched on over IP after BLE commissioning"

# Wrong credentials held by the hub: the device's own status names the failure, nothing is stored.
printf 'not-the-one\n' | home network wifi home --password-file - >/dev/null || fail "home network wifi (wrong)"
start_device wrong 5542 wrong.out
qr2="$(python3 -c 'import json,sys; print(json.loads(open(sys.argv[1]).readline())["qr"])' "$work/wrong.out")"
"$device_tool" attestation export "$work/paa2" --state "$work/wrong" >/dev/null
cp "$work/paa2/paa.der" "$work/paa/wrong.der"
if out="$(home commission "$qr2" --ble proxy --interface lo --paa-trust-store "$work/paa" 2>&1)"; then
  fail "wrong credentials were taken: $out"
fi
grep -q 'network setup failed: the device could not join the Wi-Fi network "home": AuthFailure' <<<"$out" \
  || fail "the failure does not name the device's status: $out"
[ "$(home devices --json | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')" -eq 1 ] \
  || fail "a failed commissioning left a device behind"
wait_for 90 "$work/wrong.out" 'fail-safe expired' || fail "the device's fail-safe never expired"
printf 'secret99\n' | home network wifi home --password-file - >/dev/null || fail "home network wifi (right)"
out="$(home commission "$qr2" --ble proxy --interface lo --paa-trust-store "$work/paa" 2>&1)" \
  || fail "the device was not found over BLE again: $out"
echo "PASS (wrong credentials): failed naming AuthFailure, nothing stored, advertised again and commissioned after"
