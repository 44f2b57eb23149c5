/// What to do with archive records whose id already exists in the target.
public enum ImportMode: String, Sendable, Hashable, Codable, CaseIterable {
    /// Every id must be new; an existing one is a validation error.
    case insert
    /// Update records whose id exists, insert the rest.
    case upsert
    /// Keep records whose id exists as they are, insert the rest.
    case skip
    /// Remove every row of the mapped entities first, then insert everything.
    case replace
}
