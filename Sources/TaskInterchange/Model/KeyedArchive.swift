import Foundation

/// An `NSKeyedArchiver` archive read as data, without instantiating any class: `$objects` holds every archived
/// object once, and objects refer to each other by index (`CF$UID`). Reading follows one reference at a time, so
/// the object graph — which has cycles in every real archive (an entity's properties point back at the entity) —
/// is never expanded; `tree(_:)` expands a value fully with cycle detection when that is wanted.
///
/// The input is untrusted: a reference outside `$objects`, a reference to a reference, nesting beyond the depth
/// budget or a cycle in `tree(_:)` is an error, never a crash or a hang.
struct KeyedArchive: Sendable {
    /// The default nesting budget for conversion and for `tree(_:)`. Keyed archives are flat (objects refer to each
    /// other instead of nesting), so real archives stay below 10.
    static let defaultDepthLimit = 64

    /// `$objects`: index 0 is the `$null` placeholder.
    let objects: [Value]
    /// `$top`: the archive's root keys (`root` for `NSKeyedArchiver.archivedData(withRootObject:)`).
    let top: [String: Value]
    /// `$archiver`.
    let archiver: String
    /// `$version` (100000 for every archive Foundation writes).
    let version: Int64?

    /// Reads an archive from binary (or XML) property-list data.
    /// - Throws: `KeyedArchiveError` — `.notAPropertyList`, `.notAKeyedArchive`, `.tooDeep` or `.malformed`.
    init(data: Data, depthLimit: Int = defaultDepthLimit) throws(KeyedArchiveError) {
        let plist: Any
        do {
            plist = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        } catch {
            throw .notAPropertyList(Self.reason(error, data: data))
        }
        guard case .dictionary(let root) = try Value(foundation: plist, depth: 0, limit: depthLimit) else {
            throw .notAKeyedArchive("the property list is not a dictionary")
        }
        guard case .array(let objects)? = root["$objects"] else { throw .notAKeyedArchive("no $objects array") }
        guard case .dictionary(let top)? = root["$top"] else { throw .notAKeyedArchive("no $top dictionary") }
        let archiver = root["$archiver"]?.string ?? ""
        // NSKeyedArchiver is the only writer seen; a subclass may name itself differently but keeps the layout.
        guard !archiver.isEmpty else { throw .notAKeyedArchive("no $archiver name") }
        self.objects = objects
        self.top = top
        self.archiver = archiver
        self.version = root["$version"]?.integer
    }

    /// An archive from already converted parts (tests build hostile archives this way).
    init(objects: [Value], top: [String: Value], archiver: String = "NSKeyedArchiver", version: Int64? = 100000) {
        self.objects = objects
        self.top = top
        self.archiver = archiver
        self.version = version
    }

    /// The object a `$top` key refers to (`root` by default), resolved; nil for an archived nil.
    /// - Throws: `KeyedArchiveError.malformed` when the key is absent, `.badReference` for a dangling reference.
    func topObject(_ key: String = "root") throws(KeyedArchiveError) -> Value? {
        guard let value = top[key] else { throw .malformed("$top has no \(key) key") }
        return try resolve(value)
    }

    /// Follows a reference one step: returns the object it names, nil for the `$null` placeholder; any other
    /// value is returned as it is (archives inline plain values such as integers and booleans).
    /// - Throws: `KeyedArchiveError.badReference` for an index outside `$objects`; `.malformed` when the object is
    ///   itself a reference (real archives never chain references).
    func resolve(_ value: Value) throws(KeyedArchiveError) -> Value? {
        guard case .reference(let index) = value else { return value }
        guard index >= 0, index < objects.count else { throw .badReference(index: index, objectCount: objects.count) }
        let object = objects[index]
        if index == 0, object == .string("$null") { return nil }
        if case .reference = object { throw .malformed("object \(index) is a bare reference to another object") }
        return object
    }

