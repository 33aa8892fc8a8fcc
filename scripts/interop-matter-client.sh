#!/usr/bin/env bash
# Interop: python-matter-server's own client library (written by others: 7.0.1 on Python 3.11, the line Home Assistant
# 2025.4 pins; 8.1.2, the newest, on Python 3.12, which Home Assistant 2026.2 pins) and matter-python-client 1.5.5
# (matterjs-server's, which Home Assistant 2026.11 pins) against `home serve --listen`, with a virtual dimmable light
# on the hub, inside a network namespace that holds only `lo`:
#   - it connects and accepts our server_info (schema check), and start_listening gives it the node within Home
#     Assistant's 30 s: available, its Basic Information and its OnOff and LevelControl attributes decoded through the
#     CHIP cluster descriptors (so our attribute JSON is what it reads);
#   - the light switched on from another client of the same hub (`home on`, through the Home API) reaches it as
#     attribute_updated, and its node's value follows: one hub, two views;
#   - device_command as Home Assistant sends it (MoveToLevelWithOnOff with every field, Off) reaches the light, and
#     its new level and state come back as attribute_updated;
#   - open_commissioning_window answers a passcode and codes for another controller;
#   - discover lists the switch panel in commissioning mode; commission_with_code (network_only, found by DNS-SD on
#     lo; 7.0.1), commission_on_network by the passcode alone (8.1.2) and with ip_addr (matter-python-client 1.5.5,
#     the client matterjs-server ships and Home Assistant 2026.11 pins) add it: node_added, then its own button
#     presses (a button pressed on its console) as node_event with their fields by name; remove_node takes it away
#     again (node_removed);
#   - read_attribute with a wildcard answers the node's values; get_node_ip_addresses the light's; diagnostics every
#     node and the recent events;
#   - set_default_fabric_label (Home Assistant's first command after start_listening) answers null; ping_node
#     answers the node's address as reached;
#   - every client sees schema 13; matter-python-client asks what schemas 12 and 13 added: get_network_topology (the
#     light in the graph, available), get_icd_state (a light has no ICD cluster), get_thread_diagnostics (no Thread
#     network known: none), get_fabric_label. The older clients, which crash on an event they do not know, run their
#     whole exchange listening: no schema-12+ event reaches a client that did not ask for it.
#
#   sudo scripts/interop-matter-client.sh        (after `swift build`; needs root for ip netns)
#
# The client comes from PyPI, pinned with its dependencies, into a cached virtual environment. Every wait is bounded.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
peers="$(dirname "$0")/../../shared/peers"
export LAB_NS="${LAB_NS:-swifthome-client-$$}"
bin="$repo/.build/debug"
[ -x "$bin/home" ] && [ -x "$bin/matter-device" ] || { echo "FAIL: run swift build first" >&2; exit 1; }
source "$(dirname "$0")/lab-work.sh"
fail() {
  echo "FAIL: $*" >&2
  [ -f "$work/serve.out" ] && sed 's/^/  serve: /' "$work/serve.out" >&2
  [ -f "$work/switch.out" ] && tail -n 40 "$work/switch.out" | sed 's/^/  switch panel: /' >&2
  exit 1
}

# client <package> <version> <python> <pinned packages…>: a cached virtual environment with the client.
client() {
  local package="$1" version="$2" python="$3"
  shift 3
  local venv="${HOME}/.cache/swift-home-peers/$package-$version"
  if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import matter_server.client" 2>/dev/null; then
    rm -rf "$venv"
    "$python" -m venv "$venv"
    timeout 600 "$venv/bin/pip" install -q --only-binary=:all: "$package==$version" "$@" \
      || fail "cannot install $package $version from PyPI"
  fi
}
common="aenum==3.1.17 aiohappyeyeballs==2.7.1 aiohttp==3.14.5 aiorun==2025.1.1 aiosignal==1.4.0 attrs==26.1.0
  coloredlogs==15.0.1 dacite==1.9.2 frozenlist==1.8.0 humanfriendly==10.0 idna==3.20 multidict==7.2.1 orjson==3.13.0
  propcache==0.5.4 typing_extensions==4.16.0 yarl==1.25.1"
