import MatterTestSupport
import Testing

@testable import MatterCrypto

/// SPAKE2+ P-256 / SHA-256 / HKDF draft-01 vectors as published in connectedhomeip
/// src/crypto/tests/SPAKE2P_RFC_test_vectors.h (the schedule Matter PASE uses).
struct Spake2PlusVector: Sendable, CustomTestStringConvertible {
    let name: String
    let proverIdentity: [UInt8]
    let verifierIdentity: [UInt8]
    let x: [UInt8], shareP: [UInt8], y: [UInt8], shareV: [UInt8]
    let ka: [UInt8], ke: [UInt8], kcA: [UInt8], kcB: [UInt8], confirmP: [UInt8], confirmV: [UInt8]

    static let context = Array("SPAKE2+-P256-SHA256-HKDF draft-01".utf8)
    static let w0 = [UInt8](hex: "e6887cf9bdfb7579c69bf47928a84514b5e355ac034863f7ffaf4390e67d798c")
    static let w1 = [UInt8](hex: "24b5ae4abda868ec9336ffc3b78ee31c5755bef1759227ef5372ca139b94e512")
    static let l = [UInt8](
        hex:
            "0495645cfb74df6e58f9748bb83a86620bab7c82e107f57d6870da8cbcb2ff9f7063a14b6402c62f99afcb9706a4d1a143273259fe76f1c605a3639745a92154b9"
    )

    var testDescription: String { name }

    static let all = [
        Spake2PlusVector(
            name: "client/server", proverIdentity: Array("client".utf8), verifierIdentity: Array("server".utf8),
            x: [UInt8](hex: "8b0f3f383905cf3a3bb955ef8fb62e24849dd349a05ca79aafb18041d30cbdb6"),
            shareP: [UInt8](
                hex:
                    "04af09987a593d3bac8694b123839422c3cc87e37d6b41c1d630f000dd64980e537ae704bcede04ea3bec9b7475b32fa2ca3b684be14d11645e38ea6609eb39e7e"
            ),
            y: [UInt8](hex: "2e0895b0e763d6d5a9564433e64ac3cac74ff897f6c3445247ba1bab40082a91"),
            shareV: [UInt8](
                hex:
                    "04417592620aebf9fd203616bbb9f121b730c258b286f890c5f19fea833a9c900cbe9057bc549a3e19975be9927f0e7614f08d1f0a108eede5fd7eb5624584a4f4"
            ),
            ka: [UInt8](hex: "f9cab9adcc0ed8e5a4db11a8505914b2"),
            ke: [UInt8](hex: "801db297654816eb4f02868129b9dc89"),
            kcA: [UInt8](hex: "0d248d7d19234f1486b2efba5179c52d"),
            kcB: [UInt8](hex: "556291df26d705a2caedd6474dd0079b"),
            confirmP: [UInt8](hex: "d4376f2da9c72226dd151b77c2919071155fc22a2068d90b5faa6c78c11e77dd"),
            confirmV: [UInt8](hex: "0660a680663e8c5695956fb22dff298b1d07a526cf3cc591adfecd1f6ef6e02e")),
        Spake2PlusVector(
            name: "empty identities (Matter)", proverIdentity: [], verifierIdentity: [],
            x: [UInt8](hex: "5b478619804f4938d361fbba3a20648725222f0a54cc4c876139efe7d9a21786"),
            shareP: [UInt8](
                hex:
                    "04a6db23d001723fb01fcfc9d08746c3c2a0a3feff8635d29cad2853e7358623425cf39712e928054561ba71e2dc11f300f1760e71eb177021a8f85e78689071cd"
            ),
            y: [UInt8](hex: "766770dad8c8eecba936823c0aed044b8c3c4f7655e8beec44a15dcbcaf78e5e"),
            shareV: [UInt8](
                hex:
                    "04390d29bf185c3abf99f150ae7c13388c82b6be0c07b1b8d90d26853e84374bbdc82becdb978ca3792f472424106a2578012752c11938fcf60a41df75ff7cf947"
            ),
            ka: [UInt8](hex: "5929a3ce9822c81401bf0f764f69af08"),
            ke: [UInt8](hex: "ea3276d68334576097e04b19ee5a3a8b"),
            kcA: [UInt8](hex: "7f84b939d600117256b0c8a6d40cf181"),
            kcB: [UInt8](hex: "f7d7547ced93f681e8df4c258c4516fd"),
            confirmP: [UInt8](hex: "71d9412779b6c45a2c615c9df3f1fd93dc0aaf63104da8ece4aa1b5a3a415fea"),
            confirmV: [UInt8](hex: "095dc0400355cc233fde7437811815b3c1524aae80fd4e6810cf531cf11d20e3")),
    ]

    func prover() throws -> Spake2PlusProver {
        try Spake2PlusProver(
            context: Self.context, proverIdentity: proverIdentity, verifierIdentity: verifierIdentity,
            w0: Self.w0, x: x)
    }

    func verifier() throws -> Spake2PlusVerifier {
        try Spake2PlusVerifier(
            context: Self.context, proverIdentity: proverIdentity, verifierIdentity: verifierIdentity,
            verifierData: Spake2PlusVerifierData(w0: Self.w0, l: Self.l), y: y)
    }
}
