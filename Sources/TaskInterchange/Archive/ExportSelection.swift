import Foundation

/// Which records an export carries: by kind, by store entity, and for tasks by project, completion and date.
///
/// The chosen records are the roots; every record a kept record refers to comes along, so the archive stays closed
/// (every id it names is a record in it) and `validate` accepts it. The one exception is an entity named in
/// `excludedEntities`: references to its records are dropped instead, each reported as an `excluded-reference` finding
/// (a warning, so ``ExportOptions/strict`` refuses). A kept task always carries all of its subtasks.
public struct ExportSelection: Sendable, Hashable, CustomStringConvertible {
    /// Which tasks the completion filter keeps.
    public enum Completion: String, Sendable, Hashable {
        case completed, open
    }

    /// The kinds whose records are roots; nil for every kind (or, with a task filter, for tasks only).
    public var kinds: Set<RecordKind>?
    /// The store entities whose records are roots (by the name in `Z_PRIMARYKEY`); nil for every entity.
    public var entities: Set<String>?
    /// Store entities never exported, not even when referred to.
    public var excludedEntities: Set<String> = []
    /// Only tasks of this project (an id, or the exact name of one project), and the project itself.
    public var project: String?
    /// Only completed, or only open, tasks.
    public var completion: Completion?
    /// Only tasks created or modified at or after this instant.
    public var since: Date?

    /// Everything.
    public init() {}

    /// Whether anything is filtered.
    public var isEverything: Bool {
        namedKinds == nil && entities == nil && excludedEntities.isEmpty && !hasTaskFilter
    }

    /// `kinds`, or nil when it names every kind (the same as naming none).
    var namedKinds: Set<RecordKind>? {
        kinds.flatMap { $0.count == RecordKind.sections.count ? nil : $0 }
    }

    /// Whether tasks are filtered by project, completion or date: then the other kinds come only as references,
    /// unless `kinds` names them.
    public var hasTaskFilter: Bool {
        project != nil || completion != nil || since != nil
    }

    /// The kinds an archive records: as given when tasks are filtered (then naming every kind keeps every kind's
    /// records as roots), else `namedKinds`.
    var recordedKinds: Set<RecordKind>? {
        hasTaskFilter ? kinds : namedKinds
    }

    /// The selection as the settings that make it, each with its value as text, in a fixed order.
    var settings: [(setting: TaskInterchangeError.Setting, value: String)] {
        var settings: [(setting: TaskInterchangeError.Setting, value: String)] = []
        if let kinds = recordedKinds {
            settings.append((.exportKinds, kinds.sorted().map(\.rawValue).joined(separator: ",")))
        }
        if let entities { settings.append((.exportEntities, entities.sorted().joined(separator: ","))) }
        if !excludedEntities.isEmpty {
            settings.append((.excludedEntities, excludedEntities.sorted().joined(separator: ",")))
        }
        if let project { settings.append((.project, project)) }
        if let completion { settings.append((.completion, completion.rawValue)) }
        if let since, let text = try? LosslessDate.string(from: since) { settings.append((.since, text)) }
        return settings
    }

    /// The selection as the settings that make it (`ExportSelection.kinds task ExportSelection.completion
    /// completed`), for messages; an archive records it as data (`source.selection`).
    public var description: String {
        settings.map { "\($0.setting.name) \($0.value)" }.joined(separator: " ")
    }

    /// The instant for ``ExportSelection/since`` from text: a date (`2024-03-01`, midnight UTC) or an RFC 3339 date-time.
    /// - Throws: `TaskInterchangeError.usage` naming the value when it is neither.
    public static func instant(from text: String) throws(TaskInterchangeError) -> Date {
        let isDateOnly = text.utf8.count == 10 && !text.contains("T") && !text.contains("t")
        do {
            return try LosslessDate.date(from: isDateOnly ? text + "T00:00:00Z" : text)
        } catch {
            throw TaskInterchangeError(
                .usage,
                "\(setting: .since): '\(text)' is not a date (YYYY-MM-DD) or a date-time "
                    + "(YYYY-MM-DDTHH:MM:SSZ): \(error)")
        }
    }
}