    /// The fields of an archived object (a dictionary with a `$class`), after resolving `value`; nil for `$null`.
    /// `context` names the value in error messages ("entity Book's NSProperties").
    /// - Throws: `KeyedArchiveError.malformed` when the value is not an object.
    func object(_ value: Value, _ context: @autoclosure () -> String) throws(KeyedArchiveError) -> [String: Value]? {
        guard let resolved = try resolve(value) else { return nil }
        guard case .dictionary(let fields) = resolved, fields["$class"] != nil else {
            throw .malformed("\(context()) is \(resolved.kindName), not an archived object")
        }
        return fields
    }

    /// The class hierarchy of an archived object, most specific first (`$classes`, or just `$classname`).
    /// - Throws: `KeyedArchiveError.malformed` when `$class` does not lead to a class description.
    func classNames(of fields: [String: Value]) throws(KeyedArchiveError) -> [String] {
        guard let reference = fields["$class"] else { throw .malformed("an archived object has no $class") }
        guard case .dictionary(let description)? = try resolve(reference), let name = description["$classname"]?.string
        else {
            throw .malformed("an object's $class is not a class description")
        }
        let hierarchy = description["$classes"]?.array?.compactMap(\.string) ?? []
        return hierarchy.first == name ? hierarchy : [name] + hierarchy
    }

    /// The class name of an archived object.
    /// - Throws: `KeyedArchiveError.malformed` when `$class` does not lead to a class description.
    func className(of fields: [String: Value]) throws(KeyedArchiveError) -> String {
        try classNames(of: fields)[0]
    }

    /// A string value: a plain string, or an `NSString`/`NSMutableString` object (`NS.string`); nil for `$null` or
    /// an absent value. `context` names the value in error messages.
    /// - Throws: `KeyedArchiveError.malformed` for anything else.
    func string(_ value: Value?, _ context: @autoclosure () -> String) throws(KeyedArchiveError) -> String? {
        guard let value, let resolved = try resolve(value) else { return nil }
        switch resolved {
        case .string(let string):
            return string
        case .dictionary(let fields) where fields["$class"] != nil:
            if let string = fields["NS.string"]?.string { return string }
            if case .data(let bytes)? = fields["NS.bytes"], let string = String(data: bytes, encoding: .utf8) {
                return string
            }
            throw .malformed("\(context()) is an archived \((try? className(of: fields)) ?? "object"), not a string")
        default:
            throw .malformed("\(context()) is \(resolved.kindName), not a string")
        }
    }

    /// The elements of an archived array, set or ordered set (`NS.objects`), unresolved; empty for `$null` or an
    /// absent value. `context` names the value in error messages.
    /// - Throws: `KeyedArchiveError.malformed` when the value is not a collection object.
    func elements(_ value: Value?, _ context: @autoclosure () -> String) throws(KeyedArchiveError) -> [Value] {
        guard let value, let resolved = try resolve(value) else { return [] }
        if case .array(let inline) = resolved { return inline }
        guard case .dictionary(let fields) = resolved, fields["$class"] != nil,
            case .array(let elements)? = fields["NS.objects"]
        else {
            throw .malformed("\(context()) is \(resolved.kindName), not an archived array or set")
        }
        return elements
    }

