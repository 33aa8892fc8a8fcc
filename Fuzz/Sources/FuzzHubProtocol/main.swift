import CFuzzerDriver
import Glibc
@_spi(Fuzzing) import HubWire

// libFuzzer calls the entry with each input it makes (`FuzzEntry.hubProtocol` replays the corpus through the same one).
var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(
    LLVMFuzzerRunDriver(&argc, &argv) { data, size in
        HubProtocolFuzzing.take(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
        return 0
    })
