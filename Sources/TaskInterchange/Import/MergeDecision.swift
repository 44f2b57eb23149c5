import Foundation

/// One record a merge had to decide about: an archive record matched to a target record by key, or an existing
/// record whose two versions differ (which one was kept, and the dates that decided it).
public struct MergeDecision: Sendable, Hashable, Codable {
    /// What was decided.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// ``StoreImportOptions/match`` paired the archive record with a target record.
        case match
        /// Both sides hold the record with different content; `winner` says which version is kept.
        case conflict
    }

    /// One side of a merge.
    public enum Side: String, Sendable, Hashable, Codable {
        /// The archive's version.
        case archive
        /// The target store's version.
        case target
    }

    /// A match or a conflict.
    public var kind: Kind
    /// The record's kind; nil for a generic record.
    public var recordKind: StoreMapping.Kind?
    /// A generic record's entity; nil for a typed record.
    public var entity: String?
    /// The archive record's id.
    public var id: UUID
    /// The target record's id (another id for a match).
    public var targetId: UUID
    /// Whose version is kept (conflicts).
    public var winner: Side?
    /// The archive record's modification date, if it has one (lossless text).
    public var archiveModifiedAt: String?
    /// The target record's, if it has one.
    public var targetModifiedAt: String?

    /// The kind's or the entity's name.
    public var typeName: String { entity ?? recordKind?.rawValue ?? "" }

    /// Creates a decision about a record of a typed `recordKind` or a generic `entity`; dates are kept in their
    /// lossless text form.
    public init(
        kind: Kind, recordKind: StoreMapping.Kind? = nil, entity: String? = nil, id: UUID, targetId: UUID,
        winner: Side? = nil, archiveModifiedAt: Date? = nil, targetModifiedAt: Date? = nil
    ) {
        self.kind = kind
        self.recordKind = recordKind
        self.entity = entity
        self.id = id
        self.targetId = targetId
        self.winner = winner
        self.archiveModifiedAt = archiveModifiedAt.flatMap { try? LosslessDate.string(from: $0) }
        self.targetModifiedAt = targetModifiedAt.flatMap { try? LosslessDate.string(from: $0) }
    }
}
