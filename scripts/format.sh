#!/usr/bin/env bash
# Formats the hand-written Swift sources with the toolchain's swift-format and the project's .swift-format (line
# length 120, as swift-nio and async-http-client use). Generated sources are left as the generator writes them.
#
#   scripts/format.sh           format in place
#   scripts/format.sh --check   fail, naming each file and line, when a source is not formatted (CI runs this)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
mapfile -t files < <(find Sources Tests Examples Fuzz -name '*.swift' -not -path '*/Generated/*' -not -path '*/.build/*' | sort)
if [ "${1:-}" = "--check" ]; then
  swift-format lint --strict --parallel "${files[@]}"
else
  swift-format format --in-place --parallel "${files[@]}"
fi
