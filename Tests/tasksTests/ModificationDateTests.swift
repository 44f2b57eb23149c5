import Foundation
import Testing
@testable import TaskInterchange

/// `modifiedAt` as a mapped field: detected from an `updatedAt`-style property, exported bit for bit, written back,
/// read from `extra` in archives written before it was a field, and never dropped without a warning.
@Suite("Modification dates")
struct ModificationDateTests {
    /// The sample store with a `ZUPDATEDAT` column filled on every other task (an eighth of a second after creation),
    /// and without its model cache, which does not know the column: the store is read by its columns.
    private func storeWithUpdatedAt(_ scratch: Scratch) throws -> String {
        let store = try scratch.sampleStore()
        try Database(path: store, mode: .readWrite).execute(
            "ALTER TABLE ZTASK ADD COLUMN ZUPDATEDAT TIMESTAMP; UPDATE ZTASK SET ZUPDATEDAT = ZCREATEDAT + 0.125 WHERE Z_PK % 2 = 0; "
                + "DELETE FROM Z_MODELCACHE"
        )
        return store
    }

    private func tasks(_ scratch: Scratch, _ name: String) throws -> [[String: Any]] {
        let object = try JSONSerialization.jsonObject(with: try scratch.bytes(name)) as? [String: Any]
        return object?["tasks"] as? [[String: Any]] ?? []
    }

    private func count(_ store: String, _ sql: String) throws -> Int {
        Int(try Database(path: store, mode: .readOnly(immutable: false)).scalar(sql)?.int64 ?? -1)
    }

    @Test("an updatedAt column is detected as modifiedAt and exported bit for bit, not under extra")
    func export() throws {
        let scratch = try Scratch()
        let store = try storeWithUpdatedAt(scratch)
        let inspect = try TasksBinary.run(["inspect", "--store", store])
        #expect(inspect.stdout.contains("modifiedAt ← updatedAt"))
        #expect(try TasksBinary.run(["export", "--store", store, "-o", scratch.path("a.json")]).status == 0)
        let database = try Database(path: store, mode: .readOnly(immutable: false))
        let expected = try count(store, "SELECT count(ZUPDATEDAT) FROM ZTASK")
        let exported = try tasks(scratch, "a.json")
        let dated = exported.filter { $0["modifiedAt"] != nil }
        #expect(dated.count == expected && expected > 0)
        #expect(exported.allSatisfy { ($0["extra"] as? [String: Any])?["updatedAt"] == nil })
        for task in dated {
            let seconds = try LosslessDate.date(from: task["modifiedAt"] as? String ?? "")
                .timeIntervalSinceReferenceDate
            let stored = try database.scalar(
                "SELECT ZUPDATEDAT FROM ZTASK WHERE ZID = ?",
                [.blob(Self.bytes(task["id"] as? String ?? ""))])?.double
            #expect(stored?.bitPattern == seconds.bitPattern)
        }
    }

    private static func bytes(_ id: String) -> [UInt8] {
        guard let uuid = UUID(uuidString: id)?.uuid else { return [] }
        return withUnsafeBytes(of: uuid) { Array($0) }
    }

    @Test("import writes modifiedAt back; an archive carrying it under extra (written before) restores it too")
    func importBack() throws {
        let scratch = try Scratch()
        let store = try storeWithUpdatedAt(scratch)
        #expect(try TasksBinary.run(["export", "--store", store, "-o", scratch.path("a.json")]).status == 0)
        var legacy = try JSONSerialization.jsonObject(with: try scratch.bytes("a.json")) as? [String: Any] ?? [:]
        legacy["tasks"] = (legacy["tasks"] as? [[String: Any]] ?? []).map { task in
            var task = task
            if let date = task.removeValue(forKey: "modifiedAt") { task["extra"] = ["updatedAt": date] }
            return task
        }
        try JSONSerialization.data(withJSONObject: legacy).write(to: scratch.url.appendingPathComponent("old.json"))
        let expected = try count(store, "SELECT count(ZUPDATEDAT) FROM ZTASK")
        for archive in ["a.json", "old.json"] {
            try Database(path: store, mode: .readWrite).execute("UPDATE ZTASK SET ZUPDATEDAT = NULL")
            let run = try TasksBinary.run(["import", "--store", store, "--mode", "upsert", scratch.path(archive)])
            #expect(run.status == 0, "\(archive): \(run.stderr)")
            #expect(!run.stderr.contains("not imported"), "\(archive): \(run.stderr)")
            #expect(try count(store, "SELECT count(*) FROM ZTASK WHERE ZUPDATEDAT = ZCREATEDAT + 0.125") == expected)
        }
    }

