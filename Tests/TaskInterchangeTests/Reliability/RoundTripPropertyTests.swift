import Foundation
import TestTiers
import Testing
@testable import TaskInterchange

/// Random graphs → store → export → import into a fresh store → export: byte-identical except the export's own
/// `exportDate` and `source`. Seeded: a failure names its seed. 40 graphs by default, 200 in the slow tier
/// (`TASKS_SLOW=1`); `TASKS_ROUND_TRIPS` sets the count.
@Suite("Round-trip property", .tags(.slow))
struct RoundTripPropertyTests {
    static let count = Int(ProcessInfo.processInfo.environment["TASKS_ROUND_TRIPS"] ?? "") ?? Tiers.count(40, slow: 200)

    func export(_ store: String, layout: ArchiveWritingOptions.Layout) throws -> [UInt8] {
        let buffer = ByteBuffer()
        var options = ExportOptions()
        options.writing.layout = layout
        options.exportDate = Date(timeIntervalSinceReferenceDate: 0)
        options.sourceName = "store"
        _ = try Exporter.export(store: store, to: buffer, options: options)
        return buffer.bytes
    }

    /// The lines that describe the data, without `source` (a different store has another UUID).
    func content(_ bytes: [UInt8]) -> [Substring] {
        String(decoding: bytes, as: UTF8.self).split(separator: "\n").filter { !$0.contains("\"source\":") }
    }

    @Test(
        "store → export → import → export is identical (the graphs as JSON, a quarter of them as NDJSON)",
        arguments: [(ArchiveWritingOptions.Layout.compact, Self.count), (.ndjson, Self.count / 4)])
    func roundTrips(layout: ArchiveWritingOptions.Layout, count: Int) throws {
        let directory = try TemporaryDirectory()
        for seed in 0..<UInt64(count) {
            let original = ArchiveGenerator.archive(seed: seed &+ 1_000, maxTasks: 25)
            let first = directory.path("first-\(seed).sqlite")
            _ = try StoreImport.run(original, into: first, options: StoreImportOptions())
            let exported = try export(first, layout: layout)
            let second = directory.path("second-\(seed).sqlite")
            _ = try StoreImport.run(ArchiveInput(bytes: exported), into: second, options: StoreImportOptions())
            let again = try export(second, layout: layout)
            #expect(content(exported) == content(again), "seed \(seed &+ 1_000)")
            #expect(content(exported).count >= 2)
            try FileManager.default.removeItem(atPath: first)
            try FileManager.default.removeItem(atPath: second)
        }
    }
}
