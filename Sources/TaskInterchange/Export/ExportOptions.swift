import Foundation

/// How to export a store.
public struct ExportOptions: Sendable {
    /// Format version and layout of the output.
    public var writing = ArchiveWritingOptions()
    /// How the store's entities map to the interchange; detected when nil.
    public var mapping: StoreMapping?
    /// The app's model, for a store without a model cache (its cache is used when nil): it names and types every
    /// property of the generic section.
    public var model: ObjectModel?
    /// The store whose external data directory holds externally stored values, when the store read is a copy of it
    /// (a backup): the copy's own directory otherwise.
    public var externalDataStore: String?
    /// How to name the mapping in errors (its file path).
    public var mappingSource = "mapping"
    /// Fail, writing nothing, when anything could not be carried exactly (any warning finding).
    public var strict = false
    /// Which records to carry (everything by default).
    public var selection = ExportSelection()
    /// The `exportDate` to record.
    public var exportDate = Date()
    /// The store path to record in `source.store` (the path as the user gave it).
    public var sourceName: String?
    /// How long to wait for a writer's lock on the store, in milliseconds.
    public var busyTimeout: Int32 = 5_000
    /// Called every 10,000 tasks with (tasks written, tasks in the store), for a progress display.
    public var progress: (@Sendable (Int, Int) -> Void)?

    /// Default options: version 2, compact, detected mapping.
    public init() {}
}
