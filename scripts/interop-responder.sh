#!/usr/bin/env bash
# Interop: our mDNS responder (swift-home-advertise) is found by our own `home discover` and by a resolver
# nobody here wrote (python-zeroconf, from PyPI), inside a network namespace that holds only `lo`:
# the instance, port, TXT keys and the _L/_S/_V/_CM subtypes, an operational instance and its _I
# subtype, then the goodbye when it stops.
#
#   sudo scripts/interop-responder.sh        (after `swift build`; needs root for ip netns)
#
# Nothing leaves the namespace. Every wait is bounded; the advertiser and the namespace go on exit.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
peers="$(dirname "$0")/../../shared/peers"
export PEERS_HOME="${PEERS_HOME:-$HOME/.cache/matter-peers}"
# A namespace of our own, so a run never collides with another one using the default name.
export LAB_NS="${LAB_NS:-swifthome-responder-$$}"
bin="$repo/.build/debug"
for tool in home swift-home-advertise; do
  [ -x "$bin/$tool" ] || { echo "FAIL: $bin/$tool missing; run swift build first" >&2; exit 1; }
done

discriminator=3840
vendor=65521
product=32768
port=5540
operational=2906C908D115D362-0000000000000011
state_dir="$(mktemp -d)"
advertiser_pid=""
cleanup() {
  if [ -n "$advertiser_pid" ]; then kill "$advertiser_pid" 2>/dev/null || true; wait "$advertiser_pid" 2>/dev/null || true; fi
  ip netns list | grep -qw "$LAB_NS" && "$peers/lab.sh" down || true
  rm -rf "$state_dir"
}
trap cleanup EXIT

# python-zeroconf in a venv of its own, installed once, at a pinned version.
ZEROCONF_VERSION=0.154.0
zeroconf_python="$PEERS_HOME/zeroconf/bin/python"
if ! "$zeroconf_python" -c "import zeroconf; assert zeroconf.__version__ == '$ZEROCONF_VERSION'" 2>/dev/null; then
  python3 -m venv "$PEERS_HOME/zeroconf"
  timeout 300 "$PEERS_HOME/zeroconf/bin/pip" install --quiet "zeroconf==$ZEROCONF_VERSION" "ifaddr==0.2.0"
fi
echo "python-zeroconf $("$zeroconf_python" -c 'import zeroconf; print(zeroconf.__version__)')"

"$peers/lab.sh" up
echo "namespace $LAB_NS: $(ip netns exec "$LAB_NS" ip -o link | awk -F': ' '{print $2}' | tr '\n' ' ')"

advertiser_out="$state_dir/advertiser.out"
"$peers/lab.sh" exec timeout 120 "$bin/swift-home-advertise" --interface lo --discriminator "$discriminator" --port "$port" \
  --vendor-id "$vendor" --product-id "$product" --device-name "swift-home test" \
  --operational "$operational" >"$advertiser_out" 2>&1 &
advertiser_pid=$!
timeout 30 bash -c "until head -n1 '$advertiser_out' | grep -q '^{'; do sleep 0.2; done" \
  || { echo "FAIL: the advertiser printed no line"; cat "$advertiser_out"; exit 1; }
advertised="$(head -n1 "$advertiser_out")"
echo "advertiser: $advertised"
instance="$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["instance"])' "$advertised")"

# (a) Our own querier, by long and by short discriminator.
check_home() {  # check_home <label> <home discover options...>
  local label="$1"; shift
  local output
  output="$(timeout 30 "$peers/lab.sh" exec "$bin/home" discover --interface lo --timeout 3 --json "$@")"
  python3 - "$output" "$instance" "$discriminator" "$port" "$label" <<'PY'
import json, sys
nodes, instance, discriminator, port, label = json.loads(sys.argv[1]), sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
found = [n for n in nodes if n["instance"] == instance]
if len(found) != 1 or found[0]["discriminator"] != discriminator or found[0]["port"] != port:
    sys.exit(f"FAIL (home discover, {label}): expected {instance} with discriminator {discriminator} on port {port}, got {nodes}")
n = found[0]
print(f"PASS (home discover, {label}): {n['instance']} at {n['host']} port {n['port']}, addresses {n['addresses']}, txt {n['txt']}")
PY
}
check_home "long discriminator $discriminator" --discriminator "$discriminator"
check_home "short discriminator $((discriminator >> 8))" --short-discriminator "$((discriminator >> 8))"

# (b) python-zeroconf: browse, resolve, browse each subtype, then see the goodbye when the advertiser stops.
zeroconf_out="$state_dir/zeroconf.out"
"$peers/lab.sh" exec timeout 60 "$zeroconf_python" -u - "$instance" "$port" "$discriminator" "$vendor" "$product" "$operational" \
  >"$zeroconf_out" 2>&1 <<'PY' &
