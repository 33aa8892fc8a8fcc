import COpenSSL

/// P-256 (SEC 2 secp256r1) arithmetic over OpenSSL EC_GROUP, EC_POINT and BIGNUM.
/// Internal: these objects own C pointers and free them in deinit; none leaves the module.
final class P256Group {
    let group: OpaquePointer
    let context: OpaquePointer
    let order: BigNumber

    init() throws(CryptoError) {
        // The order is allocated first so that a later failure frees everything through deinit.
        order = try BigNumber()
        guard let group = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1) else {
            throw openSSLError("EC_GROUP_new_by_curve_name(P-256)")
        }
        guard let context = BN_CTX_new() else {
            EC_GROUP_free(group)
            throw openSSLError("BN_CTX_new")
        }
        self.group = group
        self.context = context
        try requireSuccess(EC_GROUP_get_order(group, order.pointer, context), "reading the P-256 order")
    }

    deinit {
        BN_CTX_free(context)
        EC_GROUP_free(group)
    }

    /// A private scalar as 32 big-endian bytes; must lie in [1, n − 1].
    func scalar(_ bytes: [UInt8]) throws(CryptoError) -> BigNumber {
        guard bytes.count == CryptoConstants.p256ScalarLength else {
            throw .invalidKey("P-256 scalar is \(bytes.count) bytes, expected \(CryptoConstants.p256ScalarLength)")
        }
        let value = try BigNumber(bytes: bytes)
        guard !value.isZero, BN_cmp(value.pointer, order.pointer) < 0 else {
            throw .invalidKey("P-256 scalar is zero or not below the group order")
        }
        return value
    }

    /// Any byte string reduced modulo the group order n.
    func reduce(_ bytes: [UInt8]) throws(CryptoError) -> BigNumber {
        let value = try BigNumber(bytes: bytes)
        let reduced = try BigNumber()
        try requireSuccess(
            BN_nnmod(reduced.pointer, value.pointer, order.pointer, context), "reducing modulo the P-256 order")
        return reduced
    }

    /// A uniformly distributed scalar in [1, n − 1]: (seed mod (n − 1)) + 1, with 64 spare bits of seed (FIPS 186-5 A.2.1).
    func randomScalar(using random: some RandomSource) throws(CryptoError) -> BigNumber {
        let seed = try BigNumber(bytes: random.bytes(CryptoConstants.p256ScalarSeedLength))
        let orderMinusOne = try BigNumber()
        try requireSuccess(BN_sub(orderMinusOne.pointer, order.pointer, BN_value_one()), "computing n − 1")
        let value = try BigNumber()
        try requireSuccess(
            BN_nnmod(value.pointer, seed.pointer, orderMinusOne.pointer, context), "reducing a random scalar")
        try requireSuccess(BN_add_word(value.pointer, 1), "offsetting a random scalar")
        return value
    }

    /// SEC 1 §2.3.4: decodes any point encoding; rejects points off the curve and the identity.
    func point(encoded bytes: [UInt8]) throws(CryptoError) -> ECPoint {
        let point = try ECPoint(group: self)
        guard !bytes.isEmpty,
            EC_POINT_oct2point(group, point.pointer, bytes, bytes.count, context) == 1,
            EC_POINT_is_on_curve(group, point.pointer, context) == 1,
            EC_POINT_is_at_infinity(group, point.pointer) == 0
        else {
            ERR_clear_error()
            throw .invalidPoint
        }
        return point
    }

    /// SEC 1 §2.3.4 uncompressed encoding 0x04 ‖ X ‖ Y, exactly 65 bytes.
    func point(x963 bytes: [UInt8]) throws(CryptoError) -> ECPoint {
        guard bytes.count == CryptoConstants.p256UncompressedPointLength, bytes.first == 0x04 else {
            throw .invalidPoint
        }
        return try point(encoded: bytes)
    }

    /// Uncompressed encoding; the identity has none, so it throws `.invalidPoint`.
    func x963(_ point: ECPoint) throws(CryptoError) -> [UInt8] {
        guard EC_POINT_is_at_infinity(group, point.pointer) == 0 else { throw .invalidPoint }
        var bytes = [UInt8](repeating: 0, count: CryptoConstants.p256UncompressedPointLength)
        let written = EC_POINT_point2oct(
            group, point.pointer, POINT_CONVERSION_UNCOMPRESSED, &bytes, bytes.count, context)
        guard written == bytes.count else { throw openSSLError("encoding a P-256 point") }
        return bytes
    }

    /// The affine X coordinate as 32 bytes (the ECDH shared secret, SEC 1 §3.3.1).
    func xCoordinate(_ point: ECPoint) throws(CryptoError) -> [UInt8] {
        let encoded = try x963(point)
        return Array(encoded[1...CryptoConstants.p256ScalarLength])
    }

    /// generatorScalar·G + pointScalar·point (either term may be omitted).
    func multiply(
        generatorBy generatorScalar: BigNumber?, point: ECPoint? = nil, by pointScalar: BigNumber? = nil
    ) throws(CryptoError) -> ECPoint {
        let result = try ECPoint(group: self)
        try requireSuccess(
            EC_POINT_mul(
                group, result.pointer, generatorScalar?.pointer, point?.pointer, pointScalar?.pointer, context),
            "multiplying on P-256")
        return result
    }

    /// lhs − rhs.
    func subtract(_ lhs: ECPoint, _ rhs: ECPoint) throws(CryptoError) -> ECPoint {
        let negated = try ECPoint(group: self)
        try requireSuccess(EC_POINT_copy(negated.pointer, rhs.pointer), "copying a P-256 point")
        try requireSuccess(EC_POINT_invert(group, negated.pointer, context), "negating a P-256 point")
        let result = try ECPoint(group: self)
        try requireSuccess(
            EC_POINT_add(group, result.pointer, lhs.pointer, negated.pointer, context), "adding P-256 points")
        return result
    }
}

/// An owned BIGNUM, cleared on release because it may hold a secret scalar.
final class BigNumber {
    let pointer: OpaquePointer

    init() throws(CryptoError) {
        guard let pointer = BN_new() else { throw openSSLError("BN_new") }
        self.pointer = pointer
    }

    init(bytes: [UInt8]) throws(CryptoError) {
        guard bytes.count <= CryptoConstants.openSSLMaximumLength,
            let pointer = try bytes.withNonNullBytes({ (base) throws(CryptoError) in
                BN_bin2bn(base, Int32(bytes.count), nil)
            })
        else { throw openSSLError("BN_bin2bn") }
        self.pointer = pointer
    }

    deinit { BN_clear_free(pointer) }

    var isZero: Bool { BN_is_zero(pointer) == 1 }

    /// Big-endian bytes left-padded to `length`; throws if the value needs more.
    func bytes(length: Int) throws(CryptoError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: length)
        guard BN_bn2binpad(pointer, &bytes, Int32(length)) == Int32(length) else {
            throw .invalidLength("integer does not fit in \(length) bytes")
        }
        return bytes
    }
}

/// An owned EC_POINT on P-256; keeps its group alive.
final class ECPoint {
    let pointer: OpaquePointer
    private let group: P256Group

    init(group: P256Group) throws(CryptoError) {
        guard let pointer = EC_POINT_new(group.group) else { throw openSSLError("EC_POINT_new") }
        self.pointer = pointer
        self.group = group
    }

    deinit { EC_POINT_clear_free(pointer) }
}
