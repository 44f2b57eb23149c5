import Foundation
import Testing

@testable import TaskInterchange

/// Every stored value reaches the archive, checked through the archive alone: in a private copy of each shared store
/// every non-NULL text and floating-point cell of every entity table is replaced by a value unique to its table,
/// column and row (text by name, numbers by a counter ending in .5), and each must then appear in the export — or its column be named by a finding as holding values
/// its row's entity does not own. No layout of the code under test decides what is looked for.
@Suite(
    "Cell accounting, through the archive",
    .enabled(
        if: RealStores.available && ModelFixtures.available,
        "../shared/fixtures is absent (the shared fixtures, checked out beside this repository as ../shared); skipped"))
struct CellAccountingTests {
    @Test(
        "every marked text and number cell of every shared store is in the export",
        arguments: WholeStoreRestoreTests.stores)
    func everyCellArrives(store: String) throws {
        let directory = try TemporaryDirectory()
        let path = try WholeStoreRestoreTests.copy(store, to: directory)
        let marked = try Self.mark(path)

        var options = ExportOptions()
        options.mapping = WholeStoreRestoreTests.everyEntity
        let summary = try Exporter.export(store: path, toFile: directory.path("a.json"), options: options)
        let archive = try Self.markers(in: String(contentsOfFile: directory.path("a.json"), encoding: .utf8))
        let outside = Set(
            summary.findings.filter { $0.code == .valuesOutsideEntity }.map {
                "\($0.entity ?? "").\($0.property ?? "")"
            })

        var missing: [String] = []
        for cell in marked
        where !cell.markers.contains(where: archive.contains) && !outside.contains(cell.column) {
            missing.append("\(cell.column) p\(cell.key)")
        }
        #expect(missing.prefix(10) == [], "\(store): \(missing.count) of \(marked.count) marked cells not exported")
        #expect(summary.cells?.isComplete == true, "\(store)")
        #expect(!summary.findings.contains { $0.code == .unexportedValues }, "\(store): \(summary.findings)")
    }

    @Test("a join table nothing reads is a warning with its count, and --strict refuses the export")
    func unreadJoinTable() throws {
        let directory = try TemporaryDirectory()
        let path = try WholeStoreRestoreTests.copy(
            "real-stores/Recipes__fruitsamples_iPhoneCoreDataRecipes.sqlite", to: directory)
        let database = try Database(path: path, mode: .readWrite)
        try database.execute(
            "CREATE TABLE Z_1STRAY (Z_1STRAY INTEGER, Z_2STRAYS INTEGER, PRIMARY KEY (Z_1STRAY, Z_2STRAYS));"
                + "INSERT INTO Z_1STRAY VALUES (1, 1), (1, 2), (2, 1)")
        let summary = try Exporter.export(store: path, toFile: directory.path("a.json"), options: ExportOptions())
        let findings = summary.findings.filter { $0.code == .unexportedValues && $0.entity == "Z_1STRAY" }
        #expect(findings.map(\.count).reduce(0, +) == 6)
        #expect(summary.cells?.notExported == 6)
        var strict = ExportOptions()
        strict.strict = true
        #expect(throws: ExportStrictError.self) {
            try Exporter.export(store: path, toFile: directory.path("b.json"), options: strict)
        }
        #expect(!FileManager.default.fileExists(atPath: directory.path("b.json")))
    }

    /// Every marker-shaped token of an archive, found in one pass.
    static func markers(in archive: String) throws -> Set<String> {
        let pattern = try NSRegularExpression(pattern: #""cell-[^"]*"|:[0-9]+\.5[,}]"#)
        let text = archive as NSString
        return Set(
            pattern.matches(in: archive, range: NSRange(location: 0, length: text.length)).map {
                text.substring(with: $0.range)
            })
    }

    struct Cell {
        var column: String
        var key: Int64
        /// How the value appears in the compact JSON.
        var markers: [String]
    }

    /// Replaces every non-NULL VARCHAR cell by `"cell-<table>-<column>-<key>"` and every FLOAT cell by a number unique
    /// in the store (1.5, 2.5, …); the copy's triggers are dropped first (derived-attribute triggers call functions only Core Data
    /// registers).
    static func mark(_ path: String) throws -> [Cell] {
        let database = try Database(path: path, mode: .readWrite)
        for trigger in try database.rows("SELECT name FROM sqlite_master WHERE type = 'trigger'") {
            try database.execute("DROP TRIGGER \(Database.quote(trigger[0].string ?? ""))")
        }
        let schema = try StoreSchema(reading: database, path: path)
        var cells: [Cell] = []
        var number = 0
        for table in Set(schema.entities.filter { !$0.isInternal }.compactMap(\.table)).sorted() {
            for column in schema.columns(of: table) ?? [] where ["VARCHAR", "FLOAT"].contains(column.declaredType) {
                let quoted = Database.quote(column.name)
                let keys = try database.rows(
                    "SELECT Z_PK FROM \(Database.quote(table)) WHERE \(quoted) IS NOT NULL ORDER BY Z_PK"
                ).compactMap { $0[0].int64 }
                let update = try database.prepare("UPDATE \(Database.quote(table)) SET \(quoted) = ? WHERE Z_PK = ?")
                for key in keys {
                    let markers: [String]
                    let value: SQLValue
                    if column.declaredType == "VARCHAR" {
                        markers = ["\"cell-\(table)-\(column.name)-\(key)\""]
                        value = .text("cell-\(table)-\(column.name)-\(key)")
                    } else {
                        // Exact in a Float too; no other value of the marked store ends in .5 after a colon.
                        number += 1
                        let unique = Double(number) + 0.5
                        markers = [":\(unique),", ":\(unique)}"]
                        value = .real(unique)
                    }
                    try update.execute([value, .integer(key)])
                    cells.append(Cell(column: "\(table).\(column.name)", key: key, markers: markers))
                }
            }
        }
        return cells
    }
}

