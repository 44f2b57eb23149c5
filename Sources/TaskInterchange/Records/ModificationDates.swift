import Foundation

/// Where a record's modification date comes from, for `--mode merge`: its `modifiedAt` field (which a store's mapped
/// modification property fills), else a date carried under `extra`: the one named by `property`, or the first of
/// `lastModified`, `updatedAt`, `modifiedAt`, `modificationDate` (any case) that the record has.
public struct ModificationDates: Sendable, Hashable {
    /// Property names tried, in order, when none is given.
    public static let detectedNames = ["lastModified", "updatedAt", "modifiedAt", "modificationDate"]

    /// The property under `extra` that holds the date of a record without `modifiedAt` (`--modified-property`); nil
    /// to detect it by name.
    public var property: String?
    /// The target's properties mapped to `modifiedAt` (lowercased; empty when it maps none), nil when not known.
    /// Comparisons with the target see an archive record as the target would store it (`asStored`).
    public var mappedProperties: Set<String>?

    /// Creates the rule: `property` under `extra` when given, else the usual names.
    public init(property: String? = nil) {
        self.property = property
    }

    /// The project's modification date, if it has one.
    public func date(of project: ProjectRecord) -> Date? {
        date(project.modifiedAt, project.extra)
    }

    /// The task's modification date, if it has one.
    public func date(of task: TaskRecord) -> Date? {
        date(task.modifiedAt, task.extra)
    }

    /// A record's modification date, if its kind has one and it has one.
    func date<Record: TypedRecord>(of record: Record) -> Date? {
        Record.modificationDateSlot.flatMap { date(record[$0], record.extra) }
    }

    private func date(_ field: Date?, _ extra: [String: ExtraValue]?) -> Date? {
        field ?? date(in: extra)
    }

    /// A record's `modifiedAt` and `extra` as the target would store them: taken from under `extra` when the target
    /// maps the property that holds it (an archive written before `modifiedAt` was a field), dropped when it maps none.
    func asStored(_ modifiedAt: Date?, _ extra: [String: ExtraValue]?) -> (Date?, [String: ExtraValue]?) {
        guard let mappedProperties else { return (modifiedAt, extra) }
        guard !mappedProperties.isEmpty else { return (nil, extra) }
        guard modifiedAt == nil, var extra,
            let name = extra.keys.first(where: { mappedProperties.contains($0.lowercased()) }),
            case .string(let text)? = extra[name], let date = try? LosslessDate.date(from: text)
        else {
            return (modifiedAt, extra)
        }
        extra[name] = nil
        return (date, extra.isEmpty ? nil : extra)
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
