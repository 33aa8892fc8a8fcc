import CTLS
import Foundation
import Glibc
import HTTPClient
import Testing

/// HTTPS against a TLS server on loopback with the test's own certificates (`Fixtures/`: a test CA, a server
/// certificate it signed for localhost and 127.0.0.1, and a stranger's self-signed one; test keys, made with openssl,
/// valid for a century): the body over TLS when the certificate chains to what is trusted and names the host, and a
/// refusal saying why when it does not.
@Suite(.timeLimit(.minutes(1))) struct HTTPSClientTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().path + "/Fixtures"

    @Test func aCertificateThatChainsToTheTrustedCAAndNamesTheHostIsServed() async throws {
        let server = try TLSTestServer(host: "127.0.0.1", certificate: "server")
        let byAddress = try await HTTPClient.get(
            "https://127.0.0.1:\(server.port)/image", limit: 100, trustStore: Self.fixtures + "/ca.pem")
        #expect(byAddress.status == 200 && String(decoding: byAddress.body, as: UTF8.self) == "over TLS")
        let byName = try await HTTPClient.get(
            "https://localhost:\(server.port)/image", limit: 100, trustStore: Self.fixtures + "/ca.pem")
        #expect(byName.status == 200)
    }

    @Test func aCertificateNotTrustedOrForAnotherHostIsRefused() async throws {
        func refusal(_ url: String, trustStore: String?) async -> String? {
            do throws(HTTPClientError) {
                _ = try await HTTPClient.get(url, limit: 100, trustStore: trustStore)
                return nil
            } catch {
                return error.reason
            }
        }
        let stranger = try TLSTestServer(host: "127.0.0.1", certificate: "stranger")
        #expect(
            await refusal("https://127.0.0.1:\(stranger.port)/", trustStore: Self.fixtures + "/ca.pem")
                == "the server's certificate is refused: self-signed certificate")
        // The system's trust store does not hold the test CA.
        let server = try TLSTestServer(host: "127.0.0.1", certificate: "server")
        #expect(
            await refusal("https://127.0.0.1:\(server.port)/", trustStore: nil)
                == "the server's certificate is refused: unable to get local issuer certificate")
        // Trusted, but for 127.0.0.1 and localhost, not 127.0.0.2.
        let elsewhere = try TLSTestServer(host: "127.0.0.2", certificate: "server")
        #expect(
            await refusal("https://127.0.0.2:\(elsewhere.port)/", trustStore: Self.fixtures + "/ca.pem")
                == "the server's certificate is refused: IP address mismatch")
    }
}

/// A TLS server of one fixed answer, blocking, on a thread of its own, until it goes.
private final class TLSTestServer: @unchecked Sendable {
    let port: UInt16
    private let listener: Int32
    private let context: TLSContext

    /// OpenSSL's context, shared with the server's thread (OpenSSL makes connections from one context on any thread).
    private final class TLSContext: @unchecked Sendable {
        let pointer: OpaquePointer
        init(_ pointer: OpaquePointer) { self.pointer = pointer }
    }

    init(host: String, certificate name: String) throws {
        guard let context = SSL_CTX_new(TLS_server_method()) else { throw POSIXError(.EIO) }
        guard SSL_CTX_use_certificate_chain_file(context, HTTPSClientTests.fixtures + "/\(name).pem") == 1,
            SSL_CTX_use_PrivateKey_file(context, HTTPSClientTests.fixtures + "/\(name).key", SSL_FILETYPE_PEM) == 1
        else { throw POSIXError(.EINVAL) }
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        self.listener = listener
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        inet_pton(AF_INET, host, &address.sin_addr)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && listen(listener, 8) == 0 && getsockname(listener, $0, &length) == 0
            }
        }
        guard bound else {
            close(listener)
            throw POSIXError(.EADDRNOTAVAIL)
        }
        port = UInt16(bigEndian: address.sin_port)
        let shared = TLSContext(context)
        self.context = shared
        Thread.detachNewThread { [listener] in
            while true {
                let client = accept(listener, nil, nil)
                guard client >= 0 else { return }
                guard let tls = SSL_new(shared.pointer) else { return }
                SSL_set_fd(tls, client)
                if SSL_accept(tls) == 1 {
                    var request = [UInt8](repeating: 0, count: 4096)
                    _ = SSL_read(tls, &request, Int32(request.count))
                    let answer = Array("HTTP/1.1 200 OK\r\nContent-Length: 8\r\nConnection: close\r\n\r\nover TLS".utf8)
                    _ = SSL_write(tls, answer, Int32(answer.count))
                    SSL_shutdown(tls)
                }
                SSL_free(tls)
                close(client)
            }
        }
    }

    deinit {
        // accept() then fails and the thread ends; the context is left to it (a test's few bytes).
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }
}