import sys, threading
from zeroconf import IPVersion, ServiceBrowser, ServiceStateChange, Zeroconf

instance, port, discriminator, vendor, product, operational = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5], sys.argv[6]
service = "_matterc._udp.local."
full_name = f"{instance}.{service}"
zc = Zeroconf(interfaces=["127.0.0.1"], ip_version=IPVersion.V4Only)
failures = []

def browse(service_type, seconds=10, wanted=full_name):
    """Whether zeroconf reports `wanted` Added under service_type in time; the browser keeps watching for its removal."""
    added, removed, seen = threading.Event(), threading.Event(), set()
    def handler(zeroconf, service_type, name, state_change):
        if name == wanted and state_change is ServiceStateChange.Added: added.set()
        if name == wanted and state_change is ServiceStateChange.Removed: removed.set()
        seen.add((name, state_change.name))
    browser = ServiceBrowser(zc, service_type, handlers=[handler])
    return added.wait(seconds), removed, seen, browser

found, removed, seen, browser = browse(service)
if not found:
    failures.append(f"browse {service}: {full_name} not found; saw {seen}")
else:
    print(f"PASS (zeroconf browse): {full_name}")
    info = zc.get_service_info(service, full_name, timeout=5000)
    if info is None:
        failures.append(f"get_service_info({full_name}) returned nothing")
    else:
        txt = {k.decode(): (v.decode() if v is not None else None) for k, v in info.properties.items()}
        addresses = info.parsed_addresses()
        problems = []
        if info.port != port: problems.append(f"port {info.port} != {port}")
        if txt.get("D") != str(discriminator): problems.append(f"D={txt.get('D')} != {discriminator}")
        if txt.get("CM") != "1": problems.append(f"CM={txt.get('CM')}")
        if txt.get("VP") != f"{vendor}+{product}": problems.append(f"VP={txt.get('VP')}")
        if "127.0.0.1" not in addresses: problems.append(f"addresses {addresses}")
        if problems: failures.append("resolve: " + ", ".join(problems))
        else: print(f"PASS (zeroconf resolve): {info.server} port {info.port}, addresses {addresses}, TXT {txt}")

for subtype in [f"_L{discriminator}", f"_S{discriminator >> 8}", f"_V{vendor}", "_CM"]:
    subtype_found, _, subtype_seen, _ = browse(f"{subtype}._sub.{service}")
    if subtype_found: print(f"PASS (zeroconf subtype {subtype}): {full_name}")
    else: failures.append(f"subtype {subtype}: not found; saw {subtype_seen}")
other_found, _, _, _ = browse(f"_L{discriminator + 1}._sub.{service}", seconds=3)
if other_found: failures.append(f"subtype _L{discriminator + 1} found {full_name}, which has another discriminator")
else: print(f"PASS (zeroconf subtype _L{discriminator + 1}): nothing, as it should")

operational_service = "_matter._tcp.local."
operational_name = f"{operational}.{operational_service}"
operational_info = zc.get_service_info(operational_service, operational_name, timeout=5000)
if operational_info is None or operational_info.port != port:
    failures.append(f"operational {operational_name}: {operational_info}")
else:
    print(f"PASS (zeroconf operational resolve): {operational_name} at {operational_info.server} port {operational_info.port}")
fabric_found, _, fabric_seen, _ = browse(f"_I{operational.split('-')[0]}._sub.{operational_service}", wanted=operational_name)
if fabric_found: print(f"PASS (zeroconf subtype _I{operational.split('-')[0]}): {operational_name}")
else: failures.append(f"fabric subtype: {operational_name} not found; saw {fabric_seen}")

print("READY-FOR-GOODBYE", flush=True)
if removed.wait(15): print(f"PASS (zeroconf goodbye): {full_name} removed when the advertiser stopped")
else: failures.append("no goodbye seen within 15 s of the advertiser stopping")
zc.close()
for failure in failures: print(f"FAIL (zeroconf): {failure}")
sys.exit(1 if failures else 0)
PY
zeroconf_pid=$!
timeout 70 bash -c "until grep -q READY-FOR-GOODBYE '$zeroconf_out' || ! kill -0 $zeroconf_pid 2>/dev/null; do sleep 0.2; done" || true
kill -TERM "$advertiser_pid" 2>/dev/null || true
wait "$advertiser_pid" 2>/dev/null || true
advertiser_pid=""
zeroconf_status=0
wait "$zeroconf_pid" || zeroconf_status=$?
grep -v READY-FOR-GOODBYE "$zeroconf_out"
echo "advertiser said: $(tail -n +2 "$advertiser_out" | tr '\n' ' ')"
[ "$zeroconf_status" -eq 0 ] || { echo "FAIL: python-zeroconf checks failed (exit $zeroconf_status)"; exit 1; }
echo "interop-responder: all checks passed"
