import Foundation

extension ArchiveReader.Parser {
    typealias DocumentMember = ArchiveReader.DocumentMember

    /// A version 1 or 2 document: one object whose sections are streamed element by element.
    mutating func readDocument() throws {
        let start = scanner.location
        try scanner.beginObject()
        var tracker = MemberTracker(DocumentMember.self)
        let allowed = MemberSet.all(DocumentMember.self).subtracting(MemberSet(DocumentMember.type))
        while let member = try nextMember(DocumentMember.self, allowed: allowed, in: "$", tracker: &tracker) {
            if let kind = member.sectionKind {
                decideRules()
                try deliverHeader()
                if kind == .category && rules == .version1 {
                    try reportNotInVersion1("categories")
                } else {
                    try readSection(kind)
                }
            } else if member == .entities {
                decideRules()
                try deliverHeader()
                if rules == .version1 {
                    try reportNotInVersion1("entities")
                } else {
                    try readEntitiesSection()
                }
            } else if member == .tables {
                decideRules()
                try deliverHeader()
                if rules == .version1 {
                    try reportNotInVersion1("tables")
                } else {
                    try readTablesSection()
                }
            } else if member == .counts {
                decideRules()
                if rules == .version1 {
                    try reportNotInVersion1("counts")
                } else {
                    try readCounts()
                }
            } else {
                try readHeaderMember(member)
            }
        }
        try scanner.endDocument()
        let end = scanner.location
        decideRules()
        try deliverHeader()
        // A newer format may be shaped differently: beyond the version issue, its missing members are noise.
        if let version, version > ArchiveHeader.currentVersion {
            try visitor.visitEnd(header: header, counts: declared)
            return
        }
        try checkHeader(seen: tracker.seen, at: start)
        let requiredSections: [(DocumentMember, String)] =
            rules == .version1
            ? [(.projects, "projects"), (.tags, "tags"), (.tasks, "tasks")]
            : [(.projects, "projects"), (.categories, "categories"), (.tags, "tags"), (.tasks, "tasks")]
        for (member, name) in requiredSections where !tracker.seen.contains(member) {
            try report(.missingField, "$." + name, "missing required member \"\(name)\"", at: start)
        }
        if rules == .version2 {
            if tracker.seen.contains(DocumentMember.counts) {
                try checkCounts(against: found)
            } else {
                try report(.countsMismatch, "$.counts", "no counts: the file may be truncated", at: end)
            }
        }
        try visitor.visitEnd(header: header, counts: declared)
    }

    /// Hands the header to the visitor before the first record, so that `source.relationships` is known while records
    /// stream. A version 2 document whose `source` comes after a section has it read ahead (its issues are reported
    /// when the main pass reaches it).
    mutating func deliverHeader() throws {
        guard !headerDelivered else { return }
        headerDelivered = true
        if source == nil && rules == .version2 && !isNDJSON && scanner.depth == 1 { lookAheadForSource() }
        try visitor.visitHeader(header)
    }

    private mutating func lookAheadForSource() {
        var lookahead = scanner
        do {
            if !Self.isBetweenMembers(lookahead) { try lookahead.skipValue() }
            while try lookahead.nextMember() {
                guard try lookahead.readKey().equals("source") else {
                    try lookahead.skipValue()
                    continue
                }
                let saved = scanner
                scanner = lookahead
                muted = true
                defer {
                    scanner = saved
                    muted = false
                }
                source = try readSource()
                return
            }
        } catch {
            // Malformed input is reported by the main pass when it gets there.
        }
    }

    /// `format`, `version`, `exportDate`, `generator` or `source`, in a document or an NDJSON header.
    mutating func readHeaderMember(_ member: DocumentMember) throws {
        switch member {
        case .format:
            let location = try locationOfNextValue()
            guard let value = try readString("$.format") else { return }
            format = value
            if value != ArchiveHeader.formatName {
                try report(
                    .unknownFormat, "$.format",
                    "format is \"\(value)\", not \"\(ArchiveHeader.formatName)\"", at: location)
            }
        case .version:
            try readVersion()
        case .exportDate:
            decideRules()
            exportDate = try readDate("$.exportDate", nullable: rules == .version2)
        case .generator:
            generator = try readGenerator()
        case .source:
            source = try readSource()
        default:
            // Sections, counts and type are handled by the callers.
            try scanner.skipValue()
        }
    }

