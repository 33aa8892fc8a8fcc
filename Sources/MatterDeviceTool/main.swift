import BLEProxy
import Dispatch
import Foundation
import Glibc
import MatterCrypto
import MatterDevice
import MatterPlatform

// matter-device: a commissionable Matter device over IP, until SIGINT or SIGTERM.

/// Writes straight to a descriptor, unbuffered, so a script reading a pipe sees each line at once.
func emit(_ text: String, to descriptor: Int32 = STDOUT_FILENO) {
    let bytes = Array((text + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
}

func fail(_ message: String, code: Int32 = 1) -> Never {
    emit("error: \(message)", to: STDERR_FILENO)
    exit(code)
}

// Before any OpenSSL use: a session's crypto still running while the device exits must not find OpenSSL freed.
OpenSSLProcess.keepStateUntilExit()

let command: DeviceCommandLine
do {
    command = try DeviceCommandLine(arguments: Array(CommandLine.arguments.dropFirst()))
} catch {
    emit("error: \(error.description)\n\(DeviceCommandLine.usage)", to: STDERR_FILENO)
    exit(2)
}

switch command {
case .help:
    emit(DeviceCommandLine.usage)
    exit(0)

case .exportAttestation(let directory, let stateDirectory):
    do {
        guard let state = try DeviceStore(directory: stateDirectory).load() else {
            fail("no device in \(stateDirectory): start it once first")
        }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = directory + "/paa.der"
        guard FileManager.default.createFile(atPath: path, contents: state.paa) else { fail("cannot write \(path)") }
        emit(path)
    } catch {
        fail("\(error)")
    }

case .run(let options):
    let stop = StopSignal()
    let store = DeviceStore(directory: options.stateDirectory)
    let device: VirtualDevice
    do {
        if options.factoryReset { try store.factoryReset() }
        let state = try store.loadOrCreate(options.settings)
        device = try VirtualDevice(
            store: store, state: state, port: options.port, interfaces: options.interfaces, radio: options.radio,
            freshFromItsBox: options.bleProxy != nil, intermittent: options.intermittent
        ) {
            emit($0)
        }
        emit(try DeviceSetup(device, state: state, store: store, interfaces: options.interfaces).jsonLine)
        try await device.start()
    } catch {
        fail("\(error)")
    }
    var bluetooth: Task<Void, Never>?
    if let endpoint = options.bleProxy {
        var token: String?
        if let path = options.tokenFile {
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { fail("cannot read \(path)") }
            token = text.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let hubToken = token
        bluetooth = Task {
            await BLEProxyDial.keepConnected(
                endpoint, token: hubToken, peripheral: { send in await device.bluetoothPeripheral(send: send) },
                log: { emit($0) })
        }
    }
    // Commands on standard input, one a line, until it closes. A device in the background of an interactive shell
    // must not be stopped by reading the terminal: with SIGTTIN ignored the read fails and the commands end.
    signal(SIGTTIN, SIG_IGN)
    let (consoleLines, lineRead) = AsyncStream<String>.makeStream()
    Thread.detachNewThread {
        while let line = readLine() { lineRead.yield(line) }
        lineRead.finish()
    }
    let console = Task {
        for await line in consoleLines {
            do {
                try await DeviceConsoleCommand.parse(line)?.run(on: device)
            } catch {
                emit("error: \(error)", to: STDERR_FILENO)
            }
        }
    }
    await stop.wait()
    console.cancel()
    bluetooth?.cancel()
    await device.shutdown()
    emit("[device] stopped")

case .farm(let options):
    do {
        try await options.run { emit($0) }
    } catch {
        fail("\(error)")
    }
}
