/// One problem found in an archive: a code, where it is, and what is wrong.
public struct ValidationIssue: Sendable, Hashable, Codable, CustomStringConvertible {
    /// How bad a problem is.
    public enum Severity: String, Sendable, Hashable, Codable {
        /// The archive must not be imported.
        case error
        /// Worth knowing; does not block an import.
        case warning
    }

    /// Machine-readable kinds of problem. The raw values are part of the `--json` contract.
    public enum Code: String, Sendable, Hashable, Codable, CaseIterable {
        /// The bytes are not well-formed JSON (or NDJSON); a file that ends early is one.
        case malformedJSON = "malformed-json"
        /// Well-formed JSON that is no archive: an object with none of an archive's members (a mapping file, a
        /// package manifest).
        case notAnArchive = "not-an-archive"
        /// An object has the same member twice.
        case duplicateKey = "duplicate-key"
        /// No `version` member.
        case missingVersion = "missing-version"
        /// A version this tool does not read (newer, or not a positive integer).
        case unsupportedVersion = "unsupported-version"
        /// `format` is present but is not `tasks-interchange`.
        case unknownFormat = "unknown-format"
        /// A required member is absent.
        case missingField = "missing-field"
        /// A member has the wrong JSON type.
        case wrongType = "wrong-type"
        /// A member that this format does not define (ignored).
        case unknownField = "unknown-field"
        /// A string that should be a UUID is not one.
        case invalidUUID = "invalid-uuid"
        /// A date that is not a finite number or a valid ISO-8601 string.
        case invalidDate = "invalid-date"
        /// Two records of one kind share an id.
        case duplicateID = "duplicate-id"
        /// A task's `projectId` names no project in the archive.
        case missingProject = "missing-project"
        /// A task's `categoryId` names no category in the archive.
        case missingCategory = "missing-category"
        /// A task's `tagIds` names a tag that is not in the archive.
        case missingTag = "missing-tag"
        /// A relationship carried under `extra` (declared in `source.relationships`) names no record of its
        /// destination kind in the archive.
        case missingReference = "missing-reference"
        /// A task lists the same tag twice.
        case duplicateTagReference = "duplicate-tag-reference"
        /// `priority` outside 0…3.
        case priorityOutOfRange = "priority-out-of-range"
        /// `counts` is missing or disagrees with the content (a truncated or edited file).
        case countsMismatch = "counts-mismatch"
        /// A file labelled version 1 carries a member only version 2 has (it would lose data read as version 1).
        case versionMismatch = "version-mismatch"
        /// In an import: the id is already in the target store and the import mode does not allow that.
        case idExistsInStore = "id-exists-in-store"
        /// A generic record's entity or property is not declared in `source.model`, a declaration names an entity
        /// the archive does not declare, or an inverse names no relationship of its destination.
        case undeclaredProperty = "undeclared-property"
        /// An attribute value its model type cannot hold as written: an integer outside its Integer 16 or 32 range, a
        /// boolean other than 0 or 1, a decimal with more digits than a store keeps.
        case valueOutOfRange = "value-out-of-range"
        /// Two generic records of one entity tree (one table in the store) carry the same source `key`.
        case duplicateRecordKey = "duplicate-record-key"
        /// A raw table's statement or index that SQLite does not read as exactly the one object its place names (a
        /// second statement, `AS SELECT`, a function with side effects): an import refuses to run it.
        case refusedStatement = "refused-statement"
    }

    /// The kind of problem.
    public var code: Code
    /// `error` blocks an import; `warning` does not.
    public var severity: Severity
    /// JSON path of the offending value, such as `$.tasks[17].projectId`.
    public var path: String
    /// What is wrong, for people.
    public var message: String
    /// 1-based line of the offending value in the input, when known.
    public var line: Int?
    /// 1-based column (in bytes) of the offending value in the input, when known.
    public var column: Int?
    /// The id the issue is about (the record's own, or the one it refers to), when there is one: what a report that
    /// groups the issues of one code lists. Not part of the `--json` form, whose issues carry it in `message`.
    public var subject: String?

    private enum CodingKeys: String, CodingKey { case code, severity, path, message, line, column }

    /// Creates an issue.
    public init(
        _ code: Code, severity: Severity = .error, path: String, message: String, line: Int? = nil,
        column: Int? = nil, subject: String? = nil
    ) {
        self.code = code
        self.severity = severity
        self.path = path
        self.message = message
        self.line = line
        self.column = column
        self.subject = subject
    }

    /// True for an issue about the whole file rather than a value in it: it is no archive, or it ends early.
    package var concernsWholeFile: Bool {
        code == .notAnArchive || message.hasPrefix(ArchiveReader.endsEarly)
    }

    /// `$.tasks[17].projectId (3:14): missing-project: …`
    public var description: String {
        var location = path
        if let line, let column { location += " (\(line):\(column))" }
        return "\(location): \(code.rawValue): \(message)"
    }
}
