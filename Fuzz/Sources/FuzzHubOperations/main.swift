import CFuzzerDriver
import Glibc
import MatterFuzzing

// libFuzzer calls the entry with each input it makes; see `FuzzEntry.hubOperations`.
var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(
    LLVMFuzzerRunDriver(&argc, &argv) { data, size in
        FuzzEntry.hubOperations.run(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
        return 0
    })
