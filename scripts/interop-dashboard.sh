#!/usr/bin/env bash
# The web dashboard in a real browser (Debian's Chromium, headless, driven by Selenium through chromedriver), inside
# a network namespace that holds only `lo`, against `home serve --listen` with virtual devices:
#   - the home page lists the devices with their state; a light's switch clicked turns the virtual light on (its own
#     log says so) and the page shows the report (its button pressed);
#   - the light's brightness slider moved dims it (its level reported back);
#   - a device is added from the page by its manual code (a switch panel advertising on lo): each step is shown as it
#     is done, and the device is in the list after; a light fresh from its box (on no IP network, its own BLE proxy
#     client of the hub's /ble) is added from its QR code over Bluetooth LE, given the hub's Wi-Fi, and comes online;
#   - a device is renamed from its page with a name over 60 characters: cut to 60; OnOff's Off sent from the form
#     the data model makes reaches the light (its log says OFF);
#   - its share window gives a QR image that zbarimg (a decoder nobody here wrote) reads as the window's code;
#   - the light killed: its card says Offline within its liveness time;
#   - no request from the page leaves the hub's origin (the browser's own network log);
#   - with a token: a page without the session goes to the sign-in, the live socket is refused, a wrong token is
#     said so, the right one signs in; a page from another origin cannot open the socket, and a Host that is not
#     loopback is refused when there is no token (DNS rebinding);
#   - screenshots of the main pages at phone and desktop widths into docs/dashboard/ (DASHBOARD_SCREENSHOTS=DIR
#     to put them elsewhere).
#
#   sudo scripts/interop-dashboard.sh        (after `swift build`; needs root for ip netns)
#
# Nothing leaves the namespace. Every wait is bounded; processes and namespace go on exit.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
peers="$(dirname "$0")/../../shared/peers"
export LAB_NS="${LAB_NS:-swifthome-dash-$$}"
bin="$repo/.build/debug"
[ -x "$bin/home" ] && [ -x "$bin/matter-device" ] || { echo "FAIL: run swift build first" >&2; exit 1; }
"$repo/scripts/apt-install.sh" chromium chromium-driver python3-selenium zbar-tools
source "$(dirname "$0")/lab-work.sh"
shots="${DASHBOARD_SCREENSHOTS:-$repo/docs/dashboard}"
mkdir -p "$shots"
fail() {
  echo "FAIL: $*" >&2
  for log in serve.out serve2.out light.out switch.out fresh.out; do
    [ -f "$work/$log" ] && tail -n 30 "$work/$log" | sed "s/^/  $log: /" >&2
  done
  exit 1
}
home() { timeout 120 "$peers/lab.sh" exec "$bin/home" "$@" --state "$work/hub"; }
"$peers/lab.sh" up

# A dimmable light commissioned into the Living room before the hub serves.
"$peers/lab.sh" exec "$bin/matter-device" --state "$work/light" --type dimmable-light --port 5542 >"$work/light.out" 2>&1 &
light_pid=$!
pids+=("$light_pid")
timeout 30 bash -c "until head -n1 '$work/light.out' | grep -q '^{'; do sleep 0.1; done" || fail "the light printed no setup line"
"$bin/matter-device" attestation export "$work/paa" --state "$work/light" >/dev/null
code="$(python3 -c 'import json,sys; print(json.loads(open(sys.argv[1]).readline())["qr"])' "$work/light.out")"
home commission "$code" --address "[::1]:5542" --paa-trust-store "$work/paa" --name Lamp --room Living >/dev/null \
  2>"$work/commission.err" || fail "commissioning: $(cat "$work/commission.err")"

# A switch panel in commissioning mode, advertising on lo, for the page to add; its PAA trusted by the hub.
"$peers/lab.sh" exec "$bin/matter-device" --state "$work/switch" --type switch-panel --port 5540 --interface lo \
  >"$work/switch.out" 2>&1 &
