import MatterCrypto
import MatterMessaging
import MatterTLV

/// A ReportData-shaped document (§10.6.3): 64 attribute reports with paths, versions and mixed values,
/// about the size of a device's priming report.
func sampleReport() -> TLVElement {
    let reports = (0..<64).map { index in
        TLVElement(
            .structure([
                TLVElement(
                    tag: .context(1),
                    .structure([
                        TLVElement(tag: .context(0), .unsigned(0x1_0000_0000 + UInt64(index))),
                        TLVElement(
                            tag: .context(1),
                            .structure([
                                TLVElement(tag: .context(0), .unsigned(UInt64(index))),
                                TLVElement(tag: .context(2), .unsigned(1)),
                                TLVElement(tag: .context(3), .unsigned(0x0006)),
                                TLVElement(tag: .context(4), .unsigned(UInt64(index % 8))),
                            ])),
                        TLVElement(
                            tag: .context(2),
                            index.isMultiple(of: 3)
                                ? .utf8("Living room light \(index)") : .bool(index.isMultiple(of: 2))),
                    ]))
            ]))
    }
    return TLVElement(
        .structure([
            TLVElement(tag: .context(0), .unsigned(0x1234_5678)),
            TLVElement(tag: .context(1), .array(reports)),
            TLVElement(tag: .context(255), .unsigned(12)),
        ]))
}

/// Figures for the codecs and crypto everything else stands on.
func runCodecBenchmarks() throws -> Report {
    var report = Report()

    // TLV
    let document = sampleReport()
    let encoded = TLVWriter.encode(document)
    let megabytes = Double(encoded.count) / 1_000_000
    let encoding = Measurement.run("TLV encode", iterations: 2_000) { _ = TLVWriter.encode(document) }
    report.add(
        "TLV encode (\(encoded.count)-byte report)", "\(format(megabytes / encoding.perIteration.seconds)) MB/s",
        key: "tlv_encode_mb_per_s", value: megabytes / encoding.perIteration.seconds)
    let decoding = try Measurement.run("TLV decode", iterations: 2_000) { _ = try TLVReader.decode(encoded) }
    report.add(
        "TLV decode (\(encoded.count)-byte report)", "\(format(megabytes / decoding.perIteration.seconds)) MB/s",
        key: "tlv_decode_mb_per_s", value: megabytes / decoding.perIteration.seconds)

    // AES-128-CCM of a 1 KiB message
    let key = [UInt8](repeating: 0x42, count: AESCCM.keyLength)
    let nonce = [UInt8](repeating: 0x07, count: AESCCM.nonceLength)
    let plaintext = [UInt8](repeating: 0xA5, count: 1024)
    let header = [UInt8](repeating: 0x01, count: 8)
    let sealed = try AESCCM.seal(key: key, nonce: nonce, plaintext: plaintext, additionalData: header)
    let seal = try Measurement.run("seal", iterations: 5_000) {
        _ = try AESCCM.seal(key: key, nonce: nonce, plaintext: plaintext, additionalData: header)
    }
    let open = try Measurement.run("open", iterations: 5_000) {
        _ = try AESCCM.open(key: key, nonce: nonce, ciphertextAndTag: sealed, additionalData: header)
    }
    report.add(
        "AES-128-CCM seal, 1 KiB", "\(format(seal.perIteration.microseconds, decimals: 2)) µs",
        key: "aes_ccm_seal_1k_us", value: seal.perIteration.microseconds)
    report.add(
        "AES-128-CCM open, 1 KiB", "\(format(open.perIteration.microseconds, decimals: 2)) µs",
        key: "aes_ccm_open_1k_us", value: open.perIteration.microseconds)

    // A whole secured message: header, protocol header, 1 KiB payload.
    let message = Message(
        header: MessageHeader(sessionID: 0x1234, messageCounter: 1),
        protocolHeader: ProtocolHeader(
            isInitiator: true, needsAcknowledgement: true, opcode: 0x05, exchangeID: 7, protocolID: .interactionModel),
        payload: plaintext
    )
    let datagram = try message.encrypted(key: key, nonceSourceNodeID: 0x1122_3344)
    let roundTrip = try Measurement.run("message", iterations: 5_000) {
        _ = try Message.decrypt(
            try message.encrypted(key: key, nonceSourceNodeID: 0x1122_3344), key: key, nonceSourceNodeID: 0x1122_3344)
    }
    report.add(
        "Secured message encrypt + decrypt, 1 KiB",
        "\(format(roundTrip.perIteration.microseconds, decimals: 2)) µs (\(datagram.count) bytes on the wire)",
        key: "secured_message_1k_us", value: roundTrip.perIteration.microseconds)

    // SPAKE2+ as PASE runs it (§3.10): both roles, from verifier data to the agreed key.
    let salt = [UInt8]("SPAKE2P Key Salt".utf8)
    let passcode: UInt32 = 20_202_021
    let (w0, w1) = try Spake2Plus.computeW0W1(passcode: passcode, salt: salt, iterations: 1000)
    let verifierData = try Spake2Plus.verifierData(passcode: passcode, salt: salt, iterations: 1000)
    let context = SHA256.hash(Array("CHIP PAKE V1 Commissioning".utf8))
    let random = SystemRandom()
    let exchange = try Measurement.run("spake2+", iterations: 50) {
        let prover = try Spake2PlusProver(context: context, w0: w0, random: random)
        var verifier = try Spake2PlusVerifier(context: context, verifierData: verifierData, random: random)
        let (shareV, confirmV) = try verifier.respond(shareP: prover.shareP)
        let (confirmP, proverKey) = try prover.respond(shareV: shareV, confirmV: confirmV, w1: w1)
        let verifierKey = try verifier.finish(confirmP: confirmP)
        precondition(proverKey == verifierKey, "SPAKE2+ roles disagree")
    }
    report.add(
        "SPAKE2+ exchange, prover + verifier", "\(format(exchange.perIteration.microseconds / 1000, decimals: 2)) ms",
        key: "spake2p_exchange_ms", value: exchange.perIteration.microseconds / 1000)
    let derivation = try Measurement.run("pbkdf2", iterations: 5) {
        _ = try Spake2Plus.computeW0W1(passcode: passcode, salt: salt, iterations: 1000)
    }
    report.add(
        "PASE w0/w1 from passcode, PBKDF2 1000 iterations",
        "\(format(derivation.perIteration.microseconds / 1000, decimals: 2)) ms",
        key: "pbkdf2_1000_ms", value: derivation.perIteration.microseconds / 1000)
    return report
}
