import Foundation
import Testing
@testable import TaskInterchange

@Suite("External data backups")
struct ExternalDataBackupTests {
    /// A store path whose external data directory holds `count` files named by UUID.
    static func store(in directory: TemporaryDirectory, files count: Int) throws -> (store: String, names: [String]) {
        let store = directory.path("Store.sqlite")
        let external = ExternalData(store: store).directory
        try FileManager.default.createDirectory(atPath: external, withIntermediateDirectories: true)
        let names = (0..<count).map { _ in UUID().uuidString }
        for name in names { try Data(name.utf8).write(to: URL(fileURLWithPath: external + "/" + name)) }
        return (store, names)
    }

    @Test("a name whose support directory is taken does not stop the gathering; a discarded placement can go elsewhere")
    func discardThenPlaceAgain() throws {
        let directory = try TemporaryDirectory()
        let (store, names) = try Self.store(in: directory, files: 3)
        let first = directory.path("Backup.sqlite")
        let second = directory.path("Backup-2.sqlite")
        try FileManager.default.createDirectory(
            atPath: ExternalDataBackup.supportDirectory(of: first), withIntermediateDirectories: false)
        let files = try #require(try ExternalDataBackup(of: ExternalData(store: store), for: first))
        #expect(files.fileCount == 3)
        #expect(throws: TaskInterchangeError.self) { try files.place(for: first) }
        // Placed, then taken back (its backup file could not be placed): the files return to staging …
        let third = directory.path("Backup-3.sqlite")
        try files.place(for: third)
        files.discard()
        #expect(!FileManager.default.fileExists(atPath: ExternalDataBackup.supportDirectory(of: third)))
        // … and go under the next name whole.
        try files.place(for: second)
        files.keep()
        let placed = try FileManager.default.contentsOfDirectory(atPath: ExternalData(store: second).directory)
        #expect(Set(placed) == Set(names))
    }

    @Test("without keep(), what was gathered and placed is removed")
    func notKept() throws {
        let directory = try TemporaryDirectory()
        let (store, _) = try Self.store(in: directory, files: 2)
        let backup = directory.path("Backup.sqlite")
        do {
            let files = try #require(try ExternalDataBackup(of: ExternalData(store: store), for: backup))
            try files.place(for: backup)
        }
        #expect(!FileManager.default.fileExists(atPath: ExternalDataBackup.supportDirectory(of: backup)))
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.url.path).filter {
            $0.contains(".tasks-")
        }
        #expect(left.isEmpty, "\(left)")
    }
}
