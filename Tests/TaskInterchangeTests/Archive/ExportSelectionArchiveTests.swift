import Foundation
import Testing
@testable import TaskInterchange

/// `source.selection` as data: written as an object, read back equal in every layout and through `Codable`; the
/// string of options older archives hold reads into the same value; anything else is an issue at its path.
@Suite("The archive's selection")
struct ExportSelectionArchiveTests {
    static let selection: ExportSelection = {
        var selection = ExportSelection()
        selection.kinds = [.task, .tag]
        selection.entities = ["Note", "Task"]
        selection.excludedEntities = ["Attachment"]
        selection.project = "Home and garden"
        selection.completion = .open
        selection.since = Date(timeIntervalSinceReferenceDate: 800_000_000.5)
        return selection
    }()

    static func archive(_ selection: ExportSelection) -> Archive {
        var archive = Archive()
        archive.header.source = ArchiveHeader.Source(store: "s.sqlite", selection: selection)
        return archive
    }

    /// A document whose `source.selection` is `json`.
    static func document(selection json: String) -> String {
        #"{"format":"tasks-interchange","version":2,"exportDate":"2025-01-01T00:00:00Z","#
            + #""generator":{"name":"t","version":"1"},"source":{"store":"s.sqlite","entities":{},"selection":"#
            + json + #"},"projects":[],"categories":[],"tags":[],"tasks":[],"#
            + #""counts":{"projects":0,"categories":0,"tags":0,"tasks":0,"subtasks":0}}"#
    }

    @Test("written as an object and read back equal", arguments: ArchiveWritingOptions.Layout.allCases)
    func roundTrip(layout: ArchiveWritingOptions.Layout) throws {
        let bytes = try ArchiveFixtures.encode(Self.archive(Self.selection), ArchiveWritingOptions(layout: layout))
        let collector = try ArchiveFixtures.collect(bytes)
        #expect(collector.issues.isEmpty, "\(collector.issues)")
        #expect(collector.archive.header.source?.selection == Self.selection)
        if layout != .ndjson {
            let object = try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any]
            let source = object?["source"] as? [String: Any]
            let selection = source?["selection"] as? [String: Any]
            #expect(selection?["kinds"] as? [String] == ["tag", "task"])
            #expect(selection?["completion"] as? String == "open")
            #expect(selection?["project"] as? String == "Home and garden")
        }
    }

    @Test("Codable gives the same object, and reads the older string too")
    func codable() throws {
        let header = Self.archive(Self.selection).header
        let decoded = try JSONDecoder().decode(ArchiveHeader.self, from: try JSONEncoder().encode(header))
        #expect(decoded.source?.selection == Self.selection)
        let older = try JSONDecoder().decode(
            ExportSelection.self, from: Data(#""--kinds tag,task --project Home and garden --completed""#.utf8))
        #expect(older.kinds == [.tag, .task] && older.project == "Home and garden" && older.completion == .completed)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(ExportSelection.self, from: Data(#""select everything""#.utf8))
        }
    }

    @Test("an older archive's string reads into the value its options make")
    func olderString() throws {
        let since = try LosslessDate.string(from: try #require(Self.selection.since))
        let text =
            "--kinds tag,task --entities Note,Task --exclude-entities Attachment --project Home and garden --open "
            + "--since \(since)"
        let collector = try ArchiveFixtures.collect(Self.document(selection: "\"\(text)\""))
        #expect(collector.issues.isEmpty, "\(collector.issues)")
        #expect(collector.archive.header.source?.selection == Self.selection)
    }

    @Test("a string that is no selection, an unknown kind or completion: an issue at the selection's path")
    func invalid() throws {
        for json in [#""--everything""#, #"{"kinds":["task","note"]}"#, #"{"completion":"done"}"#, "3"] {
            let collector = try ArchiveFixtures.collect(Self.document(selection: json))
            #expect(collector.issues.contains { $0.path.hasPrefix("$.source.selection") }, "\(json)")
            #expect(collector.archive.header.source?.selection == nil, "\(json)")
        }
    }

    @Test("a message names the selection by its settings, never by flags")
    func description() throws {
        let since = try LosslessDate.string(from: try #require(Self.selection.since))
        #expect(
            Self.selection.description
                == "ExportSelection.kinds tag,task ExportSelection.entities Note,Task ExportSelection.excludedEntities "
                + "Attachment ExportSelection.project Home and garden ExportSelection.completion open "
                + "ExportSelection.since \(since)")
    }
}
