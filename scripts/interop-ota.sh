#!/usr/bin/env bash
# A firmware update end to end, inside a network namespace that holds only `lo`:
#   - a virtual light running software version 1 (`matter-device --software-version 1`), commissioned by `home`;
#   - an OTA image for version 2 made by connectedhomeip's own TLV writer (chip.tlv, from PyPI's
#     home-assistant-chip-core) in the layout of connectedhomeip's ota_image_tool.py (Matter Core §11.21.2): not by
#     our code;
#   - `home update add FILE` checks and keeps it (a tampered copy is refused); `home updates` offers version 2;
#   - `home update Lamp` with `home serve` running: the hub announces itself, the light downloads over BDX, applies,
#     and reports version 2; the light says it runs version 2, and `home updates` shows nothing newer.
#
#   sudo scripts/interop-ota.sh        (after `swift build`; needs root for ip netns)
#
# Nothing leaves the namespace. Every wait is bounded; devices and namespace go on exit.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
peers="$(dirname "$0")/../../shared/peers"
export LAB_NS="${LAB_NS:-swifthome-ota-$$}"
home_tool="$repo/.build/debug/home"
device_tool="$repo/.build/debug/matter-device"
[ -x "$home_tool" ] && [ -x "$device_tool" ] || { echo "FAIL: run swift build first" >&2; exit 1; }

source "$(dirname "$0")/lab-work.sh"
fail() {
  echo "FAIL: $*" >&2
  [ -f "$work/serve.err" ] && tail -20 "$work/serve.err" | sed 's/^/  serve: /' >&2
  [ -f "$work/light.out" ] && tail -20 "$work/light.out" | sed 's/^/  light: /' >&2
  exit 1
}
home() { timeout 120 "$peers/lab.sh" exec "$home_tool" "$@" --state "$work/hub"; }
wait_for() {
  local seconds="$1" file="$2" pattern="$3"
  timeout "$seconds" bash -c "until grep -qE -- '$pattern' '$file'; do sleep 0.1; done"
}

# chip.tlv: the pinned environment interop-reference-server.sh uses too.
source "$(dirname "$0")/reference-venv.sh"
"$peers/lab.sh" up

"$peers/lab.sh" exec "$device_tool" --port 22300 --type light --software-version 1 --passcode 20202021 \
  --discriminator 1234 --state "$work/light" >"$work/light.out" 2>&1 &
pids+=("$!")
wait_for 30 "$work/light.out" '^\{' || fail "the light did not start"
"$device_tool" attestation export "$work/paa" --state "$work/light" >/dev/null
qr="$(python3 -c 'import json,sys; print(json.loads(open(sys.argv[1]).readline())["qr"])' "$work/light.out")"
home commission "$qr" --address 127.0.0.1:22300 --paa-trust-store "$work/paa" --name Lamp >/dev/null \
  2>"$work/commission.err" || fail "commissioning: $(cat "$work/commission.err")"
echo "PASS (setup): a light at version 1 commissioned as Lamp"

# The image: fixed header (file identifier, total size, header size, TLV header) then the payload, the header's TLV
# written by chip.tlv as ota_image_tool.py writes it (context tags in order, SHA-256 digest).
"$venv/bin/python" - "$work/v2.ota" "$work/tampered.ota" <<'PY'
import hashlib, struct, sys
from chip.tlv import TLVWriter, uint
payload = bytes((i * 7) & 0xFF for i in range(200_000))
writer = TLVWriter()
writer.put(None, {0: uint(0xFFF1), 1: uint(0x8000), 2: uint(2), 3: "2.0-interop", 4: uint(len(payload)),
                  5: uint(1), 8: uint(1), 9: hashlib.sha256(payload).digest()})
header = bytes(writer.encoding)
fixed = struct.pack("<IQI", 0x1BEEF11E, 16 + len(header) + len(payload), len(header))
open(sys.argv[1], "wb").write(fixed + header + payload)
tampered = bytearray(fixed + header + payload)
tampered[-1] ^= 0xFF
open(sys.argv[2], "wb").write(bytes(tampered))
PY

status=0
home update add "$work/tampered.ota" >/dev/null 2>"$work/add.err" || status=$?
[ "$status" -eq 2 ] && grep -q "not the one its header describes" "$work/add.err" \
  || fail "a tampered image was not refused (exit $status): $(cat "$work/add.err")"
echo "PASS (tampered): $(cat "$work/add.err")"
added="$(home update add "$work/v2.ota")" || fail "home update add"
grep -q "added version 2 (2.0-interop)" <<<"$added" || fail "home update add said: $added"
echo "PASS (add): $added"
home updates --json >"$work/updates.json" || fail "home updates"
python3 - "$work/updates.json" <<'PY' || fail "home updates: $(cat "$work/updates.json")"
import json, sys
devices = json.load(open(sys.argv[1]))["devices"]
assert [(d["version"], d["available"]["version"]) for d in devices] == [(1, 2)], devices
PY
echo "PASS (updates): the light runs 1, version 2 is available"

"$peers/lab.sh" exec "$home_tool" serve --state "$work/hub" --interface lo 2>"$work/serve.err" &
pids+=("$!")
wait_for 60 "$work/serve.err" ' online$' || fail "home serve never had the light online"
start=$SECONDS
timeout 180 "$peers/lab.sh" exec "$home_tool" update Lamp --state "$work/hub" >"$work/update.out" 2>"$work/update.err" \
  || fail "home update: $(cat "$work/update.out" "$work/update.err")"
grep -q "Lamp runs version 2 (2.0-interop), was 1" "$work/update.out" || fail "home update said: $(cat "$work/update.out")"
grep -q "downloading: 100 %" "$work/update.err" || fail "no download progress: $(cat "$work/update.err")"
echo "PASS (update): $(cat "$work/update.out") in $((SECONDS - start)) s"
grep -q "now running version 2 (2.0-interop)" "$work/light.out" || fail "the light never said it runs version 2"
echo "PASS (device): the light says it runs version 2"
home updates --json >"$work/updates.json" || fail "home updates"
python3 - "$work/updates.json" <<'PY' || fail "home updates after: $(cat "$work/updates.json")"
import json, sys
devices = json.load(open(sys.argv[1]))["devices"]
assert [(d["version"], d["available"]) for d in devices] == [(2, None)], devices
PY
echo "PASS (after): the light runs 2, nothing newer"
echo "interop-ota: all checks passed"