# 7.0.1 is the newest that runs on Debian's Python 3.11; 8.1.2 (the newest) needs 3.12, from pyenv.
client python-matter-server 7.0.1 python3 $common home-assistant-chip-clusters==2024.11.4 async-timeout==5.0.1
client python-matter-server 8.1.2 "$HOME/.pyenv/versions/3.12.1/bin/python" $common home-assistant-chip-clusters==2025.7.0
# The client that ships with matterjs-server (the same import path, its own copy of the cluster objects), which Home
# Assistant 2026.11 pins.
client matter-python-client 1.5.5 "$HOME/.pyenv/versions/3.12.1/bin/python" aiohappyeyeballs==2.7.1 aiohttp==3.14.5 \
  aiosignal==1.4.0 attrs==26.1.0 dacite==1.9.2 frozenlist==1.8.0 idna==3.20 multidict==7.2.1 orjson==3.13.0 \
  propcache==0.5.4 typing_extensions==4.16.0 yarl==1.25.1
"$peers/lab.sh" up

"$peers/lab.sh" exec "$bin/matter-device" --state "$work/device" --type dimmable-light --port 5542 >"$work/device.out" 2>&1 &
pids+=($!)
timeout 30 bash -c "until head -n1 '$work/device.out' | grep -q '^{'; do sleep 0.1; done" || fail "the device printed no setup line"
"$bin/matter-device" attestation export "$work/paa" --state "$work/device" >/dev/null
code="$(python3 -c 'import json,sys; print(json.loads(open(sys.argv[1]).readline())["qr"])' "$work/device.out")"
timeout 60 "$peers/lab.sh" exec "$bin/home" commission "$code" --address "[::1]:5542" --paa-trust-store "$work/paa" \
  --state "$work/hub" --name Lamp >/dev/null 2>"$work/commission.err" || fail "commissioning: $(cat "$work/commission.err")"

# A switch panel that advertises on lo, for commission_with_code to find; its development PAA trusted by the hub. Its
# console (a FIFO, held open here) is where the client presses a button.
mkfifo "$work/switch.in"
"$peers/lab.sh" exec "$bin/matter-device" --state "$work/switch" --type switch-panel --port 5540 --interface lo \
  <"$work/switch.in" >"$work/switch.out" 2>&1 &
pids+=($!)
exec {switch_console}>"$work/switch.in"
timeout 30 bash -c "until head -n1 '$work/switch.out' | grep -q '^{'; do sleep 0.1; done" || fail "the switch printed no setup line"
"$bin/matter-device" attestation export "$work/switch-paa" --state "$work/switch" >/dev/null
mkdir -p "$work/hub/paa" && cp "$work/switch-paa/paa.der" "$work/hub/paa/switch-panel.der"
read -r switch_code switch_passcode switch_discriminator < <(python3 -c 'import json,sys; s=json.loads(open(sys.argv[1]).readline()); print(s["manual_code"], s["passcode"], s["discriminator"])' "$work/switch.out")

"$peers/lab.sh" exec "$bin/home" serve --state "$work/hub" --interface lo --listen 127.0.0.1:5580 --api-grant devices,administer >"$work/serve.out" 2>&1 &
pids+=($!)
timeout 30 bash -c "until grep -q 'Matter-server API at' '$work/serve.out' && grep -q ')  online' '$work/serve.out'; do sleep 0.1; done" \
  || fail "home serve never listened with the light online"

