import Foundation
import Testing

@testable import HubWire

@Suite struct UntypedJSONTests {
    struct Operation: Codable, Hashable {
        let nodeID: UInt64
        let endpoint: UInt16
        let offset: Int8
        let name: String?
        let ratio: Double
        let parts: [Part]
        let at: Date
    }

    struct Part: Codable, Hashable {
        let endpoint: UInt16
    }

    @Test("a value turned into JSON and back reads the same, every digit of a 64-bit ID kept")
    func roundTrip() throws {
        let operation = Operation(
            nodeID: .max - 1, endpoint: 65535, offset: -128, name: nil, ratio: 0.1, parts: [Part(endpoint: 2)],
            at: Date(timeIntervalSinceReferenceDate: 1234.5))
        let json = try UntypedJSON(encoding: operation)
        guard case .object(let members) = json else {
            Issue.record("encoded as \(json)")
            return
        }
        #expect(members["nodeID"] == .unsigned(.max - 1))
        #expect(members["offset"] == .signed(-128))
        #expect(try json.decode(as: Operation.self) == operation)
        // Through the frame's own text as well.
        let text = try JSONEncoder().encode(json)
        #expect(try JSONDecoder().decode(UntypedJSON.self, from: text).decode(as: Operation.self) == operation)
    }

    /// Decoded as `JSONDecoder` decodes: a null in a list of optionals is nil, and an element a `try?` failed to read
    /// is still there for the next try.
    @Test func optionalsAndRetriesAsJSONDecoderHasThem() throws {
        struct Either: Decodable, Equatable {
            let values: [String]
            init(from decoder: any Decoder) throws {
                var items = try decoder.unkeyedContainer()
                var values: [String] = []
                while !items.isAtEnd {
                    if let number = try? items.decode(Int.self) {
                        values.append("#\(number)")
                    } else {
                        values.append(try items.decode(String.self))
                    }
                }
                self.values = values
            }
        }
        let text = Data(#"[1, "two", 3]"#.utf8)
        let json = try JSONDecoder().decode(UntypedJSON.self, from: text)
        #expect(try json.decode(as: Either.self) == JSONDecoder().decode(Either.self, from: text))
        #expect(try json.decode(as: Either.self).values == ["#1", "two", "#3"])
        let optionals = try JSONDecoder().decode(UntypedJSON.self, from: Data(#"[null, {"a": 1}]"#.utf8))
        #expect(try optionals.decode(as: [UntypedJSON?].self) == [nil, .object(["a": .unsigned(1)])])
    }

    @Test(
        "a value that does not fit is refused at its own member",
        arguments: [
            (#"{"nodeID": -1, "endpoint": 1, "offset": 0, "ratio": 1, "parts": [], "at": 0}"#, "nodeID"),
            (#"{"nodeID": 1, "endpoint": 70000, "offset": 0, "ratio": 1, "parts": [], "at": 0}"#, "endpoint"),
            (#"{"nodeID": 1, "endpoint": 1, "offset": 128, "ratio": 1, "parts": [], "at": 0}"#, "offset"),
            (#"{"nodeID": 1.5, "endpoint": 1, "offset": 0, "ratio": 1, "parts": [], "at": 0}"#, "nodeID"),
            (#"{"nodeID": 1, "endpoint": 1, "offset": 0, "ratio": "x", "parts": [], "at": 0}"#, "ratio"),
            (
                #"{"nodeID": 1, "endpoint": 1, "offset": 0, "ratio": 1, "parts": [{"endpoint": true}], "at": 0}"#,
                "parts/0/endpoint"
            ),
            (#"{"nodeID": 1, "offset": 0, "ratio": 1, "parts": [], "at": 0}"#, "endpoint"),
        ])
    func refusedWhereItFails(text: String, path: String) throws {
        let json = try JSONDecoder().decode(UntypedJSON.self, from: Data(text.utf8))
        do {
            _ = try json.decode(as: Operation.self)
            Issue.record("\(text) decoded")
        } catch let error as DecodingError {
            let (keys, missing): ([any CodingKey], String?) =
                switch error {
                case .keyNotFound(let key, let context): (context.codingPath, key.stringValue)
                case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
                    (context.codingPath, nil)
                @unknown default: ([], nil)
                }
            let found = (keys.map(\.stringValue) + (missing.map { [$0] } ?? [])).joined(separator: "/")
            #expect(found == path, "\(text)")
        }
    }
}
