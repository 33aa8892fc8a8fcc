import Foundation
import MatterOTA
import MatterTestSupport
import Testing

@testable import HomeHub

/// The hub's folder of firmware images: each checked whole before it is kept, named for what it is, and found again
/// when the hub opens.
@Suite struct OTAImageStoreTests {
    @Test func anImageIsCheckedCopiedAndFoundAgainAfterARestart() async throws {
        try await withTemporaryDirectory { base in
            let store = try await OTAImageStore(directory: base + "/images")
            let image = try OTAProviderTests.image(version: 3)
            let entry = try await store.add(fileAt: try OTAProviderTests.file(image, in: base))
            #expect(entry.designator == "FFF1-8001-3.ota")
            #expect(entry.size == UInt64(image.encoded.count))
            #expect(try Data(contentsOf: URL(fileURLWithPath: base + "/images/FFF1-8001-3.ota")) == Data(image.encoded))
            // The same file again changes nothing.
            #expect(try await store.add(fileAt: base + "/update.ota") == entry)

            let reopened = try await OTAImageStore(directory: base + "/images")
            #expect(reopened.all == [entry])
            #expect(reopened.unreadable.isEmpty)
            #expect(try await reopened.contents(of: entry) == image.encoded)
        }
    }

    /// An image fetched from the DCL keeps where it came from across a restart; one added from a file has none.
    @Test func whereAnImageCameFromIsKeptBesideIt() async throws {
        try await withTemporaryDirectory { base in
            let store = try await OTAImageStore(directory: base + "/images")
            let source = "https://on.dcl.csa-iot.org/images/4.ota"
            let fetched = try await store.add(
                fileAt: try OTAProviderTests.file(try OTAProviderTests.image(version: 4), in: base), source: source)
            let added = try await store.add(
                fileAt: try OTAProviderTests.file(try OTAProviderTests.image(version: 5), in: base))
            #expect(fetched.source == source && added.source == nil)
            let reopened = try await OTAImageStore(directory: base + "/images")
            #expect(Set(reopened.all) == [fetched, added])
            #expect(reopened.unreadable.isEmpty, "the note beside an image is not an image to offer")
        }
    }

    @Test func theNewestApplicableImageIsOffered() async throws {
        try await withTemporaryDirectory { base in
            let store = try await OTAImageStore(directory: base + "/images")
            for (version, minimum) in [(2, nil), (4, UInt32(2)), (6, UInt32(4))] as [(UInt32, UInt32?)] {
                let image = try OTAProviderTests.image(version: version, minimum: minimum)
                try await store.add(fileAt: try OTAProviderTests.file(image, in: base, named: "\(version).ota"))
            }
            func newest(_ version: UInt32) -> UInt32? {
                store.newest(vendorID: 0xFFF1, productID: 0x8001, applyingTo: version)?.header.softwareVersion
            }
            #expect(newest(1) == 2, "4 and 6 need at least 2 and 4")
            #expect(newest(2) == 4)
            #expect(newest(4) == 6)
            #expect(newest(6) == nil)
            #expect(store.newest(vendorID: 0xFFF1, productID: 0x8002, applyingTo: 1) == nil)
        }
    }

    @Test func badFilesAreRefusedAndNothingHeldIsChanged() async throws {
        try await withTemporaryDirectory { base in
            let store = try await OTAImageStore(directory: base + "/images")
            let image = try OTAProviderTests.image(version: 2)
            let held = try await store.add(fileAt: try OTAProviderTests.file(image, in: base))

            var tampered = image.encoded
            tampered[tampered.count - 1] ^= 0xFF
            try Data(tampered).write(to: URL(fileURLWithPath: base + "/tampered.ota"))
            await #expect {
                try await store.add(fileAt: base + "/tampered.ota")
            } throws: { error in
                guard case OTAImageStoreError.notAnImage(_, .digestMismatch) = error else { return false }
                return "\(error)".hasPrefix(base + "/tampered.ota: the OTA image's payload is not the one")
            }
            try Data(image.encoded.prefix(100)).write(to: URL(fileURLWithPath: base + "/short.ota"))
            await #expect(throws: OTAImageStoreError.self) { try await store.add(fileAt: base + "/short.ota") }
            await #expect(
                throws: OTAImageStoreError.cannotRead(base + "/none.ota", reason: "No such file or directory")
            ) {
                try await store.add(fileAt: base + "/none.ota")
            }
            // Another file claiming the same vendor, product and version.
            let other = try OTAProviderTests.image(version: 2, payload: 6_000)
            await #expect(throws: OTAImageStoreError.differentImageHeld("FFF1-8001-2.ota")) {
                try await store.add(fileAt: try OTAProviderTests.file(other, in: base, named: "other.ota"))
            }
            #expect(store.all == [held])
            #expect(try await store.contents(of: held) == image.encoded)
            #expect(try FileManager.default.contentsOfDirectory(atPath: base + "/images") == ["FFF1-8001-2.ota"])
        }
    }

    @Test func aFileChangedInTheFolderIsNotServedOrIsNamedUnreadable() async throws {
        try await withTemporaryDirectory { base in
            let store = try await OTAImageStore(directory: base + "/images")
            let held = try await store.add(
                fileAt: try OTAProviderTests.file(try OTAProviderTests.image(version: 2), in: base))
            var bytes = try OTAProviderTests.image(version: 2).encoded
            bytes[bytes.count - 10] ^= 1
            try Data(bytes).write(to: URL(fileURLWithPath: base + "/images/FFF1-8001-2.ota"))
            await #expect(throws: OTAImageStoreError.self) { try await store.contents(of: held) }
            try Data("not an image".utf8).write(to: URL(fileURLWithPath: base + "/images/junk.ota"))
            try Data(try OTAProviderTests.image(version: 3).encoded).write(
                to: URL(fileURLWithPath: base + "/images/renamed.ota"))
            let reopened = try await OTAImageStore(directory: base + "/images")
            #expect(Set(reopened.unreadable.keys) == ["junk.ota", "renamed.ota"])
            #expect(reopened.unreadable["renamed.ota"] == "its header says it is FFF1-8001-3.ota")
        }
    }
}
