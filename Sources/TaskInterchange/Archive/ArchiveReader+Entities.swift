import Foundation

/// The generic `entities` section and its declarations in `source.model`.
extension ArchiveReader.Parser {
    typealias EntityMember = ArchiveReader.EntityMember

    /// What reading an entity's `values` needs of its declaration.
    struct ValueShape {
        /// Its decimal attributes, whose numbers are kept as text.
        var decimals: Set<String>
        /// How many properties it declares: room for its values, made once instead of growing as they are read.
        var properties: Int
    }

    /// `"entities": {"Note": [...], "Folder": [...]}`: every element is counted; records are delivered with tasks.
    mutating func readEntitiesSection() throws {
        guard try expectObject("$.entities") else { return }
        var seen: Set<String> = []
        while try scanner.nextMember() {
            let location = scanner.location
            let entity = try scanner.readKey().string
            if !seen.insert(entity).inserted {
                try report(
                    .duplicateKey, JSONPath.member("$.entities", entity),
                    "member \"\(entity)\" appears more than once in this object; its records are read all the same",
                    at: location)
            }
            let kind = try scanner.peekKind()
            guard kind == .array else {
                try reportWrongType(
                    "an array of records", found: kind, JSONPath.member("$.entities", entity), at: scanner.location)
                try scanner.skipValue()
                continue
            }
            try scanner.beginArray()
            while try scanner.nextElement() {
                try readEntityRecord(entity: entity, at: scanner.location)
                noteConsumed()
            }
        }
    }

    /// One generic record: `{id, key?, values, positions?}` in a document (its entity is the group's name), with
    /// `type` and `entity` first on an NDJSON line.
    mutating func readEntityRecord(entity group: String?, at location: JSONScanner.Location) throws {
        found.entities += 1
        // An NDJSON line names its entity inside; the path needs it before the members are read.
        let entity = group ?? lookAheadEntity() ?? ""
        let index = entityIndexes[entity, default: 0]
        entityIndexes[entity] = index + 1
        let path = JSONPath.entityRecord(entity, index)
        guard RecordKind.deliversEntities(wanted) else {
            try scanner.skipValue()
            return
        }
        let kind = try scanner.peekKind()
        guard kind == .object else {
            try reportWrongType("an object", found: kind, path, at: location)
            try scanner.skipValue()
            return
        }
        try scanner.beginObject()
        var tracker = MemberTracker(EntityMember.self)
        let allowed =
            isNDJSON
            ? MemberSet.all(EntityMember.self)
            : MemberSet(EntityMember.id, .key, .values, .positions, .external, .dangling)
        var id: UUID?
        var key: Int?
        var values: [String: ExtraValue]?
        var positions: [String: [Int64]] = [:]
        var external: [String: String] = [:]
        var dangling: [String: EntityRecord.DanglingKey] = [:]
        while let member = try nextMember(EntityMember.self, allowed: allowed, in: path, tracker: &tracker) {
            switch member {
            case .id: id = try readUUID(path + ".id")
            case .key: key = try readInteger(path + ".key", in: 1...Int64.max, rangeName: "1…\(Int64.max)")
            case .values:
                let shape = valueShape(of: entity)
                values = try readExtra(path + ".values", decimals: shape.decimals, room: shape.properties)
            case .positions: positions = try readPositions(path + ".positions")
            case .external: external = try readExternal(path + ".external")
            case .dangling: dangling = try readDangling(path + ".dangling")
            case .type: try scanner.skipValue()
            case .entity: _ = try readString(path + ".entity")
            }
        }
        let required = isNDJSON ? MemberSet(EntityMember.id, .values, .entity) : MemberSet(EntityMember.id, .values)
        try reportMissing(EntityMember.self, required: required, seen: tracker.seen, in: path, at: location)
        guard let id, !entity.isEmpty else { return }
        if index % 1_024 == 1_023 { try Cancellation.checkpoint() }
        try visitor.visitEntity(
            EntityRecord(
                id: id, entity: entity, key: key.map(Int64.init), values: values ?? [:],
                positions: positions, external: external, dangling: dangling), index: index)
    }