    /// The entries of an archived dictionary, unresolved, in archive order; empty for `$null`. Understands
    /// `NSDictionary`'s parallel `NS.keys`/`NS.objects` and Core Data's `NSKnownKeysDictionary1`. `context` names the
    /// value in error messages.
    /// - Throws: `KeyedArchiveError.malformed` when the value is not a dictionary object.
    func entries(_ value: Value?, _ context: @autoclosure () -> String) throws(KeyedArchiveError) -> [(
        key: Value, value: Value
    )] {
        guard let value, let fields = try object(value, context()) else { return [] }
        if case .array(let keys)? = fields["NS.keys"], case .array(let values)? = fields["NS.objects"] {
            guard keys.count == values.count else {
                throw .malformed("\(context()) has \(keys.count) keys but \(values.count) values")
            }
            return Array(zip(keys, values)).map { (key: $0.0, value: $0.1) }
        }
        if let values = fields["values"] {
            // NSKnownKeysDictionary1: keys live in the shared mapping strategy, values in a parallel array; unused
            // slots hold the "empty token".
            let mapping = try fields["searchMapping"].flatMap { (reference: Value) throws(KeyedArchiveError) in
                try object(reference, "\(context())'s key mapping")
            }
            let keys = try elements(mapping?["keys"], "\(context())'s keys")
            let slots = try elements(values, "\(context())'s values")
            guard keys.count == slots.count else {
                throw .malformed("\(context()) has \(keys.count) keys but \(slots.count) values")
            }
            let empty = try fields["emptyToken"].flatMap { (reference: Value) throws(KeyedArchiveError) in
                try resolve(reference)
            }
            var result: [(key: Value, value: Value)] = []
            for (key, slot) in zip(keys, slots) {
                if let empty, try resolve(slot) == empty { continue }
                result.append((key: key, value: slot))
            }
            return result
        }
        throw .malformed("\(context()) is an archived \((try? className(of: fields)) ?? "object"), not a dictionary")
    }

    /// Expands `value` into a tree by following every reference, for values meant to be read whole (a default
    /// value, a user-info dictionary). An archived nil stays the string `$null`; an object's `$class` becomes its
    /// class name.
    /// - Throws: `KeyedArchiveError.cyclicReference` when a reference leads back to an object being expanded,
    ///   `.tooDeep` beyond `depthLimit`, `.tooLarge` beyond `nodeLimit` values (shared objects are expanded once per
    ///   use, so a small hostile archive could otherwise expand exponentially), `.badReference` for a dangling one.
    func tree(_ value: Value, depthLimit: Int = defaultDepthLimit, nodeLimit: Int = 100_000) throws(KeyedArchiveError)
        -> Value
    {
        var path: Set<Int> = []
        var budget = nodeLimit
        return try expand(value, depth: 0, limit: depthLimit, path: &path, budget: &budget, nodeLimit: nodeLimit)
    }

    private func expand(
        _ value: Value, depth: Int, limit: Int, path: inout Set<Int>, budget: inout Int,
        nodeLimit: Int
    ) throws(KeyedArchiveError) -> Value {
        guard depth <= limit else { throw .tooDeep(limit: limit) }
        budget -= 1
        guard budget >= 0 else { throw .tooLarge(limit: nodeLimit) }
        switch value {
        case .reference(let index):
            guard let resolved = try resolve(value) else { return .string("$null") }
            guard path.insert(index).inserted else { throw .cyclicReference(index: index) }
            defer { path.remove(index) }
            return try expand(
                resolved, depth: depth + 1, limit: limit, path: &path, budget: &budget, nodeLimit: nodeLimit)
        case .array(let elements):
            var result: [Value] = []
            for element in elements {
                result.append(
                    try expand(
                        element, depth: depth + 1, limit: limit, path: &path, budget: &budget, nodeLimit: nodeLimit))
            }
            return .array(result)
        case .dictionary(let fields):
            var result: [String: Value] = [:]
            for (key, element) in fields where key != "$class" {
                result[key] = try expand(
                    element, depth: depth + 1, limit: limit, path: &path, budget: &budget, nodeLimit: nodeLimit)
            }
            if fields["$class"] != nil { result["$class"] = .string(try className(of: fields)) }
            return .dictionary(result)
        default:
            return value
        }
    }

    private static func reason(_ error: any Error, data: Data) -> String {
        // Foundation falls back to the old text format when a binary plist is damaged and then reports that parser's
        // complaint ("Unexpected character b at line 1"), which misleads; name the real problem instead.
        if data.starts(with: Array("bplist".utf8)) { return "a damaged or truncated binary property list" }
        if data.isEmpty { return "no data" }
        let nsError = error as NSError
        if let debug = nsError.userInfo[NSDebugDescriptionErrorKey] as? String, !debug.isEmpty { return debug }
        return nsError.localizedDescription
    }
}
