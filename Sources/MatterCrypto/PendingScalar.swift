import Dispatch
import Synchronization

/// A scalar being derived on another thread (`Spake2Plus.computeW0`'s w1): `value()` waits for it, as often as asked.
/// Dropped before it is read, its derivation still runs to its end and is discarded.
public final class PendingScalar: Sendable {
    private let derived = DispatchGroup()
    private let result = Mutex<Result<[UInt8], CryptoError>?>(nil)

    init(_ derive: @escaping @Sendable () throws(CryptoError) -> [UInt8]) {
        derived.enter()
        DispatchQueue.global().async {
            let outcome = Result<[UInt8], CryptoError> { () throws(CryptoError) in try derive() }
            self.result.withLock { $0 = outcome }
            self.derived.leave()
        }
    }

    public func value() throws(CryptoError) -> [UInt8] {
        derived.wait()
        // Set before the group is left.
        return try result.withLock { $0! }.get()
    }
}

extension PendingScalar: CustomStringConvertible {
    /// The scalar is a secret: it stays out of logs.
    public var description: String { "PendingScalar(secret redacted)" }
}
