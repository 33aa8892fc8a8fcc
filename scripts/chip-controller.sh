# connectedhomeip's Python controller (home-assistant-chip-core, from PyPI) in a lab namespace; sourced, not run, by
# chip-lab.sh and bench-commission.sh. Needs $lab (../shared/peers/lab.sh), $LAB_NS and $work. Installs the
# controller's venv (cached in $CHIP_VENV) and gives:
#   add_controller_link                a veth pair whose two ends both stay in the namespace, for the controller's mDNS
#   chip_python STORAGE SCRIPT ARGS…   runs SCRIPT with the controller's Python in the namespace, its /data private
CHIP_VERSION="${CHIP_VERSION:-2024.11.4}"
CHIP_VENV="${CHIP_VENV:-$HOME/.cache/swift-home/chip-venv-$CHIP_VERSION}"
chip_scripts="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

# The controller's native library links libnl (Debian: libnl-route-3-200).
if ! ldconfig -p | grep -q 'libnl-route-3.so.200'; then
    "$chip_scripts/apt-install.sh" libnl-route-3-200
fi
if [ ! -x "$CHIP_VENV/bin/python" ]; then
    python3 -m venv "$CHIP_VENV"
    timeout 600 "$CHIP_VENV/bin/pip" install -q "home-assistant-chip-core==$CHIP_VERSION" "home-assistant-chip-clusters==$CHIP_VERSION"
fi

# connectedhomeip's minimal mDNS never uses a loopback interface, so the namespace also gets a veth pair whose two
# ends both stay in it: the controller queries on them and hears the answers, and nothing leaves the namespace.
# CircuitMatter's responder (lomdns.py) hears those queries and answers on lo, and the controller hears that answer
# too (seen with 2024.11.4), so it finds CircuitMatter by DNS-SD as well.
add_controller_link() {
    "$lab" exec ip link add swh-dev type veth peer name swh-ctl
    # Link-local IPv6 addresses are unusable while duplicate address detection runs ("Cannot assign requested
    # address"); nothing else is on this private link, so skip DAD and then wait until no address is tentative.
    for end in swh-dev swh-ctl; do "$lab" exec sysctl -qw "net.ipv6.conf.$end.accept_dad=0"; done
    for end in swh-dev swh-ctl; do "$lab" exec ip link set "$end" multicast on up; done
    timeout 10 bash -c "until ! \"$lab\" exec ip -6 addr show tentative | grep -q inet6 && \"$lab\" exec ip -6 addr show dev swh-dev | grep -q 'inet6 fe80'; do sleep 0.2; done" \
      || { echo "FAIL: the veth pair's IPv6 link-local addresses never became usable"; return 1; }
    "$lab" exec ip addr add 10.213.0.1/24 dev swh-dev
    "$lab" exec ip addr add 10.213.0.2/24 dev swh-ctl
}

# The controller's Linux platform layer keeps its config in /data (hard-coded): give it a private, empty one by
# bind-mounting a folder of $work there in a mount namespace of its own (only the empty mount point stays behind).
mkdir -p /data "$work/data"
chip_python() {
    timeout 180 "$lab" exec unshare --mount bash -c 'mount --bind "$1" /data && shift && exec "$@"' _ "$work/data" \
        "$CHIP_VENV/bin/python" -u "$@"
}
