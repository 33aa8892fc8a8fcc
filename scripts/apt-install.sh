#!/usr/bin/env bash
# Installs the Debian packages named that are not installed yet, refreshing apt's package lists once first
# (a fresh machine has none, and `apt-get install` then finds nothing); does nothing when all are present.
#
#   scripts/apt-install.sh libssl-dev libsqlite3-dev pkg-config
set -euo pipefail
missing=()
for package in "$@"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "== installing ${missing[*]}"
timeout 600 apt-get update -qq
DEBIAN_FRONTEND=noninteractive timeout 600 apt-get install -y -qq "${missing[@]}" >/dev/null
