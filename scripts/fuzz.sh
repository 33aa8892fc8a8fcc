#!/usr/bin/env bash
# Builds the libFuzzer targets of Fuzz/ (-sanitize=fuzzer,address, linked with lld) and runs them from the committed
# seed corpora in Fuzz/Corpus/<Target>. A crash or sanitizer report stops the run with its input in Fuzz/Crashes/;
# once fixed at its cause, that input goes into Fuzz/Corpus/<Target>, which `swift test` replays through the same
# entry (FuzzCorpusReplayTests), so the normal suite keeps it fixed. A target whose input has a vocabulary (TLV control
# octets, DNS labels, HTTP and WebSocket tokens, the hub protocol's and the Matter-server API's JSON keys) runs with its dictionary from
# Fuzz/Dictionaries (libFuzzer -dict).
#
#   scripts/fuzz.sh TARGET|all [--runs N] [--seconds S]     (default: --seconds 30; with both, whichever comes first)
#   targets: FuzzTLV FuzzOnboarding FuzzMessage FuzzCertificates FuzzDNS FuzzInteraction FuzzPASE FuzzCASE FuzzMDNSResponder FuzzInteractionServer FuzzHubProtocol FuzzHTTPRequest FuzzWebSocket FuzzMatterServerRequest FuzzHubOperations
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
all=(FuzzTLV FuzzOnboarding FuzzMessage FuzzCertificates FuzzDNS FuzzInteraction FuzzPASE FuzzCASE FuzzMDNSResponder FuzzInteractionServer FuzzHubProtocol FuzzHTTPRequest FuzzWebSocket FuzzMatterServerRequest FuzzHubOperations)
usage() { echo "usage: scripts/fuzz.sh TARGET|all [--runs N] [--seconds S]  (targets: ${all[*]})" >&2; exit 2; }
[ $# -ge 1 ] || usage
case "$1" in
  all) targets=("${all[@]}") ;;
  *) [[ " ${all[*]} " == *" $1 "* ]] || usage; targets=("$1") ;;
esac
# Both limits may be given: the run ends at whichever comes first.
limit=()
shift
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) [[ "${2:-}" =~ ^[0-9]+$ ]] || usage; limit+=(-runs="$2") ;;
    --seconds) [[ "${2:-}" =~ ^[0-9]+$ ]] || usage; limit+=(-max_total_time="$2") ;;
    *) usage ;;
  esac
  shift 2
done
[ ${#limit[@]} -gt 0 ] || limit=(-max_total_time=30)
# lld: gold trips over the instrumented objects (an internal error in its DWARF reader).
flags=(-c release -Xswiftc -sanitize=fuzzer,address -Xswiftc -Xclang-linker -Xswiftc -fuse-ld=lld)
swift build --package-path Fuzz "${flags[@]}" 2>&1 | tail -n 1
bin="$(swift build --package-path Fuzz "${flags[@]}" --show-bin-path)"
mkdir -p Fuzz/Crashes
# Globals initialized once per process are not leaks (see the file).
export LSAN_OPTIONS="suppressions=$PWD/Fuzz/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
dictionary() {
  case "$1" in
    FuzzTLV | FuzzInteraction | FuzzInteractionServer | FuzzCertificates | FuzzPASE | FuzzCASE) echo tlv ;;
    FuzzDNS | FuzzMDNSResponder) echo dns ;;
    FuzzHTTPRequest) echo http ;;
    FuzzWebSocket) echo websocket ;;
    FuzzHubProtocol | FuzzHubOperations) echo hubprotocol ;;
    FuzzMatterServerRequest) echo matterserver ;;
    FuzzOnboarding) echo onboarding ;;
  esac
}
for target in "${targets[@]}"; do
  work="$(mktemp -d)"
  cp -r "Fuzz/Corpus/$target/." "$work/"
  dict=()
  name="$(dictionary "$target")"
  [ -z "$name" ] || dict=(-dict="Fuzz/Dictionaries/$name.dict")
  echo "== $target from $(ls "Fuzz/Corpus/$target" | wc -l) seeds${name:+, dictionary $name}"
  # The corpus grows in a scratch copy: only seeds and fixed findings are committed.
  started=$SECONDS
  set +e
  "$bin/$target" "${limit[@]}" "${dict[@]}" -max_len=4096 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="Fuzz/Crashes/$target-" "$work" >"$work.log" 2>&1
  status=$?
  set -e
  grep -E "INITED|DONE|stat::number_of_executed_units|stat::peak_rss|ERROR|SUMMARY|Test unit written" "$work.log" || true
  echo "   $((SECONDS - started)) s"
  rm -rf "$work" "$work.log"
  if [ $status -ne 0 ]; then
    echo "fuzz: $target failed (status $status); inputs: $(ls Fuzz/Crashes/"$target"-* 2>/dev/null)" >&2
    exit 1
  fi
done
echo "fuzz: no crash, no sanitizer report, no timeout"
