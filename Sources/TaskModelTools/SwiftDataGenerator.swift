import Foundation
import TaskInterchange

/// SwiftData code for a Core Data model: for each version a `VersionedSchema` enum with one `@Model` class per entity
/// nested in it (one file per entity), typealiases for the current version, and for several versions a
/// `SchemaMigrationPlan` whose stages are lightweight where the versions' differences allow it and `custom` stubs
/// where they do not.
///
/// Classes keep the entity's name and properties keep theirs, so SwiftData finds the store's tables and columns.
/// Nesting every class in its version's enum is also what lets an entity keep a name such as `Task` or `Predicate`:
/// the class is `Schema.Task` (entity "Task"), and the app refers to it through a typealias with another name.
package struct SwiftDataGenerator: Sendable {
    /// One generated file.
    package struct File: Sendable, Hashable {
        /// The file name.
        package var name: String
        /// Its Swift source.
        package var contents: String
    }

    /// Generated files and what the user should know.
    package struct Output: Sendable {
        /// The files, in name order.
        package var files: [File]
        /// Renamings and stages that need code, one sentence each.
        package var notes: [String]
    }

    /// The versions, oldest first.
    let versions: [ModelSource.Version]
    /// The version the typealiases point to (nil only without versions).
    let current: ModelSource.Version?
    /// The model's name (for the migration plan and the typealias file).
    let modelName: String
    /// Each version's Swift enum name.
    let schemaNames: [String]
    /// Each version's `Schema.Version` major number.
    let numbers: [Int]

    /// A generator for `versions` (oldest first); `currentVersion` names the version the short names point to (the
    /// last one when nil or not among `versions`). `allVersions` (the model's, when only some are generated) numbers
    /// each `VersionedSchema` by its place among them.
    package init(
        versions: [ModelSource.Version], currentVersion: String?, modelName: String? = nil, allVersions: [String]? = nil
    ) {
        self.versions = versions
        let order = allVersions ?? versions.map(\.name)
        numbers = versions.enumerated().map { index, version in (order.firstIndex(of: version.name) ?? index) + 1 }
        current = versions.first { $0.name == currentVersion } ?? versions.last
        let base = SwiftNames.typeFragment(modelName ?? versions.first?.name ?? "Model")
        self.modelName = base
        var names: [String] = []
        for version in versions {
            var name = SwiftNames.typeFragment(version.name) + "Schema"
            while names.contains(name) { name += "_" }
            names.append(name)
        }
        schemaNames = names
    }

    /// The Swift name the app uses for an entity of the current version: its own, or with `Model` appended when it
    /// would hide a Swift, Foundation, SwiftData or SwiftUI type.
    static func shortName(_ entity: String) -> String {
        SwiftNames.collidingTypes.contains(entity) ? entity + "Model" : entity
    }

    /// Every file (none without versions).
    package func files() -> Output {
        guard let current else { return Output(files: [], notes: []) }
        var files: [File] = []
        var notes: [String] = []
        for (index, version) in versions.enumerated() {
            let schema = schemaNames[index]
            files.append(
                File(name: schema + ".swift", contents: schemaFile(version, schema: schema, number: numbers[index])))
            let names = Set(version.model.entities.map(\.name))
            let parents = Set(version.model.entities.compactMap(\.superentity))
            for entity in version.model.entities {
                let writer = SwiftDataEntityWriter(
                    entity: entity, model: version.model, schema: schema, source: version.path,
                    entityNames: names, parents: parents)
                files.append(
                    File(name: "\(schema)+\(SwiftNames.typeFragment(entity.name)).swift", contents: writer.file()))
            }
        }
        files.append(File(name: modelName + ".swift", contents: aliasFile(current)))
        for entity in current.model.entities where Self.shortName(entity.name) != entity.name {
            notes.append(
                """
                entity \(entity.name) would hide Swift's or SwiftData's \(entity.name): \
                the class keeps the name (so the entity is still \"\(entity.name)\") \
                inside its schema enum, and the app calls it \(Self.shortName(entity.name))
                """
            )
        }
        if versions.count > 1 {
            let plan = migrationPlan()
            files.append(File(name: modelName + "MigrationPlan.swift", contents: plan.contents))
            notes += plan.notes
        }
        return Output(files: files.sorted { $0.name < $1.name }, notes: notes)
    }

    /// The header every file starts with.
    static func header(_ what: String) -> String {
        """
        // Generated by `tasks model swiftdata` \(what).
        // Review it line by line: comments marked NOTE need a decision.

        import Foundation
        import SwiftData
        """
    }

    func schemaFile(_ version: ModelSource.Version, schema: String, number: Int) -> String {
        let needsInheritance = version.model.entities.contains { $0.superentity != nil }
        var lines = [Self.header("from \(URL(fileURLWithPath: version.path).lastPathComponent)"), ""]
        let identifiers = version.model.versionIdentifiers.map { "\"\($0)\"" }.joined(separator: ", ")
        lines.append("/// Core Data model version \"\(version.name)\" (version identifiers [\(identifiers)]).")
        if needsInheritance { lines.append(SwiftDataEntityWriter.inheritanceAvailability) }
        lines.append("enum \(schema): VersionedSchema {")
        lines.append("    static let versionIdentifier = SwiftData.Schema.Version(\(number), 0, 0)")
        lines.append("")
        lines.append("    static var models: [any PersistentModel.Type] {")
        lines.append(
            "        ["
                + version.model.entities.map { "\(schema).\(SwiftNames.swiftName($0.name)).self" }
                .joined(separator: ", ") + "]")
        lines.append("    }")
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    func aliasFile(_ current: ModelSource.Version) -> String {
        let index = versions.firstIndex { $0.name == current.name } ?? versions.count - 1
        let schema = schemaNames[index]
        var lines = [Self.header("from \(URL(fileURLWithPath: current.path).lastPathComponent)"), ""]
        lines.append("// The current version's models under the names the app uses.")
        for entity in current.model.entities {
            let short = Self.shortName(entity.name)
            if short != entity.name {
                lines.append(
                    """
                    // NOTE: entity \(entity.name) keeps its name (the class is \(schema).\(entity.name)); \
                    \(entity.name) alone would hide Swift's or SwiftData's type, so the app calls it \(short).
                    """
                )
            }
            if entity.superentity != nil { lines.append(SwiftDataEntityWriter.inheritanceAvailability) }
            lines.append("typealias \(SwiftNames.swiftName(short)) = \(schema).\(SwiftNames.swiftName(entity.name))")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Writes `files` into a new directory at `directory`, built beside it and renamed into place when complete.
    /// - Throws: `TaskInterchangeError.cannotCreate` when the directory exists, its parent does not, or a file
    ///   cannot be written (nothing is left behind).
    package static func write(_ files: [File], to directory: String) throws(TaskInterchangeError) {
        let manager = FileManager.default
        let url = URL(fileURLWithPath: directory)
        let parent = url.deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        guard manager.fileExists(atPath: parent, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw TaskInterchangeError(
                .cannotCreate, "\(directory): cannot create the directory: \(parent) does not exist")
        }
        guard !manager.fileExists(atPath: directory) else {
            throw TaskInterchangeError(.cannotCreate, "\(directory): already exists; choose a new directory")
        }
        let temporary = parent + "/." + url.lastPathComponent + ".tasks-" + UUID().uuidString
        do {
            try manager.createDirectory(atPath: temporary, withIntermediateDirectories: false)
            for file in files {
                try Data(file.contents.utf8).write(to: URL(fileURLWithPath: temporary + "/" + file.name))
            }
        } catch {
            try? manager.removeItem(atPath: temporary)
            throw TaskInterchangeError(
                .cannotCreate,
                "\(directory): cannot write the generated files: \((error as NSError).localizedDescription)")
        }
        // rename(2) replaces an empty directory that appeared meanwhile; one that has files makes it fail.
        guard rename(temporary, directory) == 0 else {
            let reason = String(cString: strerror(errno))
            try? manager.removeItem(atPath: temporary)
            throw TaskInterchangeError(.cannotCreate, "\(directory): cannot create the directory: \(reason)")
        }
    }
}
