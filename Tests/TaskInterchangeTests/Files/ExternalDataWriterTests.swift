import Foundation
import Testing

@testable import TaskInterchange

/// External files staged for a new store survive a second run making the same store (a migration started while the
/// first one verifies): only a run that holds the directory alone sweeps leftovers.
@Suite("External data writer")
struct ExternalDataWriterTests {
    @Test("a second writer for the same store leaves the first one's staged files; a writer alone sweeps leftovers")
    func secondWriterKeepsStagedFiles() throws {
        let directory = try TemporaryDirectory()
        let store = directory.path("new.sqlite")
        let first = ExternalDataWriter(store: store)
        let name = UUID().uuidString
        #expect(try first.stage([1, 2, 3], as: name) == name)
        let stagedFiles = {
            try FileManager.default.contentsOfDirectory(atPath: first.data.directory).filter { $0.hasPrefix(".") }
        }
        #expect(try stagedFiles().count == 1)

        // The second run stages the same name (the same legacy store's file) with other contents, and another file.
        var second: ExternalDataWriter? = ExternalDataWriter(store: store)
        _ = try second?.stage([4, 5], as: name)
        _ = try second?.stage([6, 7], as: UUID().uuidString)
        #expect(try stagedFiles().count == 3, "the second writer swept the first one's staged file")
        second = nil

        try first.place()
        #expect(first.data.read(name) == [1, 2, 3])
        first.keep()

        // A staged file whose writer is gone (its lock with it) is swept by the next writer that holds the
        // directory alone.
        let leftover = first.data.directory + "/." + UUID().uuidString + ".tasks-" + UUID().uuidString
        #expect(FileManager.default.createFile(atPath: leftover, contents: Data([9])))
        let third = ExternalDataWriter(store: store)
        _ = try third.stage([6], as: UUID().uuidString)
        #expect(!FileManager.default.fileExists(atPath: leftover))
    }
}
