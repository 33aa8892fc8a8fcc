import Foundation
import HomeEngine
import HubWire

/// The default add-device interaction: answers given in advance are used as they are; the others are asked on the
/// terminal (standard input and standard error). Without a terminal, a missing answer fails at once instead of waiting.
public struct TerminalInteraction: MatterAddDeviceInteraction {
    public var givenRoom: String?
    public var givenName: String?

    public init(room: String? = nil, name: String? = nil) {
        givenRoom = room
        givenName = name
    }

    public func onboardingPayload() throws(HomeError) -> String {
        try ask("Setup code (MT:… or the 11-digit manual code): ", missing: "the device's setup code", option: "CODE")
    }

    public func room(choosingFrom rooms: [MatterAddDeviceRequest.Room]) throws(HomeError) -> MatterAddDeviceRequest.Room
    {
        if let givenRoom { return MatterAddDeviceRequest.Room(displayName: givenRoom) }
        let list = rooms.enumerated().map { "  \($0.offset + 1). \($0.element.displayName)" }.joined(separator: "\n")
        let answer = try ask(
            (rooms.isEmpty ? "" : "Rooms:\n\(list)\n") + "Room (a number, or a new room's name): ",
            missing: "the room", option: "--room ROOM")
        if let number = Int(answer), rooms.indices.contains(number - 1) { return rooms[number - 1] }
        return MatterAddDeviceRequest.Room(displayName: answer)
    }

    public func deviceName() throws(HomeError) -> String {
        if let givenName { return givenName }
        return try ask("Device name: ", missing: "the device's name", option: "--name NAME")
    }

    public func progress(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// Asks until the answer is not blank; end of input cancels.
    private func ask(_ prompt: String, missing what: String, option: String) throws(HomeError) -> String {
        guard isatty(STDIN_FILENO) == 1 else {
            throw HomeError(.failedPrecondition, "no terminal to ask for \(what): give it in advance (\(option))")
        }
        while true {
            FileHandle.standardError.write(Data(prompt.utf8))
            guard let line = readLine() else { throw HomeError(.cancelled, "input ended before \(what) was given") }
            let answer = line.trimmingCharacters(in: .whitespaces)
            if !answer.isEmpty { return answer }
        }
    }
}
