import Foundation
import Testing

@testable import TaskInterchange

/// Random models — inheritance (abstract roots too), ordered and unordered to-many, many-to-many, one-to-one, self
/// relationships, relationships without an inverse, every attribute type — each with a random graph of generic
/// records: archive → JSON → new store (keeping identity) → archive must give back every record, value, link and
/// position, and that archive → a second store must equal the first table for table at the SQL level.
@Suite("Generic entities: random models")
struct GenericEntityPropertyTests {
    static let attributeTypes: [ObjectModel.AttributeType] = [
        .integer16, .integer32, .integer64, .decimal, .double, .float, .string, .boolean, .date, .binaryData, .uuid,
        .uri,
        .transformable,
    ]

    @Test(
        "random models and graphs round-trip through stores exactly (30 seeds; 120 in the slow tier)",
        arguments: 0..<UInt64(Tiers.count(30, slow: 120)))
    func roundTrip(seed: UInt64) throws {
        var random = SeededGenerator(state: seed &* 0x2545_F491_4F6C_DD1D)
        let model = Self.model(&random)
        let template = StoreTemplate(model: model)
        let directory = try TemporaryDirectory()
        try template.makeEmptyStore(at: directory.path("empty.sqlite"))
        let schema = try StoreSchema(
            reading: try Database(path: directory.path("empty.sqlite"), mode: .readOnly(immutable: false)),
            path: "empty.sqlite")
        let layout = GenericLayout(schema: schema, model: model, excluded: [])
        let original = Self.archive(layout: layout, schema: schema, &random)
        let json = try original.jsonData()
        let parsed = try Archive(json: json)
        #expect(parsed.entities == original.entities, "seed \(seed): JSON")

        var options = StoreImportOptions()
        options.template = template
        options.keepIdentity = true
        _ = try StoreImport.run(parsed, into: directory.path("a.sqlite"), options: options)
        let (read, findings) = try readStore(directory.path("a.sqlite"), model: model)
        #expect(findings.filter(\.isWarning).isEmpty, "seed \(seed): \(findings)")
        #expect(read.header.source?.storeUUID == original.header.source?.storeUUID, "seed \(seed)")
        #expect(read.header.source?.model == original.header.source?.model, "seed \(seed): declarations")
        let byID = Dictionary(uniqueKeysWithValues: original.entities.map { ($0.id, $0) })
        #expect(read.entities.count == original.entities.count, "seed \(seed)")
        for record in read.entities {
            #expect(record == byID[record.id], "seed \(seed): \(record.entity) \(record.key ?? 0)")
        }

        _ = try StoreImport.run(
            try Archive(json: try read.jsonData()), into: directory.path("b.sqlite"), options: options)
        #expect(
            try StoreTables.contents(of: directory.path("a.sqlite"))
                == StoreTables.contents(of: directory.path("b.sqlite")),
            "seed \(seed)")
    }

    @Test("the same random graphs rebuild in a MemoryDestination and come back as they went in", arguments: 0..<30)
    func memory(seed: UInt64) throws {
        var random = SeededGenerator(state: seed &* 0x2545_F491_4F6C_DD1D)
        let model = Self.model(&random)
        let directory = try TemporaryDirectory()
        try StoreTemplate(model: model).makeEmptyStore(at: directory.path("empty.sqlite"))
        let schema = try StoreSchema(
            reading: try Database(path: directory.path("empty.sqlite"), mode: .readOnly(immutable: false)),
            path: "empty.sqlite")
        let original = Self.archive(
            layout: GenericLayout(schema: schema, model: model, excluded: []), schema: schema, &random)
        var memory = MemoryDestination()
        let plan = try Importer().run(original, into: &memory)
        #expect(plan.entities.values.reduce(0) { $0 + $1.inserted } == original.entities.count)
        #expect(memory.archive.entities == original.entities, "seed \(seed)")
        // The memory keeps the declarations of the entities it received records of.
        for (entity, declaration) in memory.archive.header.source?.model ?? [:] {
            #expect(declaration == original.header.source?.model[entity], "seed \(seed): \(entity)")
        }
    }

    /// 1–5 entities, some sub-entities of earlier ones, 0–4 attributes each, 0–5 relationships of every shape.
    static func model(_ random: inout SeededGenerator) -> ObjectModel {
        var entities: [ObjectModel.Entity] = []
        for index in 0..<Int.random(in: 1...5, using: &random) {
            let parent = index > 0 && Bool.random(using: &random) ? entities.randomElement(using: &random)?.name : nil
            let attributes = (0..<Int.random(in: 0...4, using: &random)).map { number in
                ObjectModel.Attribute(
                    "e\(index)a\(number)", attributeTypes.randomElement(using: &random)!, optional: true)
            }
            entities.append(ObjectModel.Entity("E\(index)", superentity: parent, attributes: attributes))
        }
        // A root with sub-entities is sometimes abstract: its records are all of sub-entities.
        for index in entities.indices where entities.contains(where: { $0.superentity == entities[index].name }) {
            entities[index].isAbstract = Int.random(in: 0..<4, using: &random) == 0
        }
        for number in 0..<Int.random(in: 0...5, using: &random) {
            let source = Int.random(in: 0..<entities.count, using: &random)
            let destination = Int.random(in: 0..<entities.count, using: &random)
            let (name, inverse) = ("r\(number)", "i\(number)")
            let target = entities[destination].name
            let origin = entities[source].name
            let ordered = Bool.random(using: &random)
            switch Int.random(in: 0..<6, using: &random) {
            case 0:  // one-to-many, the to-many side ordered or not
                entities[source].relationships.append(.init(name, to: target, inverse: inverse, toMany: false))
                entities[destination].relationships.append(
                    .init(inverse, to: origin, inverse: name, toMany: true, ordered: ordered))
            case 1:  // many-to-many
                entities[source].relationships.append(
                    .init(name, to: target, inverse: inverse, toMany: true, ordered: ordered))
                entities[destination].relationships.append(.init(inverse, to: origin, inverse: name, toMany: true))
            case 2:  // one-to-one
                entities[source].relationships.append(.init(name, to: target, inverse: inverse, toMany: false))
                entities[destination].relationships.append(.init(inverse, to: origin, inverse: name, toMany: false))
            case 3:  // to-one without inverse
                entities[source].relationships.append(.init(name, to: target, inverse: nil, toMany: false))
            default:  // to-many without inverse
                entities[source].relationships.append(
                    .init(name, to: target, inverse: nil, toMany: true, ordered: ordered))
            }
        }
        return ObjectModel(entities: entities)
    }

    /// 0–6 records per concrete entity with random values and links; keys per table from 1, ids derived from them.
    static func archive(layout: GenericLayout, schema: StoreSchema, _ random: inout SeededGenerator) -> Archive {
        let storeUUID = UUID(
            uuidString: "00000000-0000-4000-8000-\(String(format: "%012X", random.next() & 0xFFFF_FFFF_FFFF))")!
            .uuidString
        var records: [EntityRecord] = []
        var nextKey: [String: Int64] = [:]
        for name in layout.names where !layout.entities[name]!.isAbstract {
            let entity = layout.entities[name]!
            for _ in 0..<Int.random(in: 0...6, using: &random) {
                let key = nextKey[entity.table, default: 1]
                nextKey[entity.table] = key + 1
                var record = EntityRecord(
                    id: UUID.derived(storeUUID: storeUUID, entity: name, primaryKey: key), entity: name, key: key)
                for attribute in entity.attributes where Int.random(in: 0..<5, using: &random) > 0 {
                    record.values[attribute.property] = value(of: attribute.type, &random)
                }
                records.append(record)
            }
        }
        // Destinations a relationship may use only once: a to-one on the other side (or a one-to-one) holds one owner.
        var taken: [String: Set<UUID>] = [:]
        for index in records.indices {
            let entity = layout.entities[records[index].entity]!
            for relationship in entity.relationships {
                let candidates = records.filter {
                    isEntity($0.entity, kindOf: relationship.declaration.destination, in: layout)
                }
                let exclusive: Bool
                switch relationship.storage {
                case .destinationColumn: exclusive = true
                case .column(_, _, let mirror): exclusive = mirror != nil
                case .joinTable: exclusive = false
                }
                var free = candidates.filter { !(taken[relationship.property]?.contains($0.id) ?? false) }
                free.shuffle(using: &random)
                let chosen = Array(
                    free.prefix(
                        relationship.declaration.toMany
                            ? Int.random(in: 0...3, using: &random) : Int.random(in: 0...1, using: &random)))
                guard !chosen.isEmpty else { continue }
                if exclusive { taken[relationship.property, default: []].formUnion(chosen.map(\.id)) }
                if relationship.declaration.toMany {
                    let ids = chosen.map(\.id.uuidString)
                    records[index].values[relationship.property] = .array(
                        relationship.declaration.ordered ? ids : ids.sorted())
                    if relationship.declaration.ordered {
                        var position = Int64.random(in: 1...5_000, using: &random)
                        records[index].positions[relationship.property] = chosen.map { _ in
                            defer { position += Int64.random(in: 1...2_048, using: &random) }
                            return position
                        }
                    }
                } else {
                    records[index].values[relationship.property] = .string(chosen[0].id.uuidString)
                }
            }
        }
        let header = ArchiveHeader(
            exportDate: Date(timeIntervalSinceReferenceDate: 0), generator: .init(name: "tasks", version: "test"),
            source: .init(store: "random.sqlite", storeUUID: storeUUID, model: layout.declarations))
        return Archive(header: header, entities: records.sorted { ($0.entity, $0.key ?? 0) < ($1.entity, $1.key ?? 0) })
    }

    static func isEntity(_ entity: String, kindOf ancestor: String, in layout: GenericLayout) -> Bool {
        EntityDeclaration.isEntity(entity, kindOf: ancestor, limit: layout.entities.count) {
            layout.entities[$0]?.superentity
        }
    }

    /// A value of a model type, in the encoding `extra` uses, that survives a store exactly.
    static func value(of type: String, _ random: inout SeededGenerator) -> ExtraValue {
        switch type {
        case "integer16": return .integer(Int64(Int16.random(in: .min ... .max, using: &random)))
        case "integer32": return .integer(Int64(Int32.random(in: .min ... .max, using: &random)))
        case "integer64": return .integer(Int64.random(in: .min ... .max, using: &random))
        case "decimal":
            return .string(
                Bool.random(using: &random)
                    ? String(Int64.random(in: -99_999...99_999, using: &random))
                    : String(Double(Int.random(in: -9_999...9_999, using: &random)) + 0.25))
        case "double":
            return .double(
                Double(bitPattern: random.next() & 0x7FEF_FFFF_FFFF_FFFF | 1) * (Bool.random(using: &random) ? 1 : -1))
        case "float": return .double(Double(Float.random(in: -1e6...1e6, using: &random)) + 0.5)
        case "boolean": return .bool(Bool.random(using: &random))
        case "date":
            return .string(
                try! LosslessDate.string(
                    from: Date(timeIntervalSinceReferenceDate: Double.random(in: -4e9...4e9, using: &random))))
        case "uuid":
            return .string(
                UUID(
                    uuidString:
                        "\(String(format: "%08X", UInt32.random(in: 0 ... .max, using: &random)))"
                        + "-1234-4ABC-8DEF-0123456789AB"
                )!.uuidString)
        case "binary", "transformable":
            return .string(
                Data(
                    (0..<Int.random(in: 0...40, using: &random)).map { _ in UInt8.random(in: 0 ... .max, using: &random)
                    }
                ).base64EncodedString())
        default:
            let alphabet = Array("aZ 09\"\\\n\té中🙂-")
            return .string(
                String(
                    (0..<Int.random(in: 0...12, using: &random)).map { _ in alphabet.randomElement(using: &random)! }))
        }
    }
}
