import Foundation
import TaskInterchange
import Testing

/// Cells that do not fit their attribute's type, for every attribute type: the export names them (`invalid-value`,
/// per property with its count) and fails with `--strict`, its archive passes `tasks validate`, and a restore writes
/// every cell back with the same storage class and value.
@Suite("tasks: values that do not fit their attribute", .serialized)
struct MisfitValueTests {
    static let model =
        """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
            <entity name="Sample" representedClassName="Sample" syncable="YES">
                <attribute name="small" optional="YES" attributeType="Integer 16" usesScalarValueType="YES"/>
                <attribute name="medium" optional="YES" attributeType="Integer 32" usesScalarValueType="YES"/>
                <attribute name="large" optional="YES" attributeType="Integer 64" usesScalarValueType="YES"/>
                <attribute name="amount" optional="YES" attributeType="Decimal"/>
                <attribute name="ratio" optional="YES" attributeType="Double" usesScalarValueType="YES"/>
                <attribute name="single" optional="YES" attributeType="Float" usesScalarValueType="YES"/>
                <attribute name="name" optional="YES" attributeType="String"/>
                <attribute name="flag" optional="YES" attributeType="Boolean" usesScalarValueType="YES"/>
                <attribute name="when" optional="YES" attributeType="Date"/>
                <attribute name="bytes" optional="YES" attributeType="Binary"/>
                <attribute name="photo" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/>
                <attribute name="ident" optional="YES" attributeType="UUID"/>
                <attribute name="link" optional="YES" attributeType="URI"/>
            </entity>
        </model>
        """

    /// Per column, the misfit cells written (each in its own row) and how many of them the export must name.
    static let misfits: [(column: String, cells: [String])] = [
        ("ZSMALL", ["99999999", "'text'", "1.5", "x'00'"]),
        ("ZMEDIUM", ["99999999999", "-2147483649"]),
        ("ZLARGE", ["'abc'", "2.5", "x'0102'"]),
        ("ZAMOUNT", ["'not a number'", "x'01'"]),
        ("ZRATIO", ["'text'", "x'02'", "9e999"]),
        ("ZSINGLE", ["1e300", "'x'"]),
        ("ZNAME", ["x'41ff'"]),
        ("ZFLAG", ["2", "'yes'", "0.5"]),
        ("ZWHEN", ["x'0102'", "'yesterday'", "1e30"]),
        ("ZBYTES", ["'text'", "42"]),
        ("ZPHOTO", ["'text'", "7"]),
        ("ZIDENT", ["'text'", "7"]),
        ("ZLINK", ["x'00'"]),
    ]

    /// `Z_PK|typeof|quote` of every attribute cell, row by row.
    static func cells(of store: String) throws -> [String] {
        let database = try Database(path: store, mode: .readOnly(immutable: false))
        var result: [String] = []
        for (column, _) in misfits {
            let select = try database.prepare(
                "SELECT Z_PK, typeof(\(column)), quote(\(column)) FROM ZSAMPLE ORDER BY Z_PK")
            while try select.step() {
                result.append(
                    "\(column) p\(select.int64(at: 0)) \(select.text(at: 1) ?? "") \(select.text(at: 2) ?? "")")
            }
        }
        return result
    }

    @Test("every attribute type: export warns per property, the archive validates, the restore has the same cells")
    func misfitsOfEveryType() throws {
        let scratch = try Scratch()
        let modelPath = scratch.path("Samples.xcdatamodel")
        try FileManager.default.createDirectory(atPath: modelPath, withIntermediateDirectories: true)
        try Self.model.write(toFile: modelPath + "/contents", atomically: true, encoding: .utf8)
        let store = scratch.path("Samples.sqlite")
        let made = try TasksBinary.run(["model", "new-store", modelPath, "-o", store])
        #expect(made.status == 0, "\(made.stderr)")
        let database = try Database(path: store, mode: .readWrite)
        var key = 1
        // One row whose every value fits, then one row per misfit cell.
        try database.execute(
            "INSERT INTO ZSAMPLE (Z_PK, Z_ENT, Z_OPT, ZSMALL, ZMEDIUM, ZLARGE, ZAMOUNT, ZRATIO, ZSINGLE, ZNAME, ZFLAG, "
                + "ZWHEN, ZBYTES, ZPHOTO, ZIDENT, ZLINK) VALUES (1, 1, 1, 7, 70000, 9000000000, 12.5, 0.25, 1.5, 'n', "
                + "1, 1000.5, x'0a0b', x'01ff', x'000102030405060708090a0b0c0d0e0f', 'https://example.com')")
        for (column, cells) in Self.misfits {
            for cell in cells {
                key += 1
                try database.execute(
                    "INSERT INTO ZSAMPLE (Z_PK, Z_ENT, Z_OPT, \(column)) VALUES (\(key), 1, 1, \(cell))")
            }
        }
        try database.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = \(key)")
        let before = try Self.cells(of: store)

        let archive = scratch.path("samples.json")
        let export = try TasksBinary.run(["export", store, "--model", modelPath, "-o", archive, "--json-summary"])
        #expect(export.status == 0, "\(export.stderr)")
        let findings = try JSONDecoder().decode(ExportSummary.self, from: Data(export.stderr.utf8))
            .findings.filter { $0.code == .invalidValue }
        for (column, cells) in Self.misfits {
            let property = String(column.dropFirst()).lowercased()
            let named = findings.filter { $0.property == property }.map(\.count).reduce(0, +)
            #expect(named == cells.count, "\(property): \(named) of \(cells.count) misfit cells named")
        }
        #expect(findings.allSatisfy { $0.message.contains("carried as the stored cell") }, "\(findings)")

        let validate = try TasksBinary.run(["validate", archive])
        #expect(validate.status == 0, "\(validate.stdout)\(validate.stderr)")

        let strict = try TasksBinary.run(["export", store, "--model", modelPath, "--strict", "-o", archive + "2"])
        #expect(strict.status == 65, "\(strict.stderr)")
        #expect(strict.stderr.contains("invalid-value"), "\(strict.stderr)")

        let restored = scratch.path("Restored.sqlite")
        let restore = try TasksBinary.run([
            "import", "--store", restored, "--model-from", modelPath, "--keep-identity", archive,
        ])
        #expect(restore.status == 0, "\(restore.stderr)")
        let after = try Self.cells(of: restored)
        #expect(after == before, "\(zip(before, after).filter { $0.0 != $0.1 })")

        // Exported again, the restored store gives the same archive records.
        let again = scratch.path("again.json")
        let second = try TasksBinary.run(["export", restored, "--model", modelPath, "-o", again])
        #expect(second.status == 0, "\(second.stderr)")
        let first = try Archive(json: Data(contentsOf: URL(fileURLWithPath: archive)))
        let other = try Archive(json: Data(contentsOf: URL(fileURLWithPath: again)))
        #expect(first.entities == other.entities)
    }
}
