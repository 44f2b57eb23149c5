import Foundation

/// Where a record's modification date comes from, for `--mode merge`: its `modifiedAt` member, else a store property
/// carried under `extra` — the one named, or the first of `lastModified`, `updatedAt`, `modifiedAt`,
/// `modificationDate` (any case) that the record has.
public struct ModificationDates: Sendable, Hashable {
    /// Property names tried, in order, when none is given.
    public static let detectedNames = ["lastModified", "updatedAt", "modifiedAt", "modificationDate"]

    /// The property to read under `extra` (the mapping of the date); nil to detect it by name.
    public var property: String?

    /// Creates the rule: `property` under `extra` when given, else the usual names.
    public init(property: String? = nil) {
        self.property = property
    }

    /// The project's modification date, if it has one.
    public func date(of project: ProjectRecord) -> Date? {
        project.modifiedAt ?? date(in: project.extra)
    }

    /// The task's modification date, if it has one.
    public func date(of task: TaskRecord) -> Date? {
        task.modifiedAt ?? date(in: task.extra)
    }

    /// A date under `extra`: lossless ISO-8601 text (as exports write dates) or seconds since 2001.
    func date(in extra: [String: ExtraValue]?) -> Date? {
        guard let extra, !extra.isEmpty else { return nil }
        let names = property.map { [$0] } ?? Self.detectedNames
        for name in names {
            let value = extra[name] ?? extra.first { $0.key.lowercased() == name.lowercased() }?.value
            switch value {
            case .string(let text)?: if let date = try? LosslessDate.date(from: text) { return date }
            case .double(let seconds)?: return Date(timeIntervalSinceReferenceDate: seconds)
            case .integer(let seconds)?: return Date(timeIntervalSinceReferenceDate: Double(seconds))
            default: continue
            }
        }
        return nil
    }
}