    @Test("a target without a modification property says how many dates it could not take")
    func targetWithoutProperty() throws {
        let scratch = try Scratch()
        let store = try storeWithUpdatedAt(scratch)
        #expect(try TasksBinary.run(["export", "--store", store, "-o", scratch.path("a.json")]).status == 0)
        let expected = try count(store, "SELECT count(ZUPDATEDAT) FROM ZTASK")
        let run = try TasksBinary.run(["import", "--store", scratch.path("new.sqlite"), scratch.path("a.json")])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.stderr.contains(
                "warning: Task.modifiedAt: the target maps no property to this field; \(expected) values not imported"))
        // --strict refuses what it would lose, into a new store (nothing left behind) and an existing one (unchanged).
        let strictNew = try TasksBinary.run([
            "import", "--store", scratch.path("strict.sqlite"), "--strict",
            scratch.path("a.json"),
        ])
        #expect(strictNew.status == 65)
        #expect(strictNew.stderr.contains("--strict: the target has no place for Task.modifiedAt (\(expected))"))
        #expect(!FileManager.default.fileExists(atPath: scratch.path("strict.sqlite")))
        // One task changed: the upsert rewrites it, and would lose its date.
        var exported = String(decoding: try scratch.bytes("a.json"), as: UTF8.self)
        let dated = try #require(exported.range(of: #""modifiedAt":""#))
        let title = try #require(
            exported.range(
                of: #""title":""#, options: .backwards,
                range: exported.startIndex..<dated.lowerBound))
        exported.replaceSubrange(title, with: #""title":"edited "#)
        try Data(exported.utf8).write(to: scratch.url.appendingPathComponent("edited.json"))
        let before = try scratch.bytes("new.sqlite")
        let strictUpsert = try TasksBinary.run([
            "import", "--store", scratch.path("new.sqlite"), "--mode", "upsert",
            "--strict", scratch.path("edited.json"),
        ])
        #expect(strictUpsert.status == 65)
        #expect(strictUpsert.stderr.contains("--strict: the target has no place for Task.modifiedAt (1)"))
        #expect(try scratch.bytes("new.sqlite") == before)
    }

    @Test("a second upsert writes nothing when the target cannot hold the dates, or had them under extra before")
    func quietSecondUpsert() throws {
        let scratch = try Scratch()
        let store = try storeWithUpdatedAt(scratch)
        #expect(try TasksBinary.run(["export", "--store", store, "-o", scratch.path("a.json")]).status == 0)
        // Edited as text, so sections and records keep the export's order (merge compares in that order).
        let exported = String(decoding: try scratch.bytes("a.json"), as: UTF8.self)
        let legacy = exported.replacingOccurrences(
            of: #""modifiedAt":("[^"]*")"#, with: #""extra":{"updatedAt":$1}"#,
            options: .regularExpression)
        #expect(legacy != exported)
        try Data(legacy.utf8).write(to: scratch.url.appendingPathComponent("old.json"))
        let plain = try Scratch()
        let without = try plain.sampleStore()
        for (target, archive) in [(without, "a.json"), (store, "old.json")] {
            #expect(
                try TasksBinary.run(["import", "--store", target, "--mode", "upsert", scratch.path(archive)]).status
                    == 0)
            let before = try Data(contentsOf: URL(fileURLWithPath: target))
            for mode in ["upsert", "merge"] {
                let again = try TasksBinary.run(["import", "--store", target, "--mode", mode, scratch.path(archive)])
                #expect(again.status == 0, "\(again.stderr)")
                #expect(!again.stderr.contains("updated"), "\(archive) \(mode): \(again.stderr)")
            }
            #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == before)
        }
    }
}
