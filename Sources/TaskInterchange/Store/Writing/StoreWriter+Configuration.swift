/// What an import decides about its writer. Everything known before the target is opened is a `Configuration`, fixed
/// at `init`; what needs the opened target (its model, for a model change) is `ArchiveSettings`, settled once before
/// anything is written. Neither changes afterwards, so nothing the writer works out from them can go stale.
extension StoreWriter {
    /// The writer's settings, fixed when it is created.
    struct Configuration {
        /// The store whose external data directory takes externally stored values; nil: the store written. A new store
        /// built in a temporary file names the path it will be placed at.
        var externalStore: String?
        /// Where the files the target already has are read; nil: the external store's own directory.
        var existingExternalData: String?
        /// Restore identity: a new store takes the archive's store UUID (`adoptIdentity`, required before writing),
        /// and every generic record its key (`Z_PK`).
        var keepIdentity = false
    }

    /// What the writer knows of the archive against the target's model: settled once (`settle(_:)`), after the
    /// target is open and before anything is written.
    struct ArchiveSettings {
        /// The archive is of another version of the target's model (see `VersionMapping`): a pair it carries from
        /// the side the target does not is written from the other side.
        var modelChanged = false
        /// Entity → the name its records' ids derive from, for entities a model change renamed: the archive's ids
        /// were derived from the old name (see `VersionMapping.identityNames`).
        var identityNames: [String: String] = [:]
        /// Rows the store held that an import's duplicates were merged into: the links they gain follow their own.
        var keptOverDuplicates: Set<KeptRow> = []
        /// The archive's declarations as the target names them (`source.model`, and the typed kinds' relationships as
        /// `Kind.property`): a one-to-one whose both sides the archive carries is written side by side, as the source
        /// held it; one carried from one side only (an older archive, another producer) sets both columns. Nil:
        /// unknown, both set.
        var declarations: [String: EntityDeclaration]?
        var relationships: [String: [String: ExtraRelationship]]?

        /// Notes what the archive declares (as the target's version names it, after a model change), so one-to-one
        /// pairs are written as it carries them.
        mutating func noteDeclarations(of source: some ArchiveSource, mapping: VersionMapping?) throws {
            let header = try source.header()?.source
            declarations = mapping?.targetDeclarations ?? header?.model
            relationships = header?.relationships
        }
    }

    /// A generic entity's row.
    struct KeptRow: Hashable {
        var entity: String
        var key: Int64
    }
}

extension StoreWriter {
    /// Where a writer is in its one-way life: its archive settings are settled at most once, and never after writing
    /// began.
    enum Phase {
        case opened, settled, writing
    }
}
