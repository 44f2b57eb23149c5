/// What to do with archive records whose id already exists in the target.
public enum ImportMode: String, Sendable, Hashable, Codable, CaseIterable {
    /// Every id must be new; an existing one is a validation error.
    case insert
    /// Update records whose id exists, insert the rest.
    case upsert
    /// Keep records whose id exists as they are, insert the rest.
    case skip
    /// Like upsert, but where both sides have a modification date the newer one wins per record (a tie keeps the
    /// target's); a dated side wins over an undated one; with no dates the archive wins, as in upsert.
    case merge
    /// Remove every object first (the typed kinds' and every generic entity's, with their links), then insert
    /// everything; into a store, an object the archive holds again keeps its key.
    case replace
}
