#!/usr/bin/env bash
# Interop and figures: `home serve`'s Matter-server API beside the reference server, python-matter-server 8.1.2
# (written by others, on connectedhomeip's stack), inside a network namespace that holds only `lo`. Three virtual
# devices (a dimmable light, a contact sensor, a switch panel) are on our hub; the reference serves the same three
# from our dump (import_test_node). scripts/interop-reference-server.py checks that it reads and serves back our JSON
# field for field and prints the figures, the same method for both servers: start to first server_info, RSS,
# start_listening with 3 nodes and with 1,003.
#
#   sudo scripts/interop-reference-server.sh        (after `swift build`; uses .build/release/home when there is one)
#
# The reference comes from PyPI, every package pinned (scripts/interop-reference-server.txt), into a cached virtual
# environment. Every wait is bounded.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
peers="$(dirname "$0")/../../shared/peers"
export LAB_NS="${LAB_NS:-swifthome-reference-$$}"
bin="$repo/.build/debug"
[ -x "$bin/home" ] && [ -x "$bin/matter-device" ] || { echo "FAIL: run swift build first" >&2; exit 1; }
# The figures are the release build's when there is one.
serve_bin="$bin"
[ -x "$repo/.build/release/home" ] && serve_bin="$repo/.build/release"
source "$(dirname "$0")/lab-work.sh"
fail() {
  echo "FAIL: $*" >&2
  [ -f "$work/serve.out" ] && sed 's/^/  serve: /' "$work/serve.out" | tail -n 20 >&2
  [ -f "$work/reference.out" ] && grep -E "ERROR|Traceback" "$work/reference.out" | tail -n 20 | sed 's/^/  reference: /' >&2
  exit 1
}

source "$(dirname "$0")/reference-venv.sh"
"$peers/lab.sh" up

port=5541
for kind in dimmable-light contact-sensor switch-panel; do
  "$peers/lab.sh" exec "$bin/matter-device" --state "$work/$kind" --type "$kind" --port "$port" >"$work/$kind.out" 2>&1 &
  pids+=($!)
  timeout 30 bash -c "until head -n1 '$work/$kind.out' | grep -q '^{'; do sleep 0.1; done" || fail "$kind printed no setup line"
  "$bin/matter-device" attestation export "$work/$kind-paa" --state "$work/$kind" >/dev/null
  mkdir -p "$work/hub/paa" && cp "$work/$kind-paa/paa.der" "$work/hub/paa/$kind.der"
  code="$(python3 -c 'import json,sys; print(json.loads(open(sys.argv[1]).readline())["qr"])' "$work/$kind.out")"
  timeout 60 "$peers/lab.sh" exec "$bin/home" commission "$code" --address "[::1]:$port" --paa-trust-store "$work/hub/paa" \
    --state "$work/hub" --name "$kind" >/dev/null 2>"$work/commission.err" || fail "commissioning $kind: $(cat "$work/commission.err")"
  port=$((port + 1))
done

# first_server_info <url> <since> <schema>: seconds from <since> (the server's start, as `date +%s.%N` printed it) until the
# server at <url> sends server_info (bounded at 60 s).
client="$HOME/.cache/swift-home-peers/python-matter-server-8.1.2/bin/python"
first_server_info() {
  "$peers/lab.sh" exec "$venv/bin/python" - "$1" "$2" "$3" <<'PY'
import asyncio, sys, time, aiohttp
async def main():
    started = float(sys.argv[2])
    async with aiohttp.ClientSession() as session:
        while time.time() - started < 60:
            try:
                async with session.ws_connect(sys.argv[1]) as ws:
                    info = await ws.receive_json()
                    assert info["schema_version"] == int(sys.argv[3]), info
                    print(f"{time.time() - started:.3f}")
                    return
            except (aiohttp.ClientError, OSError):
                await asyncio.sleep(0.01)
    raise SystemExit("no server_info within 60 s")
asyncio.run(main())
PY
}

since="$(date +%s.%N)"
"$peers/lab.sh" exec "$serve_bin/home" serve --state "$work/hub" --interface lo --listen 127.0.0.1:5580 >"$work/serve.out" 2>&1 &
serve_pid=$!
pids+=($serve_pid)
ours_start="$(first_server_info ws://127.0.0.1:5580/ws "$since" 13)" || fail "home serve sent no server_info"
timeout 30 bash -c "until [ \$(grep -c ')  online' '$work/serve.out') -ge 3 ]; do sleep 0.1; done" \
  || fail "home serve never had the three devices online"

# The reference, offline: PAA roots from a directory it is told is fresh (it fetches none), its own storage.
mkdir -p "$work/reference-paa" && echo 1 >"$work/reference-paa/.version"
since="$(date +%s.%N)"
"$peers/lab.sh" exec "$venv/bin/matter-server" --storage-path "$work/reference" --port 5581 --listen-address 127.0.0.1 \
  --paa-root-cert-dir "$work/reference-paa" --primary-interface lo >"$work/reference.out" 2>&1 &
pids+=($!)
reference_start="$(first_server_info ws://127.0.0.1:5581/ws "$since" 11)" || fail "python-matter-server sent no server_info"
reference_pid="$(pgrep -f "matter-server --storage-path $work/reference" | head -n1)"
echo "FIGURE home_serve_first_server_info_s=$ours_start ($( [ "$serve_bin" = "$bin" ] && echo debug || echo release ) build)"
echo "FIGURE python_matter_server_first_server_info_s=$reference_start"

"$peers/lab.sh" exec timeout 300 "$client" -u "$repo/scripts/interop-reference-server.py" ws://127.0.0.1:5580/ws \
  ws://127.0.0.1:5581/ws "$serve_pid" "$reference_pid" 1000 2>&1 | tee "$work/compare.out" | grep -E "^(PASS|FIGURE|  |Traceback|AssertionError)" || true
grep -q "^DONE" "$work/compare.out" || fail "the comparison: $(grep -E 'Error' "$work/compare.out" | tail -n 3)"
echo "interop-reference-server: all checks passed"
