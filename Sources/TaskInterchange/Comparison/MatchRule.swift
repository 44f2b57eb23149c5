/// How `--match` pairs an archive record whose id the target lacks with a target record: by a key whose values are
/// equal. Parsed from the option's text so that further forms can be added without changing its syntax.
public enum MatchRule: Sendable, Hashable {
    /// Projects, categories and tags by `name` (exact, case-sensitive).
    case name

    /// The kinds a rule pairs.
    public var kinds: Set<StoreMapping.Kind> {
        switch self {
        case .name: return [.project, .category, .tag]
        }
    }

    /// Parses `name`. `Entity.attribute` (a generic entity's chosen attribute) is recognised and refused: only the
    /// interchange's kinds travel between stores so far, and generic entities would have to travel before they can
    /// be matched.
    /// - Throws: `TaskInterchangeError.invalidData` for anything else.
    public init(parsing text: String) throws(TaskInterchangeError) {
        if text == "name" {
            self = .name
            return
        }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        if parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty {
            throw TaskInterchangeError(.invalidData, "--match \(text): matching a generic entity by an attribute needs that entity to travel in the archive, which only projects, categories, tags, tasks and subtasks do so far; use --match name")
        }
        throw TaskInterchangeError(.invalidData, "--match \(text): expected 'name' (projects, categories and tags by name)")
    }
}