# run_client <package-version> <level> <window | passcode | address>: the whole exchange with that client (the light dimmed to <level>,
# which must differ from the run before, so that its change is reported).
run_client() {
"$peers/lab.sh" exec timeout 120 "${HOME}/.cache/swift-home-peers/$1/bin/python" - "$bin/home" \
  "$work/hub" "$switch_code" "$2" "$3" "$switch_passcode" "$switch_discriminator" "$work/switch.in" <<'PY' || fail "the client $1"
import asyncio, sys
import aiohttp
from chip.clusters import Objects as Clusters
from matter_server.client import MatterClient
from matter_server.common.models import EventType

home_tool, hub, switch_code, dim_level, window_check, switch_passcode, switch_discriminator, switch_console = sys.argv[1:9]
dim_level = int(dim_level)

async def main():
    async with aiohttp.ClientSession() as session:
        client = MatterClient("ws://127.0.0.1:5580/ws", session)
        await asyncio.wait_for(client.connect(), 10)
        info = client.server_info
        assert info.schema_version == 13 and info.compressed_fabric_id > 0, info
        print(f"PASS (connect, schema check): compressed fabric {info.compressed_fabric_id:016X}")
        ready = asyncio.Event()
        listening = asyncio.create_task(client.start_listening(ready))
        await asyncio.wait_for(ready.wait(), 30)
        nodes = client.get_nodes()
        assert len(nodes) == 1, nodes
        node = nodes[0]
        assert node.available, "the light is online on the hub"
        assert node.device_info.vendorName == "swift-home", node.device_info
        on_off = node.get_attribute_value(1, Clusters.OnOff, Clusters.OnOff.Attributes.OnOff)
        level = node.get_attribute_value(1, Clusters.LevelControl, Clusters.LevelControl.Attributes.CurrentLevel)
        assert on_off is False and isinstance(level, int), (on_off, level)
        types = node.get_attribute_value(1, Clusters.Descriptor, Clusters.Descriptor.Attributes.DeviceTypeList)
        assert any(entry.deviceType == 0x0101 for entry in types), types
        print(f"PASS (start_listening): node {node.node_id:016X}, {node.device_info.productName}, on/off {on_off}, "
              f"level {level}, device types {[hex(entry.deviceType) for entry in types]}")

        updated = asyncio.Event()
        def on_event(event, value):
            if value is True:
                updated.set()
        client.subscribe_events(on_event, EventType.ATTRIBUTE_UPDATED, node.node_id, "1/6/0")
        switch = await asyncio.create_subprocess_exec(home_tool, "on", "Lamp", "--state", hub)
        assert await asyncio.wait_for(switch.wait(), 30) == 0, "home on"
        await asyncio.wait_for(updated.wait(), 10)
        assert node.get_attribute_value(1, Clusters.OnOff, Clusters.OnOff.Attributes.OnOff) is True
        print("PASS (home on, through the Home API, reaches the client as attribute_updated)")

        level_updated = asyncio.Event()
        def on_level(event, value):
            if value == dim_level:
                level_updated.set()
        client.subscribe_events(on_level, EventType.ATTRIBUTE_UPDATED, node.node_id, "1/8/0")
        # As Home Assistant dims a light: every field present, defaults included (dataclass_to_dict).
        dim = Clusters.LevelControl.Commands.MoveToLevelWithOnOff(
            level=dim_level, transitionTime=0, optionsMask=0, optionsOverride=0)
        assert await asyncio.wait_for(client.send_device_command(node.node_id, 1, dim), 30) is None
        await asyncio.wait_for(level_updated.wait(), 10)
        assert node.get_attribute_value(1, Clusters.LevelControl, Clusters.LevelControl.Attributes.CurrentLevel) == dim_level
        off_updated = asyncio.Event()
        client.subscribe_events(lambda event, value: value is False and off_updated.set(), EventType.ATTRIBUTE_UPDATED,
                                node.node_id, "1/6/0")
        assert await asyncio.wait_for(client.send_device_command(node.node_id, 1, Clusters.OnOff.Commands.Off()), 30) is None
        await asyncio.wait_for(off_updated.wait(), 10)
        print(f"PASS (device_command MoveToLevelWithOnOff {{level: {dim_level}, ...}} and Off reach the device and come back)")

        if window_check == "window":  # once: the window stays open for its 300 s
            window = await asyncio.wait_for(client.open_commissioning_window(node.node_id), 30)
            assert window.setup_manual_code and window.setup_qr_code.startswith("MT:") and window.setup_pin_code > 0, window
            print(f"PASS (open_commissioning_window): {window.setup_manual_code}, {window.setup_qr_code}")

        added = asyncio.Event()
        client.subscribe_events(lambda event, data: added.set(), EventType.NODE_ADDED)
        presses = []  # (node, endpoint) of every InitialPress heard
        def on_node_event(event, data):
            if data.cluster_id == 0x3B and data.data and data.data.get("newPosition") == 1:
                presses.append((data.node_id, data.endpoint_id))
        client.subscribe_events(on_node_event, EventType.NODE_EVENT)
        found = await asyncio.wait_for(client.discover_commissionable_nodes(), 30)
        panel = [n for n in found if n.long_discriminator == int(switch_discriminator)]
        assert len(panel) == 1 and panel[0].port == 5540 and panel[0].commissioning_mode == 1, found
        print(f"PASS (discover: the switch panel in commissioning mode, {panel[0].instance_name} at {panel[0].addresses})")
        if window_check == "window":
            switch = await asyncio.wait_for(client.commission_with_code(switch_code, network_only=True), 60)
            how = "commission_with_code"
        elif window_check == "address":  # by its passcode at its address (Matter's port, 5540)
            switch = await asyncio.wait_for(client.commission_on_network(int(switch_passcode), ip_addr="::1"), 60)
            how = "commission_on_network (passcode and ip_addr)"
        else:  # by its passcode alone
            switch = await asyncio.wait_for(client.commission_on_network(int(switch_passcode)), 60)
            how = "commission_on_network (the passcode alone: every device in commissioning mode tried)"
        assert switch.node_id != node.node_id and switch.available, switch
        await asyncio.wait_for(added.wait(), 10)
        print(f"PASS ({how}): node {switch.node_id:016X}, node_added")
        # A button pressed by hand on the panel. The panel also presses its buttons on its own, and one it holds
        # takes no second press until its next step releases it, up to a simulation step (10 s) later: pressed again
        # every 2 s until heard, for 25 s.
        for attempt in range(250):
            if attempt % 20 == 0:
                with open(switch_console, "w") as console:
                    console.write("press 3\n")
            if (switch.node_id, 3) in presses:
                break
            await asyncio.sleep(0.1)
        assert (switch.node_id, 3) in presses, presses
        print("PASS (a press of the switch's button 3 arrives as node_event, its fields by name)")

        addresses = await asyncio.wait_for(client.get_node_ip_addresses(node.node_id), 10)
        assert addresses == ["::1"], addresses
        diagnostics = await asyncio.wait_for(client.get_diagnostics(), 10)
        ids = sorted(n.node_id for n in diagnostics.nodes)
        assert ids == sorted(n.node_id for n in client.get_nodes()), ids
        assert any(event["cluster_id"] == 0x3B for event in diagnostics.events), len(diagnostics.events)
        print(f"PASS (get_node_ip_addresses {addresses}; diagnostics: {len(diagnostics.nodes)} nodes, "
              f"{len(diagnostics.events)} recent events)")
        values = await asyncio.wait_for(client.read_attribute(node.node_id, "0/40/*"), 10)
        assert values["0/40/1"] == "swift-home" and values["0/40/2"] == 0xFFF1, values
        print(f"PASS (read_attribute 0/40/*: {len(values)} values, VendorName {values['0/40/1']})")

        assert await client.set_default_fabric_label("Home") is None
        pinged = await asyncio.wait_for(client.ping_node(node.node_id), 30)
        assert pinged and all(pinged.values()), pinged
        print(f"PASS (set_default_fabric_label null; ping_node {pinged})")
        if hasattr(client, "get_network_topology"):  # matter-python-client: schema 12 and 13's commands
            topology = await asyncio.wait_for(client.get_network_topology(), 10)
            light = [n for n in topology.nodes if n.node_id == node.node_id]
            assert len(light) == 1 and light[0].kind == "matter" and light[0].available, topology
            icd = await asyncio.wait_for(client.get_icd_state(node.node_id), 10)
            assert not icd.supported and not icd.registered and icd.operating_mode is None, icd
            diagnostics = await asyncio.wait_for(client.get_thread_diagnostics(), 10)
            assert diagnostics == [], diagnostics
            label = await asyncio.wait_for(client.get_fabric_label(), 10)
            assert label, label
            print(f"PASS (schema 13: get_network_topology {len(topology.nodes)} nodes, {len(topology.connections)} links; "
                  f"get_icd_state {icd}; get_thread_diagnostics {diagnostics}; get_fabric_label {label!r})")
        if window_check == "window":  # figures, once: On and Off in turn, each answered after the device acted
            import statistics, time
            times = []
            for index in range(40):
                command = Clusters.OnOff.Commands.On() if index % 2 == 0 else Clusters.OnOff.Commands.Off()
                started = time.perf_counter()
                await client.send_device_command(node.node_id, 1, command)
                times.append((time.perf_counter() - started) * 1000)
            print(f"FIGURE device_command_rtt_ms_p50={statistics.median(times):.3f} "
                  f"p90={sorted(times)[int(len(times) * 0.9)]:.3f} (40 On/Off from python-matter-server {sys.version.split()[0]})")

        removed = asyncio.Event()
        client.subscribe_events(lambda event, data: data == switch.node_id and removed.set(), EventType.NODE_REMOVED)
        assert await asyncio.wait_for(client.remove_node(switch.node_id), 30) is None
        await asyncio.wait_for(removed.wait(), 10)
        assert [n.node_id for n in client.get_nodes()] == [node.node_id]
        print("PASS (remove_node: node_removed, the light stays)")
        await client.disconnect()
        listening.cancel()

asyncio.run(main())
PY
}
echo "== python-matter-server 7.0.1 (Python 3.11)"
run_client python-matter-server-7.0.1 128 window
serve_pid="$(pgrep -f "home serve --state $work/hub" | head -n1)"
echo "FIGURE home_serve_rss_mib=$(awk '/^VmRSS:/ {printf "%.1f", $2 / 1024}' "/proc/$serve_pid/status") (debug build, one light on the hub after the switch panel was removed again)"
echo "== python-matter-server 8.1.2 (Python 3.12)"
run_client python-matter-server-8.1.2 100 passcode
echo "== matter-python-client 1.5.5 (Python 3.12)"
run_client matter-python-client-1.5.5 64 address
echo "interop-matter-client: all checks passed"
