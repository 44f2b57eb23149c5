import Foundation

/// The selection as an archive records it (`source.selection`): an object of its settings, `{"kinds": ["task"],
/// "completion": "completed"}`. Archives written before that recorded the command line's options as one string
/// (`"--kinds task --completed"`); they still read, into the same value.
extension ExportSelection: Codable {
    /// The members of `source.selection`, in the order they are written.
    enum Member: String, CodingKey, CaseIterable {
        case kinds, entities, excludedEntities, project, completion, since
    }

    /// Reads the object, or the string older archives hold.
    /// - Throws: `DecodingError` for a member of the wrong type, an unknown kind or completion, a date that is not
    ///   one, or a string that is no selection.
    public init(from decoder: any Decoder) throws {
        if let text = try? decoder.singleValueContainer().decode(String.self) {
            guard let selection = ExportSelection(optionsText: text) else {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: decoder.codingPath, debugDescription: "'\(text)' is not a selection"))
            }
            self = selection
            return
        }
        let container = try decoder.container(keyedBy: Member.self)
        self.init()
        if let names = try container.decodeIfPresent([String].self, forKey: .kinds) {
            kinds = Set(
                try names.map { name in
                    guard let kind = RecordKind(rawValue: name) else {
                        throw DecodingError.dataCorruptedError(
                            forKey: .kinds, in: container, debugDescription: "'\(name)' is not a kind of record")
                    }
                    return kind
                })
        }
        entities = try container.decodeIfPresent([String].self, forKey: .entities).map(Set.init)
        excludedEntities = Set(try container.decodeIfPresent([String].self, forKey: .excludedEntities) ?? [])
        project = try container.decodeIfPresent(String.self, forKey: .project)
        if let text = try container.decodeIfPresent(String.self, forKey: .completion) {
            guard let completion = Completion(rawValue: text) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .completion, in: container, debugDescription: "'\(text)' is not completed or open")
            }
            self.completion = completion
        }
        if let text = try container.decodeIfPresent(String.self, forKey: .since) {
            guard let date = try? LosslessDate.date(from: text) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .since, in: container, debugDescription: "'\(text)' is not an RFC 3339 date-time")
            }
            since = date
        }
    }

    /// Writes the object: lists sorted, members that select nothing left out.
    /// - Throws: the encoder's error.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Member.self)
        try container.encodeIfPresent(recordedKinds.map { $0.sorted().map(\.rawValue) }, forKey: .kinds)
        try container.encodeIfPresent(entities.map { $0.sorted() }, forKey: .entities)
        if !excludedEntities.isEmpty { try container.encode(excludedEntities.sorted(), forKey: .excludedEntities) }
        try container.encodeIfPresent(project, forKey: .project)
        try container.encodeIfPresent(completion?.rawValue, forKey: .completion)
        try container.encodeIfPresent(since.flatMap { try? LosslessDate.string(from: $0) }, forKey: .since)
    }

    /// The selection an older archive recorded as the options that made it (`--kinds tag,task --completed`, in the
    /// fixed order they were written); nil for text that is not such a selection (or selects everything).
    init?(optionsText text: String) {
        self.init()
        // Each option starts a part; the words after it, up to the next option, are its value (a project's name may
        // hold spaces).
        var parts: [(option: String, words: [String])] = []
        for word in text.split(separator: " ", omittingEmptySubsequences: false).map(String.init) {
            if Self.legacyOptions.contains(word) {
                parts.append((word, []))
            } else if !parts.isEmpty {
                parts[parts.count - 1].words.append(word)
            } else {
                return nil
            }
        }
        for (option, words) in parts {
            let value = words.joined(separator: " ")
            let list = value.split(separator: ",").map(String.init)
            switch option {
            case "--kinds":
                let kinds = list.compactMap(RecordKind.init(rawValue:))
                guard !kinds.isEmpty, kinds.count == list.count else { return nil }
                self.kinds = Set(kinds)
            case "--entities" where !list.isEmpty: entities = Set(list)
            case "--exclude-entities" where !list.isEmpty: excludedEntities = Set(list)
            case "--project" where !value.isEmpty: project = value
            case "--completed" where words.isEmpty: completion = .completed
            case "--open" where words.isEmpty: completion = .open
            case "--since":
                guard let date = try? LosslessDate.date(from: value) else { return nil }
                since = date
            default: return nil
            }
        }
        if isEverything && kinds == nil { return nil }
    }

    /// The options older archives' selections name.
    private static let legacyOptions: Set<String> = [
        "--kinds", "--entities", "--exclude-entities", "--project", "--completed", "--open", "--since",
    ]
}
