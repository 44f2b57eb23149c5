import Foundation
import Testing
@testable import TaskInterchange

@Suite("Writer session")
struct WriterSessionTests {
    func scalar(_ database: Database, _ sql: String) throws -> Int64 {
        try database.scalar(sql)?.int64 ?? -1
    }

    /// A new store made and committed by a session of its own.
    func makeStore(_ directory: TemporaryDirectory) throws -> String {
        let path = directory.path("store.sqlite")
        let session = try WriterSession(path: path, create: true)
        try session.database.inTransaction { try session.createLaterObjects() }
        try session.didCommit()
        return path
    }

    @Test("a new store gets its indexes at the end and switches to WAL on its first commit")
    func newStore() throws {
        let directory = try TemporaryDirectory()
        let session = try WriterSession(path: directory.path("new.sqlite"), create: true)
        #expect(session.isNew)
        let indexes = "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL"
        #expect(try scalar(session.database, indexes) == 0)
        #expect(try session.database.rows("PRAGMA journal_mode").first?.first?.string != "wal")
        try session.database.inTransaction { try session.createLaterObjects() }
        #expect(try scalar(session.database, indexes) > 0)
        try session.didCommit()
        #expect(!session.isNew)
        #expect(try session.database.rows("PRAGMA journal_mode").first?.first?.string == "wal")
        #expect(try scalar(session.database, "PRAGMA synchronous") == 2)
    }

    @Test("an existing store is locked while its session lives: another waits, then fails as busy")
    func lock() throws {
        let directory = try TemporaryDirectory()
        let path = try makeStore(directory)
        do {
            let session = try WriterSession(path: path, create: false)
            #expect(!session.isNew)
            let error = try #require(throws: TaskInterchangeError.self) {
                try WriterSession(path: path, create: false, busyTimeout: 50)
            }
            #expect(error.kind == .busy)
        }
        // The lock goes with the session.
        #expect(try !WriterSession(path: path, create: false).isNew)
    }

    @Test("a backup is the store as it was, placed whole; an existing file is never overwritten")
    func backup() throws {
        let directory = try TemporaryDirectory()
        let path = try makeStore(directory)
        let session = try WriterSession(path: path, create: false)
        let destination = directory.path("backup.sqlite")
        try session.backup(to: destination, external: ExternalData(store: path))
        let copy = try Database(path: destination, mode: .readOnly(immutable: false))
        let tables =
            "SELECT group_concat(name) FROM (SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name)"
        #expect(try copy.scalar(tables)?.string == session.database.scalar(tables)?.string)
        let before = try Data(contentsOf: URL(fileURLWithPath: destination))
        let error = try #require(throws: TaskInterchangeError.self) {
            try session.backup(to: destination, external: ExternalData(store: path))
        }
        #expect(error.kind == .cannotCreate)
        #expect(try Data(contentsOf: URL(fileURLWithPath: destination)) == before)
    }

    @Test("a store that cannot be created says so, naming the path")
    func cannotCreate() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("missing/new.sqlite")
        let error = try #require(throws: TaskInterchangeError.self) { try WriterSession(path: path, create: true) }
        #expect(error.kind == .cannotCreate)
        #expect(error.message.hasPrefix(path))
    }
}
