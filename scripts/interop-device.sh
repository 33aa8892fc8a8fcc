#!/usr/bin/env bash
# Interop: connectedhomeip's Python controller (home-assistant-chip-core, from PyPI) commissions matter-device,
# reads OnOff and invokes On; the device must print "[light] ON". Then the controller gives it its test group key set,
# maps group 0x0103 to it, puts endpoint 1 in the group, grants the group Operate and sends Off to the group by IPv6
# multicast (Matter Core §4.16); the device must act on it once: "[light] OFF", once. Everything runs in a private network namespace
# (../shared/peers/lab.sh) holding lo and a veth pair, so no packet leaves the machine. Needs root (ip netns).
#
#   scripts/interop-device.sh            build, set up the venv (cached in $CHIP_VENV), run, clean up
set -euo pipefail
export LAB_NS="swifthome-device-$$"
# shellcheck source=chip-lab.sh
source "$(dirname "${BASH_SOURCE[0]}")/chip-lab.sh"

status=0
run_chip_controller "$work/controller.log" "$passcode" "$discriminator" --group || status=$?
grep -v '^\[[0-9]' "$work/controller.log" | grep -E '^(commission|VendorName|OnOff|KeySetWrite|GroupKeyMap|AddGroup|Acl|GroupTable|group|Traceback|chip\.|  )' || true
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
if [ "$(grep -c '^\[light\] OFF$' "$work/device.log")" -ne 1 ]; then
    echo "FAIL: the device did not act once on the group's Off (it printed [light] OFF $(grep -c '^\[light\] OFF$' "$work/device.log") times)"
    exit 1
fi
echo "PASS: connectedhomeip's controller commissioned matter-device, switched it on, and off with one group message"
