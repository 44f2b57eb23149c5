/// An import into another version of the archive's model: the mapping between the versions, inferred before anything
/// is written, and the guarantee that every value the target's model has a place for arrives.
extension StoreImport {
    /// The run's model change from the archive's model (its `source.model`) to the target's, inferred once here and
    /// handed to the import, its unchanged-record check and verification; nil when records pass unchanged or the
    /// target's model has none of the archive's entities (an archive of another app: what the target lacks is
    /// reported as such, not as a model change).
    /// What the writer needs of it goes into `settings`.
    /// - Throws: `TaskInterchangeError.usage` for a `modelChange` override naming what neither model has, or given
    ///   where there is no model to change.
    static func modelChange(
        _ source: some ArchiveSource, target writer: StoreWriter, options: StoreImportOptions,
        settling settings: inout StoreWriter.ArchiveSettings
    ) throws -> ModelChange? {
        let overrides = options.mapping?.modelChange ?? ModelChangeOverrides()
        guard let model = writer.targetModel, let declarations = try source.header()?.source?.model,
            !declarations.isEmpty
        else {
            if !overrides.isEmpty {
                throw TaskInterchangeError(
                    .usage,
                    "\(options.mappingSource): modelChange needs an archive that declares its entities "
                        + "(source.model) and a target whose model is known")
            }
            return nil
        }
        var mapping: VersionMapping
        do {
            mapping = try VersionMapping.inferred(
                from: declarations, to: model, versions: options.modelVersions, overrides: overrides,
                sourceModel: options.sourceModel)
        } catch {
            throw TaskInterchangeError(error.kind, "\(options.mappingSource): \(error.message)")
        }
        guard mapping.matchesAnyEntity else { return nil }
        let changed = !mapping.isIdentity
        if changed { settings.identityNames = mapping.identityNames }
        // A populated target's rows count too: a record the archive brings may share a constrained value with one.
        let target: ((String, [String]) throws -> [VersionMapping.TargetRow])? =
            writer.isNew ? nil : { try writer.constrainedRows(of: $0, properties: $1) }
        guard changed || target != nil else { return nil }
        // A uniqueness constraint the records do not meet would fail the import midway: found (and resolved, where
        // the mapping says how) before anything is written.
        do {
            var matching: [String: String] = [:]
            for entity in model.entities { matching[entity.name] = options.match?.attribute(of: entity.name) }
            try mapping.findDuplicates(
                in: source, model: model, overrides: overrides, target: target, matching: matching, refusing: true)
        } catch let error as TaskInterchangeError where error.kind == .usage {
            throw TaskInterchangeError(error.kind, "\(options.mappingSource): \(error.message)")
        }
        for group in mapping.duplicates {
            guard let kept = group.members.first(where: { $0.id == group.kept && $0.isInTarget }), let key = kept.key
            else { continue }
            settings.keptOverDuplicates.insert(StoreWriter.KeptRow(entity: kept.entity, key: key))
        }
        // The same version: records pass unchanged, unless duplicates are merged on the way.
        guard changed || mapping.mergesRecords else { return nil }
        settings.modelChanged = changed
        let change = ModelChange(mapping)
        if let change, let follower = source as? any ModelChangeFollower { follower.follow(change) }
        return change
    }

    /// After a model change every value left has a place in the target's model; one that did not arrive (the store's
    /// tables lack its column, say) fails the import, inside its transaction.
    static func checkArrived(_ plan: ImportPlan, mapping: VersionMapping?) throws(TaskInterchangeError) {
        guard mapping != nil, !plan.lacking.isEmpty else { return }
        let list = plan.lacking.sorted { $0.key < $1.key }.map { "\($0.key) (\($0.value))" }.joined(separator: ", ")
        throw TaskInterchangeError(
            .invalidData,
            "the target's model has a place for \(list), but its store does not take them; nothing was written")
    }

    /// What the model change left out, one warning per entity or property.
    static func modelChangeWarnings(_ plan: ImportPlan, mapping: VersionMapping?) -> [String] {
        let records = plan.modelChange.droppedRecords.sorted { $0.key < $1.key }.map { entity, count in
            let why =
                mapping?.entities[entity]?.isLeftOut == true
                ? "left out by the mapping's modelChange" : "the target's model version has no such entity"
            return "\(entity): \(why); \(count) record\(count == 1 ? "" : "s") dropped by the model change"
        }
        let values = plan.modelChange.droppedValues.sorted { $0.key < $1.key }.map { property, count in
            let parts = property.split(separator: ".", maxSplits: 1).map(String.init)
            var why = "the target's model version has no such property"
            if let (destination, isLeftOut) = mapping?.droppedDestination(ofTarget: property) {
                // A kept relationship into records the model change drops: its links go with them.
                why =
                    "links into \(destination), which "
                    + (isLeftOut ? "the mapping's modelChange leaves out" : "the target's model version does not have")
            }
            if parts.count == 2, case .dropped(let reason)? = mapping?.entities[parts[0]]?.properties[parts[1]]?.change
            {
                if reason.hasPrefix("left out") {
                    why = "left out by the mapping's modelChange"
                } else if mapping?.steps.isEmpty == false {
                    // Through a chain: the version that removed it (the target may have one of its name again).
                    why = reason
                }
            }
            return "\(property): \(why); \(count) value\(count == 1 ? "" : "s") dropped by the model change"
        }
        let nulls = plan.modelChange.requiredNulls.sorted { $0.key < $1.key }.map { property, count in
            "\(property): required in the target's model version, which gives it no default; \(count) record"
                + "\(count == 1 ? " keeps" : "s keep") NULL there, as the archive has it (the app cannot save "
                + "\(count == 1 ? "it" : "them") until it is set; modelChange.fill names a value)"
        }
        let merged = plan.modelChange.mergedRecords.sorted { $0.key < $1.key }.map { entity, count in
            let values = plan.modelChange.mergedValues[entity] ?? 0
            return
                "\(entity): \(count) record\(count == 1 ? "" : "s") merged into the one kept of \(count == 1 ? "its" : "their") "
                + "group under a uniqueness constraint of the target's model version (links re-pointed to it, "
                + "to-many links added); \(values) value\(values == 1 ? "" : "s") of the merged records dropped"
        }
        return records + values + nulls + merged
    }
}
