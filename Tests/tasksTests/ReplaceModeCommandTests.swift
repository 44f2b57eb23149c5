import Foundation
import Testing
import TaskInterchange

/// `tasks import --mode replace` of a store's own export, end to end: every entity of the Journal sample is generic
/// (no typed kind reads it), and each object is removed and written again, not copied beside itself.
@Suite("tasks import --mode replace: a store's own export leaves every entity's rows as they were")
struct ReplaceModeCommandTests {
    static let tables = ["ZENTRY", "ZLABEL", "ZNOTEBOOK", "Z_1LABELS"]

    private func counts(_ store: String) throws -> [String: Int64] {
        let database = try Database(path: store, mode: .readOnly(immutable: false))
        var counts: [String: Int64] = [:]
        for table in Self.tables {
            counts[table] = try database.scalar("SELECT count(*) FROM \(Database.quote(table))")?.int64 ?? -1
        }
        return counts
    }

    @Test("export, then import --mode replace into the same store: exit 0, the same rows and keys, Z_MAX unchanged")
    func replaceByOwnExport() throws {
        let scratch = try Scratch()
        let store = scratch.path("Journal-v1.sqlite")
        try FileManager.default.copyItem(atPath: TasksBinary.sample("Journal-v1.sqlite"), toPath: store)
        let before = try counts(store)
        #expect(before["ZENTRY"] == 6)
        let maxKeys = "SELECT Z_NAME, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT"
        let keys = "SELECT Z_PK, ZTEXT FROM ZENTRY ORDER BY Z_PK"
        let maxBefore = try Database(path: store, mode: .readOnly(immutable: false)).rows(maxKeys)
        let keysBefore = try Database(path: store, mode: .readOnly(immutable: false)).rows(keys)
        let exported = try TasksBinary.run(["export", "--store", store, "-o", scratch.path("a.json")])
        try #require(exported.status == 0, "\(exported.stderr)")
        let replaced = try TasksBinary.run(["import", scratch.path("a.json"), "--store", store, "--mode", "replace"])
        #expect(replaced.status == 0, "\(replaced.stderr)")
        let said = replaced.stdout + replaced.stderr
        #expect(said.contains("Entry (generic): 6 inserted, 6 deleted"), "\(said)")
        #expect(try counts(store) == before)
        let database = try Database(path: store, mode: .readOnly(immutable: false))
        #expect(try database.rows(keys) == keysBefore)
        #expect(try database.rows(maxKeys) == maxBefore)
        // Twice more: still the same rows (nothing accumulates).
        let again = try TasksBinary.run(["import", scratch.path("a.json"), "--store", store, "--mode", "replace"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try counts(store) == before)
    }
}
