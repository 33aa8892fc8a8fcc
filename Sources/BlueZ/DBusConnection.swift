import CSystemd
import Dispatch
import Foundation

/// One client connection to a D-Bus bus (the system bus, where BlueZ is, or a test's private bus) over sd-bus, the
/// runtime's D-Bus: method calls answered asynchronously, and signals matched to handlers. sd-bus is not thread-safe,
/// so every use of the bus happens on the connection's own serial queue, woken by a Dispatch read source when the
/// bus socket is readable (nothing polls). A call that gets no reply within its timeout fails.
public final class DBusConnection: @unchecked Sendable {
    // @unchecked: every stored property below is touched only on `queue`.
    private let queue = DispatchQueue(label: "swift-home.dbus")
    private var bus: OpaquePointer?
    private var readSource: (any DispatchSourceRead)?
    private var nextToken: UInt64 = 0
    private var calls: [UInt64: PendingCall] = [:]
    private var signals: [UInt64: SignalMatch] = [:]

    private struct PendingCall {
        let slot: OpaquePointer?
        let continuation: CheckedContinuation<[DBusValue], any Error>
    }

    private struct SignalMatch {
        let slot: OpaquePointer?
        let box: Unmanaged<SignalBox>
    }

    /// What a signal handler is given: the message's path and its arguments.
    public typealias SignalHandler = @Sendable (_ path: String, _ arguments: [DBusValue]) -> Void

    private final class CallBox {
        let connection: DBusConnection
        let token: UInt64
        init(connection: DBusConnection, token: UInt64) {
            self.connection = connection
            self.token = token
        }
    }

    private final class SignalBox {
        let handler: SignalHandler
        init(handler: @escaping SignalHandler) { self.handler = handler }
    }

    /// Connects to the bus at `address` (`unix:path=…`), as a client that says Hello.
    public init(address: String) throws(DBusError) {
        var bus: OpaquePointer?
        var result = sd_bus_new(&bus)
        guard result >= 0, let bus else { throw Self.failure("sd_bus_new", result) }
        result = address.withCString { sd_bus_set_address(bus, $0) }
        if result >= 0 { result = sd_bus_set_bus_client(bus, 1) }
        if result >= 0 { result = sd_bus_start(bus) }
        guard result >= 0 else {
            sd_bus_unref(bus)
            throw Self.failure("connecting to the D-Bus bus at \(address)", result)
        }
        self.bus = bus
        let source = DispatchSource.makeReadSource(fileDescriptor: sd_bus_get_fd(bus), queue: queue)
        source.setEventHandler { [weak self] in self?.process() }
        // The bus (and its socket) is closed only once the source is cancelled: a descriptor closed while Dispatch
        // still watches it may be reused by the next one opened, and Dispatch then crashed a test run here.
        let closing = BusToClose(bus)
        source.setCancelHandler { closing.close() }
        readSource = source
        source.activate()
        queue.async { [weak self] in self?.process() }
    }

    /// The system bus: `DBUS_SYSTEM_BUS_ADDRESS`, or the standard socket.
    public static func system() throws(DBusError) -> DBusConnection {
        let address =
            ProcessInfo.processInfo.environment["DBUS_SYSTEM_BUS_ADDRESS"]
            ?? "unix:path=/run/dbus/system_bus_socket"
        return try DBusConnection(address: address)
    }

    deinit {
        readSource?.cancel()
    }

    /// The bus, flushed and closed by the read source's cancel handler.
    private final class BusToClose: @unchecked Sendable {
        // @unchecked: used once, on the connection's queue, after the last use of the bus there.
        private let bus: OpaquePointer

        init(_ bus: OpaquePointer) {
            self.bus = bus
        }

        func close() {
            sd_bus_flush_close_unref(bus)
        }
    }

    /// Closes the connection: pending calls fail, handlers hear nothing more.
    public func close() {
        queue.sync {
            readSource?.cancel()
            readSource = nil
            for (_, call) in calls {
                sd_bus_slot_unref(call.slot)
                call.continuation.resume(throwing: DBusError(name: "closed", message: "the D-Bus connection closed"))
            }
            calls = [:]
            for (_, match) in signals {
                sd_bus_slot_unref(match.slot)
                match.box.release()
            }
            signals = [:]
            // Closed by the source's cancel handler, which runs on this queue after this block.
            bus = nil
        }
    }

