"""Commission matter-device with connectedhomeip's Python controller (home-assistant-chip-core), read OnOff, invoke On.

Run by interop-device.sh and interop-share.sh inside a network namespace. Arguments: storage file, PAA trust store
directory, passcode, discriminator, and optionally --expect-unreachable: with the storage of an earlier run, only try
to read the node, and succeed when the stack fails to reach it (a ChipStackError, or no answer in 30 s: its fabric
was removed); any other exception is a failure of this script, not the device's answer, and fails the run (the calling
script also checks the device's own log for the refusal). With --group, after On it also gives the device the
controller's own test key set for group 0x0103 (GroupTesting::InitData: key set 0x01A3, which the controller sends
with), maps the group to it, puts endpoint 1 in the group, grants the group Operate and switches the light off with
one group command. Prints one line per step; exits non-zero on the first failure.
"""
import asyncio
import sys

import chip.CertificateAuthority
import chip.clusters as Clusters
import chip.exceptions
import chip.native
from chip.ChipStack import ChipStack
from chip.clusters.Types import NullValue
from chip.discovery import FilterType

NODE_ID = 0x1234
# connectedhomeip's GroupTesting::InitData, which InitGroupTestingData() gives the controller: group 0x0103 uses key
# set 0x01A3 (three epoch keys); the controller sends with the second.
GROUP_ID = 0x0103
KEY_SET_ID = 0x01A3
EPOCH_KEYS = [
    ("d0d1d2d3d4d5d6d7d8d9dadbdcdddedf", 2220000),
    ("d1d1d2d3d4d5d6d7d8d9dadbdcdddedf", 2220001),
    ("d2d1d2d3d4d5d6d7d8d9dadbdcdddedf", 2220002),
]


async def switch_off_by_group(controller) -> bool:
    """Sets group 0x0103 up on the device as connectedhomeip's group tests do, then sends Off to the group."""
    controller.InitGroupTestingData()
    management = Clusters.GroupKeyManagement
    key_set = management.Structs.GroupKeySetStruct(
        groupKeySetID=KEY_SET_ID,
        groupKeySecurityPolicy=management.Enums.GroupKeySecurityPolicyEnum.kTrustFirst,
        epochKey0=bytes.fromhex(EPOCH_KEYS[0][0]), epochStartTime0=EPOCH_KEYS[0][1],
        epochKey1=bytes.fromhex(EPOCH_KEYS[1][0]), epochStartTime1=EPOCH_KEYS[1][1],
        epochKey2=bytes.fromhex(EPOCH_KEYS[2][0]), epochStartTime2=EPOCH_KEYS[2][1])
    await controller.SendCommand(NODE_ID, 0, management.Commands.KeySetWrite(groupKeySet=key_set))
    print(f"KeySetWrite 0x{KEY_SET_ID:04X}", flush=True)
    mapping = management.Structs.GroupKeyMapStruct(groupId=GROUP_ID, groupKeySetID=KEY_SET_ID, fabricIndex=1)
    result = await controller.WriteAttribute(NODE_ID, [(0, management.Attributes.GroupKeyMap([mapping]))])
    print(f"GroupKeyMap {result[0].Status}", flush=True)
    added = await controller.SendCommand(NODE_ID, 1, Clusters.Groups.Commands.AddGroup(groupID=GROUP_ID, groupName="Kitchen"))
    print(f"AddGroup status {added.status}", flush=True)
    acl = await controller.ReadAttribute(NODE_ID, [(0, Clusters.AccessControl.Attributes.Acl)])
    entries = acl[0][Clusters.AccessControl][Clusters.AccessControl.Attributes.Acl]
    entries.append(Clusters.AccessControl.Structs.AccessControlEntryStruct(
        privilege=Clusters.AccessControl.Enums.AccessControlEntryPrivilegeEnum.kOperate,
        authMode=Clusters.AccessControl.Enums.AccessControlEntryAuthModeEnum.kGroup,
        subjects=[GROUP_ID], targets=NullValue))
    result = await controller.WriteAttribute(NODE_ID, [(0, Clusters.AccessControl.Attributes.Acl(entries))])
    print(f"Acl {result[0].Status}", flush=True)
    table = await controller.ReadAttribute(NODE_ID, [(0, management.Attributes.GroupTable)])
    print(f"GroupTable {table[0][management][management.Attributes.GroupTable]}", flush=True)

    controller.SendGroupCommand(GROUP_ID, Clusters.OnOff.Commands.Off())
    print(f"group 0x{GROUP_ID:04X}: Off sent", flush=True)
    for _ in range(50):
        read = await controller.ReadAttribute(NODE_ID, [(1, Clusters.OnOff.Attributes.OnOff)])
        if read[1][Clusters.OnOff][Clusters.OnOff.Attributes.OnOff] is False:
            print("OnOff after the group command False", flush=True)
            return True
        await asyncio.sleep(0.1)
    print("OnOff after the group command still True", flush=True)
    return False


