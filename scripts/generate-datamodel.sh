#!/bin/sh
# Regenerates Sources/MatterDataModel/Generated (clusters, device types) and Sources/HomeAPI/Generated (their traits
# and device types) from the Matter data model in ../shared/datamodel, and the vendor fixtures of the tests. Run from the package root after changing the generator or the cluster list; commit the output.
set -eu

DATAMODEL="${DATAMODEL:-../shared/datamodel}"

# The clusters the hub and its device types use (the spec device types name more; those stay IDs only).
CLUSTERS="Identify,Groups,OnOff,LevelControl,Descriptor,AccessControl,BasicInformation,PowerSource"
CLUSTERS="$CLUSTERS,GeneralCommissioning,NetworkCommissioning,GeneralDiagnostics,BridgedDeviceBasicInformation,Switch"
CLUSTERS="$CLUSTERS,AdministratorCommissioning,OperationalCredentials,GroupKeyManagement,BooleanState,ScenesManagement"
CLUSTERS="$CLUSTERS,DoorLock,WindowCovering,Thermostat,FanControl,ColorControl,IlluminanceMeasurement"
CLUSTERS="$CLUSTERS,TemperatureMeasurement,RelativeHumidityMeasurement,OccupancySensing,LocalizationConfiguration"

swift build --product datamodel-generator
GENERATOR="$(swift build --show-bin-path)/datamodel-generator"

"$GENERATOR" \
    --idl "$DATAMODEL/controller-clusters.matter" \
    --device-types "$DATAMODEL/matter-devices.xml" \
    --attribution "connectedhomeip, Apache-2.0" \
    --clusters "$CLUSTERS" \
    --output Sources/MatterDataModel/Generated \
    --traits Sources/HomeAPI/Generated

"$GENERATOR" \
    --idl Tests/MatterDataModelTests/VendorFixture/AcmeClusters.matter \
    --namespace AcmeClusters \
    --output Tests/MatterDataModelTests/VendorFixture/Generated

# The same vendor clusters with their traits, as an app's own package would generate them over the Home API.
"$GENERATOR" \
    --idl Tests/MatterDataModelTests/VendorFixture/AcmeClusters.matter \
    --namespace AcmeClusters \
    --output Tests/HomeAPITests/VendorFixture/Generated \
    --traits Tests/HomeAPITests/VendorFixture/Generated
