import Foundation

extension Importer {
    /// This importer, told what the store at `path` already holds: unchanged records (upsert and merge leave them
    /// unwritten), `--match` pairs and the target's modification dates (merge). Called inside the import's write
    /// transaction, so no other writer can change the store between this comparison and the writes it decides. The
    /// archive's generic records are compared as `modelChange` (the run's, the one the import writes through) makes
    /// them.
    /// - Throws: `TaskInterchangeError.invalidData` when merge or `--match` needs the comparison and the archive's
    ///   records are not in id order.
    func leavingUnchanged(
        _ source: some ArchiveSource, in path: String, options: StoreImportOptions, modelChange: ModelChange?
    ) throws -> Importer {
        var copy = self
        copy.match = options.match
        copy.modificationDates = options.modificationDates
        guard mode == .upsert || mode == .merge || (options.match != nil && mode != .replace) else { return copy }
        var target = GraphSource.store(path: path, mapping: options.mapping, model: options.targetModel)
        target.externalData = options.externalDataStore.map(ExternalData.init(store:))
        copy.baseline = try TargetComparison.find(
            source, in: target, modelChange: modelChange, match: options.match, dates: options.modificationDates)
        if copy.baseline == nil && (mode == .merge || options.match != nil) {
            throw TaskInterchangeError(
                .invalidData,
                (mode == .merge ? "\(setting: .mode, "merge")" : "\(setting: .match)" as TaskInterchangeError.Message)
                    + " compares the archive with the store in id order, and "
                    + "the archive's records are not sorted by id; export it again with \(setting: .export) (which sorts) "
                    + "and import that"
            )
        }
        return copy
    }

    /// Merge: whether the archive's version of an existing record wins over the target's. Both dated: the newer
    /// (a tie keeps the target's, so merging twice changes nothing); one dated: that one; neither: the archive's.
    func archiveWins(archiveDate: Date?, targetDate: Date?) -> Bool {
        switch (archiveDate, targetDate) {
        case let (archive?, target?):
            return archive.timeIntervalSinceReferenceDate > target.timeIntervalSinceReferenceDate
        case (.some, nil): return true
        case (nil, .some): return false
        case (nil, nil): return true
        }
    }
}