async def main(
        storage: str, paa_dir: str, passcode: int, discriminator: int, expect_unreachable: bool, group: bool) -> int:
    chip.native.Init()
    stack = ChipStack(persistentStoragePath=storage, enableServerInteractions=False)
    authorities = chip.CertificateAuthority.CertificateAuthorityManager(chipStack=stack)
    authorities.LoadAuthoritiesFromStorage()
    if not authorities.activeCaList:
        authorities.NewCertificateAuthority().NewFabricAdmin(vendorId=0xFFF1, fabricId=1)
    admin = authorities.activeCaList[0].adminList[0]
    controller = admin.NewController(nodeId=112233, paaTrustStorePath=paa_dir)

    if expect_unreachable:
        try:
            await asyncio.wait_for(
                controller.ReadAttribute(NODE_ID, [(0, Clusters.BasicInformation.Attributes.VendorName)]), timeout=30)
            print("the node still answered", flush=True)
            reached = True
        except (chip.exceptions.ChipStackError, asyncio.TimeoutError) as error:  # no CASE session any more
            print(f"unreachable as expected: {type(error).__name__}: {error}", flush=True)
            reached = False
        controller.Shutdown()
        authorities.Shutdown()
        stack.Shutdown()
        return 1 if reached else 0

    print(f"commissioning discriminator {discriminator} on the network", flush=True)
    node = await controller.CommissionOnNetwork(NODE_ID, passcode, filterType=FilterType.LONG_DISCRIMINATOR, filter=discriminator)
    print(f"commissioned node 0x{node:X}", flush=True)

    basic = await controller.ReadAttribute(NODE_ID, [(0, Clusters.BasicInformation.Attributes.VendorName)])
    print(f"VendorName {basic[0][Clusters.BasicInformation][Clusters.BasicInformation.Attributes.VendorName]!r}", flush=True)
    before = await controller.ReadAttribute(NODE_ID, [(1, Clusters.OnOff.Attributes.OnOff)])
    print(f"OnOff before {before[1][Clusters.OnOff][Clusters.OnOff.Attributes.OnOff]}", flush=True)
    await controller.SendCommand(NODE_ID, 1, Clusters.OnOff.Commands.On())
    after = await controller.ReadAttribute(NODE_ID, [(1, Clusters.OnOff.Attributes.OnOff)])
    state = after[1][Clusters.OnOff][Clusters.OnOff.Attributes.OnOff]
    print(f"OnOff after {state}", flush=True)
    switched_off = await switch_off_by_group(controller) if group and state is True else True
    controller.Shutdown()
    authorities.Shutdown()
    stack.Shutdown()
    return 0 if state is True and switched_off else 1


if __name__ == "__main__":
    options = sys.argv[5:]
    sys.exit(asyncio.run(main(
        sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), "--expect-unreachable" in options,
        "--group" in options)))
