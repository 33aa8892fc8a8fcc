"""Our Matter-server API beside the reference, python-matter-server 8.1.2 (its server, on connectedhomeip's stack).

Run by scripts/interop-reference-server.sh inside the lab namespace, with python-matter-server 8.1.2's client:

    python interop-reference-server.py OURS_URL REFERENCE_URL OURS_PID REFERENCE_PID NODES

The reference cannot commission in the lab (connectedhomeip's mDNS has no interface but lo to use, and skips lo), so it
serves our nodes as the protocol lets it: imported from our diagnostics dump (import_test_node). Checked:
  - the reference imports our three nodes strictly (every MatterNodeData field of the right type) and serves them
    back with the same fields, dates and attributes as we serve them: our JSON is what it reads and writes;
  - the client's own node model reads both the same (endpoints, device types, clusters);
  - the same dump imported into both, our get_node of each test node equals the reference's;
  - start_listening answers, and both servers' RSS, with the three nodes and then with NODES more imported into each.
Figures are printed as FIGURE lines; the first failed check ends the run with a non-zero status.
"""

import asyncio
import json
import statistics
import sys
import time

import aiohttp
from matter_server.client import MatterClient
from matter_server.client.models.node import MatterNode

ours_url, reference_url, ours_pid, reference_pid, extra = sys.argv[1:6]


def rss_mib(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError(f"no process {pid}")


async def command(session, url, name, **args):
    """One command on a fresh connection (server_info first), its result."""
    async with session.ws_connect(url) as ws:
        await ws.receive_json()
        await ws.send_json({"message_id": "1", "command": name, "args": args})
        while True:
            message = await asyncio.wait_for(ws.receive_json(), 60)
            if message.get("message_id") == "1":
                assert "error_code" not in message, message
                return message["result"]


async def start_listening_ms(session, url, count):
    """start_listening's answer, from the request to the whole result, median of five fresh connections."""
    times = []
    for _ in range(5):
        async with session.ws_connect(url, max_msg_size=0) as ws:
            await ws.receive_json()
            started = time.perf_counter()
            await ws.send_json({"message_id": "l", "command": "start_listening"})
            message = await asyncio.wait_for(ws.receive_json(), 60)
            times.append((time.perf_counter() - started) * 1000)
            assert len(message["result"]) == count, (len(message["result"]), count)
    return statistics.median(times)


def model(node):
    """What the client's node model makes of a node: its endpoints, their device types and clusters."""
    parsed = MatterNode(node_data_from_dict(node))
    return {
        endpoint_id: (sorted(t.device_type for t in endpoint.device_types), sorted(endpoint.clusters))
        for endpoint_id, endpoint in parsed.endpoints.items()
    }


def node_data_from_dict(node):
    from matter_server.common.helpers.util import dataclass_from_dict
    from matter_server.common.models import MatterNodeData
    return dataclass_from_dict(MatterNodeData, node)


async def main():
    async with aiohttp.ClientSession() as session:
        ours = await command(session, ours_url, "get_nodes")
        assert len(ours) == 3, [n["node_id"] for n in ours]
        dump = json.dumps({"data": {"server": {"nodes": ours}}})
        assert await command(session, reference_url, "import_test_node", dump=dump) is None
        theirs = sorted(await command(session, reference_url, "get_nodes"), key=lambda n: n["node_id"])
        assert len(theirs) == 3 and theirs[0]["node_id"] == 900000, [n["node_id"] for n in theirs]
        for mine, reference in zip(sorted(ours, key=lambda n: n["node_id"]), theirs):
            assert set(mine) == set(reference), (sorted(mine), sorted(reference))
            for field in mine:
                if field == "node_id":
                    continue
                assert mine[field] == reference[field], (field, mine[field], reference[field])
            assert model(mine) == model(reference), (model(mine), model(reference))
        attributes = sum(len(n["attributes"]) for n in ours)
        print(f"PASS (the reference imports our 3 nodes and serves them back field for field: {attributes} "
              "attributes, dates, availability; the client's node model reads both the same)")
        # The same dump imported into ours: get_node answers what the reference's does, node for node.
        assert await command(session, ours_url, "import_test_node", dump=dump) is None
        for node_id in range(900000, 900003):
            mine = await command(session, ours_url, "get_node", node_id=node_id)
            reference = await command(session, reference_url, "get_node", node_id=node_id)
            assert mine == reference, (node_id, mine, reference)
            assert await command(session, ours_url, "remove_node", node_id=node_id) is None
        print("PASS (the same dump imported into both: our get_node of each test node equals the reference's)")

        for url, pid, who in [(ours_url, ours_pid, "home_serve"), (reference_url, reference_pid, "python_matter_server")]:
            print(f"FIGURE {who}_rss_mib_3_nodes={rss_mib(pid):.1f}")
            print(f"FIGURE {who}_start_listening_ms_3_nodes={await start_listening_ms(session, url, 3):.2f}")

        # NODES more, imported into both from the same dumps (copies of our three), 100 to a dump: a message of
        # 1,000 is past our 8 MiB limit on one message.
        count = int(extra)
        copies = [json.dumps({"data": {"server": {"nodes": [ours[i % 3] for i in range(start, min(start + 100, count))]}}})
                  for start in range(0, count, 100)]
        for url, pid, who, have in [(ours_url, ours_pid, "home_serve", 3), (reference_url, reference_pid,
                                                                           "python_matter_server", 3)]:
            started = time.perf_counter()
            for dump in copies:
                assert await command(session, url, "import_test_node", dump=dump) is None
            seconds = time.perf_counter() - started
            total = have + count
            print(f"FIGURE {who}_import_{count}_nodes_s={seconds:.2f}")
            print(f"FIGURE {who}_start_listening_ms_{total}_nodes={await start_listening_ms(session, url, total):.1f}")
            print(f"FIGURE {who}_rss_mib_{total}_nodes={rss_mib(pid):.1f}")
    print("DONE")


asyncio.run(main())
