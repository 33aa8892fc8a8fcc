import Foundation
import HomeHub
import HomeRecords

/// What `home watch` and `home serve` lines share: the time they start with and how they name a node.
enum LiveLineText {
    private static let time: DateFormatter = {
        let formatter = DateFormatter()
        formatter.dateFormat = "HH:mm:ss.SSS"
        return formatter
    }()

    /// "13:04:21.737".
    static func time(_ date: Date = Date()) -> String { time.string(from: date) }

    /// "node 8FC7772401CD0696 (Light 1, Light 2)".
    static func node(_ nodeID: UInt64, deviceNames: [String]) -> String {
        let node = DeviceID(nodeID: nodeID, endpoint: 0).description.dropLast(2)
        return "node \(node)" + (deviceNames.isEmpty ? "" : " (\(deviceNames.joined(separator: ", ")))")
    }
}
