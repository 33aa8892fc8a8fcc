"""Real Home Assistant (2025.4.4, its matter integration unchanged) against `home serve`'s Matter-server API.

Run by scripts/interop-homeassistant.sh inside the lab namespace, with Home Assistant's own Python environment:

    python interop-homeassistant.py CONFIG_DIR WS_URL LIGHT_LOG PLUG_CODE PLUG_LOG HOME HUB CIRCUITMATTER_LOG

Home Assistant is set up in-process as `hass` sets itself up from CONFIG_DIR (see start_home_assistant), the Matter entry is
added through the integration's own config flow (the manual step a user fills in with the server's URL), and the
checks go through Home Assistant's states and services, as its UI would. LIGHT_LOG and PLUG_LOG are the virtual
devices' output: a command has reached a device when the device says so there. PLUG_CODE is a plug's manual code,
commissioned through Home Assistant (as its "add device" does) and removed through it again, each checked with the
`home` tool HOME on the hub's state HUB: one hub, two views. Every wait is bounded; the first failed check ends the
run with a non-zero status.
"""

import asyncio
import json
import logging
import pathlib
import statistics
import subprocess
import sys
import time

from chip.clusters import Objects as matter_clusters
from homeassistant import bootstrap, config as conf_util, config_entries, core, loader
from homeassistant.config_entries import ConfigEntryState
from homeassistant.components import matter
from homeassistant.components.matter.helpers import get_matter
from homeassistant.core_config import async_process_ha_core_config
from homeassistant.helpers import device_registry, entity_registry
from homeassistant.setup import async_setup_component

config_dir, url, light_log, plug_code, plug_log, home_tool, hub, circuitmatter_log = sys.argv[1:9]


async def start_home_assistant():
    """Home Assistant as `hass` starts itself (bootstrap.async_from_config_dict: the registries, the core
    integrations, the core configuration), without the default integrations (frontend, cloud, backup…), which this
    check does not need and which need packages the matter integration does not; http is set up for websocket_api,
    the matter integration's one dependency."""
    logging.basicConfig(filename=f"{config_dir}/home-assistant.log", level=logging.INFO,
                        format="%(asctime)s %(levelname)s (%(threadName)s) [%(name)s] %(message)s")
    hass = core.HomeAssistant(config_dir)
    loader.async_setup(hass)
    hass.config.skip_pip = True
    config = await conf_util.async_hass_config_yaml(hass)
    hass.config_entries = config_entries.ConfigEntries(hass, config)
    await loader.async_get_custom_components(hass)
    await bootstrap.async_load_base_functionality(hass)
    for domain in sorted(bootstrap.CORE_INTEGRATIONS):
        assert await async_setup_component(hass, domain, config), domain
    await async_process_ha_core_config(hass, config.get(core.DOMAIN, {}))
    assert await async_setup_component(hass, "http", config), "http"
    await hass.async_start()
    return hass


async def until(what, predicate, timeout, seen=None):
    """Waits for predicate; SEEN (a list) is what was observed meanwhile, shown when the wait fails."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"within {timeout} s: {what}" + (f" (seen: {seen})" if seen is not None else ""))
        await asyncio.sleep(0.05)


def lines(log):
    return pathlib.Path(log).read_text().splitlines()


def hub_nodes():
    """The hub's nodes and their products, as the Home API lists its devices (`home devices --json`)."""
    listed = subprocess.run([home_tool, "devices", "--json", "--state", hub], capture_output=True, text=True,
                            timeout=30, check=True)
    return {device["nodeID"]: device["productName"] for device in json.loads(listed.stdout)}


