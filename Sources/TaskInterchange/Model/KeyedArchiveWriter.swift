/// Writes an `NSKeyedArchiver` archive (the form `KeyedArchive` reads) without Foundation's archiver: objects are
/// numbered as the archiver numbers them — an object when its encoding starts, its class description when its
/// encoding ends — equal strings and numbers are archived once, and the property list is written with
/// `BinaryPropertyList`, so one object graph always gives the same bytes.
struct KeyedArchiveWriter {
    typealias Value = BinaryPropertyList.Value

    /// `$objects`; index 0 is the `$null` placeholder. Reserved objects hold an empty dictionary until filled.
    private var objects: [Value] = [.string("$null")]
    /// Leaf objects (strings, numbers) already archived, by value.
    private var leaves: [Value: Int] = [:]
    /// Class descriptions already archived, by class hierarchy.
    private var classes: [[String]: Int] = [:]

    /// The reference an archived nil is written as.
    static let null = Value.uid(0)

    /// Numbers the next object, before its contents are encoded (so objects it refers to come after it).
    mutating func reserve() -> Int {
        objects.append(.dictionary([:]))
        return objects.count - 1
    }

    /// Fills a reserved object with its fields, then numbers its class description (if new).
    /// - Parameter classHierarchy: the class first, then its superclasses up to `NSObject`.
    mutating func fill(_ index: Int, classHierarchy: [String], fields: [String: Value]) {
        var object = fields
        object["$class"] = .uid(classDescription(classHierarchy))
        objects[index] = .dictionary(object)
    }

    /// A new object: reserved, then filled with `fields` (which must not refer back to it).
    mutating func object(_ classHierarchy: [String], _ fields: [String: Value]) -> Value {
        let index = reserve()
        fill(index, classHierarchy: classHierarchy, fields: fields)
        return .uid(index)
    }

    /// A string or number as an archived object (a reference), archived once per value; nil becomes `$null`.
    mutating func leaf(_ value: Value?) -> Value {
        guard let value else { return Self.null }
        if let index = leaves[value] { return .uid(index) }
        objects.append(value)
        leaves[value] = objects.count - 1
        return .uid(objects.count - 1)
    }

    /// A string object; nil becomes `$null`.
    mutating func string(_ text: String?) -> Value {
        leaf(text.map(Value.string))
    }

    /// The archive's bytes, with `root` as `$top`'s `root`.
    func encoded(root: Value) -> [UInt8] {
        BinaryPropertyList.encode(
            .dictionary([
                "$version": .integer(100_000), "$archiver": .string("NSKeyedArchiver"),
                "$top": .dictionary(["root": root]), "$objects": .array(objects),
            ]))
    }

    private mutating func classDescription(_ hierarchy: [String]) -> Int {
        if let index = classes[hierarchy] { return index }
        objects.append(
            .dictionary(["$classname": .string(hierarchy[0]), "$classes": .array(hierarchy.map(Value.string))]))
        classes[hierarchy] = objects.count - 1
        return objects.count - 1
    }
}
