#!/usr/bin/env bash
# Interop: the Matter-server WebSocket API's first step against aiohttp, the HTTP and WebSocket library Home
# Assistant and python-matter-server's client connect with (written by others), inside a network namespace that holds
# only `lo`. `home serve --listen` is started; the client asks `GET /info`, opens `/ws` as Home Assistant does
# (heartbeat 55 s, permessage-deflate offered, no size limit), and checks:
#   - server_info arrives first and unprompted, with schema 11 (minimum 9) and the 64-bit fabric IDs as integers;
#   - `server_info` as a command answers with its message_id; `discover` on a hub with no interface gets error 0
#     saying so, an unknown command error 9 "Invalid command: …", a frame that is no command error 8;
#   - a 70,000-byte message (the 64-bit length form) is read; the offered compression is declined cleanly;
#   - a listen address beyond loopback is refused without a token; with one (--token-file, a private file), it is
#     served (0.0.0.0 inside this namespace), the token never printed, every request refused 401 without it and
#     served with an Authorization: Bearer header (or ?token= on /ws alone); five wrong tokens and the host is
#     refused 429.
#
#   sudo scripts/interop-matter-server.sh        (after `swift build`; needs root for ip netns)
#
# aiohttp comes from PyPI, pinned, into a cached virtual environment. Every wait is bounded.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
peers="$(dirname "$0")/../../shared/peers"
export LAB_NS="${LAB_NS:-swifthome-api-$$}"
home_tool="$repo/.build/debug/home"
[ -x "$home_tool" ] || { echo "FAIL: $home_tool missing; run swift build first" >&2; exit 1; }
venv="${HOME}/.cache/swift-home-peers/aiohttp-3.9.5"
source "$(dirname "$0")/lab-work.sh"
fail() { echo "FAIL: $*" >&2; [ -f "$work/serve.out" ] && sed 's/^/  serve: /' "$work/serve.out" >&2; exit 1; }

if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
  timeout 300 "$venv/bin/pip" install -q "aiohttp==3.9.5" || fail "cannot install aiohttp 3.9.5 from PyPI"
fi
"$peers/lab.sh" up

set +e; refused="$("$peers/lab.sh" exec "$home_tool" serve --state "$work/other" --listen 0.0.0.0:5580 2>&1)"; status=$?; set -e
[ "$status" = 2 ] && [[ "$refused" == *"needs a token"* ]] || fail "--listen 0.0.0.0:5580 exited $status: $refused"
echo "PASS (beyond loopback without a token refused): $refused"
# With a token (a private file), beyond loopback is served, inside this namespace that holds only lo.
(umask 077 && head -c 24 /dev/urandom | base64 | tr -d '/+=' >"$work/token")
token="$(cat "$work/token")"
"$peers/lab.sh" exec "$home_tool" serve --state "$work/guarded" --listen 0.0.0.0:5581 --token-file "$work/token" \
  >"$work/guarded.out" 2>&1 &
pids+=($!)
timeout 30 bash -c "until grep -q 'Matter-server API at ws://0.0.0.0:5581/ws (token required)' '$work/guarded.out'; do sleep 0.1; done" \
  || fail "home serve with a token never listened: $(cat "$work/guarded.out")"
grep -q "$token" "$work/guarded.out" && fail "the token was printed"

"$peers/lab.sh" exec "$home_tool" serve --state "$work/hub" --listen 127.0.0.1:5580 >"$work/serve.out" 2>&1 &
pids+=($!)
timeout 30 bash -c "until grep -q 'Matter-server API at' '$work/serve.out'; do sleep 0.1; done" || fail "home serve never listened"

"$peers/lab.sh" exec timeout 60 "$venv/bin/python" - "$work/token" <<'PY' || fail "the aiohttp client"
import asyncio, json, sys, aiohttp

async def main():
    async with aiohttp.ClientSession() as session:
        async with session.get("http://127.0.0.1:5580/info") as response:
            assert response.status == 200, response.status
            info = await response.json()
        assert info["schema_version"] == 13 and info["min_supported_schema_version"] == 9, info
        assert isinstance(info["compressed_fabric_id"], int) and isinstance(info["fabric_id"], int), info
        print(f"PASS (GET /info): {info}")
        async with session.ws_connect("http://127.0.0.1:5580/ws", heartbeat=55, compress=15, max_msg_size=0) as ws:
            assert ws.compress == 0, "the offered compression should be declined"
            first = await ws.receive_json(timeout=5)
            assert first == info, first
            print("PASS (server_info first, unprompted; compression declined)")
            async def ask(message):
                await ws.send_str(message if isinstance(message, str) else json.dumps(message))
                return await ws.receive_json(timeout=5)
            answer = await ask({"message_id": "1", "command": "server_info"})
            assert answer == {"message_id": "1", "result": info}, answer
            answer = await ask({"message_id": "2", "command": "discover"})
            assert answer["message_id"] == "2" and answer["error_code"] == 0 and "no interface" in answer["details"], answer
            print(f"PASS (what the hub cannot do here says why): {answer}")
            answer = await ask({"message_id": "3", "command": "make_coffee"})
            assert answer == {"message_id": "3", "error_code": 9, "details": "Invalid command: make_coffee"}, answer
            answer = await ask("x" * 70000)
            assert answer["error_code"] == 8, answer
            print("PASS (unknown command: 9; a 70,000-byte frame that is no command: 8)")
            await ws.close()
            assert ws.close_code == 1000, ws.close_code
            print("PASS (closing handshake)")
        token = open(sys.argv[1]).read().strip()
        async with session.get("http://127.0.0.1:5581/info") as response:
            assert response.status == 401 and response.headers.get("WWW-Authenticate") == "Bearer", response.status
        # A URL's token only where a client has nothing else (the WebSockets): /info wants the header.
        async with session.get(f"http://127.0.0.1:5581/info?token={token}") as response:
            assert response.status == 401, response.status
        async with session.get("http://127.0.0.1:5581/info", headers={"Authorization": f"Bearer {token}"}) as response:
            assert response.status == 200, response.status
        async with session.ws_connect("http://127.0.0.1:5581/ws", headers={"Authorization": f"Bearer {token}"}) as ws:
            assert "schema_version" in await ws.receive_json(timeout=5)
        async with session.ws_connect(f"http://127.0.0.1:5581/ws?token={token}") as ws:
            assert "schema_version" in await ws.receive_json(timeout=5)
        print("PASS (beyond loopback with a token: 401 without it, served with a Bearer header, or ?token= on /ws)")
        # Wrong tokens: five from this host are told 401, then it is refused (429) on every route, the right token too.
        statuses = []
        for guess in range(50):
            async with session.get("http://127.0.0.1:5581/info", headers={"Authorization": f"Bearer wrong{guess:016d}"}) as response:
                statuses.append(response.status)
        assert statuses == [401] * 5 + [429] * 45, statuses
        async with session.get("http://127.0.0.1:5581/info", headers={"Authorization": f"Bearer {token}"}) as response:
            assert response.status == 429, response.status
        print("PASS (50 wrong tokens: 5 answered 401, 45 refused 429, and then the right one too)")

asyncio.run(main())
PY
echo "interop-matter-server: all checks passed"
