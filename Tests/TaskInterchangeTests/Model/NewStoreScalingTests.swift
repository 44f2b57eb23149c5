import Foundation
import Testing

@testable import TaskInterchange

/// `model new-store` on a large model: making its template (the layout, the statements, the metadata with the version
/// hashes) grows with the model, like hashing it, not with its square. SQLite's own part, running the statements, is
/// not timed here: a schema of more than 2,000 objects is built in batches (`StoreTemplate+Batches.swift`), which
/// must give the store the plain build gives.
@Suite("New stores of large models")
struct NewStoreScalingTests {
    /// `count` entities in chains of inheritance (every third a sub-entity of the one before), each with two
    /// attributes (one indexed), a to-one with its to-many inverse and a many-to-many pair, to entities far away.
    static func model(entities count: Int) -> ObjectModel {
        func name(_ index: Int) -> String { "E\(index)" }
        var entities = (0..<count).map { index in
            ObjectModel.Entity(
                name(index), superentity: index % 3 == 2 ? name(index - 1) : nil,
                attributes: [.init("name\(index)", .string, optional: true), .init("count\(index)", .integer32)])
        }
        for index in 0..<count {
            entities[index].attributes[0].isIndexed = true
            let next = (index * 7 + 1) % count
            let tagged = (index * 13 + 5) % count
            entities[index].relationships += [
                .init("next\(index)", to: name(next), inverse: "previous\(index)", toMany: false),
                .init("tags\(index)", to: name(tagged), inverse: "tagged\(index)", toMany: true),
            ]
            entities[next].relationships.append(
                .init("previous\(index)", to: name(index), inverse: "next\(index)", toMany: true))
            entities[tagged].relationships.append(
                .init("tagged\(index)", to: name(index), inverse: "tags\(index)", toMany: true))
        }
        return ObjectModel(entities: entities)
    }

    @Test(
        "a 5,000-entity model's store template takes no more than twice as long as hashing and encoding the model")
    func template() {
        let model = Self.model(entities: 5_000)
        let clock = ContinuousClock()
        let hashing = clock.measure { _ = model.versionHashes }
        let caching = clock.measure { _ = try? model.modelCache() }
        let template = clock.measure { _ = StoreTemplate(model: model) }
        // The template hashes the model (its metadata) and encodes its model cache: linear lookups made it 4.4 times
        // hashing's time here.
        #expect(template < (hashing + caching) * 2, "hashing \(hashing), cache \(caching), template \(template)")
    }

    @Test(
        "a schema built in batches is the plain build's: every sqlite_schema row in order, rows, pragmas, a sound file")
    func batches() throws {
        let template = StoreTemplate(model: Self.model(entities: 120))
        #expect(template.objects.count > 2 * StoreTemplate.batchSize, "\(template.objects.count) objects")
        let directory = try TemporaryDirectory()
        try template.makeEmptyStore(at: directory.path("plain.sqlite"), batchedAbove: .max)
        try template.makeEmptyStore(at: directory.path("batched.sqlite"), batchedAbove: 0)
        func read(_ name: String, _ sql: String) throws -> [[SQLValue]] {
            try Database(path: directory.path(name), mode: .readOnly(immutable: false)).rows(sql)
        }
        for sql in [
            "SELECT rowid, type, name, tbl_name, sql FROM sqlite_schema ORDER BY rowid",
            "SELECT * FROM Z_PRIMARYKEY ORDER BY Z_ENT", "SELECT Z_VERSION, Z_PLIST FROM Z_METADATA",
            "SELECT * FROM Z_MODELCACHE", "PRAGMA auto_vacuum", "PRAGMA journal_mode",
        ] {
            let plain = try read("plain.sqlite", sql)
            let batched = try read("batched.sqlite", sql)
            #expect(plain == batched, "\(sql)")
        }
        #expect(try read("batched.sqlite", "PRAGMA integrity_check") == [[.text("ok")]])
        let roots = try read("batched.sqlite", "SELECT rootpage FROM sqlite_schema WHERE type != 'trigger'")
        #expect(Set(roots.compactMap { $0.first?.int64 }).count == roots.count)
        // The store takes rows as the plain one does.
        let database = try Database(path: directory.path("batched.sqlite"), mode: .readWrite)
        try database.execute("INSERT INTO ZE0 (Z_PK, Z_ENT, Z_OPT, ZNAME0) VALUES (1, 1, 1, 'x')")
        #expect(try database.scalar("SELECT ZNAME0 FROM ZE0 WHERE ZNAME0 = 'x'") == .text("x"))
        #expect(try database.rows("PRAGMA integrity_check") == [[.text("ok")]])
    }

    @Test("the table or index name after a keyword")
    func names() {
        #expect(StoreTemplate.name(after: "CREATE TABLE ", in: "CREATE TABLE ZE0 ( Z_PK INTEGER )") == "ZE0")
        #expect(StoreTemplate.name(after: " ON ", in: "CREATE INDEX ZE0_ZNAME0_INDEX ON ZE0 (ZNAME0)") == "ZE0")
        #expect(StoreTemplate.name(after: " ON ", in: "CREATE INDEX X ON \"Z E\" (A)") == nil)
        #expect(StoreTemplate.name(after: " ON ", in: "CREATE INDEX X ON ZE") == nil)
    }
}
