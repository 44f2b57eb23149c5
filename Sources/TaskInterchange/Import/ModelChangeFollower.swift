/// A source that wants to know the model change an import reads its records through, before the import's own passes
/// start: a migration's export fingerprints what the import is to write, so its verification reads only the new store.
protocol ModelChangeFollower: ArchiveSource {
    /// Called once the change is known, before the passes that write; the source may end a read it has started.
    func follow(_ change: ModelChange)
}
