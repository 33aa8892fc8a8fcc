import HomeEngine
import HubWire
import MatterDataModel

/// A firmware version the hub holds for a device (from its folder of images), which the device may take.
public struct SoftwareUpdate: Sendable, Hashable {
    public let version: UInt32
    public let versionString: String
    public let releaseNotesURL: String?
}

/// How an update goes (`HomeDevice.update(to:)`).
public enum SoftwareUpdateProgress: Sendable, Hashable {
    /// A step: the device was told, it asked for the image, it is applying it.
    case step(String)
    /// The image is being downloaded by the device: how far, and how fast.
    case downloading(percent: Int, bytesPerSecond: Double)
    /// The device reports that it runs the new version: the last element.
    case installed(SoftwareUpdate)
}

extension HomeDevice {
    /// The software version its node reports (Basic Information's SoftwareVersionString), nil before it did.
    public var softwareVersion: String? {
        try? context.model.view(of: nodeID)?.cache.value(
            BasicInformationCluster.Attributes.softwareVersionString, endpoint: 0)
    }

    /// The newest version the hub holds that its node may take, or nil when it is up to date (a node that has not
    /// reported its version yet is asked).
    public func checkForUpdate() async throws(HomeError) -> SoftwareUpdate? {
        let updates = try await context.perform(ReadUpdates())
        return updates.nodes.first { $0.nodeID == nodeID }?.available.map {
            SoftwareUpdate(version: $0.version, versionString: $0.versionString, releaseNotesURL: $0.releaseNotesURL)
        }
    }

    /// Updates its node to `version` (nil: the newest it may take) from the hub's folder, as the hub's OTA provider:
    /// the progress, then `.installed` once the device reports the new version; the sequence throws the `HomeError`
    /// that stopped it. Every part of a multipart node is updated with it: an update is the node's.
    public func update(to version: UInt32? = nil) -> AsyncThrowingStream<SoftwareUpdateProgress, any Error> {
        let (stream, continuation) = AsyncThrowingStream<SoftwareUpdateProgress, any Error>.makeStream()
        let (context, nodeID) = (context, nodeID)
        let task = Task {
            do throws(HomeError) {
                let done = try await context.perform(UpdateDevice(nodeID: nodeID, version: version)) { line in
                    switch line {
                    case .note(let text), .finished(let text, _): continuation.yield(.step(text))
                    case .transfer(let percent, let rate):
                        continuation.yield(.downloading(percent: percent, bytesPerSecond: rate))
                    }
                }
                continuation.yield(
                    .installed(
                        SoftwareUpdate(
                            version: done.to, versionString: done.versionString, releaseNotesURL: done.releaseNotesURL))
                )
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}
