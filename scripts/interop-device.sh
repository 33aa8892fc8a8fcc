#!/usr/bin/env bash
# Interop: connectedhomeip's Python controller (home-assistant-chip-core, from PyPI) commissions matter-device,
# reads OnOff and invokes On; the device must print "[light] ON". Everything runs in a private network namespace
# (../shared/peers/lab.sh) holding lo and a veth pair, so no packet leaves the machine. Needs root (ip netns).
#
#   scripts/interop-device.sh            build, set up the venv (cached in $CHIP_VENV), run, clean up
set -euo pipefail
export LAB_NS="swifthome-device-$$"
# shellcheck source=chip-lab.sh
source "$(dirname "${BASH_SOURCE[0]}")/chip-lab.sh"

status=0
run_chip_controller "$work/controller.log" "$passcode" "$discriminator" || status=$?
grep -v '^\[[0-9]' "$work/controller.log" | grep -E '^(commission|VendorName|OnOff|Traceback|chip\.|  )' || true
echo "--- controller's attestation verdict"
grep -iE 'CHIP:.*(attestation.*(valid|verif|fail|bypass)|(valid|verif|fail).*attestation)' "$work/controller.log" | sed 's/^\[[0-9.]*\]\[[0-9:]*\] //' | head -6 || true
echo "--- device"
cat "$work/device.log"
if [ "$status" -ne 0 ]; then
    echo "FAIL: the CHIP controller exited with $status (last lines of its log follow)"
    tail -40 "$work/controller.log"
    exit 1
fi
if ! grep -q '^\[light\] ON$' "$work/device.log"; then
    echo "FAIL: the device never printed [light] ON"
    exit 1
fi
echo "PASS: connectedhomeip's controller commissioned matter-device and switched it on"
