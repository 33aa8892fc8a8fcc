import MatterDataModel
import Testing

/// Device type facts (Matter Device Library) in the generated `MatterDeviceTypes`.
@Suite struct MatterDeviceTypesTests {
    @Test(
        arguments: [
            (MatterDeviceTypes.onOffLight, 0x0100), (MatterDeviceTypes.dimmableLight, 0x0101),
            (MatterDeviceTypes.colorTemperatureLight, 0x010C), (MatterDeviceTypes.extendedColorLight, 0x010D),
            (MatterDeviceTypes.onOffPlugInUnit, 0x010A), (MatterDeviceTypes.fan, 0x002B),
            (MatterDeviceTypes.thermostat, 0x0301),
            (MatterDeviceTypes.doorLock, 0x000A), (MatterDeviceTypes.windowCovering, 0x0202),
            (MatterDeviceTypes.temperatureSensor, 0x0302), (MatterDeviceTypes.humiditySensor, 0x0307),
            (MatterDeviceTypes.occupancySensor, 0x0107), (MatterDeviceTypes.contactSensor, 0x0015),
            (MatterDeviceTypes.lightSensor, 0x0106), (MatterDeviceTypes.genericSwitch, 0x000F),
            (MatterDeviceTypes.bridgedNode, 0x0013), (MatterDeviceTypes.aggregator, 0x000E),
            (MatterDeviceTypes.rootNode, 0x0016),
        ] as [(DeviceTypeDefinition, UInt32)])
    func deviceTypeIDsMatchTheSpec(deviceType: DeviceTypeDefinition, id: UInt32) {
        #expect(deviceType.id.rawValue == id)
        #expect(deviceType.requiredServerClusters.contains(DescriptorCluster.id))
    }

    @Test func dimmableLightRequiresTheLightingClusters() {
        let light = MatterDeviceTypes.dimmableLight
        #expect(light.name == "Dimmable Light")
        #expect(light.deviceClass == .simple && light.scope == .endpoint)
        #expect(light.superset == MatterDeviceTypes.onOffLight.id)
        for cluster in [
            OnOffCluster.id, LevelControlCluster.id, DescriptorCluster.id, IdentifyCluster.id, GroupsCluster.id,
            ScenesManagementCluster.id,
        ] {
            #expect(light.requiredServerClusters.contains(cluster))
        }
        #expect(!light.requiredServerClusters.contains(ColorControlCluster.id))
        #expect(light.optionalClientClusters.contains(OccupancySensingCluster.id))
    }

    @Test func colorTemperatureLightAddsColorControl() {
        let light = MatterDeviceTypes.colorTemperatureLight
        #expect(light.requiredServerClusters.contains(ColorControlCluster.id))
        #expect(light.superset == MatterDeviceTypes.dimmableLight.id)
    }

    @Test func sensorsRequireTheirMeasurementCluster() {
        #expect(MatterDeviceTypes.temperatureSensor.requiredServerClusters.contains(TemperatureMeasurementCluster.id))
        #expect(MatterDeviceTypes.humiditySensor.requiredServerClusters.contains(RelativeHumidityMeasurementCluster.id))
        #expect(MatterDeviceTypes.occupancySensor.requiredServerClusters.contains(OccupancySensingCluster.id))
        #expect(MatterDeviceTypes.contactSensor.requiredServerClusters.contains(BooleanStateCluster.id))
        #expect(MatterDeviceTypes.lightSensor.requiredServerClusters.contains(IlluminanceMeasurementCluster.id))
        #expect(MatterDeviceTypes.genericSwitch.requiredServerClusters.contains(SwitchCluster.id))
        #expect(MatterDeviceTypes.bridgedNode.requiredServerClusters.contains(BridgedDeviceBasicInformationCluster.id))
        #expect(MatterDeviceTypes.doorLock.requiredServerClusters.contains(DoorLockCluster.id))
        #expect(MatterDeviceTypes.windowCovering.requiredServerClusters.contains(WindowCoveringCluster.id))
        #expect(MatterDeviceTypes.thermostat.requiredServerClusters.contains(ThermostatCluster.id))
        #expect(MatterDeviceTypes.fan.requiredServerClusters.contains(FanControlCluster.id))
    }

    @Test func rootNodeIsANodeScopedNodeTypeWithTheCommissioningClusters() {
        let root = MatterDeviceTypes.rootNode
        #expect(root.deviceClass == .node && root.scope == .node)
        for cluster in [
            BasicInformationCluster.id, AccessControlCluster.id, GeneralCommissioningCluster.id,
            AdministratorCommissioningCluster.id, OperationalCredentialsCluster.id, GroupKeyManagementCluster.id,
            GeneralDiagnosticsCluster.id,
        ] {
            #expect(root.requiredServerClusters.contains(cluster))
        }
    }

    @Test func allListsEverySpecDeviceTypeOnceAndNoSDKExample() {
        let ids = MatterDeviceTypes.all.map(\.id)
        #expect(ids.count == 90)
        #expect(Set(ids).count == ids.count)
        #expect(ids == ids.sorted())
        #expect(ids.allSatisfy { $0.rawValue <= 0xFFFF })
        #expect(MatterDeviceTypes.all.first { $0.name == "Doorbell" }?.revision == nil)
    }
}
