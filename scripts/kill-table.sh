#!/usr/bin/env bash
# The kill table: `home commission CODE --address …` against a fresh virtual light, killed (SIGKILL) as soon as it
# says a given step is done, then the same command run again, for every step of the commissioning; and the same with
# the commissioning running in `home serve` (the hub killed, restarted, the command run again). Every row must end
# with the device in the store and switchable (`home on` reaches it), or commissionable again; none may be left
# holding our fabric unknown to the hub. A kill lands a few hundred microseconds after the line, so a row may die a
# little into the next step: the row says where the store found it. Rows run four at a time, each with its own device
# and state; a row whose device was held by our fail-safe waits it out (up to a minute), so the table takes a few
# minutes.
#
#   sudo scripts/kill-table.sh        (after `swift build`; needs root for ip netns)
#   ONLY="hub:add NOC,embedded:CSR" REPEAT=5 scripts/kill-table.sh     (only those rows, each five times)
#
# Nothing leaves the namespace (it holds only `lo`). Every wait is bounded; devices and namespace go on exit.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
peers="$(dirname "$0")/../../shared/peers"
export LAB_NS="${LAB_NS:-swifthome-kill-$$}"
bin="$repo/.build/debug"
[ -x "$bin/home" ] && [ -x "$bin/matter-device" ] || { echo "FAIL: run swift build first" >&2; exit 1; }

source "$(dirname "$0")/lab-work.sh"
"$peers/lab.sh" up

python3 - "$peers/lab.sh" "$bin" "$work" <<'PY'
import concurrent.futures, json, os, signal, subprocess, sys, time

lab, bin, work = sys.argv[1:4]
steps = ["PASE session", "arm fail-safe", "set regulatory config", "device attestation", "CSR", "add trusted root",
         "add NOC", "operational discovery", "CASE session", "commissioning complete", "read device information"]

def run(*args, timeout=150):
    return subprocess.run([lab, "exec", *args], capture_output=True, text=True, timeout=timeout)

def start_device(directory, port):
    out = open(f"{directory}/device.out", "w")
    device = subprocess.Popen([lab, "exec", f"{bin}/matter-device", "--state", f"{directory}/device",
                               "--type", "dimmable-light", "--port", str(port)], stdout=out, stderr=subprocess.STDOUT)
    for _ in range(100):
        with open(f"{directory}/device.out") as lines:
            first = lines.readline()
        if first.startswith("{"):
            subprocess.run([f"{bin}/matter-device", "attestation", "export", f"{directory}/paa", "--state",
                            f"{directory}/device"], check=True, capture_output=True)
            return device, json.loads(first)["qr"]
        time.sleep(0.1)
    raise SystemExit(f"FAIL: the device in {directory} printed no setup line")

def killed_after(command, step, victim=None):
    """Runs `command`, SIGKILLs `victim` (default: the command) once its stderr says `step` is done."""
    process = subprocess.Popen([lab, "exec", *command], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    for line in process.stderr:
        if f" {step} done in " in line:
            os.kill(victim or process.pid, signal.SIGKILL)
            break
        if time.monotonic() > deadline:
            break
    else:
        process.wait(10)
        return False
    process.kill()
    process.wait(10)
    return True

def serve(hub, log):
    server = subprocess.Popen([lab, "exec", f"{bin}/home", "serve", "--state", hub], stderr=open(log, "a"))
    for _ in range(300):
        if "clients connect at" in open(log).read():
            return server
        time.sleep(0.1)
    raise SystemExit(f"FAIL: home serve did not start: {open(log).read()}")

def hub_pid(server):
    # lab.sh exec execs into `ip netns exec`, which execs the tool: the PID is the hub's own.
    return server.pid

def row(mode, index, step):
    directory = f"{work}/{mode}-{index}"
    os.makedirs(directory)
    port = 5600 + index
    device, code = start_device(directory, port)
    hub = f"{directory}/hub"
    command = [f"{bin}/home", "commission", code, "--address", f"[::1]:{port}", "--paa-trust-store",
               f"{directory}/paa", "--state", hub, "--json"]
    try:
        server = serve(hub, f"{directory}/serve.err") if mode == "hub" else None
        if not killed_after(command, step, victim=hub_pid(server) if server else None):
            return (mode, step, False, "the commissioning ended before the step was done")
        if server:
            server.wait(10)
        state = run(f"{bin}/home", "devices", "--state", hub).stderr.strip().replace("\n", " ")
        if server:
            server = serve(hub, f"{directory}/serve.err")
        started = time.monotonic()
        again = run(*command)
        took = time.monotonic() - started
        devices = run(f"{bin}/home", "devices", "--json", "--state", hub)
        ids = [device["id"] for device in json.loads(devices.stdout or "[]")] if devices.returncode == 0 else []
        switch = run(f"{bin}/home", "on", ids[-1], "--state", hub) if ids else None
        switched = switch is not None and switch.returncode == 0
        ended = ("in the store, switchable" if switched else
                 f"in the store, NOT switchable ({switch.stderr.strip()})" if ids else "not in the store")
        notes = " | ".join(line for line in again.stderr.splitlines() if line.startswith(("note:", "error:")))
        ok = again.returncode == 0 and switched
        if not ok and mode == "hub":
            # What the hub said of the node: its connection's state changes, the reason of an offline one.
            said = [line.strip() for line in open(f"{directory}/serve.err") if " node " in line]
            ended += f" [hub: {' | '.join(said[-3:]) or 'no node line'}]"
        detail = (f"after the kill: {state or 'store empty'}; again: exit {again.returncode} in {took:.1f} s"
                  f"{' (' + notes + ')' if notes else ''}; {ended}")
        return (mode, step, ok, detail)
    finally:
        if mode == "hub" and "server" in locals() and server and server.poll() is None:
            server.terminate()
            server.wait(10)
        device.terminate()
        device.wait(10)

chosen = [(mode, step) for mode in ("embedded", "hub") for step in steps
          if not os.environ.get("ONLY") or f"{mode}:{step}" in os.environ["ONLY"].split(",")]
rows = [(mode, index, step) for index, (mode, step) in enumerate(chosen * int(os.environ.get("REPEAT", "1")))]
failed = 0
with concurrent.futures.ThreadPoolExecutor(max_workers=4) as pool:
    for mode, step, ok, detail in pool.map(lambda r: row(*r), rows):
        failed += not ok
        print(f"{'PASS' if ok else 'FAIL'} ({mode}, killed after {step}): {detail}", flush=True)
sys.exit(1 if failed else 0)
PY
