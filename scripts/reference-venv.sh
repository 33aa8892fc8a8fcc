# python-matter-server 8.1.2 on connectedhomeip's stack (home-assistant-chip-core, which brings chip.tlv), every
# package pinned (scripts/interop-reference-server.txt), in a cached virtual environment; sourced, not run. Needs
# $repo and a `fail` function; gives $venv.
venv="$HOME/.cache/swift-home-peers/pms-server-8.1.2"
if ! "$venv/bin/python" -c "import matter_server.server, chip.ChipDeviceCtrl" 2>/dev/null; then
  rm -rf "$venv"
  "$HOME/.pyenv/versions/3.12.1/bin/python" -m venv "$venv"
  timeout 900 "$venv/bin/pip" install -q --no-deps -r "$repo/scripts/interop-reference-server.txt" \
    || fail "cannot install python-matter-server 8.1.2 from PyPI"
fi
