#!/usr/bin/env bash
# Benchmark: commissioning fresh CircuitMatter devices, ours against connectedhomeip's Python controller, in one run,
# inside a network namespace of our own (lo and a veth pair whose ends both stay in it). Four ways, each on
# $ROUNDS fresh devices (default 5): our hub by address, the controller by address (PASE at it, then commissioning),
# our hub by QR code and the controller by QR code (each finding the device by DNS-SD). Each commissioning is timed
# in a warm process, from the call to its return. Prints our steps (wall time and the hub's CPU in each) and `home
# ping`, then every median side by side with the ratios issue #19 asks for. Needs root (ip netns); builds the
# release benchmark.
#
#   sudo scripts/bench-commission.sh          ROUNDS=7 for more devices a way
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
peers="$repo/../shared/peers"
lab="$peers/lab.sh"
rounds="${ROUNDS:-5}"
export PEERS_HOME="${PEERS_HOME:-$HOME/.cache/matter-peers}"
export LAB_NS="${LAB_NS:-swifthome-bench-$$}"
(cd "$repo" && swift build -c release --product swift-home-bench >/dev/null)
bench="$repo/.build/release/swift-home-bench"

source "$repo/scripts/lab-work.sh"
# shellcheck source=chip-controller.sh
source "$repo/scripts/chip-controller.sh"

timeout 300 "$peers/setup.sh" >/dev/null
"$lab" up
add_controller_link

# start_devices WAY: $rounds fresh CircuitMatter devices (ports and discriminators of their own), their setup lines
# (JSON) in $work/WAY.setup; the devices of the way before are stopped first, so only these advertise.
next_device=0
start_devices() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
  pids=()
  : >"$work/$1.setup"
  local first=$((next_device + 1))
  for _ in $(seq "$rounds"); do
    next_device=$((next_device + 1))
    "$lab" device --state-dir "$work/device$next_device" --port $((5560 + next_device)) \
      --discriminator $((100 + next_device)) >"$work/device$next_device.out" 2>&1 &
    pids+=($!)
  done
  for index in $(seq "$first" "$next_device"); do
    local out="$work/device$index.out"
    timeout 60 bash -c "until grep -q 'ready on' '$out'; do sleep 0.2; done" || { cat "$out"; exit 1; }
    head -n1 "$out" >>"$work/$1.setup"
  done
}
# targets WAY FORMAT: each device of WAY as FORMAT names its setup fields (Python's str.format).
targets() {
  python3 -c 'import json,sys; [print(sys.argv[2].format(**json.loads(l))) for l in open(sys.argv[1])]' "$work/$1.setup" "$2"
}
# ours WAY FORMAT [BENCH ARGUMENTS…] and controller WAY FORMAT: commission WAY's fresh devices, figures in $work/WAY.json.
ours() {
  local way="$1"; start_devices "$way"; mapfile -t list < <(targets "$way" "$2"); shift 2
  timeout 300 "$lab" exec "$bench" commission --json --paa-trust-store "$PEERS_HOME/paa" "$@" "${list[@]}" >"$work/$way.json"
}
controller() {
  start_devices "$1"; mapfile -t list < <(targets "$1" "$2")
  chip_python "$repo/scripts/bench-commission-controller.py" "$work/$1.json" "$work/$1-storage.json" \
    "$PEERS_HOME/paa" "${list[@]}" >"$work/$1.log" 2>&1 || { tail -30 "$work/$1.log"; cat "$work/$1.json"; exit 1; }
}

ours ours-address '[::1]:{port}={manual_code}'
controller chip-address 'ip=::1,{port},{passcode}'
ours ours-code '{qr}' --interface lo
controller chip-code 'code={qr}'

python3 - "$work" "$rounds" <<'PY'
import json, statistics, sys
work, rounds = sys.argv[1], sys.argv[2]
ours = {way: json.load(open(f"{work}/ours-{way}.json")) for way in ("address", "code")}
chip = {way: [json.loads(l)["seconds"] * 1000 for l in open(f"{work}/chip-{way}.json")] for way in ("address", "code")}
print(f"Our hub by QR code, each step (median of {rounds}): wall time, of it the hub's CPU")
for key, value in ours["code"].items():
    if key.startswith("commission_step_ms."):
        step = key.removeprefix("commission_step_ms.")
        print(f"  {step.replace('_', ' '):<28} {value:8.2f} ms {ours['code']['commission_step_cpu_ms.' + step]:8.2f} ms")
print(f"  {'whole':<28} {ours['code']['commission_ms']:8.2f} ms {ours['code']['commission_cpu_ms']:8.2f} ms")
print(f"\nCommissioning a fresh CircuitMatter device, median of {rounds} each, call to return:")
print(f"  {'':<14} {'our hub':>10} {'controller':>12} {'ratio':>7} {'target':>7}")
for way, label, target in (("address", "by address", 0.3), ("code", "by QR code", 0.6)):
    mine, theirs = ours[way]["commission_ms"], statistics.median(chip[way])
    print(f"  {label:<14} {mine:7.1f} ms {theirs:9.1f} ms {mine / theirs:7.2f} {'≤ ' + str(target):>7}")
    print(f"  {'':<14} the controller's each: {', '.join(f'{v:.0f}' for v in chip[way])} ms")
print(json.dumps({"commission_ms_by_address": ours["address"]["commission_ms"],
                  "commission_ms_by_code": ours["code"]["commission_ms"],
                  "controller_commission_ms_by_address": statistics.median(chip["address"]),
                  "controller_commission_ms_by_code": statistics.median(chip["code"])}))
PY
