#!/usr/bin/env bash
# The hub and a device in two processes, as they run all day: a release `matter-device` (a dimmable light) and a
# release `home watch` following it, both left idle for SECONDS; each one's CPU time over wall time, read from
# /proc/PID/stat, in percent of one core. Then 500 reads of one attribute over one CASE session (`home ping
# --count 500`). Runs inside a network namespace holding only lo (../shared/peers/lab.sh): nothing leaves the
# machine. Needs root (ip netns). Prints one JSON object: idle_cpu_percent_device, idle_cpu_percent_hub,
# hub_rss_kib (the watch, which is the home's hub, with its nodes, after the idle time), read_rtt_us_p50,
# read_rtt_us_p90, idle_seconds, devices.
#
#   sudo [DEVICES=N] scripts/bench-hub.sh [SECONDS]     (default 60 s, one device)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"
lab="$repo/../shared/peers/lab.sh"
seconds="${1:-60}"
export LAB_NS="swifthome-idle-$$"
work="$(mktemp -d)"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  "$lab" down 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# BIN=DIR measures other release builds of matter-device and home (an earlier commit's, to compare).
if [ -z "${BIN:-}" ]; then
  (cd "$repo" && swift build -c release --product matter-device >/dev/null && swift build -c release --product home >/dev/null)
fi
bin="${BIN:-$(cd "$repo" && swift build -c release --show-bin-path)}"
"$lab" up

# DEVICES=N: that many lights (ports 5540 on), the first measured for its CPU, the hub with all of them.
devices="${DEVICES:-1}"
for index in $(seq 0 $((devices - 1))); do
  "$lab" exec "$bin/matter-device" --state "$work/device-$index" --type dimmable-light --passcode 20202021 \
    --discriminator $((3840 + index)) --port $((5540 + index)) >"$work/device-$index.out" 2>&1 &
  pids+=($!)
  for _ in $(seq 100); do grep -q '"port"' "$work/device-$index.out" 2>/dev/null && break; sleep 0.1; done
  "$bin/matter-device" attestation export "$work/paa" --state "$work/device-$index" >/dev/null
  code="$(python3 -c 'import json,sys; print(json.loads(open(sys.argv[1]).readline())["qr"])' "$work/device-$index.out")"
  name="Lamp"; [ "$index" = 0 ] || name="Lamp $index"
  "$lab" exec "$bin/home" commission "$code" --address "[::1]:$((5540 + index))" --paa-trust-store "$work/paa" \
    --state "$work/hub" --name "$name" >/dev/null 2>"$work/commission.err" || { cat "$work/commission.err" >&2; exit 1; }
done
"$lab" exec "$bin/home" watch --state "$work/hub" >"$work/watch.out" 2>&1 &
pids+=($!)
sleep 3  # the watch's CASE session and subscription are up; from here on both are idle

device_pid="$(pgrep -f "matter-device --state $work/device-0 " | head -n1)"
hub_pid="$(pgrep -f "home watch --state $work/hub" | head -n1)"
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
hz="$(getconf CLK_TCK)"
d0="$(ticks "$device_pid")"; h0="$(ticks "$hub_pid")"; t0="$(date +%s.%N)"
sleep "$seconds"
d1="$(ticks "$device_pid")"; h1="$(ticks "$hub_pid")"; t1="$(date +%s.%N)"
rss="$(awk '/^VmRSS:/ {print $2}' "/proc/$hub_pid/status")"
pings="$("$lab" exec "$bin/home" ping Lamp --count 500 --state "$work/hub")"
python3 - "$d0" "$d1" "$h0" "$h1" "$t0" "$t1" "$hz" "$pings" "$rss" "$devices" <<'PY'
import json, re, sys
d0, d1, h0, h1, t0, t1, hz = map(float, sys.argv[1:8])
rss = int(sys.argv[9])
wall = t1 - t0
def micros(text):
    value, unit = re.match(r"([0-9.]+) (µs|ms|s)", text).groups()
    return float(value) * {"µs": 1, "ms": 1000, "s": 1e6}[unit]
reads = re.search(r"median (.+?), 90th percentile (.+?) \(", sys.argv[8])
print(json.dumps({"idle_cpu_percent_device": round(100 * (d1 - d0) / hz / wall, 3),
                  "idle_cpu_percent_hub": round(100 * (h1 - h0) / hz / wall, 3), "hub_rss_kib": rss,
                  "read_rtt_us_p50": micros(reads.group(1)), "read_rtt_us_p90": micros(reads.group(2)),
                  "idle_seconds": round(wall, 1), "devices": int(sys.argv[10])}))
PY
