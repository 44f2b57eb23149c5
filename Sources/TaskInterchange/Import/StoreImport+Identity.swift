extension StoreImport {
    /// A generic record's id derives from its store's UUID and its key, so an archive from another store (a store
    /// imported without `--keep-identity` gets a UUID of its own) never names an object this store holds: importing it
    /// again adds every record a second time. Said once per entity whose records all went in as new beside rows the
    /// store already held, unless `--match` pairs that entity's records by content.
    /// - Parameter heldBefore: each generic entity's rows before the import.
    static func identityWarnings(
        _ plan: ImportPlan, heldBefore: [String: Int], archiveStore: String?, targetStore: String?,
        options: StoreImportOptions
    ) -> [String] {
        guard options.mode != .replace, archiveStore != targetStore else { return [] }
        return plan.entities.sorted { $0.key < $1.key }.compactMap { name, operations in
            guard let held = heldBefore[name], held > 0, operations.inserted > 0,
                operations.updated + operations.unchanged + operations.skipped + operations.matched == 0,
                options.match?.attribute(of: name) == nil
            else { return nil }
            let plural = operations.inserted == 1 ? "" : "s"
            return "\(name): \(operations.inserted) record\(plural) inserted beside the \(held) the store held, none "
                + "recognized as one of them: a generic record's id derives from its store's UUID and key, and the "
                + "archive comes from another store (\(archiveStore ?? "none named")) than this one "
                + "(\(targetStore ?? "none")); \(TaskInterchangeError.Setting.match.name) \(name).<attribute> pairs "
                + "records by their content"
        }
    }
}
