#!/bin/sh
# Regenerates Sources/MatterDataModel/Generated (clusters, device types) and Sources/HomeAPI/Generated (their traits
# and device types) from the Matter data model in ../shared/datamodel, and the vendor fixtures of the tests. Run from the package root after changing the generator; commit the output.
#
#   scripts/generate-datamodel.sh           regenerate in place
#   scripts/generate-datamodel.sh --check   generate into a temporary directory and fail, naming each file, when the
#                                           committed output differs from what the generator produces (CI runs this)
set -eu

OUT=.
CHECK=false
if [ "${1:-}" = "--check" ]; then
    CHECK=true
    OUT="$(mktemp -d)"
    trap 'rm -rf "$OUT"' EXIT
fi
GENERATED="Sources/MatterDataModel/Generated Sources/HomeAPI/Generated Tests/VendorFixture/Generated"
for dir in $GENERATED; do mkdir -p "$OUT/$dir"; done

DATAMODEL="${DATAMODEL:-../shared/datamodel}"

# Every cluster of the IDL (the generator's default), so every device Home Assistant supports has its names here
# too: the Matter-server API names commands and fields from these tables.
swift build --product datamodel-generator >/dev/null
GENERATOR="$(swift build --show-bin-path)/datamodel-generator"

"$GENERATOR" \
    --idl "$DATAMODEL/controller-clusters.matter" \
    --device-types "$DATAMODEL/matter-devices.xml" \
    --attribution "connectedhomeip, Apache-2.0" \
    --output "$OUT/Sources/MatterDataModel/Generated" \
    --traits "$OUT/Sources/HomeAPI/Generated"

# A vendor's clusters with their traits, as an app's own package would generate them over the Home API.
"$GENERATOR" \
    --idl Tests/VendorFixture/AcmeClusters.matter \
    --namespace AcmeClusters \
    --output "$OUT/Tests/VendorFixture/Generated" \
    --traits "$OUT/Tests/VendorFixture/Generated"

if $CHECK; then
    status=0
    for dir in $GENERATED; do
        if ! diff -rq "$OUT/$dir" "$dir" >"$OUT/diff" 2>&1; then
            sed "s|$OUT/||g" "$OUT/diff" >&2
            status=1
        fi
    done
    if [ $status -ne 0 ]; then
        echo "generated sources differ from what scripts/generate-datamodel.sh produces from $DATAMODEL: run it and commit the result" >&2
    fi
    exit $status
fi
