#!/usr/bin/env bash
# One-shot commands through loss, as a new user types them: a virtual light behind a UDP proxy that drops 20% of the
# datagrams each way (scripts/lossy-proxy.py), commissioned through the proxy, then COMMANDS `home on`/`home off` with
# no `home serve` running (each command its own hub while it lives), counted. Inside a network namespace holding only
# lo (../shared/peers/lab.sh): nothing leaves the machine. Needs root (ip netns). Prints one JSON object.
#
#   sudo [COMMANDS=36] [LOSS=0.2] [BIN=DIR] scripts/bench-loss.sh
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"
peers="$repo/../shared/peers"
lab="$peers/lab.sh"
export LAB_NS="swifthome-loss-$$"
commands="${COMMANDS:-36}"
loss="${LOSS:-0.2}"
# $work, $pids and the cleanup on exit.
source "$here/lab-work.sh"
if [ -z "${BIN:-}" ]; then
  (cd "$repo" && swift build --product matter-device >/dev/null && swift build --product home >/dev/null)
fi
bin="${BIN:-$(cd "$repo" && swift build --show-bin-path)}"
"$lab" up
"$lab" exec "$bin/matter-device" --state "$work/device" --type light --passcode 20202021 --discriminator 3840 \
  --port 5540 >"$work/device.out" 2>&1 &
pids+=($!)
for _ in $(seq 100); do grep -q '"port"' "$work/device.out" 2>/dev/null && break; sleep 0.1; done
"$bin/matter-device" attestation export "$work/paa" --state "$work/device" >/dev/null
"$lab" exec python3 -u "$here/lossy-proxy.py" 5600 5540 "$loss" 7 >"$work/proxy.out" 2>>"${PROXY_LOG:-/dev/null}" &
pids+=($!)
for _ in $(seq 50); do grep -q 'proxy' "$work/proxy.out" 2>/dev/null && break; sleep 0.1; done
code="$(python3 -c 'import json,sys; print(json.loads(open(sys.argv[1]).readline())["qr"])' "$work/device.out")"
# Commissioning itself may need a second try through the loss.
for _ in 1 2 3; do
  "$lab" exec "$bin/home" commission "$code" --address "[::1]:5600" --paa-trust-store "$work/paa" --state "$work/hub" \
    --name Lamp >/dev/null 2>"$work/commission.err" && break
done
"$lab" exec "$bin/home" devices --state "$work/hub" >/dev/null || { cat "$work/commission.err" >&2; exit 1; }
ok=0
: >"$work/failures"
for index in $(seq "$commands"); do
  verb=on; [ $((index % 2)) = 0 ] && verb=off
  [ -n "${PROXY_LOG:-}" ] && echo "$(python3 -c 'import time; print(f"{time.monotonic():.3f}")') COMMAND $index $verb" >>"$PROXY_LOG"
  if "$lab" exec "$bin/home" "$verb" Lamp --state "$work/hub" >/dev/null 2>"$work/err"; then
    ok=$((ok + 1))
  else
    echo "$verb: $(tail -n1 "$work/err")" >>"$work/failures"
  fi
done
sort "$work/failures" | uniq -c | sort -rn >&2 || true
printf '{"commands": %d, "succeeded": %d, "loss_each_way": %s}\n' "$commands" "$ok" "$loss"
