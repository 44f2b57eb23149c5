import Foundation

/// Which store entity and properties feed each interchange kind. ``StoreInspection`` gives the detected mapping, it
/// is `Codable` in a JSON form, and ``init(contentsOf:)`` reads that back, so a user can save, edit and reuse it.
///
/// Property names are the model's names (matched case-insensitively to the `Z<NAME>` columns); `null` means the store
/// has no such property.
public struct StoreMapping: Sendable, Hashable, Codable {
    /// The kinds of record the interchange carries (the same type as ``RecordKind``; this name is kept for sources
    /// written against it).
    public typealias Kind = RecordKind

    /// How one kind is read from one entity.
    public struct KindMapping: Sendable, Hashable, Codable {
        /// The entity name exactly as in `Z_PRIMARYKEY`.
        public var entity: String
        /// Interchange field → store property name (or nil when the store has none).
        public var fields: [String: String?]
        /// Interchange reference → store relationship name (or nil).
        public var relationships: [String: String?]

        private enum CodingKeys: String, CodingKey { case entity, fields, relationships }

        /// Reads a kind mapping; `relationships` may be left out for kinds that have none.
        /// - Throws: `DecodingError` when a member has the wrong type.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            entity = try container.decode(String.self, forKey: .entity)
            fields = try container.decodeIfPresent([String: String?].self, forKey: .fields) ?? [:]
            relationships = try container.decodeIfPresent([String: String?].self, forKey: .relationships) ?? [:]
        }

        /// Creates a kind mapping.
        public init(entity: String, fields: [String: String?], relationships: [String: String?] = [:]) {
            self.entity = entity
            self.fields = fields
            self.relationships = relationships
        }

        /// The property mapped to `field`, when there is one (without the `?` that marks it as absent from some
        /// versions of the app's model).
        public func property(for field: String) -> String? {
            (fields[field] ?? nil).map(Self.name)
        }

        /// The relationship mapped to `reference`, when there is one (without a `?` mark).
        public func relationship(for reference: String) -> String? {
            (relationships[reference] ?? nil).map(Self.name)
        }

        /// True when the name mapped to `field` (or reference) ends in `?`: some versions of the app's model lack it,
        /// and a store without it reads the field as absent. A name without the mark must exist.
        public func mayBeAbsent(_ field: String) -> Bool {
            ((fields[field] ?? nil) ?? (relationships[field] ?? nil))?.hasSuffix("?") ?? false
        }

