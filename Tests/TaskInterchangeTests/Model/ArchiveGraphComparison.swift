import Foundation
@testable import TaskInterchange

/// Compares two keyed archives as object graphs, not as bytes: from both roots, archived objects are paired (each
/// object of one archive with exactly one of the other), and each pair must have the same class hierarchy, the
/// same keys and equal values. Strings and numbers compare by value wherever they are numbered; dictionaries compare
/// by key, sets as sets, arrays in order. Walks with a work list, so deep graphs need no deep recursion.
struct ArchiveGraphComparison {
    typealias Value = KeyedArchive.Value

    let first: KeyedArchive
    let second: KeyedArchive
    private(set) var differences: [String] = []
    private var pairs: [Int: Int] = [:]
    private var paired: Set<Int> = []
    private var work: [(Value, Value, String)] = []

    /// The differences between the two archives' `root` graphs (at most `limit` of them).
    static func differences(_ first: KeyedArchive, _ second: KeyedArchive, limit: Int = 20) -> [String] {
        var comparison = ArchiveGraphComparison(first: first, second: second)
        comparison.work = [(first.top["root"] ?? .string("$null"), second.top["root"] ?? .string("$null"), "root")]
        while let (a, b, path) = comparison.work.popLast(), comparison.differences.count < limit {
            comparison.compare(a, b, path)
        }
        return comparison.differences
    }

    private mutating func differ(_ path: String, _ what: String) {
        // Paths through the graph get long; the end says where.
        differences.append("…\(path.suffix(160)): \(what)")
    }

    /// An object's fields when `value` names an archived object; nil for leaves and `$null`.
    private static func object(_ value: Value, in archive: KeyedArchive) -> (index: Int, fields: [String: Value])? {
        guard case .reference(let index) = value, let resolved = try? archive.resolve(value),
            case .dictionary(let fields) = resolved, fields["$class"] != nil
        else { return nil }
        return (index, fields)
    }

    /// A leaf's value (a reference to a string or number resolved), `$null` as the string `$null`.
    private static func leaf(_ value: Value, in archive: KeyedArchive) -> Value {
        guard case .reference = value else { return value }
        return (try? archive.resolve(value)) ?? .string("$null")
    }

    private mutating func compare(_ a: Value, _ b: Value, _ path: String) {
        let objectA = Self.object(a, in: first)
        let objectB = Self.object(b, in: second)
        guard let objectA, let objectB else {
            if objectA != nil || objectB != nil {
                differ(path, "\(Self.describe(a, first)) vs \(Self.describe(b, second))")
            } else if Self.leaf(a, in: first) != Self.leaf(b, in: second) {
                differ(path, "\(Self.describe(a, first)) vs \(Self.describe(b, second))")
            }
            return
        }
        if let known = pairs[objectA.index] {
            if known != objectB.index { differ(path, "object \(objectA.index) is paired with another object") }
            return
        }
        guard paired.insert(objectB.index).inserted else {
            differ(path, "two objects of the first archive meet one object of the second")
            return
        }
        pairs[objectA.index] = objectB.index
        let classesA = (try? first.classNames(of: objectA.fields)) ?? []
        let classesB = (try? second.classNames(of: objectB.fields)) ?? []
        guard classesA == classesB else {
            differ(path, "class \(classesA) vs \(classesB)")
            return
        }
        let label = "\(path)<\(classesA.first ?? "?")>"
        let keysA = Set(objectA.fields.keys).subtracting(["$class"])
        let keysB = Set(objectB.fields.keys).subtracting(["$class"])
        if keysA != keysB {
            differ(
                label,
                "keys only in the first \(keysA.subtracting(keysB).sorted()), "
                    + "only in the second \(keysB.subtracting(keysA).sorted())")
        }
        if objectA.fields["NS.keys"] != nil {
            compareDictionary(a, b, label)
            return
        }
        let isSet = classesA.contains("NSSet")
        for key in keysA.intersection(keysB).sorted() {
            let valueA = objectA.fields[key]!, valueB = objectB.fields[key]!
            if isSet, key == "NS.objects", case .array(let elementsA) = valueA, case .array(let elementsB) = valueB {
                compareUnordered(elementsA, elementsB, "\(label).\(key)")
            } else {
                enqueue(valueA, valueB, "\(label).\(key)")
            }
        }
    }

    private mutating func enqueue(_ a: Value, _ b: Value, _ path: String) {
        switch (a, b) {
        case (.array(let elementsA), .array(let elementsB)):
            guard elementsA.count == elementsB.count else {
                differ(path, "\(elementsA.count) elements vs \(elementsB.count)")
                return
            }
            for (offset, pair) in zip(elementsA, elementsB).enumerated().reversed() {
                work.append((pair.0, pair.1, "\(path)[\(offset)]"))
            }
        default:
            work.append((a, b, path))
        }
    }

    private mutating func compareDictionary(_ a: Value, _ b: Value, _ path: String) {
        guard let entriesA = try? first.entries(a, path), let entriesB = try? second.entries(b, path) else {
            differ(path, "not a readable dictionary")
            return
        }
        let byKeyA = Dictionary(entriesA.map { ("\(Self.leaf($0.key, in: first))", $0.value) }) { x, _ in x }
        let byKeyB = Dictionary(entriesB.map { ("\(Self.leaf($0.key, in: second))", $0.value) }) { x, _ in x }
        if Set(byKeyA.keys) != Set(byKeyB.keys) {
            differ(path, "keys \(byKeyA.keys.sorted()) vs \(byKeyB.keys.sorted())")
        }
        for key in Set(byKeyA.keys).intersection(byKeyB.keys).sorted().reversed() {
            work.append((byKeyA[key]!, byKeyB[key]!, "\(path)[\(key)]"))
        }
    }

    /// Set elements are paired by their leaf value, or by an object's name (`NSEntityName`, `NSPropertyName`).
    private mutating func compareUnordered(_ a: [Value], _ b: [Value], _ path: String) {
        func sorted(_ values: [Value], _ archive: KeyedArchive) -> [Value] {
            values.sorted { Self.sortKey($0, archive) < Self.sortKey($1, archive) }
        }
        guard a.count == b.count else {
            differ(path, "\(a.count) elements vs \(b.count)")
            return
        }
        for (x, y) in zip(sorted(a, first), sorted(b, second)) { work.append((x, y, path + "{}")) }
    }

    private static func sortKey(_ value: Value, _ archive: KeyedArchive) -> String {
        if let object = object(value, in: archive) {
            return (try? archive.string(object.fields["NSEntityName"] ?? object.fields["NSPropertyName"], "")) ?? ""
        }
        return "\(leaf(value, in: archive))"
    }

    private static func describe(_ value: Value, _ archive: KeyedArchive) -> String {
        if let object = object(value, in: archive) {
            return "an \((try? archive.className(of: object.fields)) ?? "object")"
        }
        return "\(leaf(value, in: archive))"
    }
}
