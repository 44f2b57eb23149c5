import Foundation

/// Generic records (entities no interchange kind reads). Every requirement has a default that takes nothing, so a
/// destination that only knows the task kinds needs none of them: its import counts the generic records as having
/// no place in the target.
extension ImportDestination {
    /// No generic object exists.
    public mutating func countOfEntities() throws -> [String: Int] { [:] }
    /// No generic object exists.
    public mutating func existingKey(ofEntity entity: String, id: UUID) throws -> ObjectKey? { nil }
    /// No place for generic records: nil.
    public mutating func insert(_ record: EntityRecord, declaration: EntityDeclaration) throws -> ObjectKey? { nil }
    /// Nothing to update.
    public mutating func update(_ record: EntityRecord, declaration: EntityDeclaration, at key: ObjectKey) throws {}
    /// Nothing to link.
    public mutating func link(
        entity: String, _ key: ObjectKey, relationship: String, _ declaration: EntityRelationship,
        to destinations: [ObjectKey], positions: [Int64]?, replacing: Bool
    ) throws {}
    /// Every property fits.
    public mutating func lackingProperties() -> [String: Int] { [:] }
    /// No place for raw tables: nil.
    public mutating func insert(_ table: RawTable, path: String, mode: ImportMode) throws -> ImportOperations? {
        nil
    }
}