    /// `{"cloudState": {"key": 12, "entity": "ICCloudState"}}`: property → a to-one key that points at no row (and
    /// the entity its entity-number column names).
    private mutating func readDangling(_ path: String) throws -> [String: EntityRecord.DanglingKey] {
        typealias Member = ArchiveReader.DanglingMember
        return try readNamed(path) { parser, memberPath, location in
            guard try parser.expectObject(memberPath) else { return nil }
            var tracker = MemberTracker(Member.self)
            var key: Int?
            var entity: String?
            while let member = try parser.nextMember(
                Member.self, allowed: .all(Member.self), in: memberPath, tracker: &tracker)
            {
                switch member {
                case .key:
                    key = try parser.readInteger(memberPath + ".key", in: 1...Int64.max, rangeName: "1…\(Int64.max)")
                case .entity: entity = try parser.readString(memberPath + ".entity")
                }
            }
            try parser.reportMissing(
                Member.self, required: MemberSet(Member.key), seen: tracker.seen, in: memberPath, at: location)
            return key.map { EntityRecord.DanglingKey(key: Int64($0), entity: entity) }
        }
    }

    /// An object whose members are named freely (`{name: value}`), each value read by `read` (nil: reported there,
    /// left out); a name given twice is reported and its second value skipped.
    private mutating func readNamed<Value>(
        _ path: String,
        _ read: (inout Self, _ memberPath: String, _ location: JSONScanner.Location) throws -> Value?
    ) throws -> [String: Value] {
        guard try expectObject(path) else { return [:] }
        var result: [String: Value] = [:]
        var seen: Set<String> = []
        while try scanner.nextMember() {
            let location = scanner.location
            let name = try scanner.readKey().string
            let memberPath = JSONPath.member(path, name)
            guard seen.insert(name).inserted else {
                try report(
                    .duplicateKey, memberPath,
                    "member \"\(name)\" appears more than once in this object; the first value is used", at: location)
                try scanner.skipValue()
                continue
            }
            if let value = try read(&self, memberPath, location) { result[name] = value }
        }
        return result
    }

    /// What `source.model` declares of `entity` that reading its values needs, looked up once per entity.
    private mutating func valueShape(of entity: String) -> ValueShape {
        if let known = valueShapes[entity] { return known }
        let declaration = source?.model[entity]
        let found = ValueShape(
            decimals: Set((declaration?.attributes ?? [:]).filter { $0.value == "decimal" }.keys),
            properties: (declaration?.attributes.count ?? 0) + (declaration?.relationships.count ?? 0))
        valueShapes[entity] = found
        return found
    }

    /// The `entity` string of the NDJSON line at the scanner, read ahead without moving.
    private func lookAheadEntity() -> String? {
        var lookahead = scanner
        do {
            try lookahead.beginObject()
            while try lookahead.nextMember() {
                if try lookahead.readKey().equals("entity") {
                    return try lookahead.peekKind() == .string ? try lookahead.readString() : nil
                }
                try lookahead.skipValue()
            }
        } catch {
            // The main pass reports malformed input where it meets it.
        }
        return nil
    }

    /// `{"photo": "6F96…"}`: property → the name of the external file that held its value, a UUID (it becomes a
    /// path under the target's support directory, so nothing else is accepted).
    private mutating func readExternal(_ path: String) throws -> [String: String] {
        guard try expectObject(path) else { return [:] }
        var result: [String: String] = [:]
        while try scanner.nextMember() {
            let location = scanner.location
            let name = try scanner.readKey().string
            let memberPath = JSONPath.member(path, name)
            guard let file = try readString(memberPath) else { continue }
            guard file.utf8.count == 36, UUID(uuidString: file) != nil else {
                try report(
                    .wrongType, memberPath,
                    "an external file's name is a UUID (\"6F9619FF-8B86-D011-B42D-00C04FC964FF\")",
                    at: location)
                continue
            }
            result[name] = file
        }
        return result
    }