    /// Reports a missing version, format (version 2) or export date (version 1).
    mutating func checkHeader(seen: MemberSet, at location: JSONScanner.Location) throws {
        if !seen.contains(DocumentMember.version) {
            try report(
                .missingVersion, "$.version",
                "no \"version\" member: every archive states its format version", at: location)
        }
        if rules == .version2 && !seen.contains(DocumentMember.format) {
            try report(
                .missingField, "$.format",
                "missing required member \"format\" (\"\(ArchiveHeader.formatName)\")", at: location)
        }
        if rules == .version1 && !seen.contains(DocumentMember.exportDate) {
            try report(.missingField, "$.exportDate", "missing required member \"exportDate\"", at: location)
        }
    }

    /// Fixes the rules for dates and records before the first one is read. When `version` has not been read yet
    /// (it may come last in a version 1 file), the rest of the top-level object is scanned ahead for it.
    mutating func decideRules() {
        guard rules == nil else { return }
        var knownVersion = versionSeen ? version : nil
        var hasFormat = format != nil
        // Only needed when `version` has not been read yet and the top-level object is still open.
        if !versionSeen && scanner.depth == 1 {
            var lookahead = scanner
            do {
                // The scanner may stand before the value of the current member.
                if !Self.isBetweenMembers(lookahead) { try lookahead.skipValue() }
                while try lookahead.nextMember() {
                    let key = try lookahead.readKey()
                    if key.equals("version"), try lookahead.peekKind() == .number {
                        knownVersion = try lookahead.readNumber().int64Value.map { Int($0) }
                    } else {
                        if key.equals("format") { hasFormat = true }
                        try lookahead.skipValue()
                    }
                }
            } catch {
                // Malformed input is reported by the main pass when it gets there.
            }
        }
        switch knownVersion {
        case 1?: rules = .version1
        case let value? where value >= 2: rules = .version2
        default: rules = hasFormat ? .version2 : .version1
        }
    }

