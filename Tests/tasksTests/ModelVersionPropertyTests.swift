import Foundation
import TaskInterchange
import TestTiers
import Testing

/// Random model pairs: a version 1 with a few entities, a version 2 that renames (by renaming identifier), removes,
/// widens and adds attributes, makes optional ones required with a default and renames an entity. A store of version
/// 1 is filled with random rows by SQL, `tasks migrate --model` carries it into version 2, and every row and value is
/// then checked by SQL against what the change should leave: each kept value equal under its new name, each default
/// where the rows had nothing, each removed attribute named in the output as dropped with its count.
@Suite("migrate --model across random model versions", .tags(.slow))
struct ModelVersionPropertyTests {
    /// One attribute of version 1 and what version 2 does with it.
    struct Attribute {
        enum Fate: CaseIterable { case kept, renamed, removed, widened, madeRequired }
        var name: String
        var type: String
        var fate: Fate
        /// Its name in version 2 (nil when removed).
        var newName: String? {
            switch fate {
            case .removed: return nil
            case .renamed: return "r" + name
            default: return name
            }
        }
        var newType: String {
            guard fate == .widened else { return type }
            return type == "Integer 16" ? "Integer 32" : "Integer 64"
        }
        /// The default version 2 declares when it makes the attribute required.
        var defaultText: String {
            switch type {
            case "String": return "none"
            case "Boolean": return "YES"
            case "Date": return "0"
            default: return "7"
            }
        }
    }

    struct Entity {
        var name: String
        var attributes: [Attribute]
        var renamed: Bool
        var newName: String { renamed ? "N" + name : name }
    }

    @Test("random v1 → v2 pairs: kept values equal by SQL, defaults filled, drops listed", arguments: 0..<2)
    func randomPairs(batch: Int) throws {
        // Each failure message describes the pair it drew (entities, types, fates), which is what reproduces it.
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<Tiers.count(3, slow: 25) { try check(&generator) }
    }

