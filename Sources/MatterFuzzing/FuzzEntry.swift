import MatterCertificates
import MatterDiscovery
import MatterInteraction
import MatterMessaging
import MatterOnboarding
import MatterTLV

/// The entries the libFuzzer targets of `Fuzz/` call, one per kind of input a peer or a user controls. The
/// normal test run replays the committed corpora (and every past crash) through the same entries, without the
/// sanitizers, so what was fixed stays fixed. An entry never throws: it traps only on a broken invariant.
public enum FuzzEntry: String, CaseIterable, Sendable {
    case tlv = "FuzzTLV"
    case onboarding = "FuzzOnboarding"
    case message = "FuzzMessage"
    case certificates = "FuzzCertificates"
    case dns = "FuzzDNS"
    case interaction = "FuzzInteraction"

    public func run(_ bytes: [UInt8]) {
        switch self {
        case .tlv: Self.tlv(bytes)
        case .onboarding: Self.onboarding(bytes)
        case .message: Self.message(bytes)
        case .certificates: Self.certificates(bytes)
        case .dns: Self.dns(bytes)
        case .interaction: Self.interaction(bytes)
        }
    }

    /// Matter Core Appendix A TLV: whatever decodes encodes to bytes that decode and encode to the same bytes (bytes,
    /// not elements, are compared: a NaN float is never equal to itself).
    static func tlv(_ bytes: [UInt8]) {
        guard let element = try? TLVReader.decode(bytes) else { return }
        let encoded = TLVWriter.encode(element)
        guard let again = try? TLVReader.decode(encoded) else {
            preconditionFailure("TLV that was written does not decode")
        }
        precondition(TLVWriter.encode(again) == encoded, "TLV round trip changed the element")
    }

    /// Matter Core §5.1 onboarding payloads as a user types or scans them: QR codes and manual codes.
    static func onboarding(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        _ = try? SetupPayload(qrCode: text)
        _ = try? SetupPayload(qrCode: "MT:" + text)
        _ = try? SetupPayload(manualCode: text)
    }

    /// Matter Core §4.4 message and protocol headers, as any datagram on the Matter port brings them.
    static func message(_ bytes: [UInt8]) {
        _ = try? MessageHeader.decode(bytes)
        _ = try? ProtocolHeader.decode(bytes)
        _ = try? Message.decode(bytes)
    }

    /// What a device being commissioned hands the commissioner: X.509 DER certificates (DAC, PAI), Matter TLV
    /// certificates, the certification declaration's CMS envelope, attestation and NOCSR elements.
    static func certificates(_ bytes: [UInt8]) {
        if let certificate = try? X509Certificate(derEncoded: bytes) {
            _ = try? certificate.basicConstraints
            _ = try? certificate.keyUsage
            _ = try? certificate.subjectKeyIdentifier
            _ = try? certificate.authorityKeyIdentifier
            _ = try? certificate.attestationIdentifiers
            _ = try? MatterCertificate(x509DER: bytes)
        }
        _ = try? MatterCertificate(tlv: bytes)
        _ = try? SignedCertificationDeclaration(derEncoded: bytes)
        _ = try? CertificationDeclaration(tlv: bytes)
        _ = try? AttestationElements(tlv: bytes)
        _ = try? NOCSRElements(tlv: bytes)
    }

    /// RFC 1035 / RFC 6762 DNS messages, as anyone on the link may multicast them; what decodes re-encodes or says
    /// why not.
    static func dns(_ bytes: [UInt8]) {
        guard let message = try? DNSMessage(decoding: bytes) else { return }
        _ = try? message.encoded()
    }

    /// Matter Core §10.7 Interaction Model messages: those the client decodes and those the server handles.
    static func interaction(_ bytes: [UInt8]) {
        _ = try? ReportDataMessage(payload: bytes)
        _ = try? InvokeResponseMessage(payload: bytes)
        _ = try? StatusResponseMessage(payload: bytes)
        _ = try? SubscribeResponseMessage(payload: bytes)
        _ = try? WriteResponseMessage(payload: bytes)
        _ = try? ReadRequestMessage(payload: bytes)
        _ = try? SubscribeRequestMessage(payload: bytes)
        _ = try? InvokeRequestMessage(payload: bytes)
        _ = try? WriteRequestMessage(payload: bytes)
        _ = try? TimedRequestMessage(payload: bytes)
    }
}
