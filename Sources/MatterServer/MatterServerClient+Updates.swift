import Glibc
import HTTPWebSocket
import HomeEngine
import HomeHub
import HubWire

extension MatterServerClient {
    /// `check_node_update`: the newest image of the hub's folder the node may take, as a MatterSoftwareVersion
    /// (`update_source` "local", or the DCL's net for an image fetched from it), or null when there is none (Home Assistant's update entity then shows the device
    /// up to date).
    func checkNodeUpdate(_ id: String, _ args: NodeArguments) {
        guard engine.model.snapshot.devices[args.nodeID] != nil else { return send(Self.unknownNode(id, args.nodeID)) }
        work { [self] in
            do throws(HomeError) {
                let updates = try await engine.perform(ReadUpdates(), caller: caller)
                let node = updates.nodes.first { $0.nodeID == args.nodeID }
                send(Self.reply(id, node.flatMap { Self.softwareVersion($0) }?.rendered ?? "null"))
            } catch {
                send(Self.error(id, .updateCheckError, error.message))
            }
        }
    }

    /// `update_node`: the device is told the version is waiting (AnnounceOTAProvider), and null comes back; the
    /// hub's provider serves it from there, and the device's UpdateState and UpdateStateProgress reach the client as
    /// attribute updates.
    func updateNode(_ id: String, _ args: UpdateNodeArguments) {
        guard engine.model.snapshot.devices[args.nodeID] != nil else { return send(Self.unknownNode(id, args.nodeID)) }
        work { [self] in
            do throws(HomeError) {
                let version: UInt32
                switch args.softwareVersion {
                case .number(let number): version = number
                case .text(let text):
                    let updates = try await engine.perform(ReadUpdates(), caller: caller)
                    let node = updates.nodes.first { $0.nodeID == args.nodeID }
                    guard
                        let found = updates.images.first(where: {
                            $0.versionString == text && $0.vendorID == node?.vendorID && $0.productID == node?.productID
                        })
                    else {
                        throw HomeError(.notFound, "the hub holds no image of version \"\(text)\" for this device")
                    }
                    version = found.version
                }
                _ = try await engine.perform(
                    UpdateDevice(nodeID: args.nodeID, version: version, untilApplied: false), caller: caller)
                send(Self.reply(id, "null"))
            } catch {
                send(Self.error(id, .updateError, error.message))
            }
        }
    }

    /// python-matter-server's MatterSoftwareVersion for the image the node may take.
    static func softwareVersion(_ node: ReadUpdates.Node) -> JSONValue? {
        node.available.map(softwareVersion)
    }

    /// python-matter-server's MatterSoftwareVersion of an image the hub holds.
    static func softwareVersion(_ image: ReadUpdates.Image) -> JSONValue {
        .object([
            ("vid", .unsigned(UInt64(image.vendorID))), ("pid", .unsigned(UInt64(image.productID))),
            ("software_version", .unsigned(UInt64(image.version))),
            ("software_version_string", .string(image.versionString)),
            ("firmware_information", .null),
            ("min_applicable_software_version", .unsigned(UInt64(image.minimumApplicable ?? 0))),
            // No upper bound in the header: any version before this one.
            (
                "max_applicable_software_version",
                .unsigned(UInt64(image.maximumApplicable ?? max(image.version, 1) - 1))
            ),
            ("release_notes_url", image.releaseNotesURL.map(JSONValue.string) ?? .null),
            ("update_source", .string(image.updateSource)),
        ])
    }
}

/// Schema 13's upload of a local image: `initiate_ota_upload` gives the ticket, `POST /ota-upload/<id>` brings the
/// bytes (`OTAUploads`), and the hub adds the image as `home update add` does.
extension MatterServerClient {
    /// An upload's body on its way to the file.
    struct Upload {
        let id: String
        let path: String
        let descriptor: Int32
        var remaining: Int
    }

