import Foundation

/// One object of an entity that no interchange kind reads, in the archive's generic `entities` section: every stored
/// attribute and relationship by the model's property name, typed as the archive's `source.model` declares them.
public struct EntityRecord: Sendable, Hashable {
    /// The object's id: derived from its object URI (`x-coredata://<store UUID>/<Entity>/p<Z_PK>`), so every export
    /// of the same store gives the same id.
    public var id: UUID
    /// Its concrete entity (a sub-entity keeps its own name).
    public var entity: String
    /// Its primary key (`Z_PK`) in the source store: what `import --keep-identity` restores, and a new store keeps.
    public var key: Int64?
    /// Attribute values (encoded as `extra` values are) and relationships (the destination's id, or an array of ids),
    /// by property name; NULL attributes and empty relationships are left out.
    public var values: [String: ExtraValue]
    /// The stored positions (`Z_FOK_` values) of an ordered relationship's ids, by property name, so a restore writes
    /// the same numbers; an importer without them numbers the array 1, 2, 3, ….
    public var positions: [String: [Int64]]
    /// The binary values the source kept in external files (an attribute that allows external storage), by property
    /// name: the file's name, a UUID, so a restore keeps them the same way. The value itself is in `values` (absent
    /// when the source's file was missing: the restore then points at the same missing file).
    public var external: [String: String]
    /// To-one keys that name no row of their destination (a key the store kept after its object was deleted), by
    /// property name, as the store held them: a restore that keeps identity writes the same cells back; any other
    /// import leaves them out and says so. Such a property has no value in `values`.
    public var dangling: [String: DanglingKey]

    /// A to-one key cell pointing at no row.
    public struct DanglingKey: Sendable, Hashable {
        /// The raw key (`Z_PK` of an object the source no longer has).
        public var key: Int64
        /// The entity its companion entity-number column (`Z<n>_NAME`) names, when the store keeps one.
        public var entity: String?

        /// Creates a dangling key.
        public init(key: Int64, entity: String? = nil) {
            self.key = key
            self.entity = entity
        }
    }

    /// Creates a record.
    public init(
        id: UUID, entity: String, key: Int64? = nil, values: [String: ExtraValue] = [:],
        positions: [String: [Int64]] = [:], external: [String: String] = [:], dangling: [String: DanglingKey] = [:]
    ) {
        self.id = id
        self.entity = entity
        self.key = key
        self.values = values
        self.positions = positions
        self.external = external
        self.dangling = dangling
    }
}
