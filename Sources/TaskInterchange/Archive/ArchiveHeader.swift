import Foundation

/// Everything in an archive but its records and counts.
public struct ArchiveHeader: Sendable, Hashable, Codable {
    /// The value of `format` in version 2 files.
    public static let formatName = "tasks-interchange"
    /// The newest format version this library reads and writes.
    public static let currentVersion = 2

    /// The tool that wrote an archive.
    public struct Generator: Sendable, Hashable, Codable {
        /// Tool name, `tasks`.
        public var name: String
        /// Tool version.
        public var version: String
        /// Creates a generator description.
        public init(name: String, version: String) {
            self.name = name
            self.version = version
        }
    }

    /// Where the data came from.
    public struct Source: Sendable, Hashable, Codable {
        /// The store path as the user gave it.
        public var store: String
        /// The store's UUID from `Z_METADATA`, when it has one.
        public var storeUUID: String?
        /// Which store entity was read for each kind (`project`, `category`, `tag`, `task`, `subtask`).
        public var entities: [String: String]
        /// Kind → property → declaration, for the store relationships carried under records' `extra` (empty when
        /// none).
        public var relationships: [String: [String: ExtraRelationship]]
        /// Entity → declaration, for the entities the generic `entities` section carries (empty when none).
        public var model: [String: EntityDeclaration]
        /// `Z_MAX` of each root entity of the app's model that has handed out keys: the largest key the store ever gave
        /// (objects deleted since included), so a restore (``StoreImportOptions/keepIdentity``) never gives one of them
        /// again (empty when unknown).
        public var maxKeys: [String: Int64]
        /// The selection that chose part of the store; nil for a whole store. An import with
        /// ``StoreImportOptions/mode`` `.replace` refuses such an archive: it would delete every record the archive
        /// does not hold.
        public var selection: ExportSelection?

        /// Creates a source description.
        public init(
            store: String, storeUUID: String? = nil, entities: [String: String] = [:],
            relationships: [String: [String: ExtraRelationship]] = [:],
            model: [String: EntityDeclaration] = [:], maxKeys: [String: Int64] = [:], selection: ExportSelection? = nil
        ) {
            self.store = store
            self.storeUUID = storeUUID
            self.entities = entities
            self.relationships = relationships
            self.model = model
            self.maxKeys = maxKeys
            self.selection = selection
        }

        private enum CodingKeys: String, CodingKey {
            case store, storeUUID, entities, relationships, model, maxKeys, selection
        }

        /// Reads a source; `relationships`, `model` and `selection` may be absent.
        /// - Throws: `DecodingError` when a member has the wrong type.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            store = try container.decode(String.self, forKey: .store)
            storeUUID = try container.decodeIfPresent(String.self, forKey: .storeUUID)
            entities = try container.decode([String: String].self, forKey: .entities)
            relationships =
                try container.decodeIfPresent([String: [String: ExtraRelationship]].self, forKey: .relationships) ?? [:]
            model = try container.decodeIfPresent([String: EntityDeclaration].self, forKey: .model) ?? [:]
            maxKeys = try container.decodeIfPresent([String: Int64].self, forKey: .maxKeys) ?? [:]
            selection = try container.decodeIfPresent(ExportSelection.self, forKey: .selection)
        }

        /// Writes a source, leaving out `relationships` and `model` when there are none and `selection` for a whole
        /// store.
        /// - Throws: the encoder's error.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(store, forKey: .store)
            try container.encodeIfPresent(storeUUID, forKey: .storeUUID)
            try container.encode(entities, forKey: .entities)
            if !relationships.isEmpty { try container.encode(relationships, forKey: .relationships) }
            if !model.isEmpty { try container.encode(model, forKey: .model) }
            if !maxKeys.isEmpty { try container.encode(maxKeys, forKey: .maxKeys) }
            try container.encodeIfPresent(selection, forKey: .selection)
        }
    }

    /// `tasks-interchange` for version 2; absent in version 1.
    public var format: String?
    /// The format version.
    public var version: Int
    /// When the archive was written.
    public var exportDate: Date?
    /// The tool that wrote it.
    public var generator: Generator?
    /// Where the data came from.
    public var source: Source?

    /// Creates a header.
    public init(
        format: String? = ArchiveHeader.formatName, version: Int = ArchiveHeader.currentVersion,
        exportDate: Date? = nil, generator: Generator? = nil, source: Source? = nil
    ) {
        self.format = format
        self.version = version
        self.exportDate = exportDate
        self.generator = generator
        self.source = source
    }
}