async def main():
    hass = await start_home_assistant()

    started = time.monotonic()
    flow = await hass.config_entries.flow.async_init("matter", context={"source": "user"})
    assert flow["type"] == "form" and flow["step_id"] == "manual", flow
    flow = await hass.config_entries.flow.async_configure(flow["flow_id"], {"url": url})
    assert flow["type"] == "create_entry", flow
    entry = hass.config_entries.async_entries("matter")[0]
    await until("the Matter entry loads", lambda: entry.state is ConfigEntryState.LOADED, 40)
    await hass.async_block_till_done()
    print(f"PASS (config flow, manual URL {url}: the Matter entry is loaded in {time.monotonic() - started:.2f} s)")

    lights = [s for s in hass.states.async_all("light") if "swift_home" in s.entity_id]
    assert len(lights) == 1, [s.entity_id for s in hass.states.async_all()]
    light = lights[0].entity_id
    assert "brightness" in lights[0].attributes.get("supported_color_modes", []), lights[0].attributes
    print(f"PASS (the dimmable light is {light}, colour modes {lights[0].attributes['supported_color_modes']})")

    contacts = [s for s in hass.states.async_all("binary_sensor") if s.attributes.get("device_class") == "door"]
    assert len(contacts) == 1, [(s.entity_id, s.attributes) for s in hass.states.async_all("binary_sensor")]
    contact = contacts[0].entity_id
    assert contacts[0].state in ("on", "off"), contacts[0]
    print(f"PASS (the contact sensor is {contact}, a door binary sensor, now {contacts[0].state})")
    # Every state the contact's entity takes, with when: a failed wait shows what did arrive.
    contact_states = []
    hass.bus.async_listen("state_changed", core.callback(
        lambda event: contact_states.append((round(time.monotonic(), 3), event.data["new_state"].state))
        if event.data["entity_id"] == contact and event.data["new_state"] else None))

    buttons = [s for s in hass.states.async_all("event") if "initial_press" in s.attributes.get("event_types", [])]
    assert len(buttons) == 4, [(s.entity_id, s.attributes) for s in hass.states.async_all("event")]
    print(f"PASS (the switch panel's four buttons are event entities: {', '.join(s.entity_id for s in buttons)})")

    # On, dimmed, off: each reaches the device (its own log says so) and comes back as the entity's state.
    for service, data, device_line, expected in [
        ("turn_on", {}, "ON", lambda s: s.state == "on"),
        ("turn_on", {"brightness": 77}, None, lambda s: s.state == "on" and abs(s.attributes["brightness"] - 77) <= 1),
        ("turn_off", {}, "OFF", lambda s: s.state == "off"),
    ]:
        before = len(lines(light_log))
        started = time.monotonic()
        await hass.services.async_call("light", service, {"entity_id": light, **data}, blocking=True)
        said = (lambda: any(l.strip().endswith(device_line) for l in lines(light_log)[before:])) if device_line else (
            lambda: any(" level " in l for l in lines(light_log)[before:]))
        await until(f"the light says it got {service} {data}", said, 10)
        await until(f"{light} shows {service} {data}", lambda: expected(hass.states.get(light)), 10)
        print(f"PASS (light.{service} {data}: the device acted, {light} shows it; "
              f"{(time.monotonic() - started) * 1000:.1f} ms)")

    # CircuitMatter's on/off light (endpoint 1) and dimmable light (endpoint 2), switched through Home Assistant.
    circuit = sorted(s.entity_id for s in hass.states.async_all("light") if "swift_home" not in s.entity_id)
    assert len(circuit) == 2, circuit
    for entity in circuit:
        before = len(lines(circuitmatter_log))
        await hass.services.async_call("light", "turn_on", {"entity_id": entity}, blocking=True)
        await until(f"CircuitMatter says ON for {entity}",
                    lambda: any(l.endswith("] ON") for l in lines(circuitmatter_log)[before:]), 10)
        await until(f"{entity} shows on", lambda: hass.states.get(entity).state == "on", 10)
    print(f"PASS (CircuitMatter's lights are {', '.join(circuit)}; turned on through Home Assistant, the device did)")

    # Figures: the round trip of a device_command through Home Assistant's own client (the call its entities make),
    # and of a whole light.toggle service call, each answered once the device acted.
    client = get_matter(hass).matter_client
    product = matter_clusters.BasicInformation.Attributes.ProductName
    node_id = next(node.node_id for node in client.get_nodes()
                   if node.get_attribute_value(0, None, product) == "swift-home Dimmable Light")
    rtt = []
    for index in range(40):
        command = matter_clusters.OnOff.Commands.On() if index % 2 == 0 else matter_clusters.OnOff.Commands.Off()
        started = time.perf_counter()
        await client.send_device_command(node_id, 1, command)
        rtt.append((time.perf_counter() - started) * 1000)
    toggles = []
    for _ in range(10):
        started = time.perf_counter()
        await hass.services.async_call("light", "toggle", {"entity_id": light}, blocking=True)
        toggles.append((time.perf_counter() - started) * 1000)
    print(f"FIGURE ha_device_command_rtt_ms_p50={statistics.median(rtt):.3f} (40 On/Off through Home Assistant's client)")
    print(f"FIGURE ha_light_toggle_service_ms_p50={statistics.median(toggles):.3f} (10 light.toggle service calls)")

    # By hand on the devices (the shell script acts once it reads ACT): button 2 of the panel is pressed, the contact
    # opened, then closed again. Home Assistant's door sensor is on while the door is open.
    # The panel also presses its buttons on its own, and a button it holds takes no second press until released:
    # any button's press counts.
    pressed = {s.entity_id: s.state for s in buttons}
    # ACT also closes the contact (the device's own simulation may have opened it): the opening below must be seen
    # as a change from closed, not a state it already had.
    print("ACT", flush=True)
    await until("a button press reaches an event entity",
                lambda: any(hass.states.get(e).state != state for e, state in pressed.items()), 20)
    fired = [e for e, state in pressed.items() if hass.states.get(e).state != state]
    print(f"PASS (a button pressed on the panel reaches {fired[0]}: "
          f"{hass.states.get(fired[0]).attributes['event_type']})")
    await until("the contact is closed before it is opened", lambda: hass.states.get(contact).state == "off", 20,
                contact_states)
    was = hass.states.get(contact).state
    seen_before_open = len(contact_states)
    print("OPEN", flush=True)
    # Only what followed the opening counts.
    await until("the opened contact reaches the binary sensor",
                lambda: any(state == "on" for _, state in contact_states[seen_before_open:]), 20, contact_states)
    # Closed only once the open was seen: both changes within one report interval would show only the last.
    print(f"CLOSE at {time.monotonic():.3f}", flush=True)
    await until("the closed contact reaches the binary sensor", lambda: hass.states.get(contact).state == "off", 20,
                contact_states)
    print(f"PASS (the contact opened and closed reaches {contact}: {was} -> on -> off)")

    # One hub, two views: a plug added through Home Assistant (the call its matter/commission command makes) is a
    # device of the Home API too, Home Assistant switches it, and removing the device in Home Assistant (its device
    # page's delete) takes it off the hub.
    before = hub_nodes()
    started = time.monotonic()
    await asyncio.wait_for(get_matter(hass).matter_client.commission_with_code(plug_code, network_only=True), 60)
    seconds = time.monotonic() - started
    await until("the plug's switch entity", lambda: len(hass.states.async_all("switch")) == 1, 10)
    plug = hass.states.async_all("switch")[0].entity_id
    after = hub_nodes()
    added = {node: product for node, product in after.items() if node not in before}
    assert list(added.values()) == ["swift-home Plug"], (before, after)
    print(f"PASS (commissioned through Home Assistant in {seconds:.2f} s: {plug}, and `home devices` lists it as node {list(added)[0]})")
    # From off, and only what the plug says after turn_on counts (not an ON from before).
    if hass.states.get(plug).state != "off":
        await hass.services.async_call("switch", "turn_off", {"entity_id": plug}, blocking=True)
        await until(f"{plug} shows off before it is turned on", lambda: hass.states.get(plug).state == "off", 10)
    plug_lines_before = len(lines(plug_log))
    await hass.services.async_call("switch", "turn_on", {"entity_id": plug}, blocking=True)
    await until("the plug says ON after turn_on",
                lambda: any(l.strip().endswith("ON") for l in lines(plug_log)[plug_lines_before:]), 10)
    await until(f"{plug} shows on", lambda: hass.states.get(plug).state == "on", 10)
    print(f"PASS (switch.turn_on: the plug acted, {plug} shows it)")
    plug_device = device_registry.async_get(hass).async_get(entity_registry.async_get(hass).async_get(plug).device_id)
    assert await matter.async_remove_config_entry_device(hass, entry, plug_device)
    await until("the plug leaves the hub", lambda: hub_nodes() == before, 20)
    await until(f"{plug} goes", lambda: hass.states.get(plug) is None or hass.states.get(plug).state == "unavailable", 10)
    print("PASS (removed in Home Assistant: the hub forgets the plug, `home devices` lists the three again)")

    # home serve restarted under Home Assistant: the integration reloads, and its entities come back and answer.
    print("RESTART", flush=True)
    await until("the entities go unavailable", lambda: hass.states.get(light).state == "unavailable", 30)
    started = time.monotonic()
    await until("the entry loads again", lambda: entry.state is ConfigEntryState.LOADED
                and hass.states.get(light).state not in ("unavailable", "unknown"), 90)
    seconds = time.monotonic() - started
    before = len(lines(light_log))
    await hass.services.async_call("light", "toggle", {"entity_id": light}, blocking=True)
    await until("the light acts after the restart", lambda: len(lines(light_log)) > before, 10)
    print(f"PASS (home serve restarted: the entities came back after {seconds:.1f} s and the light answers)")

    # A firmware update as Home Assistant's update entity does it: check_node_update offers the hub folder's version
    # 2.0-ha, update.install sends update_node, and the light downloads it from the hub and reports it.
    updates = [state.entity_id for state in hass.states.async_all("update") if "dimmable" in state.entity_id]
    assert len(updates) == 1, [state.entity_id for state in hass.states.async_all("update")]
    update = updates[0]
    await until(f"{update} offers 2.0-ha", lambda: hass.states.get(update).attributes.get("latest_version") == "2.0-ha",
                30, [hass.states.get(update).attributes])
    assert hass.states.get(update).state == "on", hass.states.get(update)
    started = time.monotonic()
    await hass.services.async_call("update", "install", {"entity_id": update}, blocking=True)
    await until("the light runs 2.0-ha", lambda: any("now running version 2 (2.0-ha)" in l for l in lines(light_log)), 60)
    await until(f"{update} shows 2.0-ha installed",
                lambda: hass.states.get(update).attributes.get("installed_version") == "2.0-ha", 60,
                [hass.states.get(update).attributes])
    print(f"PASS (update.install: {update} offered 2.0-ha, the light downloaded it from the hub and runs it, "
          f"{time.monotonic() - started:.1f} s)")

    errors = [l for l in lines(f"{config_dir}/home-assistant.log") if " ERROR " in l or "Traceback" in l]
    assert not errors, "\n".join(errors[:10])
    print("PASS (no error in Home Assistant's log)")
    await hass.async_stop()
    print("DONE", flush=True)


asyncio.run(main())
