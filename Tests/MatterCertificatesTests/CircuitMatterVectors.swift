import MatterCertificates

/// Attestation material produced by CircuitMatter 0.4.1 (Adafruit's pure-Python Matter device, MIT), by running
/// its own code in its venv (~/.cache/matter-peers/cm/bin/python) with fixed inputs:
/// `certificates.generate_certificates(0xFFF4, 0x1234)` for the certification declaration (signed with the
/// public test CD key), `certificates.generate_dac(0xFFF4, 0x1234, "CircuitMatter", …)` for the DAC (issued by
/// its built-in "CircuitMatter PAI", which the public Matter Test PAA signs), and its NodeOperationalCredentials
/// cluster's `attestation_request` and `csr_request` handlers for the signed elements. The script:
///
///     # Generates CircuitMatter attestation vectors with CircuitMatter 0.4.1's own code (deterministic inputs).
///     import hashlib, types, binascii
///     import circuitmatter.certificates as certs
///     import circuitmatter.device_types.utility.root_node as rn
///     from circuitmatter.clusters.device_management.node_operational_credentials import NodeOperationalCredentialsCluster as NOC
///
///     class Stream:
///         """Deterministic 'urandom': SHA-256(seed || counter) blocks."""
///         def __init__(self, seed): self.seed, self.counter = seed, 0
///         def urandom(self, n):
///             out = b""
///             while len(out) < n:
///                 out += hashlib.sha256(self.seed + self.counter.to_bytes(4, "big")).digest(); self.counter += 1
///             return out[:n]
///
///     cd = certs.generate_certificates(vendor_id=0xFFF4, product_id=0x1234)
///     dac, dac_key = certs.generate_dac(0xFFF4, 0x1234, "CircuitMatter", Stream(b"swift-home dac"))
///     rn.time.time = lambda: 1_700_000_000
///     nonce = bytes(range(0x20, 0x40))
///     challenge = bytes(range(0xA0, 0xB0))
///     session = types.SimpleNamespace(attestation_challenge=challenge)
///     me = types.SimpleNamespace(_nonvolatile={"cd": binascii.b2a_base64(cd).decode(), "dac_cert": binascii.b2a_base64(dac).decode()},
///                                dac_key=rn.ecdsa.keys.SigningKey.from_der(dac_key, hashfunc=hashlib.sha256), random=Stream(b"swift-home csr"))
///     args = NOC.AttestationRequest(); args.AttestationNonce = nonce
///     resp = rn._NodeOperationalCredentialsCluster.attestation_request(me, session, args)
///     csr_nonce = bytes(range(0x40, 0x60))
///     cargs = NOC.CSRRequest(); cargs.CSRNonce = csr_nonce; cargs.IsForUpdateNOC = False
///     cresp = rn._NodeOperationalCredentialsCluster.csr_request(me, session, cargs)
///     def h(name, b): print(name, bytes(b).hex())
///     h("cd", cd); h("dac", dac); h("pai", rn.PAI_CERT_DER)
///     h("nonce", nonce); h("challenge", challenge)
///     h("attestation_elements", resp.AttestationElements); h("attestation_signature", resp.AttestationSignature)
///     h("csr_nonce", csr_nonce); h("nocsr_elements", cresp.NOCSRElements); h("nocsr_signature", cresp.AttestationSignature)
enum CircuitMatterVectors {
    static let certificationDeclaration = [UInt8](
        hex: """
            3081e606092a864886f70d010702a081d83081d5020103310d300b0609608648
            016503040201304306092a864886f70d010701a0360434152400012501f4ff36
            02053412182403162c0413435341303030303053574330303030302d30302405
            0024060024070124080018317c307a020103801462fa823359acfaa9963e1cfa
            140addf504f37160300b0609608648016503040201300a06082a8648ce3d0403
            020446304402200a2d72481076c55b74b748eddce141cd563638f0c386db8df8
            d433fb3a34e262022033b3243dea56cf3a6bc7526f05d00e1812dfa2b1bca7d9
            5928f9cc9853eddae6
            """)
    static let dac = [UInt8](
        hex: """
            308201c63082016da003020102020101300a06082a8648ce3d0403023032311a
            301806035504030c11436972637569744d61747465722050414931143012060a
            2b0601040182a27c02010c04464646343020170d323431303137303030303030
            5a180f39393939313233313233353935395a30443116301406035504030c0d43
            6972637569744d617474657231143012060a2b0601040182a27c02010c044646
            463431143012060a2b0601040182a27c02020c04313233343059301306072a86
            48ce3d020106082a8648ce3d03010703420004f5fc0c2fba43cda53883e349f3
            d070ab042bb788650a950806f4a0f2043b54b9b00f721ade0e728a986970f78c
            dd2884227a0c2ca4b70541ce2756fae20ac2d5a360305e300c0603551d130101
            ff04023000300e0603551d0f0101ff040403020780301d0603551d0e04160414
            77c5ed58cefd527eecd678f1fe513b60cae2e892301f0603551d230418301680
            1407f8380a5f0136fce236bd45f288ff22dca6f4a7300a06082a8648ce3d0403
            020347003044022007de2010e8930cae7600e100d2b64100f26f4621ef7fbdf6
            39bddddbab872ec00220199d152b50c1917bb803b039933e4beb6e62dc689d40
            14a70b555f66aeb1addb
            """)
    static let pai = [UInt8](
        hex: """
            308201aa30820150a00302010202085ef5afd01360f5d4300a06082a8648ce3d
            040302301a3118301606035504030c0f4d617474657220546573742050414130
            20170d3234313031373030303030305a180f3939393931323331323335393539
            5a3032311a301806035504030c11436972637569744d61747465722050414931
            143012060a2b0601040182a27c02010c04464646343059301306072a8648ce3d
            020106082a8648ce3d03010703420004375d2bc8c615275bfd848b52fe2196e2
            a14ef3cc91aef05dff851cbc19b1a935458cfe04aa424e016de3d674dc5b7329
            bd7757fddb3238d62673629b3c790845a366306430120603551d130101ff0408
            30060101ff020100300e0603551d0f0101ff040403020106301d0603551d0e04
            16041407f8380a5f0136fce236bd45f288ff22dca6f4a7301f0603551d230418
            30168014785ce705b86b8f4e6fc793aa60cb43ea696882d5300a06082a8648ce
            3d04030203480030450221009c5f59835cc651c25c79013325223d256be74398
            bc038389f4556df7f74a8a3402205c14174cc32307ff421c4f8b0b63b9625258
            a296e031fdce51a27a08492bc038
            """)
    static let nonce = [UInt8](
        hex: """
            202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f
            """)
    static let challenge = [UInt8](
        hex: """
            a0a1a2a3a4a5a6a7a8a9aaabacadaeaf
            """)
    static let attestationElements = [UInt8](
        hex: """
            153001e93081e606092a864886f70d010702a081d83081d5020103310d300b06
            09608648016503040201304306092a864886f70d010701a03604341524000125
            01f4ff3602053412182403162c0413435341303030303053574330303030302d
            303024050024060024070124080018317c307a020103801462fa823359acfaa9
            963e1cfa140addf504f37160300b0609608648016503040201300a06082a8648
            ce3d0403020446304402200a2d72481076c55b74b748eddce141cd563638f0c3
            86db8df8d433fb3a34e262022033b3243dea56cf3a6bc7526f05d00e1812dfa2
            b1bca7d95928f9cc9853eddae6300220202122232425262728292a2b2c2d2e2f
            303132333435363738393a3b3c3d3e3f260300f1536518
            """)
    static let attestationSignature = [UInt8](
        hex: """
            a8bf0cbcdeec2adacf4db87a440bb7727eedd85d10f2873429c94e44cd2a7877
            654db0e3599555a6fd19a6880a90c5494b758ef99793da592109816006b7bce8
            """)
    static let csrNonce = [UInt8](
        hex: """
            404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f
            """)
    static let nocsrElements = [UInt8](
        hex: """
            153001dc3081d9308181020100300e310c300a060355040a0c03435341305930
            1306072a8648ce3d020106082a8648ce3d030107034200046859f9a6593b7ca4
            89079733bc63f961be1452c9e070558151158bd69dd2aa28aba372c91ecc6b22
            06d53eb39926fe11814ddfc78ab97645542d76721cb6f1d0a011300f06092a86
            4886f70d01090e31023000300a06082a8648ce3d040302034700304402206e31
            05843eac310ee7b2405a04578dd7bbc54a9d6a2c5a4d7b75df473ee9e7fb0220
            0aabd1fa653cbb451e964d7c585db4b341925b26ea62c79fe2e4bf93f5402bd4
            300220404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c
            5d5e5f18
            """)
    static let nocsrSignature = [UInt8](
        hex: """
            554f62c9905ba51bcb611d1a2cd0dafaa2b5275e4be5c4cc23001cfb8655217f
            004643eb2b5304827dad9808d9ff0fba363784eb62365c753be50cb00e715159
            """)
    /// The timestamp the script gave the device's clock: 2023-11-14T22:13:20Z.
    static let unixTime: Int64 = 1_700_000_000
}