pids+=($!)
timeout 30 bash -c "until head -n1 '$work/switch.out' | grep -q '^{'; do sleep 0.1; done" || fail "the switch printed no setup line"
"$bin/matter-device" attestation export "$work/switch-paa" --state "$work/switch" >/dev/null
mkdir -p "$work/hub/paa" && cp "$work/switch-paa/paa.der" "$work/hub/paa/switch-panel.der"
switch_code="$(python3 -c 'import json,sys; print(json.loads(open(sys.argv[1]).readline())["manual_code"])' "$work/switch.out")"

serve() {  # serve <log> [options…]
  local log="$1"
  shift
  "$peers/lab.sh" exec "$bin/home" serve --state "$work/hub" --interface lo --listen 127.0.0.1:5580 "$@" >"$work/$log" 2>&1 &
  serve_pid=$!
  pids+=("$serve_pid")
  timeout 30 bash -c "until grep -q 'Matter-server API at' '$work/$log'; do sleep 0.1; done" || fail "home serve never listened"
}
# Sharing and the fabrics are an administrator's: a loopback listener without a token is given them here.
serve serve.out --api-grant devices,administer
timeout 30 bash -c "until grep -q ')  online' '$work/serve.out'; do sleep 0.1; done" || fail "the light never came online"

# A light fresh from its box, on no IP network, reached over Bluetooth LE through the hub's /ble (it is its own BLE
# proxy client); the hub holds the Wi-Fi network it is to join.
printf 'secret99\n' | home network wifi home --password-file - >/dev/null || fail "home network wifi"
"$peers/lab.sh" exec "$bin/matter-device" --type light --port 5543 --interface lo --state "$work/fresh" \
  --wifi home:secret99 --ble-proxy ws://127.0.0.1:5580/ble >"$work/fresh.out" 2>&1 &
pids+=($!)
timeout 30 bash -c "until grep -q 'as a BLE proxy' '$work/fresh.out'; do sleep 0.1; done" || fail "the fresh light never reached /ble"
"$bin/matter-device" attestation export "$work/fresh-paa" --state "$work/fresh" >/dev/null
cp "$work/fresh-paa/paa.der" "$work/hub/paa/fresh-light.der"
fresh_qr="$(python3 -c 'import json,sys; print(json.loads(open(sys.argv[1]).readline())["qr"])' "$work/fresh.out")"

# browser <step> <args…>: one Selenium session in the namespace running the step of the Python below.
browser() {
  "$peers/lab.sh" exec timeout 300 /usr/bin/python3 "$work/browser.py" "$@" || fail "the browser's step $1"
}
cat >"$work/browser.py" <<'PY'
import json, subprocess, sys, time, urllib.request, urllib.error, http.client
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

base = "http://127.0.0.1:5580"
step, work, shots = sys.argv[1], sys.argv[2], sys.argv[3]

def fail(message):
    print("FAIL: " + message, file=sys.stderr)
    sys.exit(1)

def until(what, seconds, check):
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            value = check()
            if value:
                return value
        except Exception:
            pass
        time.sleep(0.1)
    fail(what + " within %d s" % seconds)

def open_browser():
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1280,900", "--no-first-run", "--disable-extensions",
                     "--disable-background-networking", "--disable-component-update", "--disable-sync",
                     "--disable-default-apps", "--no-default-browser-check", "--metrics-recording-only"]:
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"performance": "ALL", "browser": "ALL"})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)

def card(driver, name):
    for element in driver.find_elements(By.CSS_SELECTOR, "article.card"):
        if element.get_attribute("aria-label") == name:
            return element
    return None

def shoot(driver, name):
    for width, label in [(1280, "desktop"), (390, "phone")]:
        driver.set_window_size(width, 900 if width > 600 else 844)
        time.sleep(0.3)
        driver.save_screenshot("%s/%s-%s.png" % (shots, name, label))
    driver.set_window_size(1280, 900)

