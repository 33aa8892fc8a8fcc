"""Commission matter-device with connectedhomeip's Python controller (home-assistant-chip-core), read OnOff, invoke On.

Run by interop-device.sh and interop-share.sh inside a network namespace. Arguments: storage file, PAA trust store
directory, passcode, discriminator, and optionally --expect-unreachable: with the storage of an earlier run, only try
to read the node, and succeed when the stack fails to reach it (a ChipStackError, or no answer in 30 s: its fabric
was removed); any other exception is a failure of this script, not the device's answer, and fails the run (the calling
script also checks the device's own log for the refusal). Prints one line per step; exits non-zero on the first
failure.
"""
import asyncio
import sys

import chip.CertificateAuthority
import chip.clusters as Clusters
import chip.exceptions
import chip.native
from chip.ChipStack import ChipStack
from chip.discovery import FilterType

NODE_ID = 0x1234


async def main(storage: str, paa_dir: str, passcode: int, discriminator: int, expect_unreachable: bool) -> int:
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
    controller.Shutdown()
    authorities.Shutdown()
    stack.Shutdown()
    return 0 if state is True else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main(
        sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5:] == ["--expect-unreachable"])))