    /// `{"children": [1024, 2048]}`: property → integer positions.
    private mutating func readPositions(_ path: String) throws -> [String: [Int64]] {
        try readNamed(path) { parser, memberPath, _ in
            let kind = try parser.scanner.peekKind()
            guard kind == .array else {
                try parser.reportWrongType("an array of integers", found: kind, memberPath, at: parser.scanner.location)
                return nil
            }
            try parser.scanner.beginArray()
            var list: [Int64] = []
            while try parser.scanner.nextElement() {
                if let value = try parser.readInteger(
                    "\(memberPath)[\(list.count)]", in: Int64.min...Int64.max, rangeName: "the Int64 range")
                {
                    list.append(Int64(value))
                }
            }
            return list
        }
    }

    /// `source.model`: entity → `{superentity?, abstract?, attributes: {name: type}, relationships: {name: {…}}}`.
    mutating func readModel() throws -> [String: EntityDeclaration] {
        typealias Member = ArchiveReader.DeclarationMember
        return try readNamed("$.source.model") { parser, entityPath, location in
            guard try parser.expectObject(entityPath) else { return nil }
            var tracker = MemberTracker(Member.self)
            var declaration = EntityDeclaration()
            while let member = try parser.nextMember(
                Member.self, allowed: .all(Member.self), in: entityPath, tracker: &tracker)
            {
                switch member {
                case .superentity:
                    declaration.superentity = try parser.readString(entityPath + ".superentity", nullable: true)
                case .abstract: declaration.isAbstract = try parser.readBool(entityPath + ".abstract") ?? false
                case .attributes: declaration.attributes = try parser.readAttributeTypes(entityPath + ".attributes")
                case .externalStorage:
                    let kind = try parser.scanner.peekKind()
                    if kind == .array {
                        declaration.externalStorage = Set(try parser.readIdArray(entityPath + ".externalStorage") ?? [])
                    } else {
                        try parser.reportWrongType(
                            "an array of attribute names", found: kind, entityPath + ".externalStorage",
                            at: parser.scanner.location)
                    }
                case .relationships:
                    let relationshipsPath = entityPath + ".relationships"
                    guard try parser.expectObject(relationshipsPath) else { continue }
                    while try parser.scanner.nextMember() {
                        let name = try parser.scanner.readKey().string
                        let relationshipPath = JSONPath.member(relationshipsPath, name)
                        guard let read = try parser.readEntityRelationship(relationshipPath) else { continue }
                        declaration.relationships[name] = read
                    }
                }
            }
            try parser.reportMissing(
                Member.self, required: MemberSet(Member.attributes, .relationships), seen: tracker.seen,
                in: entityPath, at: location)
            return declaration
        }
    }

    private mutating func readAttributeTypes(_ path: String) throws -> [String: String] {
        guard try expectObject(path) else { return [:] }
        var result: [String: String] = [:]
        while try scanner.nextMember() {
            let location = scanner.location
            let name = try scanner.readKey().string
            guard let type = try readString(JSONPath.member(path, name)) else { continue }
            if EntityDeclaration.attributeTypes.contains(type) {
                result[name] = type
            } else {
                try report(
                    .wrongType, JSONPath.member(path, name),
                    "\"\(type)\" is not an attribute type "
                        + "(expected one of \(EntityDeclaration.attributeTypes.sorted().joined(separator: ", ")))",
                    at: location)
            }
        }
        return result
    }

    /// A relationship declaration of `source.model`: as in `source.relationships`, with an entity as destination.
    private mutating func readEntityRelationship(_ path: String) throws -> EntityRelationship? {
        try readDeclaration(path).map {
            EntityRelationship(destination: $0.destination, toMany: $0.toMany, ordered: $0.ordered, inverse: $0.inverse)
        }
    }
}