def requests_left_origin(driver):
    strangers = []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message.get("method") not in ("Network.requestWillBeSent", "Network.webSocketCreated"):
            continue
        params = message["params"]
        url = params.get("request", {}).get("url") or params.get("url", "")
        if url.startswith("data:") or url.startswith(base) or url.startswith("ws://127.0.0.1:5580/"):
            continue
        strangers.append(url)
    return strangers

def light_log():
    return open(work + "/light.out").read()

if step == "open":
    driver = open_browser()
    try:
        driver.get(base + "/")
        lamp = until("the Lamp's card, online", 20, lambda: (c := card(driver, "Lamp")) and "Online" in c.text and c)
        if "Living" not in driver.find_element(By.ID, "main").text:
            fail("the Living room is not shown")
        shoot(driver, "home")
        # The switch: the light's own log says ON, and the page shows the report.
        ons = light_log().count("] ON")
        card(driver, "Lamp").find_element(By.CSS_SELECTOR, 'button[data-control="onOff"]').click()
        until("the light's log saying ON", 10, lambda: light_log().count("] ON") > ons)
        until("the page showing the light on", 10, lambda: card(driver, "Lamp").find_element(
            By.CSS_SELECTOR, 'button[data-control="onOff"]').get_attribute("aria-pressed") == "true")
        # The brightness slider, moved by the keyboard: the level reported back.
        slider = card(driver, "Lamp").find_element(By.CSS_SELECTOR, 'input[data-control="level"]')
        driver.execute_script("arguments[0].value = 64; arguments[0].dispatchEvent(new Event('change'))", slider)
        until("the page showing the light dimmed to 25 %", 10, lambda: "25 %" in card(driver, "Lamp").text)
        # Adding the switch panel by its manual code.
        driver.get(base + "/#/add")
        until("the add page", 10, lambda: driver.find_element(By.ID, "code"))
        driver.find_element(By.ID, "code").send_keys(sys.argv[4])
        driver.find_element(By.ID, "name").send_keys("Hall switch")
        shoot(driver, "add")
        driver.find_element(By.CSS_SELECTOR, "button.primary").click()
        until("the device added", 90, lambda: "Added" in driver.find_element(By.CSS_SELECTOR, "p.success").text)
        steps = driver.find_elements(By.CSS_SELECTOR, "ol.steps li")
        if len(steps) < 3:
            fail("only %d commissioning steps shown" % len(steps))
        shoot(driver, "add-done")
        driver.get(base + "/#/")
        until("the switch panel in the list", 20, lambda: any(
            (c.get_attribute("aria-label") or "").startswith("Hall switch") for c in driver.find_elements(By.CSS_SELECTOR, "article.card")))
        # The device page: a name over 60 characters is cut to 60.
        card(driver, "Lamp").find_element(By.CSS_SELECTOR, "h3 a").click()
        rename = until("the device page", 10, lambda: driver.find_element(By.ID, "rename"))
        shoot(driver, "device")
        long_name = "Lamp " + "x" * 70
        rename.clear()
        rename.send_keys(long_name)
        if "cut to the first 60" not in driver.find_element(By.ID, "rename-hint").text:
            fail("the 60-character rule is not shown")
        rename.send_keys(Keys.ENTER)
        until("the name cut to 60", 10, lambda: driver.find_element(By.CSS_SELECTOR, "h1").text == long_name[:60])
        # A command from the forms the data model makes: OnOff's Off, sent from its form.
        driver.find_element(By.XPATH, "//button[text()='Show the commands']").click()
        on_off = until("the OnOff cluster's commands", 10, lambda: next(
            d for d in driver.find_elements(By.CSS_SELECTOR, "#commands details")
            if d.find_element(By.TAG_NAME, "summary").text == "OnOff"))
        on_off.find_element(By.TAG_NAME, "summary").click()
        offs = light_log().count("] OFF")
        on_off.find_element(By.XPATH, ".//button[text()='Send Off']").click()
        until("the light's log saying OFF", 10, lambda: light_log().count("] OFF") > offs)
        until("the form saying done", 10, lambda: "Done." in on_off.text)
        # Sharing: the QR image as a decoder nobody here wrote reads it.
        driver.find_element(By.XPATH, "//button[text()='Share']").click()
        image = until("the share's QR image, drawn", 30, lambda: (i := driver.find_element(By.CSS_SELECTOR, "#share img.qr"))
                      and driver.execute_script("return arguments[0].complete && arguments[0].naturalWidth > 0", i) and i)
        qr_text = driver.find_element(By.CSS_SELECTOR, "#share p.hint").text
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", image)
        time.sleep(0.3)
        image.screenshot(work + "/qr.png")
        decoded = subprocess.run(["zbarimg", "--quiet", "--raw", work + "/qr.png"], capture_output=True, text=True).stdout.strip()
        if decoded != qr_text or not qr_text.startswith("MT:"):
            fail("zbarimg read %r from the share's QR image, which says %r" % (decoded, qr_text))
        if "left" not in driver.find_element(By.ID, "share").text:
            fail("the window's time left is not shown")
        shoot(driver, "share")
        for name in ["nodes", "hub"]:
            driver.get(base + "/#/" + name)
            until("the %s page" % name, 10, lambda: driver.find_element(By.CSS_SELECTOR, "h1").text.lower() == name)
            time.sleep(0.5)
            shoot(driver, name)
        strangers = requests_left_origin(driver)
        if strangers:
            fail("the page asked beyond the hub's origin: %s" % strangers)
        print(json.dumps({"lamp": long_name[:60]}))
    finally:
        driver.quit()

