/// Where key material and nonces come from; injectable so tests and simulations are reproducible.
public protocol RandomSource: Sendable {
    /// Returns `count` random bytes.
    func bytes(_ count: Int) -> [UInt8]
}