    private func check(_ generator: inout some RandomNumberGenerator) throws {
        let scratch = try Scratch()
        let types = ["Integer 16", "Integer 32", "Integer 64", "String", "Double", "Boolean", "Date"]
        var entities: [Entity] = []
        for index in 0..<Int.random(in: 1...3, using: &generator) {
            var attributes: [Attribute] = []
            for number in 0..<Int.random(in: 1...5, using: &generator) {
                let type = types.randomElement(using: &generator)!
                var fates: [Attribute.Fate] = [.kept, .renamed, .removed, .madeRequired]
                if type == "Integer 16" || type == "Integer 32" { fates.append(.widened) }
                attributes.append(
                    Attribute(name: "a\(number)", type: type, fate: fates.randomElement(using: &generator)!))
            }
            entities.append(Entity(name: "E\(index)", attributes: attributes, renamed: Bool.random(using: &generator)))
        }
        // Version 2 also adds an attribute with a default to the first entity and a new entity.
        let model = scratch.path("App.xcdatamodeld")
        let old = scratch.path("Old.sqlite")
        try Self.makeModel([Self.xml(entities, version: 1), Self.xml(entities, version: 2)], at: model, store: old)
        // Rows by SQL, as the app would have written them: each value random or NULL.
        var rows: [String: [Int64: [String: SQLValue]]] = [:]
        let database = try Database(path: old, mode: .readWrite)
        let numbers = try Self.entityNumbers(database)
        for entity in entities {
            var written: [Int64: [String: SQLValue]] = [:]
            let count = Int.random(in: 0...6, using: &generator)
            for key in 1...max(count, 1) where count > 0 {
                var values: [String: SQLValue] = [:]
                for attribute in entity.attributes {
                    values[attribute.name] = Self.randomValue(attribute.type, using: &generator)
                }
                written[Int64(key)] = values
                let columns = ["Z_PK", "Z_ENT", "Z_OPT"] + entity.attributes.map { "Z" + $0.name.uppercased() }
                let insert = try database.prepare(
                    "INSERT INTO Z\(entity.name.uppercased()) (\(columns.joined(separator: ", "))) VALUES ("
                        + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")")
                try insert.execute(
                    [.integer(Int64(key)), .integer(numbers[entity.name]!), .integer(1)]
                        + entity.attributes.map { values[$0.name]! })
            }
            try database.execute(
                "UPDATE Z_PRIMARYKEY SET Z_MAX = \(count) WHERE Z_NAME = '\(entity.name)'")
            rows[entity.name] = written
        }

        let new = scratch.path("New.sqlite")
        let migrate = try TasksBinary.run([
            "migrate", "--from", old, "--to", new, "--backup", scratch.path("backup"), "--model", model,
            "--model-version", "v2",
        ])
        let described = entities.map {
            "\($0.name)\($0.renamed ? "→N" : ""): "
                + $0.attributes.map { "\($0.name) \($0.type) \($0.fate)" }.joined(separator: ", ")
        }
        try #require(migrate.status == 0, "\(described)\n\(migrate.stderr)")

        let migrated = try Database(path: new, mode: .readOnly(immutable: false))
        for entity in entities {
            let written = rows[entity.name] ?? [:]
            let table = "Z" + entity.newName.uppercased()
            let added = entity.name == "E0"
            var columns = entity.attributes.compactMap { $0.newName.map { "Z" + $0.uppercased() } }
            if added { columns.append("ZADDED") }
            let selected = try migrated.rows(
                "SELECT Z_PK\(columns.map { ", " + $0 }.joined()) FROM \(table) ORDER BY Z_PK")
            #expect(selected.count == written.count, "\(described): \(entity.newName) rows")
            for row in selected {
                let key = row[0].int64 ?? -1
                guard let source = written[key] else {
                    Issue.record("\(described): \(entity.newName) row \(key) was not in version 1")
                    continue
                }
                var position = 1
                for attribute in entity.attributes {
                    guard attribute.newName != nil else { continue }
                    let value = row[position]
                    position += 1
                    var expected = source[attribute.name]!
                    if attribute.fate == .madeRequired, expected == .null {
                        expected = Self.defaultValue(attribute)
                    }
                    #expect(
                        Self.same(value, expected),
                        "\(described): \(entity.newName).\(attribute.newName!) of row \(key): \(value) ≠ \(expected)")
                }
                if added {
                    #expect(row[position].int64 == 42, "\(described): ZADDED of row \(key) is \(row[position])")
                }
            }
            // Every removed attribute that held values is named as dropped, with the count.
            for attribute in entity.attributes where attribute.fate == .removed {
                let count = written.values.filter { $0[attribute.name] != .null }.count
                guard count > 0 else { continue }
                #expect(
                    migrate.stderr.contains(
                        "\(entity.name).\(attribute.name): the target's model version has no such property; \(count) "
                            + "value\(count == 1 ? "" : "s") dropped by the model change"),
                    "\(described)\n\(migrate.stderr)")
            }
        }
        // The store's own check: every record compared under the new version, drops apart.
        let archive = scratch.path("old.json")
        #expect(try TasksBinary.run(["export", "--store", old, "--model", model, "-o", archive]).status == 0)
        let verify = try TasksBinary.run([
            "verify", "--store", new, "--model", model, "--model-version", "v2", archive,
        ])
        #expect(verify.status == 0, "\(described)\n\(verify.stdout)\(verify.stderr)")
    }

    /// The model XML of a version: version 2 applies each attribute's fate, renames entities by renaming identifier,
    /// adds `added` (Integer 32, default 42) to `E0` and an entity `Fresh`.
    static func xml(_ entities: [Entity], version: Int) -> String {
        var text = modelHeader(version: version)
        for entity in entities {
            let name = version == 1 ? entity.name : entity.newName
            let renaming = version == 2 && entity.renamed ? " elementID=\"\(entity.name)\"" : ""
            text += "    <entity name=\"\(name)\" representedClassName=\"\(name)\"\(renaming) syncable=\"YES\">\n"
            for attribute in entity.attributes {
                if version == 1 {
                    text +=
                        "        <attribute name=\"\(attribute.name)\" optional=\"YES\" "
                        + "attributeType=\"\(attribute.type)\"\(Self.scalar(attribute.type))/>\n"
                    continue
                }
                guard let newName = attribute.newName else { continue }
                let renamed = attribute.fate == .renamed ? " elementID=\"\(attribute.name)\"" : ""
                let required =
                    attribute.fate == .madeRequired
                    ? (attribute.type == "Date"
                        ? " defaultDateTimeInterval=\"\(attribute.defaultText)\""
                        : " defaultValueString=\"\(attribute.defaultText)\"")
                    : " optional=\"YES\""
                text +=
                    "        <attribute name=\"\(newName)\"\(required) attributeType=\"\(attribute.newType)\""
                    + "\(renamed)\(Self.scalar(attribute.newType))/>\n"
            }
            if version == 2 && entity.name == "E0" {
                text +=
                    "        <attribute name=\"added\" optional=\"YES\" attributeType=\"Integer 32\" "
                    + "defaultValueString=\"42\" usesScalarValueType=\"YES\"/>\n"
            }
            text += "    </entity>\n"
        }
        if version == 2 {
            text +=
                "    <entity name=\"Fresh\" representedClassName=\"Fresh\" syncable=\"YES\">\n"
                + "        <attribute name=\"label\" optional=\"YES\" attributeType=\"String\"/>\n    </entity>\n"
        }
        return text + "</model>\n"
    }

    /// A model XML's first lines, up to its entities.
    static func modelHeader(version: Int) -> String {
        """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" systemVersion="23E224" \
        minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="\(version)">

        """
    }

    /// Writes `contents` as the versions v1, v2, … of the model folder `model`, the last current, and makes an empty
    /// store of v1 at `store`.
    static func makeModel(_ contents: [String], at model: String, store: String) throws {
        for (index, text) in contents.enumerated() {
            let folder = model + "/v\(index + 1).xcdatamodel"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try text.write(toFile: folder + "/contents", atomically: true, encoding: .utf8)
        }
        try setCurrentVersion("v\(contents.count)", of: model)
        let made = try TasksBinary.run(["model", "new-store", model, "--model-version", "v1", "-o", store])
        try #require(made.status == 0, "\(made.stderr)")
    }

    /// Writes the `.xccurrentversion` of the model folder `model` naming `version` current.
    static func setCurrentVersion(_ version: String, of model: String) throws {
        try """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict><key>_XCCurrentVersionName</key><string>\(version).xcdatamodel</string>\
        </dict></plist>
        """.write(toFile: model + "/.xccurrentversion", atomically: true, encoding: .utf8)
    }

    static func scalar(_ type: String) -> String {
        type.hasPrefix("Integer") || type == "Double" || type == "Boolean" ? " usesScalarValueType=\"YES\"" : ""
    }

    static func entityNumbers(_ database: Database) throws -> [String: Int64] {
        var numbers: [String: Int64] = [:]
        for row in try database.rows("SELECT Z_NAME, Z_ENT FROM Z_PRIMARYKEY") {
            numbers[row[0].string ?? ""] = row[1].int64
        }
        return numbers
    }

    static func randomValue(_ type: String, using generator: inout some RandomNumberGenerator) -> SQLValue {
        if Int.random(in: 0..<5, using: &generator) == 0 { return .null }
        switch type {
        case "Integer 16": return .integer(Int64(Int16.random(in: .min ... .max, using: &generator)))
        case "Integer 32": return .integer(Int64(Int32.random(in: .min ... .max, using: &generator)))
        case "Integer 64": return .integer(Int64.random(in: .min ... .max, using: &generator))
        case "Boolean": return .integer(Int64.random(in: 0...1, using: &generator))
        case "Double": return .real(Double.random(in: -1e9...1e9, using: &generator))
        case "Date": return .real(Double.random(in: -1e9...1e9, using: &generator))
        default:
            let pieces = ["a", "é", "日本", " ", "\"", "z", "🙂", "'"]
            return .text(
                (0..<Int.random(in: 0...8, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }
                    .joined())
        }
    }

    /// A default as the store holds it.
    private static func defaultValue(_ attribute: Attribute) -> SQLValue {
        switch attribute.type {
        case "String": return .text(attribute.defaultText)
        case "Boolean": return .integer(1)
        case "Date": return .real(0)
        case "Double": return .real(7)
        default: return .integer(7)
        }
    }

    /// Equal as stored: numbers by value (a REAL column may return an integral double as either), text by bytes.
    static func same(_ a: SQLValue, _ b: SQLValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.integer(let x), .integer(let y)): return x == y
        case (.real(let x), .real(let y)): return x.bitPattern == y.bitPattern
        case (.integer(let x), .real(let y)), (.real(let y), .integer(let x)): return Double(x) == y
        case (.text(let x), .text(let y)): return x == y
        default: return false
        }
    }
}