elif step == "fresh":
    driver = open_browser()
    try:
        driver.get(base + "/#/add")
        until("the add page with the hub's Wi-Fi network", 10, lambda: driver.find_element(By.ID, "add-wifi"))
        driver.find_element(By.ID, "code").send_keys(sys.argv[4])
        driver.find_element(By.ID, "name").send_keys("Porch light")
        driver.find_element(By.CSS_SELECTOR, "button.primary").click()
        until("the fresh light added over Bluetooth LE", 120, lambda: "Added" in driver.find_element(By.CSS_SELECTOR, "p.success").text)
        steps = " ".join(step.text for step in driver.find_elements(By.CSS_SELECTOR, "ol.steps li"))
        if "network" not in steps.lower():
            fail("no network step among %r" % steps)
        driver.get(base + "/#/")
        until("the fresh light online in the list", 30, lambda: (c := card(driver, "Porch light")) and "Online" in c.text)
    finally:
        driver.quit()

elif step == "offline":
    driver = open_browser()
    try:
        driver.get(base + "/")
        name = sys.argv[4]
        until("the light's card", 20, lambda: card(driver, name))
        with open(work + "/killed", "w") as marker:
            marker.write("now")
        started = time.time()
        until("the light shown offline", 120, lambda: "Offline" in card(driver, name).text)
        print("offline after %.0f s" % (time.time() - started))
    finally:
        driver.quit()

