import Foundation
import MatterFuzzing
import Testing

/// Every committed fuzz input (seeds, and each crash once fixed) through the entry its fuzz target calls: the
/// normal suite keeps past findings fixed without the sanitizer build.
@Suite struct FuzzCorpusReplayTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fuzz/Corpus")

    static func inputs(of entry: FuzzEntry) -> [URL] {
        let folder = corpus.appendingPathComponent(entry.rawValue)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.sorted().map { folder.appendingPathComponent($0) }
    }

    @Test(arguments: FuzzEntry.allCases)
    func everyCommittedInputRunsWithoutATrap(_ entry: FuzzEntry) throws {
        let inputs = Self.inputs(of: entry)
        #expect(!inputs.isEmpty, "no seed for \(entry.rawValue)")
        for input in inputs {
            entry.run([UInt8](try Data(contentsOf: input)))
        }
    }
}
