import Foundation

/// Writing `extra` values back: into the target's column for the same property name, converted by its declared type.
extension StoreWriter {
    /// Where an extra property goes in the target, once looked up.
    struct ExtraTarget {
        var statement: Statement
        var declaredType: String
        /// The attribute allows external storage: its bytes go behind Core Data's inline marker.
        var isExternal = false
    }

    /// Writes a record's extras into its row; properties the target has no column for are counted for a warning.
    func writeExtras(_ extra: [String: ExtraValue]?, of kind: StoreMapping.Kind, key: Int64) throws {
        guard let extra, !extra.isEmpty, let resolvedKind = resolved.kinds[kind] else { return }
        for (property, value) in extra {
            // Relationship ids are linked by the importer, and only when the archive declares them.
            if case .array = value {
                diagnostics.unplacedExtras["\(resolvedKind.entity.name).\(property)", default: 0] += 1
                continue
            }
            let cacheKey = "\(kind.rawValue).\(property)"
            if extraTargets[cacheKey] == nil {
                if let column = schema.locator.attributeColumn(property, of: resolvedKind.entity),
                    let declared = schema.columns(of: resolvedKind.table)?.first(where: { $0.name == column })?
                        .declaredType,
                    !CoreDataNames.rowColumns.contains(column), !resolvedKind.usedColumns.contains(column)
                {
                    let statement = try database.prepare(
                        CoreDataNames.update(
                            Database.quote(resolvedKind.table), set: "\(Database.quote(column)) = ?"))
                    let attribute = StoreExtras.attributes(of: resolvedKind.entity.name, in: targetModel).first {
                        $0.name == property
                    }
                    extraTargets[cacheKey] = .some(
                        ExtraTarget(
                            statement: statement, declaredType: declared,
                            isExternal: attribute.map { StoreExtras.kind(of: $0) } == .external))
                } else {
                    extraTargets[cacheKey] = .some(nil)
                }
            }
            guard let target = extraTargets[cacheKey] ?? nil else {
                diagnostics.unplacedExtras["\(resolvedKind.entity.name).\(property)", default: 0] += 1
                continue
            }
            if target.isExternal, case .string(let text) = value, let data = Data(base64Encoded: text) {
                ExternalData.inline([UInt8](data)).withUnsafeBytes { target.statement.bind(blob: $0, at: 1) }
            } else {
                bind(value, declaredType: target.declaredType, to: target.statement)
            }
            target.statement.bind(key, at: 2)
            try target.statement.run()
        }
    }

    /// The model type (`source.model` type name) of each target attribute that typed records' extra values are
    /// written to, by kind: what the values are checked against before they are written. Empty without a model.
    var extraAttributeTypes: [StoreMapping.Kind: [String: String]] {
        guard let targetModel else { return [:] }
        var result: [StoreMapping.Kind: [String: String]] = [:]
        for (kind, resolvedKind) in resolved.kinds {
            for attribute in StoreExtras.attributes(of: resolvedKind.entity.name, in: targetModel) {
                guard let column = schema.locator.attributeColumn(attribute.name, of: resolvedKind.entity),
                    !resolvedKind.usedColumns.contains(column)
                else { continue }
                result[kind, default: [:]][attribute.name] = attribute.type.archiveType.name
            }
        }
        return result
    }

    /// The relationship names of each entity of the target's model (inherited ones included), by entity name and, for
    /// the mapped kinds' entities, by kind too: what the archive's declared inverses must name. Empty without a model.
    var relationshipNames: [String: Set<String>] {
        guard let targetModel else { return [:] }
        var result: [String: Set<String>] = [:]
        for entity in targetModel.entities {
            result[entity.name] = Set(targetModel.storedRelationships(of: entity).map(\.relationship.name))
        }
        for (kind, resolvedKind) in resolved.kinds { result[kind.rawValue] = result[resolvedKind.entity.name] }
        return result
    }

    /// JSON's types, read back as the column wants them (`ExtraValue.storedCell(declaredType:)`).
    func bind(_ value: ExtraValue, declaredType: String, to statement: Statement, at index: Int32 = 1) {
        switch value.storedCell(declaredType: declaredType) {
        case nil:
            if case .array = value { preconditionFailure("arrays are filtered out by writeExtras") }
            statement.bindNull(at: index)
        case .integer(let number)?: statement.bind(number, at: index)
        case .real(let number)?: statement.bind(number, at: index)
        case .text(let text)?: statement.bind(text, at: index)
        case .blob(let bytes)?: bytes.withUnsafeBytes { statement.bind(blob: $0, at: index) }
        }
    }
}
