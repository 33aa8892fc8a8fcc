#!/usr/bin/env bash
# Interop, multi-admin: our hub commissions matter-device, `home share` opens an enhanced commissioning window, and
# connectedhomeip's Python controller (home-assistant-chip-core, from PyPI) commissions the device with nothing but
# the printed code, reads it and switches it on; `home fabrics` then lists both fabrics, ours marked; `home fabrics
# remove` refuses ours and removes the controller's; and our hub still switches the device. Everything runs in a private network namespace (../shared/peers/lab.sh) holding lo and
# a veth pair, so no packet leaves the machine. Needs root (ip netns).
#
#   scripts/interop-share.sh             build, set up the venv (cached in $CHIP_VENV), run, clean up
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"
lab="$repo/../shared/peers/lab.sh"
CHIP_VERSION="${CHIP_VERSION:-2024.11.4}"
CHIP_VENV="${CHIP_VENV:-$HOME/.cache/swift-home/chip-venv-$CHIP_VERSION}"
export LAB_NS="swifthome-share-$$"
work="$(mktemp -d)"
device_pid=""

cleanup() {
    if [ -n "$device_pid" ]; then kill "$device_pid" 2>/dev/null || true; wait "$device_pid" 2>/dev/null || true; fi
    "$lab" down 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

# The controller's native library links libnl (Debian: libnl-route-3-200).
if ! ldconfig -p | grep -q 'libnl-route-3.so.200'; then
    "$here/apt-install.sh" libnl-route-3-200
fi
if [ ! -x "$CHIP_VENV/bin/python" ]; then
    python3 -m venv "$CHIP_VENV"
    timeout 600 "$CHIP_VENV/bin/pip" install -q "home-assistant-chip-core==$CHIP_VERSION" "home-assistant-chip-clusters==$CHIP_VERSION"
fi
(cd "$repo" && timeout 1200 swift build --product matter-device && timeout 1200 swift build --product home)
device="$repo/.build/debug/matter-device"
home_tool="$repo/.build/debug/home"

passcode=20202021
discriminator=3841
"$lab" up
# connectedhomeip's minimal mDNS never uses a loopback interface, so the namespace also gets a veth pair whose two
# ends both stay in it: the device advertises on one end, the controller's multicast crosses over, and nothing
# leaves the namespace.
"$lab" exec ip link add swh-dev type veth peer name swh-ctl
# Link-local IPv6 addresses are unusable while duplicate address detection runs ("Cannot assign requested
# address"); nothing else is on this private link, so skip DAD and then wait until no address is tentative.
for end in swh-dev swh-ctl; do "$lab" exec sysctl -qw "net.ipv6.conf.$end.accept_dad=0"; done
for end in swh-dev swh-ctl; do "$lab" exec ip link set "$end" multicast on up; done
timeout 10 bash -c "until ! \"$lab\" exec ip -6 addr show tentative | grep -q inet6 && \"$lab\" exec ip -6 addr show dev swh-dev | grep -q 'inet6 fe80'; do sleep 0.2; done" \
  || { echo "FAIL: the veth pair's IPv6 link-local addresses never became usable"; exit 1; }
"$lab" exec ip addr add 10.213.0.1/24 dev swh-dev
"$lab" exec ip addr add 10.213.0.2/24 dev swh-ctl
"$lab" exec "$device" --state "$work/device" --passcode "$passcode" --discriminator "$discriminator" --interface swh-dev \
    >"$work/device.log" 2>&1 &
device_pid=$!
timeout 30 bash -c "until grep -q '\[mdns\] advertising' '$work/device.log'; do sleep 0.2; done"
head -1 "$work/device.log"
mkdir -p "$work/paa"
"$device" attestation export "$work/paa" --state "$work/device" >/dev/null

# The controller's Linux platform layer keeps its config in /data (hard-coded): give it a private, empty one by
# bind-mounting a temporary folder there in a mount namespace of its own (only the empty mount point stays behind).
fail() { echo "FAIL: $*"; echo "--- device"; cat "$work/device.log"; exit 1; }
home() { timeout 120 "$lab" exec "$home_tool" "$@"; }

hub="$work/hub"
code="$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["qr"])' "$(head -n1 "$work/device.log")")"
home commission "$code" --address 10.213.0.1:5540 --paa-trust-store "$work/paa" --state "$hub" >/dev/null || fail "home commission"
lamp="$(home devices --state "$hub" | awk 'NR==2 {print $1}')"
[ -n "$lamp" ] || fail "no device after commissioning"
echo "PASS (commission): our hub added $lamp"

share="$(home share "$lamp" --json --state "$hub")" || fail "home share: $share"
qr="$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["qrCode"])' "$share")"
parsed="$("$home_tool" onboarding parse "$qr" --json)"
shared_passcode="$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["passcode"])' "$parsed")"
shared_discriminator="$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["discriminator"])' "$parsed")"
[ "$shared_passcode" != "$passcode" ] || fail "the window reused the onboarding passcode"
echo "PASS (home share): $share"
set +e; again="$(home share "$lamp" --state "$hub" 2>&1 >/dev/null)"; again_status=$?; set -e
[ "$again_status" = 1 ] && [[ "$again" == *"already has a commissioning window open"* ]] || fail "a second share exited $again_status: $again"
echo "PASS (second share refused): $again"

# The controller's Linux platform layer keeps its config in /data (hard-coded): give it a private, empty one by
# bind-mounting a temporary folder there in a mount namespace of its own (only the empty mount point stays behind).
mkdir -p /data "$work/data"
status=0
timeout 180 "$lab" exec unshare --mount bash -c 'mount --bind "$1" /data && shift && exec "$@"' _ "$work/data" \
    "$CHIP_VENV/bin/python" -u "$here/interop-device-controller.py" \
    "$work/chip-storage.json" "$work/paa" "$shared_passcode" "$shared_discriminator" >"$work/controller.log" 2>&1 || status=$?
grep -v '^\[[0-9]' "$work/controller.log" | grep -E '^(commission|VendorName|OnOff|Traceback|chip\.|  )' || true
if [ "$status" -ne 0 ]; then
    tail -40 "$work/controller.log"
    fail "the CHIP controller exited with $status with the shared code"
fi
grep -q '^\[light\] ON$' "$work/device.log" || fail "the device never printed [light] ON for the second ecosystem"
echo "PASS (second ecosystem): connectedhomeip's controller joined with the shared code and switched the device on"

fabrics="$(home fabrics "$lamp" --json --state "$hub")" || fail "home fabrics"
python3 -c '
import json, sys
listing = json.loads(sys.argv[1])
assert listing["commissioningWindow"] == "closed", listing
fabrics = listing["fabrics"]
assert [f["index"] for f in fabrics] == [1, 2], fabrics
assert [f["thisHub"] for f in fabrics] == [True, False], fabrics
assert fabrics[1]["nodeID"] == "0000000000001234", fabrics
assert fabrics[0]["rootKeyFingerprint"] != fabrics[1]["rootKeyFingerprint"], fabrics
' "$fabrics" || fail "home fabrics printed: $fabrics"
echo "PASS (home fabrics): two fabrics, ours marked, the controller's node 0x1234"
home fabrics "$lamp" --state "$hub"
set +e; own="$(home fabrics remove "$lamp" 1 --yes --state "$hub" 2>&1 >/dev/null)"; own_status=$?; set -e
[ "$own_status" = 2 ] && [[ "$own" == *"this hub's own"* ]] || fail "removing our own fabric exited $own_status: $own"
home fabrics remove "$lamp" 2 --yes --state "$hub" || fail "home fabrics remove 2"
left="$(home fabrics "$lamp" --json --state "$hub")" || fail "home fabrics after removing"
python3 -c 'import json,sys; f=json.loads(sys.argv[1])["fabrics"]; assert [x["index"] for x in f] == [1] and f[0]["thisHub"], f' "$left" \
  || fail "after removing fabric 2: $left"
echo "PASS (home fabrics remove): our own refused; the controller's removed, ours left"
status=0
timeout 120 "$lab" exec unshare --mount bash -c 'mount --bind "$1" /data && shift && exec "$@"' _ "$work/data" \
    "$CHIP_VENV/bin/python" -u "$here/interop-device-controller.py" \
    "$work/chip-storage.json" "$work/paa" "$shared_passcode" "$shared_discriminator" --expect-unreachable \
    >"$work/controller-after.log" 2>&1 || status=$?
grep -E '^(unreachable|the node still)' "$work/controller-after.log" || true
[ "$status" -eq 0 ] || { tail -20 "$work/controller-after.log"; fail "the controller still reached the device after its fabric was removed (status $status)"; }
echo "PASS (removed for real): the controller can no longer reach the device"
home off "$lamp" --state "$hub" >/dev/null || fail "home off after sharing"
timeout 15 bash -c "until grep -q '^\[light\] OFF$' '$work/device.log'; do sleep 0.1; done" || fail "our hub no longer switches the device"
echo "PASS (still ours): home off switched it off"
echo "interop-share: all checks passed"