    /// Calls `member` of `interface` on the object at `path` of `destination` with `arguments`, and returns the
    /// reply's arguments; throws the error reply, or a timeout after `timeout`.
    @discardableResult
    public func call(
        _ destination: String, _ path: String, _ interface: String, _ member: String, _ arguments: [DBusValue] = [],
        timeout: Duration = .seconds(25)
    ) async throws -> [DBusValue] {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { [self] in
                guard let bus else {
                    return continuation.resume(
                        throwing: DBusError(name: "closed", message: "the D-Bus connection closed"))
                }
                var message: OpaquePointer?
                var result = sd_bus_message_new_method_call(bus, &message, destination, path, interface, member)
                for argument in arguments where result >= 0 { result = Self.append(argument, to: message) }
                guard result >= 0, let message else {
                    sd_bus_message_unref(message)
                    return continuation.resume(throwing: Self.failure("building \(interface).\(member)", result))
                }
                nextToken += 1
                let token = nextToken
                let box = Unmanaged.passRetained(CallBox(connection: self, token: token))
                var slot: OpaquePointer?
                result = sd_bus_call_async(bus, &slot, message, Self.replied, box.toOpaque(), 0)
                sd_bus_message_unref(message)
                guard result >= 0 else {
                    box.release()
                    return continuation.resume(throwing: Self.failure("calling \(interface).\(member)", result))
                }
                // The slot owns the box from here: it is released when the reply comes or the slot is dropped.
                sd_bus_slot_set_destroy_callback(slot) { userdata in
                    if let userdata { Unmanaged<CallBox>.fromOpaque(userdata).release() }
                }
                calls[token] = PendingCall(slot: slot, continuation: continuation)
                sd_bus_flush(bus)
                queue.asyncAfter(deadline: .now() + timeout.timeInterval) { [weak self] in
                    self?.timedOut(token, "\(interface).\(member) got no reply within \(timeout)")
                }
            }
        }
    }

    /// Calls `handler` with every signal `member` of `interface` (any sender, any path under `pathPrefix`), until
    /// the returned subscription is cancelled.
    public func subscribe(
        interface: String, member: String, pathPrefix: String? = nil, _ handler: @escaping SignalHandler
    ) throws -> DBusSubscription {
        try queue.sync { () throws -> DBusSubscription in
            guard let bus else { throw DBusError(name: "closed", message: "the D-Bus connection closed") }
            let box = Unmanaged.passRetained(
                SignalBox { path, arguments in
                    if let pathPrefix, !(path == pathPrefix || path.hasPrefix(pathPrefix + "/")) { return }
                    handler(path, arguments)
                })
            var slot: OpaquePointer?
            let result = sd_bus_match_signal(bus, &slot, nil, nil, interface, member, Self.signalled, box.toOpaque())
            guard result >= 0 else {
                box.release()
                throw Self.failure("matching \(interface).\(member)", result)
            }
            nextToken += 1
            let token = nextToken
            signals[token] = SignalMatch(slot: slot, box: box)
            sd_bus_flush(bus)
            return DBusSubscription { [weak self] in self?.unsubscribe(token) }
        }
    }

    private func unsubscribe(_ token: UInt64) {
        queue.async { [self] in
            guard let match = signals.removeValue(forKey: token) else { return }
            sd_bus_slot_unref(match.slot)
            match.box.release()
        }
    }

    // MARK: On the queue

    private func process() {
        guard let bus else { return }
        while true {
            let result = sd_bus_process(bus, nil)
            if result <= 0 { break }
        }
    }

    private func timedOut(_ token: UInt64, _ what: String) {
        guard let call = calls.removeValue(forKey: token) else { return }
        sd_bus_slot_unref(call.slot)
        call.continuation.resume(throwing: DBusError(name: "timeout", message: what))
    }

    fileprivate func completed(_ token: UInt64, _ reply: OpaquePointer?) {
        guard let call = calls.removeValue(forKey: token) else { return }
        if let reply, sd_bus_message_is_method_error(reply, nil) != 0, let error = sd_bus_message_get_error(reply) {
            let name = error.pointee.name.map { String(cString: $0) } ?? "error"
            let message = error.pointee.message.map { String(cString: $0) } ?? ""
            call.continuation.resume(throwing: DBusError(name: name, message: message))
        } else {
            call.continuation.resume(returning: reply.map(Self.readAll) ?? [])
        }
    }

    private static let replied: sd_bus_message_handler_t = { message, userdata, _ in
        guard let userdata else { return 0 }
        let box = Unmanaged<CallBox>.fromOpaque(userdata).takeUnretainedValue()
        box.connection.completed(box.token, message)
        return 1
    }

    private static let signalled: sd_bus_message_handler_t = { message, userdata, _ in
        guard let userdata, let message else { return 0 }
        let box = Unmanaged<SignalBox>.fromOpaque(userdata).takeUnretainedValue()
        let path = sd_bus_message_get_path(message).map { String(cString: $0) } ?? ""
        box.handler(path, readAll(message))
        return 0
    }

    // MARK: Reading and writing messages

    private static func readAll(_ message: OpaquePointer) -> [DBusValue] {
        var values: [DBusValue] = []
        while let value = read(message) { values.append(value) }
        return values
    }

    /// The next value of the message, or nil at the end of it (or of the container entered).
    private static func read(_ message: OpaquePointer) -> DBusValue? {
        var type: CChar = 0
        var contents: UnsafePointer<CChar>?
        guard sd_bus_message_peek_type(message, &type, &contents) > 0 else { return nil }
        func basic<T>(_ initial: T) -> T? {
            var value = initial
            return withUnsafeMutablePointer(to: &value) { sd_bus_message_read_basic(message, type, $0) } > 0
                ? value : nil
        }
        func text() -> String? {
            var pointer: UnsafePointer<CChar>?
            guard sd_bus_message_read_basic(message, type, &pointer) > 0, let pointer else { return nil }
            return String(cString: pointer)
        }
        let inner = contents.map { String(cString: $0) } ?? ""
        switch UInt8(bitPattern: type) {
        case UInt8(ascii: "y"): return basic(UInt8(0)).map(DBusValue.byte)
        case UInt8(ascii: "b"): return basic(Int32(0)).map { .bool($0 != 0) }
        case UInt8(ascii: "n"): return basic(Int16(0)).map(DBusValue.int16)
        case UInt8(ascii: "q"): return basic(UInt16(0)).map(DBusValue.uint16)
        case UInt8(ascii: "i"): return basic(Int32(0)).map(DBusValue.int32)
        case UInt8(ascii: "u"): return basic(UInt32(0)).map(DBusValue.uint32)
        case UInt8(ascii: "x"): return basic(Int64(0)).map(DBusValue.int64)
        case UInt8(ascii: "t"): return basic(UInt64(0)).map(DBusValue.uint64)
        case UInt8(ascii: "d"): return basic(Double(0)).map(DBusValue.double)
        case UInt8(ascii: "h"): return basic(Int32(0)).map(DBusValue.int32)
        case UInt8(ascii: "s"): return text().map(DBusValue.string)
        case UInt8(ascii: "o"): return text().map(DBusValue.objectPath)
        case UInt8(ascii: "g"): return text().map(DBusValue.signature)
        case UInt8(ascii: "a") where inner == "y":
            var pointer: UnsafeRawPointer?
            var size = 0
            guard sd_bus_message_read_array(message, CChar(UInt8(ascii: "y")), &pointer, &size) >= 0 else { return nil }
            return .bytes(pointer.map { Array(UnsafeRawBufferPointer(start: $0, count: size)) } ?? [])
        case UInt8(ascii: "a"):
            guard sd_bus_message_enter_container(message, type, inner) > 0 else { return nil }
            defer { sd_bus_message_exit_container(message) }
            if inner.hasPrefix("{") {
                let pair = Array(inner.dropFirst().dropLast())
                let keySignature = String(pair.prefix(1))
                var entries: [DBusEntry] = []
                while let entry = read(message), case .structure(let members) = entry, members.count == 2 {
                    entries.append(DBusEntry(members[0], members[1]))
                }
                return .dictionary(key: keySignature, value: String(pair.dropFirst()), entries)
            }
            var items: [DBusValue] = []
            while let item = read(message) { items.append(item) }
            return .array(element: inner, items)
        case UInt8(ascii: "v"):
            guard sd_bus_message_enter_container(message, type, inner) > 0 else { return nil }
            defer { sd_bus_message_exit_container(message) }
            return read(message).map(DBusValue.variant)
        case UInt8(ascii: "r"), UInt8(ascii: "e"):
            // A structure, or a dictionary entry (read as a two-member structure).
            guard sd_bus_message_enter_container(message, type, inner) > 0 else { return nil }
            defer { sd_bus_message_exit_container(message) }
            var members: [DBusValue] = []
            while let member = read(message) { members.append(member) }
            return .structure(members)
        default:
            _ = sd_bus_message_skip(message, nil)
            return .structure([])
        }
    }

    /// Appends `value` to the message; a negative errno when it cannot.
    private static func append(_ value: DBusValue, to message: OpaquePointer?) -> Int32 {
        func basic<T>(_ type: UInt8, _ value: T) -> Int32 {
            var copy = value
            return withUnsafePointer(to: &copy) { sd_bus_message_append_basic(message, CChar(type), $0) }
        }
        func text(_ type: UInt8, _ text: String) -> Int32 {
            text.withCString { sd_bus_message_append_basic(message, CChar(type), $0) }
        }
        func container(_ type: UInt8, _ contents: String, _ body: () -> Int32) -> Int32 {
            var result = sd_bus_message_open_container(message, CChar(type), contents)
            if result >= 0 { result = body() }
            if result >= 0 { result = sd_bus_message_close_container(message) }
            return result
        }
        switch value {
        case .byte(let byte): return basic(UInt8(ascii: "y"), byte)
        case .bool(let flag): return basic(UInt8(ascii: "b"), Int32(flag ? 1 : 0))
        case .int16(let number): return basic(UInt8(ascii: "n"), number)
        case .uint16(let number): return basic(UInt8(ascii: "q"), number)
        case .int32(let number): return basic(UInt8(ascii: "i"), number)
        case .uint32(let number): return basic(UInt8(ascii: "u"), number)
        case .int64(let number): return basic(UInt8(ascii: "x"), number)
        case .uint64(let number): return basic(UInt8(ascii: "t"), number)
        case .double(let number): return basic(UInt8(ascii: "d"), number)
        case .string(let string): return text(UInt8(ascii: "s"), string)
        case .objectPath(let path): return text(UInt8(ascii: "o"), path)
        case .signature(let signature): return text(UInt8(ascii: "g"), signature)
        case .bytes(let bytes):
            return bytes.withUnsafeBytes {
                sd_bus_message_append_array(message, CChar(UInt8(ascii: "y")), $0.baseAddress, $0.count)
            }
        case .array(let element, let items):
            return container(UInt8(ascii: "a"), element) {
                for item in items {
                    let result = append(item, to: message)
                    if result < 0 { return result }
                }
                return 0
            }
        case .dictionary(let key, let valueSignature, let entries):
            return container(UInt8(ascii: "a"), "{" + key + valueSignature + "}") {
                for entry in entries {
                    let result = container(UInt8(ascii: "e"), key + valueSignature) {
                        let keyResult = append(entry.key, to: message)
                        return keyResult < 0 ? keyResult : append(entry.value, to: message)
                    }
                    if result < 0 { return result }
                }
                return 0
            }
        case .variant(let inner):
            return container(UInt8(ascii: "v"), inner.signature) { append(inner, to: message) }
        case .structure(let members):
            return container(UInt8(ascii: "r"), members.map(\.signature).joined()) {
                for member in members {
                    let result = append(member, to: message)
                    if result < 0 { return result }
                }
                return 0
            }
        }
    }

    private static func failure(_ what: String, _ result: Int32) -> DBusError {
        DBusError(name: "errno \(-result)", message: "\(what): \(String(cString: strerror(-result)))")
    }
}

/// A signal match; cancelling it (or dropping it) stops the handler.
public final class DBusSubscription: Sendable {
    private let cancelAction: @Sendable () -> Void

    init(cancel: @escaping @Sendable () -> Void) {
        cancelAction = cancel
    }

    public func cancel() { cancelAction() }

    deinit { cancelAction() }
}

extension Duration {
    /// The duration in seconds, for Dispatch.
    var timeInterval: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