        private static func name(_ mapped: String) -> String {
            mapped.hasSuffix("?") ? String(mapped.dropLast()) : mapped
        }
    }

    /// The mapping file format version.
    public var mappingVersion: Int
    /// Kind name (`task`, …) → its mapping, or nil when the store has no such entity.
    public var kinds: [String: KindMapping?]
    /// For an import into another version of the archive's model: decisions that replace the inferred mapping between
    /// the versions (see `VersionMapping`).
    public var modelChange: ModelChangeOverrides?

    /// Creates a mapping.
    public init(kinds: [Kind: KindMapping?]) {
        self.mappingVersion = 1
        self.kinds = Dictionary(uniqueKeysWithValues: Kind.allCases.map { ($0.rawValue, kinds[$0] ?? nil) })
    }

    /// The mapping of one kind.
    public subscript(kind: Kind) -> KindMapping? {
        kinds[kind.rawValue] ?? nil
    }

    /// The mapping as pretty JSON with sorted keys (`null` for absent kinds and properties).
    public func jsonData() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Encoding plain strings, optionals and dictionaries cannot fail.
        return (try? encoder.encode(self)) ?? Data()
    }

    /// The file `tasks inspect --json` writes: the mapping is its `mapping` member.
    private struct Inspection: Decodable {
        var mapping: StoreMapping
    }

    /// Reads a mapping file: the mapping itself, or a ``StoreInspection`` as JSON (its `mapping` member),
    /// as it is.
    /// - Throws: ``TaskInterchangeError`` (`.noInput` when missing, `.invalidData` with a JSON path when malformed).
    public init(contentsOf path: String) throws(TaskInterchangeError) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw TaskInterchangeError(.noInput, "\(path): no such mapping file\(Suggestion.nearPath(to: path))")
        }
        // An object with a `mapping` member and no `mappingVersion` of its own is an inspection.
        let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        let isInspection = object?["mappingVersion"] == nil && object?["mapping"] is [String: Any]
        let root = isInspection ? "$.mapping" : "$"
        do {
            self =
                isInspection
                ? try JSONDecoder().decode(Inspection.self, from: data).mapping
                : try JSONDecoder().decode(StoreMapping.self, from: data)
        } catch let DecodingError.dataCorrupted(context) {
            throw TaskInterchangeError(
                .invalidData,
                """
                \(path): \(Self.jsonPath(context.codingPath)): \(context.debugDescription) \
                \(context.underlyingError.map { "(\($0.localizedDescription))" } ?? "")
                """
            )
        } catch let DecodingError.keyNotFound(key, context) {
            throw TaskInterchangeError(
                .invalidData, "\(path): \(Self.jsonPath(context.codingPath + [key])): missing member")
        } catch let DecodingError.typeMismatch(type, context) {
            throw TaskInterchangeError(.invalidData, "\(path): \(Self.jsonPath(context.codingPath)): expected \(type)")
        } catch let DecodingError.valueNotFound(type, context) {
            throw TaskInterchangeError(
                .invalidData, "\(path): \(Self.jsonPath(context.codingPath)): expected \(type), found null")
        } catch {
            throw TaskInterchangeError(.invalidData, "\(path): not a mapping file: \(error)")
        }
        // A misspelt section would be ignored and the inference left in charge: every member name is checked.
        let members = (isInspection ? object?["mapping"] as? [String: Any] : object) ?? [:]
        func check(_ names: [String], allowed: [String], at path: String) throws(TaskInterchangeError) {
            for name in names.sorted() where !allowed.contains(name) {
                let near = Suggestion.closest(to: name, among: allowed)
                throw TaskInterchangeError(
                    .invalidData,
                    "\(path).\(name): unknown member" + (near.map { " (did you mean '\($0)'?)" } ?? "")
                        + "; expected \(allowed.joined(separator: ", "))")
            }
        }
        try check(Array(members.keys), allowed: ["mappingVersion", "kinds", "modelChange"], at: "\(path): \(root)")
        if let change = members["modelChange"] as? [String: Any] {
            try check(
                Array(change.keys), allowed: ["entities", "properties", "fill", "duplicates"],
                at: "\(path): \(root).modelChange")
        }
        guard mappingVersion == 1 else {
            throw TaskInterchangeError(
                .invalidData,
                "\(path): \(root).mappingVersion: unsupported mapping version \(mappingVersion) (this tool reads 1)")
        }
        for name in kinds.keys where Kind(rawValue: name) == nil {
            throw TaskInterchangeError(
                .invalidData,
                """
                \(path): \(root).kinds.\(name): unknown kind \
                (expected one of \(Kind.allCases.map(\.rawValue).joined(separator: ", ")))
                """
            )
        }
        for kind in Kind.allCases {
            guard let mapping = self[kind] else { continue }
            for field in mapping.fields.keys where !kind.fields.contains(field) {
                throw TaskInterchangeError(
                    .invalidData,
                    """
                    \(path): \(root).kinds.\(kind.rawValue).fields.\(field): unknown field \
                    (expected one of \(kind.fields.joined(separator: ", ")))
                    """
                )
            }
            for reference in mapping.relationships.keys where !kind.relationships.contains(reference) {
                throw TaskInterchangeError(
                    .invalidData,
                    """
                    \(path): \(root).kinds.\(kind.rawValue).relationships.\(reference): unknown relationship (expected \
                    one of \(kind.relationships.isEmpty ? "none" : kind.relationships.joined(separator: ", ")))
                    """
                )
            }
        }
    }

    static func jsonPath(_ codingPath: [any CodingKey]) -> String {
        codingPath.reduce("$") { path, key in
            if let index = key.intValue { return path + "[\(index)]" }
            return path + "." + key.stringValue
        }
    }
}
