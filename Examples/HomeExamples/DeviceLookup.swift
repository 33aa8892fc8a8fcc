import HomeAPI

/// Finds a device by its ID or its name (whatever its case), as the examples take it on their command line.
enum DeviceLookup {
    static func device(_ text: String, in home: Home) async throws(HomeError) -> HomeDevice {
        let devices = try await home.devices().list()
        guard
            let device = devices.first(where: { $0.id == text })
                ?? devices.first(where: { $0.name.caseInsensitiveCompare(text) == .orderedSame })
        else {
            throw HomeError(.notFound, "no device \"\(text)\"")
        }
        return device
    }
}
