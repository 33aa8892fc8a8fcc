import MatterDiscovery
import Testing

/// Matter Core §4.3.1.3 and §4.3.2: the names a commissioner asks about.
@Suite struct MatterServiceNameTests {
    @Test func namesCommissioningSubtypes() {
        #expect(
            CommissionableSubtype.longDiscriminator(3840).serviceName.description == "_L3840._sub._matterc._udp.local")
        #expect(CommissionableSubtype.shortDiscriminator(15).serviceName.description == "_S15._sub._matterc._udp.local")
        #expect(CommissionableSubtype.commissioningMode.label == "_CM")
        #expect(CommissionableSubtype.vendor(65521).label == "_V65521")
        #expect(CommissionableSubtype.deviceType(256).label == "_T256")
    }

    @Test func namesOperationalInstancesWithSixteenUppercaseHexDigits() {
        let peer = OperationalPeerID(compressedFabricID: 0x2906_C908_D115_D362, nodeID: 0x1)
        #expect(peer.instanceName == "2906C908D115D362-0000000000000001")
        #expect(peer.serviceInstanceName.description == "2906C908D115D362-0000000000000001._matter._tcp.local")
        #expect(
            MatterServiceName.operationalFabricSubtype(compressedFabricID: 0xAB).description
                == "_I00000000000000AB._sub._matter._tcp.local")
    }

    @Test func readsOperationalInstanceNames() {
        #expect(
            OperationalPeerID(instanceName: "2906c908d115d362-8FC7772401CD0696")
                == OperationalPeerID(compressedFabricID: 0x2906_C908_D115_D362, nodeID: 0x8FC7_7724_01CD_0696))
        for bad in [
            "2906C908D115D362", "2906C908D115D36-8FC7772401CD0696", "2906C908D115D362-8FC7772401CD069G", "-",
            "+906C908D115D362-8FC7772401CD0696",
        ] {
            #expect(OperationalPeerID(instanceName: bad) == nil, "\(bad)")
        }
    }
}
