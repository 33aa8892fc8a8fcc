# Shared by the interop scripts that drive connectedhomeip's Python controller (interop-device.sh,
# interop-share.sh); sourced, not run. Sets up the controller's venv (cached in $CHIP_VENV), a private network
# namespace (../shared/peers/lab.sh, named $LAB_NS) holding lo and a veth pair, and starts matter-device in it
# (passcode $passcode, discriminator $discriminator, PAA exported to $work/paa); everything goes on exit.
# `run_chip_controller LOG ARGUMENTS…` runs interop-device-controller.py with them, its output in LOG.
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"
lab="$repo/../shared/peers/lab.sh"
CHIP_VERSION="${CHIP_VERSION:-2024.11.4}"
CHIP_VENV="${CHIP_VENV:-$HOME/.cache/swift-home/chip-venv-$CHIP_VERSION}"
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
mkdir -p /data "$work/data"
run_chip_controller() {
    local log="$1"; shift
    timeout 180 "$lab" exec unshare --mount bash -c 'mount --bind "$1" /data && shift && exec "$@"' _ "$work/data" \
        "$CHIP_VENV/bin/python" -u "$here/interop-device-controller.py" "$work/chip-storage.json" "$work/paa" "$@" \
        >"$log" 2>&1
}