    /// True when the scanner has just finished a member's value (a comma or `}` comes next), false when it stands
    /// after a member's colon.
    private static func isBetweenMembers(_ scanner: JSONScanner) -> Bool {
        var probe = scanner
        probe.skipWhitespace()
        guard probe.index < probe.input.count else { return true }
        let byte = probe.input[probe.index]
        return byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}")
    }

    /// The line and column of the next value.
    mutating func locationOfNextValue() throws -> JSONScanner.Location {
        _ = try scanner.peekKind()
        return scanner.location
    }

    private mutating func readVersion() throws {
        versionSeen = true
        let kind = try scanner.peekKind()
        let location = scanner.location
        guard kind == .number else {
            try report(
                .unsupportedVersion, "$.version", "the version must be an integer, found \(kind.phrase)",
                at: location)
            try scanner.skipValue()
            return
        }
        let number = try scanner.readNumber()
        guard number.isInteger, let value = number.int64Value, let integer = Int(exactly: value) else {
            try report(
                .unsupportedVersion, "$.version",
                "version \(number.description) is not a supported format version (1 or 2)", at: location)
            return
        }
        version = integer
        if integer < 1 {
            try report(
                .unsupportedVersion, "$.version",
                "version \(integer) is not a valid format version; versions start at 1", at: location)
        } else if integer > ArchiveHeader.currentVersion {
            try report(
                .unsupportedVersion, "$.version",
                "file format version \(integer) is newer than the newest "
                    + "this tool reads (\(ArchiveHeader.currentVersion))", at: location)
        } else if isNDJSON && integer == 1 {
            try report(
                .unsupportedVersion, "$.version",
                "format version 1 has no NDJSON form; NDJSON archives are version 2", at: location)
        }
    }

    private mutating func readGenerator() throws -> ArchiveHeader.Generator? {
        let kind = try scanner.peekKind()
        let start = scanner.location
        guard kind == .object else {
            try reportWrongType("an object", found: kind, "$.generator", at: start)
            return nil
        }
        try scanner.beginObject()
        var tracker = MemberTracker(ArchiveReader.GeneratorMember.self)
        var name: String?
        var version: String?
        let all = MemberSet.all(ArchiveReader.GeneratorMember.self)
        while let member = try nextMember(
            ArchiveReader.GeneratorMember.self, allowed: all, in: "$.generator",
            tracker: &tracker)
        {
            switch member {
            case .name: name = try readString("$.generator.name")
            case .version: version = try readString("$.generator.version")
            }
        }
        try reportMissing(
            ArchiveReader.GeneratorMember.self, required: all, seen: tracker.seen, in: "$.generator",
            at: start)
        return ArchiveHeader.Generator(name: name ?? "", version: version ?? "")
    }

    private mutating func readSource() throws -> ArchiveHeader.Source? {
        typealias SourceMember = ArchiveReader.SourceMember
        let kind = try scanner.peekKind()
        let start = scanner.location
        guard kind == .object else {
            try reportWrongType("an object", found: kind, "$.source", at: start)
            return nil
        }
        try scanner.beginObject()
        var tracker = MemberTracker(SourceMember.self)
        var store: String?
        var storeUUID: String?
        var entities: [String: String] = [:]
        var relationships: [String: [String: ExtraRelationship]] = [:]
        var model: [String: EntityDeclaration] = [:]
        var maxKeys: [String: Int64] = [:]
        var selection: ExportSelection?
        while let member = try nextMember(
            SourceMember.self, allowed: .all(SourceMember.self), in: "$.source",
            tracker: &tracker)
        {
            switch member {
            case .store: store = try readString("$.source.store")
            case .storeUUID: storeUUID = try readString("$.source.storeUUID", nullable: true)
            case .entities: entities = try readEntities()
            case .relationships: relationships = try readRelationships()
            case .model: model = try readModel()
            case .maxKeys: maxKeys = try readMaxKeys()
            case .selection: selection = try readSelection()
            }
        }
        try reportMissing(
            SourceMember.self, required: MemberSet(SourceMember.store, .entities), seen: tracker.seen,
            in: "$.source", at: start)
        return ArchiveHeader.Source(
            store: store ?? "", storeUUID: storeUUID, entities: entities, relationships: relationships,
            model: model, maxKeys: maxKeys, selection: selection)
    }

    /// `{"Task": 84}`: entity → the largest key its store handed out.
    private mutating func readMaxKeys() throws -> [String: Int64] {
        let path = "$.source.maxKeys"
        guard try expectObject(path) else { return [:] }
        var result: [String: Int64] = [:]
        while try scanner.nextMember() {
            let name = try scanner.readKey().string
            let value = try readInteger(JSONPath.member(path, name), in: 0...Int64.max, rangeName: "0…\(Int64.max)")
            if let value { result[name] = Int64(value) }
        }
        return result
    }

    /// `{"kinds": ["task"], "completion": "completed"}`, or the string of options older archives hold (`"--kinds task
    /// --completed"`); nil after reporting a problem.
    private mutating func readSelection() throws -> ExportSelection? {
        typealias Member = ArchiveReader.SelectionMember
        let path = "$.source.selection"
        let start = scanner.location
        if try scanner.peekKind() == .string {
            let text = try scanner.readString()
            if let selection = ExportSelection(optionsText: text) { return selection }
            try report(.wrongType, path, "\"\(text)\" is not a selection", at: start)
            return nil
        }
        guard try expectObject(path) else { return nil }
        var selection = ExportSelection()
        var valid = true
        var tracker = MemberTracker(Member.self)
        while let member = try nextMember(Member.self, allowed: .all(Member.self), in: path, tracker: &tracker) {
            let memberPath = path + "." + member.name
            let location = scanner.location
            switch member {
            case .kinds, .entities, .excludedEntities:
                let kind = try scanner.peekKind()
                guard kind == .array else {
                    try reportWrongType("an array of names", found: kind, memberPath, at: location)
                    valid = false
                    continue
                }
                guard let names = try readIdArray(memberPath) else {
                    valid = false
                    continue
                }
                switch member {
                case .kinds:
                    let kinds = names.compactMap(RecordKind.init(rawValue:))
                    guard kinds.count == names.count else {
                        try report(
                            .wrongType, memberPath, "a name is not a kind of record (expected \(Self.kindNames))",
                            at: location)
                        valid = false
                        continue
                    }
                    selection.kinds = Set(kinds)
                case .entities: selection.entities = Set(names)
                default: selection.excludedEntities = Set(names)
                }
            case .project:
                selection.project = try readString(memberPath)
            case .completion:
                guard let text = try readString(memberPath) else { valid = false; continue }
                guard let completion = ExportSelection.Completion(rawValue: text) else {
                    try report(.wrongType, memberPath, "\"\(text)\" is not completed or open", at: location)
                    valid = false
                    continue
                }
                selection.completion = completion
            case .since:
                guard let text = try readString(memberPath) else { valid = false; continue }
                guard let date = try? LosslessDate.date(from: text) else {
                    try report(.wrongType, memberPath, "\"\(text)\" is not an RFC 3339 date-time", at: location)
                    valid = false
                    continue
                }
                selection.since = date
            }
        }
        return valid ? selection : nil
    }

    /// `{"task": {"blocking": {"destination": "task", "toMany": true, "ordered": false, "inverse": "blockedBy"}}}`.
    private mutating func readRelationships() throws -> [String: [String: ExtraRelationship]] {
        let path = "$.source.relationships"
        guard try expectObject(path) else { return [:] }
        var result: [String: [String: ExtraRelationship]] = [:]
        while try scanner.nextMember() {
            let location = scanner.location
            let kindName = try scanner.readKey().string
            let kindPath = JSONPath.member(path, kindName)
            guard let kind = RecordKind(rawValue: kindName) else {
                try report(
                    .wrongType, kindPath, "\"\(kindName)\" is not a kind of record (expected one of \(Self.kindNames))",
                    at: location)
                try scanner.skipValue()
                continue
            }
            if result[kind.rawValue] != nil {
                try report(
                    .duplicateKey, kindPath,
                    "member \"\(kindName)\" appears more than once in this object; the first value is used",
                    at: location)
                try scanner.skipValue()
                continue
            }
            guard try expectObject(kindPath) else { continue }
            var properties: [String: ExtraRelationship] = [:]
            while try scanner.nextMember() {
                let propertyLocation = scanner.location
                let property = try scanner.readKey().string
                let propertyPath = JSONPath.member(kindPath, property)
                if properties[property] != nil {
                    try report(
                        .duplicateKey, propertyPath,
                        "member \"\(property)\" appears more than once in this object; the first value is used",
                        at: propertyLocation)
                    try scanner.skipValue()
                    continue
                }
                if let declaration = try readRelationship(propertyPath) { properties[property] = declaration }
            }
            result[kind.rawValue] = properties
        }
        return result
    }

    private mutating func readRelationship(_ path: String) throws -> ExtraRelationship? {
        guard let read = try readDeclaration(path) else { return nil }
        guard let destination = RecordKind(rawValue: read.destination) else {
            try report(
                .wrongType, path + ".destination",
                "\"\(read.destination)\" is not a kind of record (expected one of \(Self.kindNames))",
                at: read.location)
            return nil
        }
        return ExtraRelationship(
            destination: destination, toMany: read.toMany, ordered: read.ordered,
            inverse: read.inverse)
    }

    /// `{destination, toMany, ordered?, inverse?}`, as `source.relationships` and `source.model` declare relationships;
    /// nil after reporting what is missing.
    mutating func readDeclaration(_ path: String) throws
        -> (destination: String, location: JSONScanner.Location, toMany: Bool, ordered: Bool, inverse: String?)?
    {
        typealias Member = ArchiveReader.RelationshipMember
        let start = scanner.location
        guard try expectObject(path) else { return nil }
        var tracker = MemberTracker(Member.self)
        var destination: String?
        var location = start
        var toMany: Bool?
        var ordered = false
        var inverse: String?
        while let member = try nextMember(Member.self, allowed: .all(Member.self), in: path, tracker: &tracker) {
            switch member {
            case .destination:
                location = scanner.location
                destination = try readString(path + ".destination")
            case .toMany: toMany = try readBool(path + ".toMany")
            case .ordered: ordered = try readBool(path + ".ordered") ?? false
            case .inverse: inverse = try readString(path + ".inverse", nullable: true)
            }
        }
        try reportMissing(
            Member.self, required: MemberSet(Member.destination, .toMany), seen: tracker.seen, in: path, at: start)
        guard let destination, let toMany else { return nil }
        return (destination, location, toMany, ordered, inverse)
    }

    private static var kindNames: String {
        RecordKind.allCases.map(\.rawValue).joined(separator: ", ")
    }

    /// Opens an object, or reports what was found instead and skips it.
    mutating func expectObject(_ path: String) throws -> Bool {
        let kind = try scanner.peekKind()
        guard kind == .object else {
            try reportWrongType("an object", found: kind, path, at: scanner.location)
            return false
        }
        try scanner.beginObject()
        return true
    }

    /// `{"project": "Project", …}`: any names, string values, no repeats.
    private mutating func readEntities() throws -> [String: String] {
        let kind = try scanner.peekKind()
        guard kind == .object else {
            try reportWrongType("an object", found: kind, "$.source.entities", at: scanner.location)
            return [:]
        }
        try scanner.beginObject()
        var entities: [String: String] = [:]
        var repeated: Set<String> = []
        while try scanner.nextMember() {
            let location = scanner.location
            let name = try scanner.readKey().string
            let path = JSONPath.member("$.source.entities", name)
            if entities[name] != nil || repeated.contains(name) {
                try report(
                    .duplicateKey, path,
                    "member \"\(name)\" appears more than once in this object; the first value is used",
                    at: location)
                try scanner.skipValue()
                continue
            }
            if let entity = try readString(path) {
                entities[name] = entity
            } else {
                repeated.insert(name)
            }
        }
        return entities
    }

    /// A section array: every element is counted; wanted kinds are read and delivered, others skipped.
    private mutating func readSection(_ kind: RecordKind) throws {
        let elementKind = try scanner.peekKind()
        guard elementKind == .array else {
            try reportWrongType("an array", found: elementKind, "$." + kind.sectionName, at: scanner.location)
            return
        }
        try scanner.beginArray()
        let isWanted = wanted.contains(kind)
        var index = 0
        while try scanner.nextElement() {
            context = (kind, index)
            found[kind] += 1
            if isWanted {
                try readRecord(kind, index: index)
            } else {
                try skipRecord(kind)
            }
            index += 1
            noteConsumed()
        }
        context = nil
    }

    /// `counts` (document) or the trailer's `counts` (NDJSON).
    mutating func readCounts() throws {
        typealias CountsMember = ArchiveReader.CountsMember
        let kind = try scanner.peekKind()
        let start = scanner.location
        guard kind == .object else {
            try reportWrongType("an object", found: kind, "$.counts", at: start)
            declaredLocations = []
            return
        }
        try scanner.beginObject()
        var tracker = MemberTracker(CountsMember.self)
        var values = [Int?](repeating: nil, count: CountsMember.names.count)
        var locations = [JSONScanner.Location](repeating: start, count: CountsMember.names.count)
        while let member = try nextMember(
            CountsMember.self, allowed: .all(CountsMember.self), in: "$.counts",
            tracker: &tracker)
        {
            locations[member.rawValue] = try locationOfNextValue()
            values[member.rawValue] = try readInteger(
                "$.counts.\(CountsMember.names[member.rawValue])",
                in: 0...Int64.max, rangeName: "0…\(Int64.max)")
        }
        for member in CountsMember.allCases where !tracker.seen.contains(member) && member != .entities {
            try report(
                .countsMismatch, "$.counts.\(CountsMember.names[member.rawValue])",
                "counts has no \"\(CountsMember.names[member.rawValue])\" member", at: start)
        }
        declared = ArchiveCounts(
            projects: values[0] ?? 0, categories: values[1] ?? 0, tags: values[2] ?? 0,
            tasks: values[3] ?? 0, subtasks: values[4] ?? 0, entities: values[5] ?? 0)
        declaredValues = values
        declaredLocations = locations
    }

    /// Compares the declared counts with what the file holds.
    mutating func checkCounts(against actual: ArchiveCounts) throws {
        guard declaredValues.count == ArchiveReader.CountsMember.names.count else { return }
        let actualValues = [
            actual.projects, actual.categories, actual.tags, actual.tasks, actual.subtasks,
            actual.entities,
        ]
        let nouns = ["projects", "categories", "tags", "tasks", "subtasks", "entities"]
        for index in actualValues.indices {
            // A file without generic records may leave `entities` out.
            let declaredValue = declaredValues[index] ?? (index == 5 && declaredLocations.count > 0 ? 0 : nil)
            guard let declaredValue, declaredValue != actualValues[index] else { continue }
            try report(
                .countsMismatch, "$.counts.\(nouns[index])",
                "counts.\(nouns[index]) is \(declaredValue) but the file has \(actualValues[index]) "
                    + "\(nouns[index]); it may be truncated or edited", at: declaredLocations[index])
        }
    }

    /// Reports a section that only version 2 defines, in a file labelled version 1, and skips it.
    private mutating func reportNotInVersion1(_ name: String) throws {
        try reportVersion2Member(name, in: "$", at: try locationOfNextValue())
    }
}
