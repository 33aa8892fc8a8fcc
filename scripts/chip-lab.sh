# Shared by the interop scripts that drive connectedhomeip's Python controller (interop-device.sh,
# interop-share.sh); sourced, not run. Sets up the controller's venv (cached in $CHIP_VENV), a private network
# namespace (../shared/peers/lab.sh, named $LAB_NS) holding lo and a veth pair, and starts matter-device in it
# (passcode $passcode, discriminator $discriminator, PAA exported to $work/paa); everything goes on exit.
# `run_chip_controller LOG ARGUMENTS…` runs interop-device-controller.py with them, its output in LOG.
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"
lab="$repo/../shared/peers/lab.sh"
work="$(mktemp -d)"
device_pid=""

cleanup() {
    if [ -n "$device_pid" ]; then kill "$device_pid" 2>/dev/null || true; wait "$device_pid" 2>/dev/null || true; fi
    "$lab" down 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

# shellcheck source=chip-controller.sh
source "$here/chip-controller.sh"
(cd "$repo" && timeout 1200 swift build --product matter-device && timeout 1200 swift build --product home)
device="$repo/.build/debug/matter-device"
home_tool="$repo/.build/debug/home"

passcode=20202021
discriminator=3841
"$lab" up
add_controller_link
"$lab" exec "$device" --state "$work/device" --passcode "$passcode" --discriminator "$discriminator" --interface swh-dev \
    >"$work/device.log" 2>&1 &
device_pid=$!
timeout 30 bash -c "until grep -q '\[mdns\] advertising' '$work/device.log'; do sleep 0.2; done"
head -1 "$work/device.log"
mkdir -p "$work/paa"
"$device" attestation export "$work/paa" --state "$work/device" >/dev/null

run_chip_controller() {
    local log="$1"; shift
    chip_python "$here/interop-device-controller.py" "$work/chip-storage.json" "$work/paa" "$@" >"$log" 2>&1
}
