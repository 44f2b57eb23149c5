import Foundation
import Testing
@testable import TaskInterchange

/// Which documents one read can serve both import passes: those listing projects, categories and tags before any
/// task, generic record or table; everything else is read twice.
@Suite("Archive reader: section order")
struct ArchiveReaderOrderTests {
    static let head = #"{"format":"tasks-interchange","version":2,"generator":{"name":"t","version":"1"},"#

    static func lists(_ text: String) -> Bool {
        Array(text.utf8).withUnsafeBytes { ArchiveReader.listsReferencedSectionsFirst($0) }
    }

    @Test(
        "documents and what one read gives",
        arguments: [
            (head + #""projects":[],"categories":[],"tags":[],"tasks":[],"counts":{}}"#, true),
            (head + #""projects":[{"id":"x","name":"[\"tasks\"]"}],"categories":[],"tags":[],"tasks":[]}"#, true),
            (head + #""tags":[],"categories":[],"projects":[],"entities":{},"tasks":[]}"#, true),
            (head + #""projects":[],"categories":[],"tasks":[],"tags":[]}"#, false),
            (head + #""projects":[],"categories":[],"entities":{},"tags":[],"tasks":[]}"#, false),
            (head + #""projects":[],"categories":[],"tables":{},"tags":[],"tasks":[]}"#, false),
            (head + #""projects":[],"projects":[],"categories":[],"tasks":[],"tags":[]}"#, false),
            (#"{"format":"tasks-interchange","version":1,"projects":[],"tags":[],"tasks":[]}"#, false),
            (#"{"type":"header","format":"tasks-interchange","version":2}"# + "\n" + #"{"type":"tag"}"#, false),
            (head + #""projects":[,"#, false),
            ("[]", false),
            ("", false),
        ])
    func order(text: String, expected: Bool) {
        #expect(Self.lists(text) == expected)
    }

    @Test("an export written by the archive writer, compact, pretty and NDJSON")
    func exports() throws {
        let archive = ArchiveGenerator.archive(seed: 2)
        for (layout, expected) in [(ArchiveWritingOptions.Layout.compact, true), (.pretty, true), (.ndjson, false)] {
            let text = String(
                decoding: try archive.jsonData(options: ArchiveWritingOptions(layout: layout)), as: UTF8.self)
            #expect(Self.lists(text) == expected, "\(layout)")
        }
    }
}
