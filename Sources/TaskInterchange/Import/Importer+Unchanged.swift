import Foundation

extension Importer {
    /// This importer, told which records the store at `path` already holds exactly (upsert only; other modes are
    /// returned as they are). Called inside the import's write transaction, so no other writer can change the store
    /// between this comparison and the writes it spares.
    func leavingUnchanged(_ source: some ArchiveSource, in path: String, mapping: StoreMapping?) throws -> Importer {
        guard mode == .upsert else { return self }
        var copy = self
        copy.unchanged = try UnchangedRecords.find(source, in: .store(path: path, mapping: mapping))
        return copy
    }
}
