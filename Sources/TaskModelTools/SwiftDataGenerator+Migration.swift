import TaskInterchange

/// The `SchemaMigrationPlan` between consecutive versions: a lightweight stage where every difference is one
/// lightweight migration handles (added or removed entities and properties, optional or defaulted additions,
/// renamings with a renaming identifier, relaxed constraints), a `custom` stub naming what needs code otherwise.
extension SwiftDataGenerator {
    /// Why a step from `old` to `new` needs a custom stage; empty when lightweight migration suffices.
    static func customReasons(from old: ObjectModel, to new: ObjectModel) -> [String] {
        var reasons: [String] = []
        for difference in ModelDifference.between(storedHashes: old.versionHashes, storeModel: old, version: new) {
            let place = difference.entity + (difference.property.map { "." + $0 } ?? "")
            switch difference.kind {
            case .typeChanged:
                reasons.append("\(place): \(difference.detail)")
            case .added:
                // A required attribute without a default cannot be filled in for existing rows.
                if let property = difference.property, let entity = new.entity(named: difference.entity),
                    let attribute = entity.attributes.first(where: { $0.name == property }),
                    !attribute.isOptional, !attribute.isTransient, attribute.defaultValue == nil,
                    attribute.derivation == nil
                {
                    reasons.append("\(place): new required attribute without a default value")
                }
            case .changed:
                if difference.detail.contains("made required") {
                    if let property = difference.property, let entity = new.entity(named: difference.entity),
                        let attribute = entity.attributes.first(where: { $0.name == property }),
                        attribute.defaultValue != nil
                    {
                        continue
                    }
                    reasons.append("\(place): \(difference.detail) (existing rows may hold nil)")
                } else if difference.detail.contains("uniqueness constraints") {
                    reasons.append("\(place): \(difference.detail) (existing rows may hold duplicates)")
                } else if difference.detail.contains("to-many → to-one")
                    || difference.detail.contains("parent entity")
                {
                    reasons.append("\(place): \(difference.detail)")
                }
            case .renamed:
                // Properties have originalName; a model has none.
                if difference.property == nil {
                    reasons.append(
                        "\(place): \(difference.detail); SwiftData cannot rename a model in a lightweight stage")
                }
            case .removed:
                break
            }
        }
        return reasons
    }

    /// The plan's source and the notes for the stages that need code.
    func migrationPlan() -> (contents: String, notes: [String]) {
        var notes: [String] = []
        let name = modelName + "MigrationPlan"
        var lines = [Self.header("from \(versions.map(\.name).joined(separator: ", "))"), ""]
        lines.append("/// Migrates stores of every version to the latest, one version at a time.")
        if versions.contains(where: { $0.model.entities.contains { $0.superentity != nil } }) {
            lines.append(SwiftDataEntityWriter.inheritanceAvailability)
        }
        lines.append("enum \(name): SchemaMigrationPlan {")
        lines.append("    static var schemas: [any VersionedSchema.Type] {")
        lines.append("        [" + schemaNames.map { "\($0).self" }.joined(separator: ", ") + "]")
        lines.append("    }")
        lines.append("")
        let stages = (1..<versions.count).map { "migrate\($0)to\($0 + 1)" }
        lines.append("    static var stages: [MigrationStage] {")
        lines.append("        [" + stages.joined(separator: ", ") + "]")
        lines.append("    }")
        for index in 1..<versions.count {
            let (from, to) = (schemaNames[index - 1], schemaNames[index])
            let reasons = Self.customReasons(from: versions[index - 1].model, to: versions[index].model)
            lines.append("")
            lines.append("    /// \(versions[index - 1].name) → \(versions[index].name)")
            if reasons.isEmpty {
                let stage = "MigrationStage.lightweight(fromVersion: \(from).self, toVersion: \(to).self)"
                lines.append("    static let \(stages[index - 1]) = \(stage)")
                continue
            }
            notes.append(
                "\(versions[index - 1].name) → \(versions[index].name) needs a custom stage: "
                    + reasons.joined(separator: "; "))
            lines.append("    static let \(stages[index - 1]) = MigrationStage.custom(")
            lines.append("        fromVersion: \(from).self,")
            lines.append("        toVersion: \(to).self,")
            lines.append("        willMigrate: { context in")
            lines.append("            // NOTE: lightweight migration cannot do this step:")
            for reason in reasons { lines.append("            // - \(reason)") }
            lines.append("            // Fix the affected rows with `context` here, then save.")
            lines.append("            try context.save()")
            lines.append("        },")
            lines.append("        didMigrate: nil")
            lines.append("    )")
        }
        lines.append("}")
        return (lines.joined(separator: "\n") + "\n", notes)
    }
}
