"""A UDP proxy that loses datagrams: it listens on LISTEN_PORT (IPv6 loopback) and forwards to TARGET_PORT, each
datagram in either direction dropped with probability LOSS. For measuring what a lossy link does to the hub's commands
(scripts/bench-loss.sh); run inside a network namespace holding only lo.

    python3 lossy-proxy.py LISTEN_PORT TARGET_PORT LOSS [SEED]
"""
import asyncio
import os
import random
import struct
import sys
import time

# LOG=1: one line a datagram on stderr (when, which way, kept or dropped, size, session ID, counter), to see what a
# failing exchange's datagrams did.
LOG = os.environ.get("LOG") == "1"


def log(direction, data, kept):
    if LOG and len(data) >= 8:
        session, counter = struct.unpack_from("<H", data, 1)[0], struct.unpack_from("<I", data, 4)[0]
        print(f"{time.monotonic():.3f} {direction} {'kept' if kept else 'DROP'} {len(data)} s={session} c={counter}",
              file=sys.stderr, flush=True)


class Upstream(asyncio.DatagramProtocol):
    """The proxy's socket toward the target for one client: what comes back goes to that client."""

    def __init__(self, proxy, client):
        self.proxy, self.client = proxy, client

    def connection_made(self, transport):
        self.transport = transport

    def datagram_received(self, data, _):
        kept = self.proxy.random.random() >= self.proxy.loss
        log(f"<- {self.client[1]}", data, kept)
        if kept:
            self.proxy.transport.sendto(data, self.client)


class Proxy(asyncio.DatagramProtocol):
    def __init__(self, target, loss, seed):
        self.target, self.loss, self.random = target, loss, random.Random(seed)
        self.upstreams = {}

    def connection_made(self, transport):
        self.transport = transport

    def datagram_received(self, data, client):
        asyncio.ensure_future(self.forward(data, client))

    async def forward(self, data, client):
        upstream = self.upstreams.get(client)
        if upstream is None:
            _, upstream = await asyncio.get_running_loop().create_datagram_endpoint(
                lambda: Upstream(self, client), remote_addr=self.target)
            self.upstreams[client] = upstream
        kept = self.random.random() >= self.loss
        log(f"-> {client[1]}", data, kept)
        if kept:
            upstream.transport.sendto(data)


async def main(listen, target, loss, seed):
    loop = asyncio.get_running_loop()
    await loop.create_datagram_endpoint(lambda: Proxy(("::1", target), loss, seed), local_addr=("::1", listen))
    print(f"proxy [::1]:{listen} -> [::1]:{target}, losing {loss:.0%} each way", flush=True)
    await asyncio.Event().wait()


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4]) if len(sys.argv) > 4 else 1))
