/// An error from the library: a ``Kind`` that says what failed, and a message for people that names the library's
/// own API (``StoreImportOptions/keepIdentity``, ``ExportSelection/project``).
///
/// The message is also kept in ``parts``: its text and the ``Setting``s it names, so a caller that offers the same
/// settings under other names (the `tasks` command line: its flags) can say it in those, with
/// ``message(naming:)``.
public struct TaskInterchangeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure this is.
    public enum Kind: Sendable, Equatable {
        /// The input data is wrong: bad JSON, an invalid archive, a file that is not a store, a mapping that does not
        /// fit the store.
        case invalidData
        /// An input file does not exist or cannot be opened.
        case noInput
        /// An output file or store cannot be created.
        case cannotCreate
        /// Reading or writing failed.
        case io
        /// Another process holds the store locked; retrying later may succeed.
        case busy
        /// The request contradicts itself or names nothing that exists: an output naming the store it reads, an
        /// option value that matches nothing, settings that cannot go together.
        case usage
        /// Stopped on request (a signal, task cancellation); everything was rolled back.
        case cancelled
        /// A bug in the library.
        case `internal`
    }

    /// A setting of the library's API that a message names, or the call a message points to.
    public enum Setting: Sendable, Hashable, CaseIterable {
        /// ``StoreImportOptions/keepIdentity``.
        case keepIdentity
        /// ``StoreImportOptions/mode``.
        case mode
        /// ``StoreImportOptions/kinds``.
        case importKinds
        /// ``StoreImportOptions/entities``.
        case importEntities
        /// ``StoreImportOptions/strict``.
        case strict
        /// ``StoreImportOptions/match``.
        case match
        /// ``StoreImportOptions/template``.
        case template
        /// ``StoreImportOptions/backupPath``.
        case backupPath
        /// ``ModificationDates/property`` (``StoreImportOptions/modificationDates``).
        case modifiedProperty
        /// The store path an import writes into (`StoreImport.run(_:into:options:)`).
        case importTarget
        /// ``ExportSelection/kinds``.
        case exportKinds
        /// ``ExportSelection/project``.
        case project
        /// ``ExportSelection/completion``.
        case completion
        /// ``ExportSelection/since``.
        case since
        /// ``ExportSelection/entities``.
        case exportEntities
        /// ``ExportSelection/excludedEntities``.
        case excludedEntities
        /// The file an export writes (`Exporter.export(store:toFile:options:)`).
        case exportFile
        /// The store a migration creates (`Migration.run(intoStore:events:)`).
        case migrationTarget
        /// ``Migration/backupDirectory``.
        case migrationBackup
        /// The version of a model bundle to use, when it names no current one.
        case modelVersion
        /// ``StoreImportOptions/targetModel``: the app's model, for a target that keeps no model cache.
        case targetModel
        /// An export (``Exporter``), which writes every section sorted by id.
        case export
        /// A validation (``Validator``), which lists every problem of an archive.
        case validate

        /// How the library names it.
        public var name: String {
            switch self {
            case .keepIdentity: return "StoreImportOptions.keepIdentity"
            case .mode: return "StoreImportOptions.mode"
            case .importKinds: return "StoreImportOptions.kinds"
            case .importEntities: return "StoreImportOptions.entities"
            case .strict: return "StoreImportOptions.strict"
            case .match: return "StoreImportOptions.match"
            case .template: return "StoreImportOptions.template"
            case .backupPath: return "StoreImportOptions.backupPath"
            case .modifiedProperty: return "ModificationDates.property"
            case .importTarget: return "the import's target store"
            case .exportKinds: return "ExportSelection.kinds"
            case .project: return "ExportSelection.project"
            case .completion: return "ExportSelection.completion"
            case .since: return "ExportSelection.since"
            case .exportEntities: return "ExportSelection.entities"
            case .excludedEntities: return "ExportSelection.excludedEntities"
            case .exportFile: return "the export's output file"
            case .migrationTarget: return "the migration's new store"
            case .migrationBackup: return "Migration.backupDirectory"
            case .modelVersion: return "a version name"
            case .targetModel: return "StoreImportOptions.targetModel"
            case .export: return "Exporter"
            case .validate: return "Validator"
            }
        }
    }

    /// A piece of a message.
    public enum Part: Sendable, Equatable {
        /// Text as it is.
        case text(String)
        /// A setting, optionally with the values it takes there (`mode` `.upsert` or `.merge`).
        case setting(Setting, values: [String])
    }

    /// A message: text with the settings it names, written as a string literal with `\(setting:)` interpolations (the
    /// library's own errors; an app's destination throws with a plain message).
    package struct Message: Sendable, Equatable, ExpressibleByStringInterpolation {
        /// Its pieces, in order.
        public var parts: [Part]

        /// A message of plain text.
        public init(stringLiteral value: String) { parts = [.text(value)] }

        /// A message from a literal with interpolations.
        public init(stringInterpolation: StringInterpolation) { parts = stringInterpolation.parts }

        /// Builds a message: text, values, and settings (`"\(setting: .mode, "upsert", "merge") …"`).
        public struct StringInterpolation: StringInterpolationProtocol {
            var parts: [Part] = []

            /// Makes room for a literal.
            public init(literalCapacity: Int, interpolationCount: Int) {}

            /// Adds text.
            public mutating func appendLiteral(_ literal: String) {
                guard !literal.isEmpty else { return }
                if case .text(let last)? = parts.last {
                    parts[parts.count - 1] = .text(last + literal)
                } else {
                    parts.append(.text(literal))
                }
            }

            /// Adds a value as text.
            public mutating func appendInterpolation(_ value: some Any) {
                appendLiteral(String(describing: value))
            }

            /// Adds a setting the library offers, with the values it takes in this message, if any.
            public mutating func appendInterpolation(setting: Setting, _ values: String...) {
                parts.append(.setting(setting, values: values))
            }
        }

        /// One message after the other.
        public static func + (lhs: Message, rhs: Message) -> Message {
            var joined = lhs
            var interpolation = StringInterpolation(literalCapacity: 0, interpolationCount: 0)
            interpolation.parts = lhs.parts
            for part in rhs.parts {
                if case .text(let text) = part {
                    interpolation.appendLiteral(text)
                } else {
                    interpolation.parts.append(part)
                }
            }
            joined.parts = interpolation.parts
            return joined
        }

        /// A message followed by text.
        public static func + (lhs: Message, rhs: String) -> Message {
            lhs + Message(stringLiteral: rhs)
        }
    }

    /// The category.
    public var kind: Kind
    /// What went wrong and where, in pieces: text and the settings it names.
    public var parts: [Part]

    /// What went wrong and where, naming the library's settings (``Setting/name``); setting it replaces ``parts``
    /// with the text.
    public var message: String {
        get { message { setting, values in Self.libraryName(of: setting, values: values) } }
        set { parts = [.text(newValue)] }
    }

    /// Creates an error with a message of plain text.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.parts = [.text(message)]
    }

    /// Creates an error whose message names settings (`"\(setting: .keepIdentity) restores into a new store only"`).
    package init(_ kind: Kind, _ message: Message) {
        self.kind = kind
        self.parts = message.parts
    }

    /// The message with every setting named by `name`, which gets the setting and the values the message gives it.
    public func message(naming name: (Setting, [String]) -> String) -> String {
        parts.map { part in
            switch part {
            case .text(let text): return text
            case .setting(let setting, let values): return name(setting, values)
            }
        }.joined()
    }

    /// The same error with `transform` applied to the message's text (not to the settings it names).
    package func mapText(_ transform: (String) -> String) -> TaskInterchangeError {
        var copy = self
        copy.parts = parts.map { part in
            if case .text(let text) = part { return .text(transform(text)) }
            return part
        }
        return copy
    }

    /// The same message under another kind.
    package func withKind(_ kind: Kind) -> TaskInterchangeError {
        var copy = self
        copy.kind = kind
        return copy
    }

    /// `StoreImportOptions.mode` `.upsert`, `.skip` or `.replace`.
    package static func libraryName(of setting: Setting, values: [String]) -> String {
        guard !values.isEmpty else { return setting.name }
        return setting.name + " " + Self.list(values.map { "." + $0 })
    }

    /// `a`, `a or b`, `a, b or c`.
    package static func list(_ items: [String]) -> String {
        guard items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " or " + items[items.count - 1]
    }

    /// The message.
    public var description: String { message }
}
