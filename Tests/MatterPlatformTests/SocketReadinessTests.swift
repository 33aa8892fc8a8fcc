import Glibc
import MatterTestSupport
import Synchronization
import Testing

@testable import MatterPlatform

/// A descriptor's readiness replaced by another before the first is let go (`x.readiness = SocketReadiness(…)`):
/// the newer one takes the descriptor over, and the older one's late cancel leaves it watched.
@Suite struct SocketReadinessTests {
    @Test func aNewerWatchOfTheSameDescriptorOutlivesTheOlderOnesCancel() async {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        let (descriptor, writer) = (ends[0], ends[1])
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        defer {
            close(descriptor)
            close(writer)
        }
        let older = Mutex(0)
        let newer = Mutex(0)
        let first = SocketReadiness(descriptor: descriptor) { resume in
            older.withLock { $0 += 1 }
            resume()
        }
        let second = SocketReadiness(descriptor: descriptor) { resume in
            var byte: UInt8 = 0
            _ = read(descriptor, &byte, 1)
            newer.withLock { $0 += 1 }
            resume()
        }
        first.cancel()
        var one: UInt8 = 1
        _ = write(writer, &one, 1)
        #expect(await eventually(within: .seconds(5)) { newer.withLock { $0 } == 1 })
        #expect(older.withLock { $0 } == 0)
        _ = write(writer, &one, 1)
        #expect(await eventually(within: .seconds(5)) { newer.withLock { $0 } == 2 })
        second.cancel()
    }
}
