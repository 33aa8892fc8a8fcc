// swift-home's dashboard: one WebSocket to the hub it was served by, pages drawn from what the hub sends.
// Nothing is fetched from anywhere else, and text from the home is only ever set as text, never parsed as HTML.
"use strict";

const state = {
  home: { structures: [], rooms: [], devices: [] },
  devices: new Map(),
  events: [],          // newest first, at most 200: the hub page's log
  socket: null,
  nextID: 1,
  pending: new Map(),  // action id → { resolve, reject, progress }
  connected: false,
};

const maxEvents = 200;        // the hub page's log: enough to scroll back through a busy hour of a small home
let nameCodePoints = 60;       // the hub says its own in its welcome
const reconnectDelay = 2000;   // ms: a hub restarting is back within seconds; a page retrying faster only adds load
const scanInterval = 300;      // ms between a camera's frames looked at: quick to notice, light on a phone
const attributesRefresh = 1000; // ms at most between a device page's attribute reloads, whatever the reports' pace

// MARK: The connection

function connect() {
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  const socket = new WebSocket(scheme + location.host + "/dashboard/socket");
  state.socket = socket;
  socket.onopen = () => setConnection("Live", false);
  socket.onmessage = (message) => receive(JSON.parse(message.data));
  socket.onclose = () => {
    state.connected = false;
    for (const pending of state.pending.values()) pending.reject(new Error("the connection to the hub closed"));
    state.pending.clear();
    setConnection("Not connected to the hub: trying again…", true);
    setTimeout(connect, reconnectDelay);
  };
}

function setConnection(text, lost) {
  const element = document.getElementById("connection");
  element.textContent = text;
  element.classList.toggle("lost", lost);
}

function receive(message) {
  switch (message.kind) {
    case "welcome":
      state.connected = true;
      nameCodePoints = message.nameCodePoints;
      document.querySelector(".signout").hidden = !message.signedIn;
      setHome(message.home);
      render();
      break;
    case "home":
      setHome(message.home);
      redrawLive();
      break;
    case "devices":
      for (const device of message.devices) state.devices.set(device.id, device);
      updateDevices(message.devices);
      break;
    case "event": {
      state.events.unshift({ device: message.device, text: message.event.text, time: new Date() });
      state.events.length = Math.min(state.events.length, maxEvents);
      const device = state.devices.get(message.device);
      if (device) {
        device.lastEvent = message.event;
        updateDevices([device]);
      }
      if (currentRoute().page === "hub") renderEventLog();
      const log = document.getElementById("device-events");
      if (log && log.dataset.device === message.device) log.prepend(item(new Date().toLocaleTimeString() + "  " + message.event.text));
      break;
    }
    case "progress": {
      const pending = state.pending.get(message.id);
      if (pending && pending.progress) pending.progress(message.text);
      break;
    }
    case "reply":
    case "failure": {
      const pending = state.pending.get(message.id);
      if (!pending) break;
      state.pending.delete(message.id);
      if (message.kind === "reply") pending.resolve(message.result);
      else pending.reject(new Error(message.message));
      break;
    }
  }
}

function setHome(home) {
  state.home = home;
  state.devices = new Map(home.devices.map((device) => [device.id, device]));
}

/// Sends an action; its reply resolves the promise, its failure rejects it with the hub's reason.
function act(action, fields, progress) {
  return new Promise((resolve, reject) => {
    if (!state.socket || state.socket.readyState !== WebSocket.OPEN) {
      reject(new Error("not connected to the hub"));
      return;
    }
    const id = state.nextID++;
    state.pending.set(id, { resolve, reject, progress });
    state.socket.send(JSON.stringify(Object.assign({ id, action }, fields)));
  });
}

// MARK: Building the page (text only ever as text)

