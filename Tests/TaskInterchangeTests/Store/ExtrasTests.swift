import Foundation
import Testing
@testable import TaskInterchange

@Suite("Extras: nothing left behind")
struct ExtrasTests {
    /// A store of the task model with properties the interchange has no field for, of every storable kind.
    func storeWithExtras(_ directory: TemporaryDirectory) throws -> (path: String, archive: Archive) {
        let archive = ArchiveGenerator.archive(seed: 21, maxTasks: 8)
        let path = directory.path("extras.sqlite")
        _ = try StoreImport.run(archive, into: path, options: StoreImportOptions())
        try Database(path: path, mode: .readWrite).execute(
            """
            ALTER TABLE ZTASK ADD COLUMN ZESTIMATE INTEGER;
            ALTER TABLE ZTASK ADD COLUMN ZEFFORT FLOAT;
            ALTER TABLE ZTASK ADD COLUMN ZREMINDAT TIMESTAMP;
            ALTER TABLE ZTASK ADD COLUMN ZPHOTO BLOB;
            ALTER TABLE ZTASK ADD COLUMN ZLOCATION VARCHAR;
            ALTER TABLE ZTAG ADD COLUMN ZSYMBOL VARCHAR;
            UPDATE ZTASK SET ZESTIMATE = Z_PK * 3, ZEFFORT = Z_PK / 7.0, ZREMINDAT = 745193696.123456789 + Z_PK,
                             ZPHOTO = x'00FF10', ZLOCATION = 'Zürich ' || Z_PK WHERE Z_PK % 2 = 0;
            UPDATE ZTAG SET ZSYMBOL = '★';
            DELETE FROM Z_MODELCACHE; -- an app's model with more properties: the built-in model's cache is stale
            """)
        return (path, archive)
    }

    func export(_ store: String) throws -> String {
        let buffer = ByteBuffer()
        var options = ExportOptions()
        options.exportDate = Date(timeIntervalSinceReferenceDate: 0)
        options.sourceName = "store"
        _ = try Exporter.export(store: store, to: buffer, options: options)
        return buffer.string.split(separator: "\n").filter { !$0.contains("\"source\":") }.joined(separator: "\n")
    }

    @Test("unmapped properties export under extra, typed, and are not reported as lost")
    func exported() throws {
        let directory = try TemporaryDirectory()
        let (path, archive) = try storeWithExtras(directory)
        let (read, findings) = try readStore(path)
        let withExtras = read.tasks.filter { $0.extra != nil }
        #expect(withExtras.count == archive.tasks.count / 2)
        let extra = try #require(withExtras.first?.extra)
        #expect(Set(extra.keys) == ["estimate", "effort", "remindat", "photo", "location"])
        #expect(extra["photo"] == .string("AP8Q"))
        if case .string(let text)? = extra["remindat"] {
            #expect(text.hasPrefix("2024-08-12T"))
        } else {
            Issue.record("remindat is not a date string")
        }
        #expect(read.tags.allSatisfy { $0.extra == ["symbol": .string("★")] })
        #expect(!findings.contains { $0.code == .unmappedColumn })
    }

    @Test("extras round-trip: export → import into a store with those properties → export is identical")
    func roundTrip() throws {
        let directory = try TemporaryDirectory()
        let (path, _) = try storeWithExtras(directory)
        let first = try export(path)
        var options = StoreImportOptions()
        options.template = try StoreTemplate(path: path)
        let target = directory.path("target.sqlite")
        _ = try StoreImport.run(ArchiveInput(bytes: Array(first.utf8)), into: target, options: options)
        #expect(try export(target) == first)
        // The stored Doubles are the same bits.
        let sql = "SELECT ZREMINDAT FROM ZTASK WHERE ZREMINDAT IS NOT NULL ORDER BY ZID"
        let before = try Database(path: path, mode: .readOnly(immutable: false)).rows(sql).map {
            $0[0].double?.bitPattern
        }
        let after = try Database(path: target, mode: .readOnly(immutable: false)).rows(sql).map {
            $0[0].double?.bitPattern
        }
        #expect(before == after && !before.isEmpty)
    }

    @Test("a target without those properties imports the rest and warns per property")
    func missingTargetProperties() throws {
        let directory = try TemporaryDirectory()
        let (path, _) = try storeWithExtras(directory)
        let exported = try export(path)
        let result = try StoreImport.run(
            ArchiveInput(bytes: Array(exported.utf8)), into: directory.path("plain.sqlite"),
            options: StoreImportOptions())
        #expect(
            result.warnings.contains {
                $0.hasPrefix("Task.estimate: the target has no such property; ") && $0.hasSuffix("not imported")
            })
        #expect(result.warnings.contains { $0.hasPrefix("Tag.symbol: the target has no such property") })
    }

    @Test("format version 1 has no place for extras: they are reported as dropped")
    func versionOne() throws {
        let directory = try TemporaryDirectory()
        let (path, _) = try storeWithExtras(directory)
        var options = ExportOptions()
        options.writing.formatVersion = 1
        let summary = try Exporter.export(store: path, to: ByteBuffer(), options: options)
        #expect(summary.findings.contains { $0.code == .unmappedColumn && $0.property == "ZESTIMATE" })
    }
}
