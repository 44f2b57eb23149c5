import Foundation

/// Where a record's modification date comes from, for `--mode merge`: its `modifiedAt` field (which a store's mapped
/// modification property fills), else a date carried under `extra` — the first of `lastModified`, `updatedAt`,
/// `modifiedAt`, `modificationDate` (any case) that the record has. A named `property` overrides that: the date is the
/// one under `extra` by that name, or `modifiedAt` when the target maps that very property to it.
public struct ModificationDates: Sendable, Hashable {
    /// Property names tried, in order, when none is given.
    public static let detectedNames = ["lastModified", "updatedAt", "modifiedAt", "modificationDate"]

    /// The property that holds the date (`--modified-property`); nil to use `modifiedAt` or detect it by name.
    public var property: String?
    /// The target's properties mapped to `modifiedAt` (lowercased): when `property` is one of them, `modifiedAt` is
    /// that property's value.
    public var mappedProperties: Set<String> = []

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

    private func date(_ field: Date?, _ extra: [String: ExtraValue]?) -> Date? {
        guard let property else { return field ?? date(in: extra) }
        if let date = date(in: extra) { return date }
        return mappedProperties.contains(property.lowercased()) ? field : nil
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
