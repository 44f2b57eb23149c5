import Foundation
import Testing
@testable import TaskInterchange

@Suite struct ArchiveRoundTripTests {
    @Test(
        "write then read gives the identical archive: records, header, date bits and text bytes",
        arguments: ArchiveWritingOptions.Layout.allCases)
    func roundTrip(layout: ArchiveWritingOptions.Layout) throws {
        let archive = ArchiveFixtures.random(seed: 42, tasks: 300)
        let bytes = try ArchiveFixtures.encode(archive, ArchiveWritingOptions(layout: layout))
        let collector = try ArchiveFixtures.collect(bytes)
        #expect(collector.issues.isEmpty, "\(collector.issues.prefix(3))")
        #expect(collector.isComplete)
        #expect(collector.archive == archive)
        #expect(collector.archive.header == archive.header)
        #expect(ArchiveFixtures.dateBits(collector.archive) == ArchiveFixtures.dateBits(archive))
        #expect(ArchiveFixtures.textBytes(collector.archive) == ArchiveFixtures.textBytes(archive))
        #expect(collector.declaredCounts == archive.counts)
    }

    @Test("Archive(json:) and jsonData() round-trip, and errors throw with the issues listed")
    func convenience() throws {
        let archive = ArchiveFixtures.random(seed: 3, tasks: 20)
        #expect(try Archive(json: archive.jsonData()) == archive)
        #expect(try Archive(json: archive.jsonData(options: ArchiveWritingOptions(layout: .ndjson))) == archive)
        #expect {
            _ = try Archive(json: Data(#"{"format":"tasks-interchange","version":9}"#.utf8))
        } throws: { error in
            guard let error = error as? ArchiveDecodingError else { return false }
            return error.description.hasPrefix("the archive has ")
                && error.description.contains("$.version (1:41): unsupported-version: file format version 9")
        }
    }

    @Test("only the requested kinds are delivered, and the counts check still sees every element")
    func selectedKinds() throws {
        let archive = ArchiveFixtures.random(seed: 11, tasks: 40)
        for layout in [ArchiveWritingOptions.Layout.compact, .ndjson] {
            let bytes = try ArchiveFixtures.encode(archive, ArchiveWritingOptions(layout: layout))
            let onlyProjects = try ArchiveFixtures.collect(bytes, kinds: [.project, .tag])
            #expect(onlyProjects.issues.isEmpty)
            #expect(onlyProjects.archive.projects == archive.projects)
            #expect(onlyProjects.archive.tags == archive.tags)
            #expect(onlyProjects.archive.tasks.isEmpty && onlyProjects.archive.categories.isEmpty)
        }
    }

    @Test("truncated NDJSON (last line dropped) is a counts mismatch; cut mid-line it is malformed")
    func truncatedNDJSON() throws {
        let archive = ArchiveFixtures.random(seed: 5, tasks: 10)
        var lines = try ArchiveFixtures.encode(archive, ArchiveWritingOptions(layout: .ndjson))
            .split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        lines.removeLast(2)
        let withoutTrailer = try ArchiveFixtures.collect(Array(lines.joined(separator: [UInt8(ascii: "\n")])))
        #expect(withoutTrailer.issues.map(\.code) == [.countsMismatch])
        #expect(withoutTrailer.issues.first?.path == "$.counts")
        #expect(withoutTrailer.archive.tasks.count == 10)

        var cut = Array(lines.joined(separator: [UInt8(ascii: "\n")]))
        cut.removeLast(5)
        let malformed = try ArchiveFixtures.collect(cut)
        #expect(malformed.issues.last?.code == .malformedJSON)
        #expect(malformed.issues.last?.path == "$.tasks[9]")
        #expect(!malformed.isComplete)
    }

    @Test("a truncated document is malformed and never reaches visitEnd")
    func truncatedDocument() throws {
        let bytes = try ArchiveFixtures.encode(ArchiveFixtures.small)
        let collector = try ArchiveFixtures.collect(Array(bytes.prefix(bytes.count / 2)))
        #expect(collector.issues.map(\.code) == [.malformedJSON])
        #expect(!collector.isComplete)
    }
}