    /// A ticket only for who may add the image it carries (the firmware right): no one else writes a file here.
    func initiateOTAUpload(_ id: String) {
        work { [self] in
            do throws(HomeError) {
                try await engine.check(.right(.firmware, structureID: nil), of: "upload a firmware image", for: caller)
            } catch {
                return send(Self.error(id, MatterServerError(.otaUploadError, error.message)))
            }
            do throws(MatterServerError) {
                let ticket = try peers.uploads.reserve(for: uploadPeer)
                send(
                    Self.reply(
                        id,
                        JSONValue.object([
                            ("upload_id", .string(ticket.id)),
                            ("expires_in", .unsigned(UInt64(ticket.expiresInSeconds))),
                            ("max_size", .unsigned(UInt64(ticket.maximumBytes))),
                        ]).rendered))
            } catch {
                send(Self.error(id, error))
            }
        }
    }

    /// Who a ticket belongs to: the client's host (every loopback address is one: a client may reach `/ws` and the
    /// POST by different ones).
    var uploadPeer: [UInt8] {
        guard let address = connection.remoteAddress else { return [] }
        return address.isLoopback ? [0] : address.hostPrefix
    }

    /// The POST's head: its upload ID and length checked, its file opened; the body follows.
    func beginUpload(_ request: HTTPRequestHead) throws(HTTPUploadRefusal) -> Upload {
        let id = String(request.path.dropFirst(Self.uploadPathPrefix.count))
        guard id.utf8.count == 32, id.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else {
            throw HTTPUploadRefusal(
                404, .object([("error", .string("no upload ID in the path: ask initiate_ota_upload for one"))]))
        }
        let length: Int
        do throws(HTTPError) {
            length = try request.bodyLength(limit: OTAUploads.Limits.largestImage)
        } catch {
            throw HTTPUploadRefusal(error.status, .object([("error", .string(error.reason))]))
        }
        do throws(MatterServerError) {
            let (path, descriptor) = try peers.uploads.claim(id, from: uploadPeer)
            return Upload(id: id, path: path, descriptor: descriptor, remaining: length)
        } catch {
            throw HTTPUploadRefusal(error)
        }
    }

    /// Writes what came of the body; the upload when more is to come, nil when it is whole or failed (and then the
    /// hub has it, or the client has been told).
    func continueUpload(_ upload: Upload, with bytes: [UInt8]) -> Upload? {
        var upload = upload
        let taken = bytes.prefix(upload.remaining)
        var written = 0
        while written < taken.count {
            let count = taken.withUnsafeBytes {
                Glibc.write(upload.descriptor, $0.baseAddress! + written, $0.count - written)
            }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                let reason = String(cString: strerror(errno))
                Glibc.close(upload.descriptor)
                peers.uploads.release(upload.id)
                answerUpload(
                    HTTPUploadRefusal(MatterServerError(.otaUploadError, "the hub cannot keep the upload: \(reason)")))
                return nil
            }
            written += count
        }
        upload.remaining -= taken.count
        guard upload.remaining == 0 else { return upload }
        Glibc.close(upload.descriptor)
        // Not one of the client's commands, cancelled when it goes: an image whose bytes all came is added, and its
        // place and file are always given back.
        Task { [self] in
            defer { peers.uploads.release(upload.id) }
            do throws(HomeError) {
                let added = try await engine.perform(AddUpdateImage(path: upload.path), caller: caller)
                answerUpload(status: 200, Self.softwareVersion(added.image))
            } catch {
                answerUpload(HTTPUploadRefusal(MatterServerError(.otaUploadError, error.message)))
            }
        }
        return nil
    }

    func answerUpload(_ refusal: HTTPUploadRefusal) {
        answerUpload(status: refusal.status, refusal.body)
    }

    private func answerUpload(status: Int, _ body: JSONValue) {
        let response = HTTPResponse(
            status: status,
            fields: [HTTPField("Content-Type", "application/json"), HTTPField("Connection", "close")],
            body: Array(body.rendered.utf8))
        connection.send(response.bytes)
        connection.closeAfterWrites()
    }

    static let uploadPathPrefix = "/ota-upload/"
}

/// An upload refused, as matterjs-server answers it: 400 with the protocol's error, or another status with a reason.
struct HTTPUploadRefusal: Error {
    let status: Int
    let body: JSONValue

    init(_ status: Int, _ body: JSONValue) {
        self.status = status
        self.body = body
    }

    init(_ error: MatterServerError) {
        self.init(
            400, .object([("error_code", .unsigned(UInt64(error.code.rawValue))), ("message", .string(error.details))]))
    }
}