function element(tag, attributes, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else if (name === "className") node.className = value;
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function item(text) { return element("li", {}, text); }

function stateBadge(device) {
  const words = { online: "Online", offline: "Offline", asleep: "Asleep", connecting: "Connecting" };
  return element("span", { className: "state " + device.state, title: device.stateText }, words[device.state] || device.state);
}

function roomsOf(structureID) { return state.home.rooms.filter((room) => room.structureID === structureID); }

function devicesIn(roomID, structureID) {
  return [...state.devices.values()].filter((device) =>
    roomID === null ? device.roomID === null && device.structureID === structureID : device.roomID === roomID);
}

// MARK: Controls (the same on a card and on a device's page)

function controls(device) {
  const offline = device.state === "offline";
  return device.controls.map((control) => {
    switch (control.kind) {
      case "onOff":
        return element("div", { className: "control" },
          element("button", {
            type: "button", "aria-pressed": control.on ? "true" : "false", "data-control": "onOff",
            "aria-label": device.name + ": " + (control.on ? "on, press to turn off" : "off, press to turn on"),
            disabled: offline,
            onclick: (event) => run(event.currentTarget, act("toggle", { device: device.id })),
          }, control.on ? "On" : "Off"));
      case "level": {
        const id = "level-" + device.id;
        const percent = control.value === null ? "unknown" : Math.round(control.value * 100 / 254) + " %";
        return element("div", { className: "control" },
          element("label", { for: id }, "Brightness ", element("span", { className: "value" }, percent)),
          element("input", {
            id, type: "range", min: control.min, max: control.max, value: control.value ?? control.min,
            "data-control": "level", disabled: offline,
            onchange: (event) => run(event.currentTarget, act("level", { device: device.id, level: Number(event.currentTarget.value) })),
          }));
      }
      case "colorTemperature": {
        const id = "ct-" + device.id;
        return element("div", { className: "control" },
          element("label", { for: id }, "Colour temperature ",
            element("span", { className: "value" }, Math.round(1000000 / control.mireds) + " K")),
          element("input", {
            id, type: "range", min: control.min, max: control.max, value: control.mireds,
            "data-control": "colorTemperature", disabled: offline,
            "aria-valuetext": Math.round(1000000 / control.mireds) + " kelvin",
            onchange: (event) => run(event.currentTarget, act("colorTemperature", { device: device.id, mireds: Number(event.currentTarget.value) })),
          }));
      }
      case "contact":
        return element("p", { className: "control reading", "data-control": "contact" }, control.closed ? "Closed" : "Open");
      case "reading":
        return element("p", { className: "control reading" }, control.label + ": ", element("strong", {}, control.text));
      default:
        return null;
    }
  }).concat(device.lastEvent ? [element("p", { className: "hint" }, "Last event: " + device.lastEvent.text)] : []);
}

/// Disables the control while its action is under way; says the hub's reason when it fails.
function run(control, promise) {
  control.disabled = true;
  promise.then(() => { control.disabled = false; })
    .catch((error) => {
      control.disabled = false;
      flash(error.message);
    });
}

function flash(message) {
  const main = document.getElementById("main");
  let alert = document.getElementById("alert");
  if (!alert) {
    alert = element("p", { id: "alert", className: "failure", role: "alert" });
    main.prepend(alert);
  }
  alert.textContent = message;
}

function card(device) {
  return element("article", { className: "card " + device.state, "data-device": device.id, "aria-label": device.name },
    element("h3", {}, element("a", { href: "#/device/" + encodeURIComponent(device.id) }, device.name)),
    element("p", { className: "type" }, device.types.join(", ") || "Device"),
    element("div", {}, stateBadge(device)),
    controls(device));
}

/// After the home changed shape: the pages that list it are drawn again; a device's page only in its live parts
/// (what is being typed stays); the pages of forms (adding a device) are left alone.
function redrawLive() {
  const route = currentRoute();
  if (route.page === "home" || route.page === "nodes") render();
  else if (route.page === "device") renderDevice(route.id, state.devices.has(route.id));
}

/// Redraws what shows these devices, keeping the keyboard where it was.
function updateDevices(devices) {
  const route = currentRoute();
  if (route.page !== "home" && route.page !== "device") return;
  for (const device of devices) {
    if (route.page === "device") {
      if (route.id === device.id) renderDevice(route.id, true);
      continue;
    }
    const old = document.querySelector('article[data-device="' + CSS.escape(device.id) + '"]');
    if (!old) { render(); return; }
    const focused = old.contains(document.activeElement) ? document.activeElement.dataset.control : null;
    const fresh = card(device);
    old.replaceWith(fresh);
    if (focused) fresh.querySelector('[data-control="' + focused + '"]')?.focus();
  }
}

// MARK: Pages

function currentRoute() {
  let parts;
  try {
    parts = location.hash.replace(/^#\/?/, "").split("/").map(decodeURIComponent);
  } catch {
    parts = [];  // a hash that is not percent-encoding: the home page
  }
  switch (parts[0]) {
    case "device": return { page: "device", id: parts[1] };
    case "add": return { page: "add" };
    case "nodes": return parts[1] ? { page: "node", id: parts[1] } : { page: "nodes" };
    case "hub": return { page: "hub" };
    default: return { page: "home" };
  }
}

function render() {
  const route = currentRoute();
  for (const link of document.querySelectorAll("nav a")) {
    const target = link.getAttribute("href").replace(/^#\/?/, "") || "home";
    const current = route.page === target || (route.page === "node" && target === "nodes");
    if (current) link.setAttribute("aria-current", "page"); else link.removeAttribute("aria-current");
  }
  if (!state.connected) return;
  switch (route.page) {
    case "device": renderDevice(route.id, false); break;
    case "add": renderAdd(); break;
    case "nodes": renderNodes(); break;
    case "node": renderNode(route.id); break;
    case "hub": renderHub(); break;
    default: renderHome();
  }
}

function show(title, ...content) {
  const main = document.getElementById("main");
  main.replaceChildren(element("h1", {}, title), ...content);
  document.title = title + " — swift-home";
}

function renderHome() {
  const sections = [];
  if (state.devices.size === 0) {
    sections.push(element("p", {}, "No devices yet. ", element("a", { href: "#/add" }, "Add one"), " with the code on its box."));
  }
  for (const structure of state.home.structures) {
    if (state.home.structures.length > 1) sections.push(element("h2", {}, structure.name));
    const rooms = roomsOf(structure.id).map((room) => [room.name, devicesIn(room.id, structure.id)]);
    rooms.push(["No room", devicesIn(null, structure.id)]);
    for (const [name, devices] of rooms) {
      if (devices.length === 0) continue;
      sections.push(element("section", { "aria-label": name },
        element(state.home.structures.length > 1 ? "h3" : "h2", {}, name),
        element("div", { className: "cards" }, devices.map(card))));
    }
  }
  show("Home", ...sections);
}

function renderDevice(id, live) {
  const device = state.devices.get(id);
  if (!device) { show("Device", element("p", {}, "No device " + id + " in the home.")); return; }
  if (live) {
    // Only the live parts: forms being typed into stay as they are.
    const heading = document.querySelector("main h1");
    if (heading) heading.textContent = device.name;
    document.title = device.name + " — swift-home";
    document.getElementById("device-state")?.replaceChildren(stateBadge(device));
    const attributes = document.getElementById("attributes");
    if (attributes && !attributes.dataset.pending) {
      // At most once a second, whatever the reports' pace.
      attributes.dataset.pending = "1";
      setTimeout(() => { delete attributes.dataset.pending; loadAttributes(device, attributes); }, attributesRefresh);
    }
    const holder = document.getElementById("device-controls");
    if (holder) {
      const focused = holder.contains(document.activeElement) ? document.activeElement.dataset.control : null;
      holder.replaceChildren(...controls(device));
      if (focused) holder.querySelector('[data-control="' + focused + '"]')?.focus();
    }
    return;
  }
  const rename = element("input", { id: "rename", type: "text", value: device.name, "aria-describedby": "rename-hint" });
  const renameHint = element("p", { id: "rename-hint", className: "hint" });
  const countLeft = () => {
    const length = [...rename.value].length;
    renameHint.textContent = length + " of " + nameCodePoints + " characters" +
      (length > nameCodePoints ? ": the name will be cut to the first " + nameCodePoints : "");
  };
  rename.addEventListener("input", countLeft);
  countLeft();
  const room = element("select", { id: "room" },
    element("option", { value: "" }, "No room"),
    state.home.rooms.map((r) => element("option", { value: r.id, selected: r.id === device.roomID }, r.name)),
    element("option", { value: "new" }, "A new room…"));
  const newRoom = element("input", { id: "new-room", type: "text", placeholder: "The new room's name", hidden: true });
  room.addEventListener("change", () => { newRoom.hidden = room.value !== "new"; });
  const result = element("p", { role: "status", "aria-live": "polite" });
  const say = (ok, text) => { result.className = ok ? "success" : "failure"; result.textContent = text; };
  const events = element("ul", { id: "device-events", className: "log", "data-device": device.id, "aria-live": "polite" },
    state.events.filter((e) => e.device === device.id).map((e) => item(e.time.toLocaleTimeString() + "  " + e.text)));
  const share = element("div", { id: "share" });
  const fabrics = element("div", { id: "fabrics" });
  const attributes = element("div", { id: "attributes" }, element("p", { className: "hint" }, "Reading…"));
  const commands = element("div", { id: "commands" });
  const firmware = element("div", { id: "firmware" }, element("p", { className: "hint" }, "Reading…"));

  show(device.name,
    element("p", { className: "type" }, device.types.join(", "), " · ", [device.vendor, device.product].filter(Boolean).join(" ")),
    element("p", { id: "device-state" }, stateBadge(device)),
    element("div", { id: "device-controls", className: "row" }, controls(device)),
    result,
    element("section", { className: "panel", "aria-labelledby": "name-heading" },
      element("h2", { id: "name-heading" }, "Name and room"),
      element("form", {
        onsubmit: (event) => {
          event.preventDefault();
          act("rename", { device: device.id, name: rename.value })
            .then((name) => say(true, "Renamed “" + name + "”."), (error) => say(false, error.message));
        },
      }, element("label", { for: "rename" }, "Name"), rename, renameHint, element("button", { type: "submit" }, "Rename")),
      element("form", {
        onsubmit: async (event) => {
          event.preventDefault();
          try {
            let roomID = room.value;
            if (roomID === "new") roomID = await act("createRoom", { name: newRoom.value });
            if (roomID === "") throw new Error("choose a room");
            await act("move", { device: device.id, room: roomID });
            say(true, "Moved.");
          } catch (error) { say(false, error.message); }
        },
      }, element("label", { for: "room" }, "Room"), room, newRoom, element("button", { type: "submit" }, "Move"))),
    element("section", { className: "panel", "aria-labelledby": "share-heading" },
      element("h2", { id: "share-heading" }, "Share with another app"),
      element("p", { className: "hint" }, "Opens the device to be added by another home app for 15 minutes."),
      element("button", { type: "button", onclick: (event) => shareDevice(device, share, event.currentTarget) }, "Share"),
      share,
      element("h3", {}, "Apps that control it"),
      element("button", { type: "button", onclick: () => loadFabrics(device, fabrics) }, "Show"),
      fabrics),
    element("section", { className: "panel", "aria-labelledby": "commands-heading" },
      element("h2", { id: "commands-heading" }, "Commands"),
      element("p", { className: "hint" }, "Every command its clusters accept, with fields as the data model gives them."),
      element("button", { type: "button", onclick: (event) => loadCommands(device, commands, event.currentTarget) }, "Show the commands"),
      commands),
    element("section", { className: "panel", "aria-labelledby": "firmware-heading" },
      element("h2", { id: "firmware-heading" }, "Firmware"), firmware),
    element("section", { className: "panel", "aria-labelledby": "events-heading" },
      element("h2", { id: "events-heading" }, "Events"), events),
    element("section", { className: "panel", "aria-labelledby": "attributes-heading" },
      element("h2", { id: "attributes-heading" }, "Attributes"), attributes,
      element("p", {}, element("a", { href: "#/nodes/" + device.node }, "The whole node"))),
    element("section", { className: "panel", "aria-labelledby": "remove-heading" },
      element("h2", { id: "remove-heading" }, "Remove"),
      element("button", {
        type: "button", className: "danger",
        onclick: () => {
          if (!confirm("Remove " + device.name + " from the home? It leaves this hub's fabric.")) return;
          act("remove", { device: device.id }).then(() => { location.hash = "#/"; }, (error) => say(false, error.message));
        },
      }, "Remove from the home")));
  loadAttributes(device, attributes);
  loadFirmware(device, firmware);
}

function loadFirmware(device, holder) {
  act("firmware", { device: device.id }).then((firmware) => {
    if (!firmware) { holder.replaceChildren(element("p", {}, "Its version is not known yet.")); return; }
    const running = element("p", {}, "Running ", element("strong", {}, firmware.running || "an unknown version"), ".");
    if (!firmware.available) {
      holder.replaceChildren(running, element("p", { className: "hint" },
        "No newer image for it in the hub's folder (home update add, home update fetch)."));
      return;
    }
    const progress = element("p", { role: "status", "aria-live": "polite" });
    const button = element("button", { type: "button", className: "primary" }, "Update to " + firmware.available.versionString);
    button.addEventListener("click", () => {
      button.disabled = true;
      progress.className = "";
      progress.textContent = "Telling the device…";
      act("update", { device: device.id }, (line) => { progress.textContent = line; }).then((version) => {
        progress.className = "success";
        progress.textContent = "It runs " + version + " now.";
      }, (error) => {
        button.disabled = false;
        progress.className = "failure";
        progress.textContent = error.message;
      });
    });
    holder.replaceChildren(running, element("p", {}, button), progress,
      firmware.available.releaseNotes ? element("p", { className: "hint" }, "Release notes: " + firmware.available.releaseNotes) : null);
  }, (error) => holder.replaceChildren(element("p", { className: "failure" }, error.message)));
}

function loadCommands(device, holder, button) {
  button.disabled = true;
  act("commands", { device: device.id }).then((clusters) => {
    button.hidden = true;
    if (clusters.length === 0) holder.replaceChildren(element("p", {}, "It accepts no commands."));
    else holder.replaceChildren(...clusters.map((cluster) => element("details", {},
      element("summary", {}, cluster.name),
      cluster.commands.map((command) => commandForm(device, cluster, command)))));
  }, (error) => {
    button.disabled = false;
    holder.replaceChildren(element("p", { className: "failure" }, error.message));
  });
}

/// A form made from a command's fields: a checkbox for a boolean, a list for an enum, a number within its range,
/// text, base64 for bytes, JSON for a structure or a list. A field left empty is left out (or null, when it may be).
function commandForm(device, cluster, command) {
  const prefix = "command-" + cluster.id + "-" + command.name + "-";
  const inputs = command.fields.map((field) => {
    const id = prefix + field.name;
    let input;
    let hint = field.kind;
    if (field.kind === "bool") {
      input = element("input", { id, type: "checkbox" });
    } else if (field.values) {
      input = element("select", { id },
        field.optional || field.nullable ? element("option", { value: "" }, field.optional ? "(leave out)" : "(null)") : null,
        field.values.map((v) => element("option", { value: v.value }, v.name + " (" + v.value + ")")));
      hint = "one of its values";
    } else if (field.kind === "unsigned" || field.kind === "signed" || field.kind === "number") {
      input = element("input", { id, type: "number", step: field.kind === "number" ? "any" : "1", min: field.min ?? undefined, max: field.max ?? undefined });
      if (field.min !== undefined && field.max !== undefined && field.max !== null) hint = field.min + " to " + field.max;
      if (field.bitmap !== undefined) hint += ", a bitmap (known bits 0x" + field.bitmap.toString(16) + ")";
    } else if (field.kind === "structure" || field.kind === "list") {
      input = element("textarea", { id, rows: 2, cols: 40 });
      hint = "JSON (a " + field.kind + ")";
    } else {
      input = element("input", { id, type: "text" });
      if (field.kind === "bytes") hint = "base64";
    }
    input.dataset.field = field.name;
    return [element("label", { for: id }, field.name, " ",
      element("span", { className: "hint" }, "(" + hint + (field.optional ? ", optional" : "") + (field.nullable ? ", may be null" : "") + ")")), input, field];
  });
  const outcome = element("p", { role: "status", "aria-live": "polite" });
  return element("form", {
    className: "panel",
    onsubmit: (event) => {
      event.preventDefault();
      const fields = {};
      try {
        for (const [, input, field] of inputs) {
          if (field.kind === "bool") { fields[field.name] = input.checked; continue; }
          const text = input.value.trim();
          if (text === "") {
            if (field.optional) continue;
            if (field.nullable) { fields[field.name] = null; continue; }
            throw new Error(field.name + " is needed");
          }
          if (field.values || field.kind === "unsigned" || field.kind === "signed" || field.kind === "number") {
            const number = Number(text);
            if (!Number.isFinite(number)) throw new Error(field.name + " is a number");
            fields[field.name] = number;
          } else if (field.kind === "structure" || field.kind === "list") {
            fields[field.name] = JSON.parse(text);
          } else {
            fields[field.name] = text;
          }
        }
      } catch (error) {
        outcome.className = "failure";
        outcome.textContent = error.message;
        return;
      }
      act("invoke", { device: device.id, cluster: cluster.id, command: command.name, fields }).then((response) => {
        outcome.className = "success";
        outcome.textContent = response === null ? "Done." : "Answered: " + JSON.stringify(response);
      }, (error) => {
        outcome.className = "failure";
        outcome.textContent = error.message;
      });
    },
  }, element("h3", {}, command.name + (command.timed ? " (timed)" : "")),
    inputs.map(([label, input]) => [label, input]),
    element("p", {}, element("button", { type: "submit" }, "Send " + command.name)), outcome);
}

function loadAttributes(device, holder) {
  act("node", { node: device.node }).then((node) => {
    const prefix = device.endpoint + "/";
    const rows = Object.entries(node.attributes || {}).filter(([path]) => path.startsWith(prefix));
    holder.replaceChildren(attributeTable(rows));
  }, (error) => holder.replaceChildren(element("p", { className: "failure" }, error.message)));
}

function attributeTable(rows) {
  return element("table", {},
    element("thead", {}, element("tr", {}, element("th", { scope: "col" }, "Path"), element("th", { scope: "col" }, "Value"))),
    element("tbody", {}, rows.map(([path, value]) =>
      element("tr", {}, element("td", {}, path), element("td", { className: "value" }, JSON.stringify(value))))));
}

function shareDevice(device, holder, button) {
  button.disabled = true;
  holder.replaceChildren(element("p", { className: "hint" }, "Opening a window…"));
  act("share", { device: device.id }).then((window) => {
    button.disabled = false;
    const left = element("p", { role: "timer", "aria-live": "off" });
    const tick = () => {
      const seconds = Math.max(0, Math.round(window.expiresAt - Date.now() / 1000));
      left.textContent = seconds > 0 ? Math.floor(seconds / 60) + " min " + (seconds % 60) + " s left" : "The window has closed.";
      if (seconds > 0 && document.body.contains(left)) setTimeout(tick, 1000);
    };
    const image = element("img", {
      className: "qr", alt: "QR code to share " + device.name,
      src: "data:image/svg+xml;base64," + btoa(window.qrSVG),
    });
    holder.replaceChildren(image,
      element("p", {}, "Manual code: ", element("span", { className: "code" }, window.manualCode)),
      element("p", { className: "hint" }, window.qrCode), left);
    tick();
  }, (error) => {
    button.disabled = false;
    holder.replaceChildren(element("p", { className: "failure" }, error.message));
  });
}

function loadFabrics(device, holder) {
  act("fabrics", { device: device.id }).then((fabrics) => {
    holder.replaceChildren(element("ul", {}, fabrics.map((fabric) => element("li", {},
      fabric.label || "(no label)", " — ", fabric.vendor, fabric.ours ? " (this hub)" : " ",
      fabric.ours ? null : element("button", {
        type: "button", className: "danger",
        onclick: () => {
          if (!confirm("Take " + (fabric.label || fabric.vendor) + " off " + device.name + "?")) return;
          act("removeFabric", { device: device.id, index: fabric.index })
            .then(() => loadFabrics(device, holder), (error) => flash(error.message));
        },
      }, "Remove")))));
  }, (error) => holder.replaceChildren(element("p", { className: "failure" }, error.message)));
}

function renderAdd() {
  const code = element("input", { id: "code", type: "text", autocomplete: "off", required: true, "aria-describedby": "code-hint" });
  const name = element("input", { id: "name", type: "text", autocomplete: "off" });
  const room = element("select", { id: "add-room" },
    element("option", { value: "" }, "No room"),
    state.home.rooms.map((r) => element("option", { value: r.name }, r.name)));
  const networks = element("div", {});
  act("networks", {}).then((entries) => {
    const choice = (kind, label) => {
      const mine = entries.filter((entry) => entry.kind === kind);
      if (mine.length === 0) return [];
      const id = "add-" + kind;
      return [element("label", { for: id }, label),
        element("select", { id }, mine.map((entry) => element("option", { value: entry.id }, entry.name + " (" + entry.id + ")")))];
    };
    networks.replaceChildren(
      element("p", { className: "hint" }, "A device fresh from its box is reached over Bluetooth LE and given one of the hub's networks:"),
      ...choice("wifi", "Wi-Fi network"), ...choice("thread", "Thread network"));
    if (entries.length === 0) networks.replaceChildren(element("p", { className: "hint" },
      "A device fresh from its box needs a network to join: give the hub one with home network wifi or home network thread."));
  }, () => {});
  const steps = element("ol", { className: "steps", "aria-live": "polite", role: "log" });
  const result = element("p", { role: "status", "aria-live": "polite" });
  const submit = element("button", { type: "submit", className: "primary" }, "Add the device");
  const scanning = [];
  if ("BarcodeDetector" in window) {
    const photo = element("input", { id: "photo", type: "file", accept: "image/*", capture: "environment" });
    photo.addEventListener("change", async () => {
      try {
        const image = await createImageBitmap(photo.files[0]);
        const found = await new BarcodeDetector({ formats: ["qr_code"] }).detect(image);
        const matter = found.find((code) => code.rawValue.startsWith("MT:"));
        if (matter) code.value = matter.rawValue; else flash("No Matter QR code in that picture.");
      } catch (error) { flash("The picture could not be read: " + error.message); }
    });
    scanning.push(element("label", { for: "photo" }, "Or read the QR code from a photo"), photo);
    if (navigator.mediaDevices && navigator.mediaDevices.getUserMedia) {
      const video = element("video", { playsinline: true, muted: true, hidden: true, width: 320 });
      const camera = element("button", { type: "button" }, "Or scan it with the camera");
      camera.addEventListener("click", async () => {
        if (video.srcObject) return;  // already looking
        let stream;
        try {
          stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment" } });
        } catch (error) { flash("The camera could not be opened: " + error.message); return; }
        video.srcObject = stream;
        video.hidden = false;
        await video.play();
        const detector = new BarcodeDetector({ formats: ["qr_code"] });
        const stop = () => { for (const track of stream.getTracks()) track.stop(); video.srcObject = null; video.hidden = true; };
        const look = async () => {
          if (!document.body.contains(video)) return stop();
          const found = await detector.detect(video).catch(() => []);
          const matter = found.find((code) => code.rawValue.startsWith("MT:"));
          if (matter) { code.value = matter.rawValue; stop(); name.focus(); } else setTimeout(look, scanInterval);
        };
        look();
      });
      scanning.push(element("p", {}, camera), video);
    }
  }
  show("Add a device",
    element("form", {
      onsubmit: (event) => {
        event.preventDefault();
        submit.disabled = true;
        steps.replaceChildren();
        result.textContent = "";
        result.className = "";
        const wifi = document.getElementById("add-wifi")?.value, thread = document.getElementById("add-thread")?.value;
        act("commission", { code: code.value, name: name.value || undefined, room: room.value || undefined, wifi, thread },
          (line) => steps.append(item(line)))
          .then((devices) => {
            submit.disabled = false;
            result.className = "success";
            result.replaceChildren("Added. ", ...devices.map((id) =>
              element("a", { href: "#/device/" + encodeURIComponent(id) }, state.devices.get(id)?.name || id)));
          }, (error) => {
            submit.disabled = false;
            result.className = "failure";
            result.textContent = error.message;
          });
      },
    },
      element("label", { for: "code" }, "The code on the device"), code,
      element("p", { id: "code-hint", className: "hint" }, "Its manual code (11 or 21 digits) or its QR code's text (MT:…)."),
      scanning,
      element("label", { for: "name" }, "Name (optional)"), name,
      element("label", { for: "add-room" }, "Room"), room,
      networks,
      element("p", {}, submit)),
    element("h2", {}, "Steps"), steps, result);
  code.focus();
}

function nodes() {
  const byNode = new Map();
  for (const device of state.devices.values()) {
    if (!byNode.has(device.node)) byNode.set(device.node, []);
    byNode.get(device.node).push(device);
  }
  return byNode;
}

function renderNodes() {
  const rows = [...nodes()].map(([node, devices]) => element("tr", {},
    element("td", {}, element("a", { href: "#/nodes/" + node }, node)),
    element("td", {}, devices.map((d) => d.name).join(", ")),
    element("td", {}, [devices[0].vendor, devices[0].product].filter(Boolean).join(" ")),
    element("td", {}, stateBadge(devices[0]))));
  show("Nodes",
    element("table", {},
      element("thead", {}, element("tr", {}, ["Node", "Devices", "Product", "State"].map((h) => element("th", { scope: "col" }, h)))),
      element("tbody", {}, rows)));
}

function renderNode(id) {
  const holder = element("div", {}, element("p", { className: "hint" }, "Reading…"));
  show("Node " + id,
    element("p", {}, element("a", { href: "/dashboard/diagnostics/" + encodeURIComponent(id) + ".json", download: "node-" + id + ".json" }, "Download its diagnostics (JSON)")),
    holder);
  act("node", { node: id }).then((node) => {
    holder.replaceChildren(
      element("dl", { className: "facts" },
        element("dt", {}, "Available"), element("dd", {}, node.available ? "yes" : "no"),
        element("dt", {}, "Interviewed"), element("dd", {}, node.last_interview ? String(node.last_interview) : "yes"),
        element("dt", {}, "Bridge"), element("dd", {}, node.is_bridge ? "yes" : "no")),
      element("h2", {}, "Attributes"),
      attributeTable(Object.entries(node.attributes || {})));
  }, (error) => holder.replaceChildren(element("p", { className: "failure" }, error.message)));
}

function renderHub() {
  const facts = element("dl", { className: "facts" }, element("dt", {}, "Reading…"), element("dd", {}));
  show("Hub", facts, element("h2", {}, "Events"), element("ul", { id: "event-log", className: "log", "aria-live": "polite" }));
  renderEventLog();
  act("status").then((status) => {
    const uptime = Math.max(0, Math.round(Date.now() / 1000 - status.startedAt));
    const hours = Math.floor(uptime / 3600), minutes = Math.floor((uptime % 3600) / 60);
    facts.replaceChildren(
      element("dt", {}, "Up for"), element("dd", {}, hours + " h " + minutes + " min"),
      element("dt", {}, "Nodes online"), element("dd", { id: "nodes-online" }, String(status.nodesOnline)),
      element("dt", {}, "Nodes offline"), element("dd", { id: "nodes-offline" }, String(status.nodesOffline)),
      element("dt", {}, "Clients"), element("dd", {}, String(status.clients)),
      element("dt", {}, "Process"), element("dd", {}, "PID " + status.pid));
  }, (error) => facts.replaceChildren(element("dt", {}, "Status"), element("dd", { className: "failure" }, error.message)));
}

function renderEventLog() {
  const log = document.getElementById("event-log");
  if (!log) return;
  log.replaceChildren(...(state.events.length === 0 ? [item("No events since this page opened.")] :
    state.events.map((e) => item(e.time.toLocaleTimeString() + "  " + (state.devices.get(e.device)?.name || e.device) + "  " + e.text))));
}

window.addEventListener("hashchange", () => { render(); document.getElementById("main").focus(); });
window.addEventListener("DOMContentLoaded", () => { render(); connect(); });
