import Foundation
import TaskInterchange
import TestTiers
import Testing

/// Random models of 3–6 versions, each version an edit of the one before: attributes renamed by renaming identifier
/// (again and again), removed and later added again under the same name, integers widened step by step and narrowed
/// back; entities renamed (some twice). Every chain has each kind of edit: in its first two steps the first entity is
/// renamed twice, one of its attributes widened twice (Integer 16 → 32 → 64), another renamed twice, and a third
/// removed in the first and added again in the second. A store of the first version is filled with random rows by
/// SQL, `tasks migrate --model` carries it into the last version, and every value is checked by SQL under its final
/// column: each kept value equal, each re-added attribute holding its new default (not the old value of its name),
/// each removed one named as dropped with its count. `verify --model` must then pass.
@Suite("migrate --model through random chains of model versions", .tags(.slow))
struct ModelChainPropertyTests {
    /// One attribute of one version.
    struct Attribute {
        var name: String
        var type: String
        var renamingIdentifier: String?
        /// The first version's attribute it descends from; nil for one added by a later version.
        var origin: Int?
        /// One of the first entity's attributes whose edits every chain makes (see `forced`), not random ones.
        var isForced = false
    }

    /// One entity of one version.
    struct Entity {
        var name: String
        var renamingIdentifier: String?
        var attributes: [Attribute]
        /// Names removed by an earlier version, which a later one may add again.
        var removed: [String] = []
    }

    /// The default of an attribute a later version adds (Integer 32).
    static let addedDefault: Int64 = 9