/// What a hand-edited store hides from the layout: a column renamed away from its property, rows of no entity.
@Suite(
    "Cell accounting, edited stores",
    .enabled(
        if: RealStores.available,
        "../shared/fixtures/real-stores is absent (the shared fixtures, checked out beside this repository as ../shared); skipped"
    ))
struct EditedStoreAccountingTests {
    static let wire = "real-stores/store1-25__wireapp_wire-ios-data-model.sqlite"

    @Test("a property's column renamed: a missing-property warning and the values counted as not exported")
    func renamedColumn() throws {
        let directory = try TemporaryDirectory()
        let path = try WholeStoreRestoreTests.copy(Self.wire, to: directory)
        try Database(path: path, mode: .readWrite).execute("ALTER TABLE ZMESSAGE RENAME COLUMN ZTEXT1 TO ZTEXTX")
        let summary = try Exporter.export(store: path, toFile: directory.path("a.json"), options: ExportOptions())
        #expect(summary.findings.contains { $0.code == .missingProperty && $0.property == "text" })
        let lost = summary.findings.filter { $0.code == .unexportedValues && $0.property == "ZTEXTX" }
        #expect(lost.map(\.count).reduce(0, +) == 1681, "\(summary.findings)")
        #expect(summary.cells?.isComplete == false)
    }

    @Test("a column spelled in lower case is the same column (SQLite ignores case in names)")
    func lowerCaseColumn() throws {
        let directory = try TemporaryDirectory()
        let path = try WholeStoreRestoreTests.copy(Self.wire, to: directory)
        try Database(path: path, mode: .readWrite).execute("ALTER TABLE ZMESSAGE RENAME COLUMN ZTEXT1 TO ztext1")
        let summary = try Exporter.export(store: path, toFile: directory.path("a.json"), options: ExportOptions())
        #expect(summary.cells?.isComplete == true, "\(summary.findings)")
        let archive = try String(contentsOfFile: directory.path("a.json"), encoding: .utf8)
        #expect(archive.components(separatedBy: "\"text\":").count - 1 >= 1681)
    }

    @Test("rows of an unknown or NULL Z_ENT in any table are stray rows, a warning")
    func strayRows() throws {
        let directory = try TemporaryDirectory()
        let path = try WholeStoreRestoreTests.copy(Self.wire, to: directory)
        try Database(path: path, mode: .readWrite).execute(
            "INSERT INTO ZUSER (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (1000, 99, 1, 'ghost');"
                + "INSERT INTO ZMESSAGE (Z_PK, Z_ENT, Z_OPT) VALUES (5001, NULL, 1)")
        var options = ExportOptions()
        options.mapping = WholeStoreRestoreTests.everyEntity
        let summary = try Exporter.export(store: path, toFile: directory.path("a.json"), options: options)
        let stray = summary.findings.filter { $0.code == .strayRows }
        #expect(Set(stray.compactMap(\.entity)) == ["ZUSER", "ZMESSAGE"], "\(summary.findings)")
        #expect(stray.allSatisfy { $0.isWarning })
    }
}
