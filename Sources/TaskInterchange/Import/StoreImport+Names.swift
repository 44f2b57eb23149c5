import Foundation

/// Names an import is given (`--match`, `--entities`, `--modified-property`), checked before any work: against the
/// archive as soon as its header is read, and against the target's model once the target is open, before anything is
/// written. A name that names nothing would quietly change what the import does: with an unknown
/// `--modified-property` every record counts as undated, and `--mode merge` becomes "the archive wins".
extension StoreImport {
    /// A property some side has, for `--modified-property`: its owner (an entity, or a kind for a typed record's
    /// `extra`), its name and its type (`date` for dates).
    struct KnownProperty {
        var owner: String
        var property: String
        var type: String
    }

    /// `--match` keys and `--entities` names, against the archive's header (nil when it has no usable one: the
    /// archive's problems are validation's to report).
    /// - Throws: `TaskInterchangeError.usage` for a name the archive does not have, with the closest one.
    static func checkNames(against header: ArchiveHeader?, options: StoreImportOptions) throws(TaskInterchangeError) {
        guard let header else { return }
        try options.match?.check(against: header.source?.model ?? [:])
        if let entities = options.entities { try Importer.checkEntities(entities, in: header) }
    }

    /// The generic entities' attributes the archive declares, when `--modified-property` is still to check: nil when
    /// no name is given or one of them is a date by that name (the check ends here, before any work).
    static func declaredProperties(header: ArchiveHeader?, options: StoreImportOptions) -> [KnownProperty]? {
        guard let name = options.modificationDates.property?.lowercased() else { return nil }
        var known: [KnownProperty] = []
        for (entity, declaration) in header?.source?.model ?? [:] {
            known += declaration.attributes.map { KnownProperty(owner: entity, property: $0.key, type: $0.value) }
        }
        return known.contains { $0.property.lowercased() == name && $0.type == "date" } ? nil : known
    }

    /// `--modified-property`, when the archive declares no date by that name (`declared`, from `declaredProperties`):
    /// a date attribute of the target's model (without a model, a `TIMESTAMP` column), else a date under a project's
    /// or task's `extra` in the archive (declared nowhere: read until one dates a record). Names compare without case,
    /// as merge finds the property.
    /// - Throws: `TaskInterchangeError.usage` for a name no side has as a date, with the closest date attributes; the
    ///   source's reading errors.
    static func checkModifiedProperty(
        _ options: StoreImportOptions, declared: [KnownProperty]?, source: some ArchiveSource,
        target writer: StoreWriter
    ) throws {
        guard let declared, let name = options.modificationDates.property else { return }
        var known = declared
        if let model = writer.targetModel {
            for entity in model.entities {
                known += entity.attributes.map {
                    KnownProperty(owner: entity.name, property: $0.name, type: $0.type.archiveType.name)
                }
            }
        } else {
            for entity in writer.schema.entities {
                for column in entity.table.flatMap(writer.schema.columns(of:)) ?? []
                where CoreDataNames.isPropertyColumn(column.name) {
                    let type = column.declaredType == "TIMESTAMP" ? "date" : column.declaredType.lowercased()
                    known.append(
                        KnownProperty(
                            owner: entity.name, property: CoreDataNames.property(ofColumn: column.name), type: type))
                }
            }
        }
        if known.contains(where: { $0.property.lowercased() == name.lowercased() && $0.type == "date" }) { return }
        var scan = ExtraScan(name: name.lowercased())
        do {
            try source.stream(kinds: [.project, .task], into: &scan)
        } catch is ExtraScan.Found {
            return
        }
        known += scan.seen.values.sorted { ($0.owner, $0.property) < ($1.owner, $1.property) }
        let named = known.filter { $0.property.lowercased() == name.lowercased() }
        if let other = named.min(by: { ($0.owner, $0.property) < ($1.owner, $1.property) }) {
            throw TaskInterchangeError(
                .usage,
                "\(setting: .modifiedProperty) \(name): \(other.owner).\(other.property) is a \(other.type) attribute, not a "
                    + "date")
        }
        let dates = Set(known.filter { $0.type == "date" }.map(\.property)).sorted()
        func closest(among names: [String]) -> String? {
            let lowered = Suggestion.closest(to: name.lowercased(), among: names.map { $0.lowercased() })
            return names.first { $0.lowercased() == lowered }
        }
        let near = closest(among: dates) ?? closest(among: known.map(\.property))
        let listed = dates.count > 8 ? dates.prefix(8).joined(separator: ", ") + ", …" : dates.joined(separator: ", ")
        throw TaskInterchangeError(
            .usage,
            "\(setting: .modifiedProperty) \(name): neither the archive nor the target's model has an attribute '\(name)'"
                + (near.map { " (did you mean '\($0)'?)" } ?? "")
                + (dates.isEmpty ? "; they have no date attributes" : "; their date attributes: \(listed)"))
    }
}

/// Reads projects' and tasks' `extra` members until one by `name` (lowercased) holds a date, noting the others.
private struct ExtraScan: ArchiveVisitor {
    /// Thrown at the first date by that name: the rest need not be read.
    struct Found: Error {}

    let name: String
    /// `kind.property` (lowercased) → the first of each property seen.
    var seen: [String: StoreImport.KnownProperty] = [:]

    mutating func visitProject(_ project: ProjectRecord, index: Int) throws { try note(project.extra, of: .project) }
    mutating func visitTask(_ task: TaskRecord, index: Int) throws { try note(task.extra, of: .task) }
    mutating func visitCategory(_ category: CategoryRecord, index: Int) {}
    mutating func visitTag(_ tag: TagRecord, index: Int) {}
    mutating func visitIssue(_ issue: ValidationIssue) {}
    mutating func visitEnd(header: ArchiveHeader, counts: ArchiveCounts?) {}

    private mutating func note(_ extra: [String: ExtraValue]?, of kind: RecordKind) throws {
        for (property, value) in extra ?? [:] {
            let isDate = ModificationDates(property: property).date(in: [property: value]) != nil
            if isDate && property.lowercased() == name { throw Found() }
            let key = kind.rawValue + "." + property.lowercased()
            if seen[key] == nil {
                seen[key] = StoreImport.KnownProperty(
                    owner: kind.rawValue, property: property, type: isDate ? "date" : "extra")
            }
        }
    }
}
