import Dispatch
import Foundation
import Glibc
import MatterCrypto
import MatterDevice

// matter-device: a commissionable Matter device over IP, until SIGINT or SIGTERM.

/// Writes straight to a descriptor, unbuffered, so a script reading a pipe sees each line at once.
func emit(_ text: String, to descriptor: Int32 = STDOUT_FILENO) {
    let bytes = Array((text + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
}

/// One device's setup data as the JSON line scripts read first.
func setupLine(_ setup: DeviceSetup) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(setup), as: UTF8.self)
}

/// Returns on SIGINT or SIGTERM: the handlers only wake the waiting task, which then shuts down cleanly.
func stopSignalled() async {
    let (signals, signalled) = AsyncStream<Int32>.makeStream()
    let sources = [SIGINT, SIGTERM].map { number in
        signal(number, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: number, queue: .main)
        source.setEventHandler { signalled.yield(number) }
        source.resume()
        return source
    }
    for await _ in signals { break }
    withExtendedLifetime(sources) {}
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
    let store = DeviceStore(directory: options.stateDirectory)
    let device: VirtualDevice
    do {
        if options.factoryReset { try store.factoryReset() }
        let state = try store.loadOrCreate(options.settings)
        device = try VirtualDevice(store: store, state: state, port: options.port, interfaces: options.interfaces) {
            emit($0)
        }
        emit(try setupLine(DeviceSetup(device, state: state, store: store, interfaces: options.interfaces)))
        try await device.start()
    } catch {
        fail("\(error)")
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
    await stopSignalled()
    console.cancel()
    await device.shutdown()
    emit("[device] stopped")

case .farm(let options):
    // Two sockets per device: a limit below what the farm needs stops it here, named, not halfway through.
    var limit = rlimit()
    getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
    let needed = rlim_t(2 * options.count + 64)
    if limit.rlim_cur < needed {
        limit.rlim_cur = min(limit.rlim_max, needed)
        setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
    }
    guard limit.rlim_cur >= needed else {
        fail(
            "\(options.count) devices need \(needed) file descriptors; this process may open \(limit.rlim_max) (ulimit -Hn)"
        )
    }
    let farm: DeviceFarm
    do {
        farm = try DeviceFarm.open(
            directory: options.stateDirectory, ports: options.ports, kinds: options.kinds, settings: options.settings,
            factoryReset: options.factoryReset
        ) { index, line in emit("#\(index) \(line)") }
        for setup in farm.setups { emit(try setupLine(setup)) }
        try await farm.start()
    } catch {
        fail("\(error)")
    }
    emit("[farm] \(options.count) devices running")
    await stopSignalled()
    await farm.shutdown()
    emit("[farm] stopped")
}