elif step == "token":
    # Without the session: the page goes to the sign-in, the socket is refused.
    connection = http.client.HTTPConnection("127.0.0.1", 5580, timeout=10)
    connection.request("GET", "/")
    answer = connection.getresponse()
    if answer.status != 303 or answer.getheader("Location") != "/signin":
        fail("a page without the session answered %d %s" % (answer.status, answer.getheader("Location")))
    connection = http.client.HTTPConnection("127.0.0.1", 5580, timeout=10)
    connection.request("GET", "/dashboard/socket", headers={
        "Origin": base, "Connection": "Upgrade", "Upgrade": "websocket", "Sec-WebSocket-Version": "13",
        "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="})
    if connection.getresponse().status != 401:
        fail("the live socket opened without a session")
    driver = open_browser()
    try:
        driver.get(base + "/")
        until("the sign-in page", 10, lambda: driver.find_element(By.ID, "token"))
        driver.find_element(By.ID, "token").send_keys("not the token at all")
        driver.find_element(By.CSS_SELECTOR, "form button").click()
        until("the wrong token said", 10, lambda: "not this hub's token" in driver.find_element(By.TAG_NAME, "main").text)
        shoot(driver, "signin")
        driver.find_element(By.ID, "token").send_keys(open(work + "/token").read().strip())
        driver.find_element(By.CSS_SELECTOR, "form button").click()
        until("the home page after signing in", 20, lambda: card(driver, "Hall switch") or driver.find_elements(By.CSS_SELECTOR, "article.card"))
        cookie = driver.get_cookie("swift-home-session")
        if not cookie or not cookie.get("httpOnly") or cookie.get("sameSite") != "Strict":
            fail("the session cookie is %r" % cookie)
        if driver.execute_script("return document.cookie") != "":
            fail("a script can read the session cookie")
    finally:
        driver.quit()
    # The socket from another site's page, even with the session, is refused.
    connection = http.client.HTTPConnection("127.0.0.1", 5580, timeout=10)
    connection.request("GET", "/dashboard/socket", headers={
        "Origin": "http://evil.example", "Cookie": "swift-home-session=" + cookie["value"], "Connection": "Upgrade",
        "Upgrade": "websocket", "Sec-WebSocket-Version": "13", "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="})
    if connection.getresponse().status != 403:
        fail("another origin's page opened the live socket")
    print("token: PASS")

elif step == "rebinding":
    connection = http.client.HTTPConnection("127.0.0.1", 5580, timeout=10)
    connection.request("GET", "/", headers={"Host": "evil.example:5580"})
    if connection.getresponse().status != 403:
        fail("a Host that is not loopback was served without a token")
    connection = http.client.HTTPConnection("127.0.0.1", 5580, timeout=10)
    connection.request("GET", "/ws", headers={
        "Origin": "http://evil.example", "Connection": "Upgrade", "Upgrade": "websocket", "Sec-WebSocket-Version": "13",
        "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="})
    if connection.getresponse().status != 403:
        fail("another site's page opened the Matter-server API's WebSocket")
    print("rebinding: PASS")
PY

browser rebinding "$work" "$shots"
echo "PASS: a Host that is not loopback, and another site's page on the API's socket, are refused"
opened="$(browser open "$work" "$shots" "$switch_code")"
grep -q "] ON" "$work/light.out" || fail "the light never said ON"
echo "PASS: the page listed the devices, switched and dimmed the light, added the switch panel step by step, cut a long name to 60, sent Off from a command's form, shared a QR zbarimg reads; nothing left the hub's origin"
lamp="$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["lamp"])' "$opened")"
browser fresh "$work" "$shots" "$fresh_qr"
grep -q "\[network\] joined" "$work/fresh.out" || fail "the fresh light never said it joined the network"
echo "PASS: a light fresh from its box added from the page over Bluetooth LE (through /ble), given the hub's Wi-Fi, online after"

# The light killed while a page watches.
"$peers/lab.sh" exec timeout 200 /usr/bin/python3 "$work/browser.py" offline "$work" "$shots" "$lamp" >"$work/offline.out" 2>&1 &
watcher=$!
timeout 30 bash -c "until [ -f '$work/killed' ]; do sleep 0.1; done" || fail "the watching page never opened"
kill "$light_pid"
wait "$watcher" || fail "the offline step: $(cat "$work/offline.out")"
echo "PASS: the light killed, its card said Offline ($(cat "$work/offline.out"))"

# With a token.
kill "$serve_pid"
wait "$serve_pid" 2>/dev/null || true
(umask 077; head -c 24 /dev/urandom | base64 | tr -d '/+=' >"$work/token")
serve serve2.out --token-file "$work/token"
browser token "$work" "$shots"
echo "PASS: with a token, the sign-in guards the pages and the live socket; the cookie is HttpOnly and SameSite=Strict; another origin is refused"
echo "PASS: screenshots in $shots"
