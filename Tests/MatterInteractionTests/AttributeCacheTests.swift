import MatterTLV
import Testing

@testable import MatterInteraction

@Suite struct AttributeCacheTests {
    static let onOffPath = AttributePathIB(endpoint: 1, cluster: 6, attribute: 0)
    static let aclPath = AttributePathIB(endpoint: 0, cluster: 0x1F, attribute: 0)

    static func data(_ path: AttributePathIB, _ value: TLVValue, version: UInt32? = nil) -> AttributeReportIB {
        .data(AttributeDataIB(dataVersion: version, path: path, data: TLVElement(value)))
    }

    @Test func appliesTheCommissioningReportOfARealDevice() throws {
        let report = try ReportDataMessage(payload: CapturedMessages.chipToolReportData)
        var cache = AttributeCache()
        let changed = cache.apply(report.attributeReports)
        #expect(changed.count == 8)
        #expect(cache.value(endpoint: 0, cluster: 0x28, attribute: 2) == TLVElement(.unsigned(0xFFF1)))
        #expect(
            cache.value(endpoint: 0, cluster: 0x30, attribute: 1)?[context: 0]
                == TLVElement(tag: .context(0), .unsigned(60)))
        #expect(cache.dataVersion(endpoint: 0, cluster: 0x30) == 0xD682_ADDD)
        #expect(
            cache.dataVersionFilters == [
                DataVersionFilterIB(path: ClusterPathIB(endpoint: 0, cluster: 0x28), dataVersion: 0x2FF3_71B7),
                DataVersionFilterIB(path: ClusterPathIB(endpoint: 0, cluster: 0x30), dataVersion: 0xD682_ADDD),
                DataVersionFilterIB(path: ClusterPathIB(endpoint: 0, cluster: 0x31), dataVersion: 0x0CC6_9A79),
            ])
        // The same report again changes nothing.
        #expect(cache.apply(report.attributeReports).isEmpty)
    }

    /// The stored form reads back equal (values, versions, and what filters they give); bytes that are not one
    /// (another format, cut anywhere, paths out of order, a value that is no TLV element, trailing bytes) read as no
    /// cache.
    @Test func theStoredFormReadsBackEqualAndADamagedOneIsNone() throws {
        let report = try ReportDataMessage(payload: CapturedMessages.chipToolReportData)
        var cache = AttributeCache()
        _ = cache.apply(report.attributeReports + [Self.data(Self.onOffPath, .bool(true), version: 9)])
        let stored = cache.storedForm
        let read = try #require(AttributeCache(storedForm: stored))
        #expect(read == cache)
        #expect(read.dataVersionFilters == cache.dataVersionFilters)
        #expect(read.value(endpoint: 1, cluster: 6, attribute: 0) == TLVElement(.bool(true)))
        #expect(AttributeCache(storedForm: AttributeCache().storedForm) == AttributeCache())

        #expect(AttributeCache(storedForm: [2] + stored.dropFirst()) == nil)
        for length in [0, 1, 4, 5, 19, stored.count / 2, stored.count - 1] {
            #expect(AttributeCache(storedForm: Array(stored.prefix(length))) == nil, "cut at \(length)")
        }
        #expect(AttributeCache(storedForm: stored + [0]) == nil)
        // Two entries, the second's path before the first's.
        func entry(_ endpoint: UInt8, _ value: [UInt8]) -> [UInt8] {
            [endpoint, 0, 6, 0, 0, 0, 0, 0, 0, 0, UInt8(value.count), 0, 0, 0] + value
        }
        let trueTLV: [UInt8] = [0x09]
        #expect(
            AttributeCache(storedForm: [1, 2, 0, 0, 0] + entry(1, trueTLV) + entry(1, trueTLV) + [0, 0, 0, 0]) == nil)
        #expect(
            AttributeCache(storedForm: [1, 2, 0, 0, 0] + entry(2, trueTLV) + entry(1, trueTLV) + [0, 0, 0, 0]) == nil)
        #expect(
            AttributeCache(storedForm: [1, 2, 0, 0, 0] + entry(1, trueTLV) + entry(2, trueTLV) + [0, 0, 0, 0]) != nil)
        // A value that is no TLV element (a UTF-8 string cut short).
        #expect(AttributeCache(storedForm: [1, 1, 0, 0, 0] + entry(1, [0x0C, 5, 0x41]) + [0, 0, 0, 0]) == nil)
    }

    /// A cache read from the store is exactly sized; a small report that makes it grow (a longer value) leaves it
    /// exactly sized again, not with the doubled buffer growth leaves.
    @Test func aCacheGrownByASmallReportIsLeftExactlySized() throws {
        let report = try ReportDataMessage(payload: CapturedMessages.chipToolReportData)
        var primed = AttributeCache()
        _ = primed.apply(report.attributeReports)
        var cache = try #require(AttributeCache(storedForm: primed.storedForm))
        let exact = cache.allocatedBytes
        let label = AttributePathIB(endpoint: 1, cluster: 0x0028, attribute: 5)
        cache.apply([Self.data(label, .utf8(String(repeating: "a", count: 40)))])
        #expect(
            cache.value(endpoint: 1, cluster: 0x0028, attribute: 5)
                == TLVElement(.utf8(String(repeating: "a", count: 40))))
        // Grown by what it now holds: the value's 42 bytes of TLV and one entry of the index, with an array's slack.
        #expect(cache.allocatedBytes <= exact + 42 + 40, "\(exact) bytes grew to \(cache.allocatedBytes)")
    }

    /// Two nodes of one model: their caches share one path list, each keeps its own values, and a path only one of
    /// them gains leaves the other's list and values as they were.
    @Test func cachesOfNodesWithTheSamePathsShareOneListAndKeepTheirOwnValues() throws {
        let report = try ReportDataMessage(payload: CapturedMessages.chipToolReportData)
        var kitchen = AttributeCache()
        _ = kitchen.apply(report.attributeReports)
        var hall = try #require(AttributeCache(storedForm: kitchen.storedForm))
        let label = AttributePathIB(endpoint: 1, cluster: 0x0028, attribute: 5)
        hall.apply([Self.data(label, .utf8("Hall"))])
        kitchen.apply([Self.data(label, .utf8("Kitchen"))])
        let stored = try #require(AttributeCache(storedForm: hall.storedForm))
        #expect(stored.sharesPaths(with: hall))
        #expect(kitchen.sharesPaths(with: hall))
        #expect(kitchen.value(endpoint: 1, cluster: 0x0028, attribute: 5) == TLVElement(.utf8("Kitchen")))
        #expect(hall.value(endpoint: 1, cluster: 0x0028, attribute: 5) == TLVElement(.utf8("Hall")))

        let pathsBefore = kitchen.paths
        hall.apply([Self.data(AttributePathIB(endpoint: 9, cluster: 6, attribute: 0), .bool(true))])
        #expect(!hall.sharesPaths(with: kitchen))
        #expect(hall.paths.count == pathsBefore.count + 1)
        #expect(kitchen.paths == pathsBefore)
        #expect(kitchen.value(endpoint: 9, cluster: 6, attribute: 0) == nil)
        #expect(kitchen.value(endpoint: 1, cluster: 0x0028, attribute: 5) == TLVElement(.utf8("Kitchen")))
    }

    /// A path list lives as long as a cache shares it: the table does not keep the layouts no node has any more.
    @Test func aPathListNoCacheSharesIsLetGo() {
        // Paths no other test uses, so that the tests running meanwhile share nothing with this one.
        let paths = (0..<40).map { AttributePathIB(endpoint: 0xFFF0, cluster: 0xFFF1_0000 + $0, attribute: 1) }
        var cache: AttributeCache? = AttributeCache()
        cache?.apply(paths.map { Self.data($0, .bool(true)) })
        let concrete = paths.compactMap(\.concrete)
        #expect(AttributePathList.holds(concrete))
        cache = nil
        #expect(!AttributePathList.holds(concrete))
    }

    @Test func keepingSomeEndpointsForgetsTheValuesAndVersionsOfTheOthers() {
        var cache = AttributeCache()
        cache.apply([
            Self.data(Self.aclPath, .array([]), version: 1), Self.data(Self.onOffPath, .bool(true), version: 2),
            Self.data(AttributePathIB(endpoint: 4, cluster: 6, attribute: 0), .bool(false), version: 3),
        ])
        let forgotten = cache.keepOnly(endpoints: [0, 1])
        #expect(forgotten == [ConcreteAttributePath(endpoint: 4, cluster: 6, attribute: 0)])
        #expect(cache.paths.map(\.endpoint) == [0, 1])
        #expect(cache.dataVersionFilters.map(\.path.endpoint) == [0, 1])
        #expect(cache.keepOnly(endpoints: [0, 1]).isEmpty)
    }

    /// Values of changing length (a label growing and shrinking) are kept compact: the buffer is rewritten once the
    /// bytes no value uses outweigh the rest, and every value reads back as last reported.
    @Test func valuesOfChangingLengthReadBackAndTheBufferStaysCompact() {
        let label = AttributePathIB(endpoint: 1, cluster: 0x0028, attribute: 5)
        var cache = AttributeCache()
        cache.apply([Self.data(Self.onOffPath, .bool(true)), Self.data(label, .utf8("x"))])
        for length in 1...400 {
            cache.apply([Self.data(label, .utf8(String(repeating: "a", count: length % 97 + 1)))])
        }
        #expect(
            cache.value(endpoint: 1, cluster: 0x0028, attribute: 5)
                == TLVElement(.utf8(String(repeating: "a", count: 400 % 97 + 1))))
        #expect(cache.value(endpoint: 1, cluster: 6, attribute: 0) == TLVElement(.bool(true)))
        #expect(cache.allocatedBytes < 1_024)
    }

    /// Two caches that hold the same values are equal, however they came to hold them; an endpoint's values compare
    /// without the other endpoints'.
    @Test func equalityIsByValueWhateverTheHistory() {
        let level = AttributePathIB(endpoint: 2, cluster: 8, attribute: 0)
        var direct = AttributeCache()
        direct.apply([Self.data(Self.onOffPath, .bool(true)), Self.data(level, .unsigned(3))])
        var roundabout = AttributeCache()
        roundabout.apply([Self.data(level, .unsigned(300)), Self.data(Self.onOffPath, .bool(false))])
        roundabout.apply([Self.data(level, .unsigned(3)), Self.data(Self.onOffPath, .bool(true))])
        #expect(direct == roundabout)
        #expect(direct.hashValue == roundabout.hashValue)
        roundabout.apply([Self.data(level, .unsigned(4))])
        #expect(direct != roundabout)
        #expect(direct.sameValues(endpoint: 1, as: roundabout))
        #expect(!direct.sameValues(endpoint: 2, as: roundabout))
        #expect(direct.paths(endpoint: 2) == [ConcreteAttributePath(endpoint: 2, cluster: 8, attribute: 0)])
    }

    @Test func onlyChangedValuesAreReported() {
        var cache = AttributeCache()
        cache.apply([Self.data(Self.onOffPath, .bool(false), version: 1)])
        let changed = cache.apply([
            Self.data(Self.onOffPath, .bool(false), version: 2),
            Self.data(AttributePathIB(endpoint: 1, cluster: 6, attribute: 0x4000), .bool(true), version: 2),
        ])
        #expect(changed == [ConcreteAttributePath(endpoint: 1, cluster: 6, attribute: 0x4000)])
        #expect(cache.dataVersion(endpoint: 1, cluster: 6) == 2)
    }

    @Test func aChunkedListIsReplacedThenAppendedTo() {
        var cache = AttributeCache()
        cache.apply([Self.data(Self.aclPath, .array([TLVElement(.unsigned(9))]), version: 1)])
        var append = Self.aclPath
        append.listIndex = .append
        let changed = cache.apply([
            Self.data(Self.aclPath, .array([]), version: 5),
            Self.data(append, .unsigned(1)),
            Self.data(append, .unsigned(2)),
        ])
        #expect(changed == [ConcreteAttributePath(endpoint: 0, cluster: 0x1F, attribute: 0)])
        #expect(
            cache.value(endpoint: 0, cluster: 0x1F, attribute: 0)
                == TLVElement(.array([TLVElement(.unsigned(1)), TLVElement(.unsigned(2))])))
        #expect(cache.dataVersion(endpoint: 0, cluster: 0x1F) == 5)
    }

    @Test func aListRebuiltToTheSameItemsIsNotAChange() {
        var cache = AttributeCache()
        var append = Self.aclPath
        append.listIndex = .append
        let whole = [Self.data(Self.aclPath, .array([])), Self.data(append, .unsigned(1))]
        cache.apply(whole)
        #expect(cache.apply(whole).isEmpty)
    }

    @Test func aNumericListIndexReplacesThatItemOnly() {
        var cache = AttributeCache()
        cache.apply([Self.data(Self.aclPath, .array([TLVElement(.unsigned(1)), TLVElement(.unsigned(2))]))])
        var second = Self.aclPath
        second.listIndex = .item(1)
        var outOfRange = Self.aclPath
        outOfRange.listIndex = .item(5)
        cache.apply([Self.data(second, .unsigned(7)), Self.data(outOfRange, .unsigned(8))])
        #expect(
            cache.value(endpoint: 0, cluster: 0x1F, attribute: 0)
                == TLVElement(.array([TLVElement(.unsigned(1)), TLVElement(.unsigned(7))])))
    }

    @Test func aStatusRemovesTheValueAndWildcardsAreIgnored() {
        var cache = AttributeCache()
        cache.apply([Self.data(Self.onOffPath, .bool(true))])
        let changed = cache.apply([
            .status(AttributeStatusIB(path: Self.onOffPath, status: StatusIB(status: .unsupportedAttribute))),
            Self.data(AttributePathIB(cluster: 6), .bool(true)),
        ])
        #expect(changed == [ConcreteAttributePath(endpoint: 1, cluster: 6, attribute: 0)])
        #expect(cache.value(endpoint: 1, cluster: 6, attribute: 0) == nil)
        #expect(cache.paths.isEmpty)
    }
}
