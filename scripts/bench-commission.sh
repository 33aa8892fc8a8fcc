#!/usr/bin/env bash
# Benchmark: commissioning and `home ping` against five fresh CircuitMatter devices, inside a network namespace
# holding only `lo`. Prints the median wall time of each step, the hub's CPU time per commissioning and the ping
# figures. Needs root (ip netns) and builds the release benchmark.
#
#   sudo scripts/bench-commission.sh
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
peers="$(dirname "$0")/../../shared/peers"
export PEERS_HOME="${PEERS_HOME:-$HOME/.cache/matter-peers}"
export LAB_NS="${LAB_NS:-swifthome-bench-$$}"
(cd "$repo" && swift build -c release --product swift-home-bench >/dev/null)
bench="$repo/.build/release/swift-home-bench"

source "$(dirname "$0")/lab-work.sh"

timeout 300 "$peers/setup.sh" >/dev/null
"$peers/lab.sh" up
targets=()
for index in 1 2 3 4 5; do
  port=$((5560 + index))
  out="$work/device$index.out"
  "$peers/lab.sh" device --state-dir "$work/device$index" --port "$port" --discriminator $((256 * index)) >"$out" 2>&1 &
  pids+=($!)
  timeout 30 bash -c "until head -n1 '$out' | grep -q '^{'; do sleep 0.2; done" || { cat "$out"; exit 1; }
  code="$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["manual_code"])' "$(head -n1 "$out")")"
  targets+=("[::1]:$port=$code")
done
timeout 600 "$peers/lab.sh" exec "$bench" commission --paa-trust-store "$PEERS_HOME/paa" "${targets[@]}"