    @Test("random 3–6 version chains: kept values equal by SQL, re-added ones their default, drops named")
    func randomChains() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<Tiers.count(2, slow: 20) { try check(&generator) }
    }

    /// The versions: the first random, each next one an edit of the one before. Returns every version's entities.
    static func versions(using generator: inout some RandomNumberGenerator) -> [[Entity]] {
        let types = ["Integer 16", "Integer 32", "Integer 64", "String", "Double", "Boolean", "Date"]
        var first: [Entity] = []
        var origin = 0
        for index in 0..<Int.random(in: 1...3, using: &generator) {
            var attributes: [Attribute] = []
            for number in 0..<Int.random(in: 2...5, using: &generator) {
                attributes.append(
                    Attribute(
                        name: "a\(number)", type: types.randomElement(using: &generator)!, origin: origin))
                origin += 1
            }
            first.append(Entity(name: "E\(index)", attributes: attributes))
        }
        // Every chain has each kind of edit: the first entity renamed in the first two steps, `w` widened twice,
        // `r` renamed twice, `g` removed and then added again (each step below).
        for (name, type) in [("w", "Integer 16"), ("r", "String"), ("g", "String")] {
            first[0].attributes.append(Attribute(name: name, type: type, origin: origin, isForced: true))
            origin += 1
        }
        var versions = [first]
        for step in 1..<Int.random(in: 3...6, using: &generator) {
            var next: [Entity] = []
            for (index, var entity) in versions[step - 1].enumerated() {
                let forced = index == 0 && step <= 2
                // Stale renaming identifiers stay, as Xcode leaves them.
                if forced || Int.random(in: 0..<3, using: &generator) == 0 {
                    entity.renamingIdentifier = entity.name
                    entity.name = "\(entity.name.prefix(2))v\(step)"
                }
                var attributes: [Attribute] = []
                var removedNow: [String] = []
                for var attribute in entity.attributes {
                    if attribute.isForced {
                        guard step <= 2 else {
                            attributes.append(attribute)
                            continue
                        }
                        switch attribute.name.prefix(1) {
                        case "w": attribute.type = step == 1 ? "Integer 32" : "Integer 64"
                        case "r":
                            attribute.renamingIdentifier = attribute.name
                            attribute.name = "r\(step)"
                        default:
                            removedNow.append(attribute.name)
                            continue
                        }
                        attributes.append(attribute)
                        continue
                    }
                    let original = attribute.origin.flatMap { origin in
                        first.flatMap(\.attributes).first { $0.origin == origin }?.type
                    }
                    switch Int.random(in: 0..<6, using: &generator) {
                    case 0:
                        attribute.renamingIdentifier = attribute.name
                        attribute.name = "\(attribute.name.prefix(2))v\(step)"
                    case 1:
                        removedNow.append(attribute.name)
                        continue
                    case 2 where attribute.type == "Integer 16":
                        attribute.type = "Integer 32"
                    case 2 where attribute.type == "Integer 32":
                        attribute.type = "Integer 64"
                    case 3 where original != nil && original != attribute.type:
                        // Narrowed back to the type the first version's values were written in: each fits.
                        attribute.type = original!
                    default:
                        break
                    }
                    attributes.append(attribute)
                }
                // A name an earlier version removed, added again: a new attribute, whatever the old one held.
                if forced && step == 2, let at = entity.removed.firstIndex(of: "g") {
                    entity.removed.remove(at: at)
                    attributes.append(Attribute(name: "g", type: "Integer 32", origin: nil))
                } else if let name = entity.removed.first, Bool.random(using: &generator) {
                    entity.removed.removeFirst()
                    attributes.append(Attribute(name: name, type: "Integer 32", origin: nil))
                }
                entity.removed += removedNow
                entity.attributes = attributes
                next.append(entity)
            }
            versions.append(next)
        }
        return versions
    }

    /// A version's model XML: every attribute optional; an added one (no origin) with its default.
    static func xml(_ entities: [Entity], version: Int) -> String {
        var text = ModelVersionPropertyTests.modelHeader(version: version)
        for entity in entities {
            let renaming = entity.renamingIdentifier.map { " elementID=\"\($0)\"" } ?? ""
            text +=
                "    <entity name=\"\(entity.name)\" representedClassName=\"\(entity.name)\"\(renaming) syncable=\"YES\">\n"
            for attribute in entity.attributes {
                let renamed = attribute.renamingIdentifier.map { " elementID=\"\($0)\"" } ?? ""
                let defaultValue = attribute.origin == nil ? " defaultValueString=\"\(addedDefault)\"" : ""
                text +=
                    "        <attribute name=\"\(attribute.name)\" optional=\"YES\" attributeType=\"\(attribute.type)\""
                    + "\(defaultValue)\(renamed)\(ModelVersionPropertyTests.scalar(attribute.type))/>\n"
            }
            text += "    </entity>\n"
        }
        return text + "</model>\n"
    }

    private func check(_ generator: inout some RandomNumberGenerator) throws {
        let scratch = try Scratch()
        let versions = Self.versions(using: &generator)
        let described = versions.enumerated().map { index, entities in
            "v\(index + 1): "
                + entities.map { entity in
                    "\(entity.name)\(entity.renamingIdentifier.map { "←\($0)" } ?? "")("
                        + entity.attributes.map {
                            "\($0.name)\($0.renamingIdentifier.map { "←\($0)" } ?? "") \($0.type)"
                                + ($0.origin == nil ? " added" : "")
                        }.joined(separator: ", ") + ")"
                }.joined(separator: " ")
        }.joined(separator: "\n")
        let model = scratch.path("App.xcdatamodeld")
        let old = scratch.path("Old.sqlite")
        try ModelVersionPropertyTests.makeModel(
            versions.enumerated().map { Self.xml($1, version: $0 + 1) }, at: model, store: old)
        // Rows by SQL, each value random or NULL, by the first version's attribute (its origin number).
        var rows: [String: [Int64: [Int: SQLValue]]] = [:]
        let database = try Database(path: old, mode: .readWrite)
        let numbers = try ModelVersionPropertyTests.entityNumbers(database)
        for entity in versions[0] {
            var written: [Int64: [Int: SQLValue]] = [:]
            // The entity every chain renames twice has rows to keep.
            let count = Int.random(in: (entity.name == "E0" ? 1 : 0)...5, using: &generator)
            for key in 1...max(count, 1) where count > 0 {
                var values: [Int: SQLValue] = [:]
                for attribute in entity.attributes {
                    values[attribute.origin!] = ModelVersionPropertyTests.randomValue(
                        attribute.type, using: &generator)
                }
                written[Int64(key)] = values
                let columns = ["Z_PK", "Z_ENT", "Z_OPT"] + entity.attributes.map { "Z" + $0.name.uppercased() }
                try database.prepare(
                    "INSERT INTO Z\(entity.name.uppercased()) (\(columns.joined(separator: ", "))) VALUES ("
                        + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
                ).execute(
                    [.integer(Int64(key)), .integer(numbers[entity.name]!), .integer(1)]
                        + entity.attributes.map { values[$0.origin!]! })
            }
            try database.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = \(count) WHERE Z_NAME = '\(entity.name)'")
            rows[entity.name] = written
        }

        let new = scratch.path("New.sqlite")
        let migrate = try TasksBinary.run([
            "migrate", "--from", old, "--to", new, "--backup", scratch.path("backup"), "--model", model,
        ])
        try #require(migrate.status == 0, "\(described)\n\(migrate.stderr)")
        #expect(
            migrate.stderr.contains("Through \(versions.count - 1) steps, in the model's version order v1, v2"),
            "\(described)\n\(migrate.stderr)")

        let migrated = try Database(path: new, mode: .readOnly(immutable: false))
        let last = versions[versions.count - 1]
        for (index, entity) in versions[0].enumerated() {
            let written = rows[entity.name] ?? [:]
            let final = last[index]
            let columns = final.attributes.map { "Z" + $0.name.uppercased() }
            let selected = try migrated.rows(
                "SELECT Z_PK\(columns.map { ", " + $0 }.joined()) FROM Z\(final.name.uppercased()) ORDER BY Z_PK")
            #expect(selected.count == written.count, "\(described)\n\(final.name) rows")
            for row in selected {
                let key = row[0].int64 ?? -1
                guard let source = written[key] else {
                    Issue.record("\(described)\n\(final.name) row \(key) was not in version 1")
                    continue
                }
                for (position, attribute) in final.attributes.enumerated() {
                    let expected = attribute.origin.map { source[$0]! } ?? .integer(Self.addedDefault)
                    #expect(
                        ModelVersionPropertyTests.same(row[position + 1], expected),
                        "\(described)\n\(final.name).\(attribute.name) of row \(key): \(row[position + 1]) ≠ \(expected)"
                    )
                }
            }
            // Every first-version attribute that does not reach the last version and held values is named dropped.
            for attribute in entity.attributes {
                guard
                    let removedBy = versions.indices.first(where: { version in
                        !versions[version][index].attributes.contains { $0.origin == attribute.origin }
                    })
                else { continue }
                let count = written.values.filter { $0[attribute.origin!] != .null }.count
                guard count > 0 else { continue }
                #expect(
                    migrate.stderr.contains(
                        "warning: \(entity.name).\(attribute.name): removed in v\(removedBy + 1); \(count) "
                            + "value\(count == 1 ? "" : "s") dropped by the model change"),
                    "\(described)\n\(migrate.stderr)")
            }
        }
        let archive = scratch.path("old.json")
        #expect(try TasksBinary.run(["export", "--store", old, "--model", model, "-o", archive]).status == 0)
        let verify = try TasksBinary.run(["verify", "--store", new, "--model", model, archive])
        #expect(verify.status == 0, "\(described)\n\(verify.stdout)\(verify.stderr)")
    }
}
