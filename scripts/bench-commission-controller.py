"""Time commissionings with connectedhomeip's Python controller (home-assistant-chip-core), for bench-commission.sh.

Arguments: results file, storage file, PAA trust store directory, then one target per device, each commissioned once in turn by
one warm controller: `ip=ADDRESS,PORT,PASSCODE` (PASE at that address, then commissioning) or `code=PAYLOAD` (a QR
or manual code, the device found by DNS-SD). Each commissioning is timed from the call to its return, as our bench
times `Hub.commission`, and appended to the results file as one JSON line: {"method": "ip"|"code", "seconds": S}
(a file of its own: the stack's native code writes to standard output too, and once broke into such a line). Exits 1
on the first failure.
"""
import asyncio
import json
import sys
import time

import chip.CertificateAuthority
import chip.native
from chip.ChipDeviceCtrl import DiscoveryType
from chip.ChipStack import ChipStack


def record(results: str, line: dict) -> None:
    with open(results, "a") as file:
        file.write(json.dumps(line) + "\n")


async def main(results: str, storage: str, paa_dir: str, targets: list[str]) -> int:
    chip.native.Init()
    stack = ChipStack(persistentStoragePath=storage, enableServerInteractions=False)
    authorities = chip.CertificateAuthority.CertificateAuthorityManager(chipStack=stack)
    authorities.LoadAuthoritiesFromStorage()
    if not authorities.activeCaList:
        authorities.NewCertificateAuthority().NewFabricAdmin(vendorId=0xFFF1, fabricId=1)
    controller = authorities.activeCaList[0].adminList[0].NewController(nodeId=112233, paaTrustStorePath=paa_dir)
    status = 0
    for node_id, target in enumerate(targets, start=0x100):
        method, _, value = target.partition("=")
        started = time.monotonic()
        try:
            if method == "ip":
                address, port, passcode = value.split(",")
                # CommissionIP has no port; this is its PASE and commissioning with one.
                await controller.EstablishPASESessionIP(address, int(passcode), node_id, int(port))
                await controller.Commission(node_id)
            elif method == "code":
                await controller.CommissionWithCode(value, node_id, DiscoveryType.DISCOVERY_NETWORK_ONLY)
            else:
                raise ValueError(f"unknown target {target!r}")
        except Exception as error:
            record(results, {"method": method, "error": repr(error)})
            status = 1
            break
        record(results, {"method": method, "seconds": time.monotonic() - started})
    controller.Shutdown()
    authorities.Shutdown()
    stack.Shutdown()
    return status


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:])))
