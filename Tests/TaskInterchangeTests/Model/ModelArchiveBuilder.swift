import Foundation
@testable import TaskInterchange

/// Builds `NSKeyedArchiver`-shaped archives for tests: objects go into `$objects`, references are `{"CF$UID": n}`
/// dictionaries, which the XML plist reader turns into real UIDs (and the binary writer keeps as dictionaries — the
/// reader must understand both).
final class ModelArchiveBuilder {
    typealias Reference = [String: Any]

    private(set) var objects: [Any] = ["$null"]
    private var classes: [String: Int] = [:]

    /// The reference to `$null`.
    let null: Reference = ["CF$UID": 0]

    func reference(_ index: Int) -> Reference { ["CF$UID": index] }

    /// Appends any value; returns its reference.
    @discardableResult
    func add(_ value: Any) -> Reference {
        objects.append(value)
        return reference(objects.count - 1)
    }

    /// Reserves a slot for an object filled in later (for references that point forward or in a cycle).
    func reserve() -> Int {
        objects.append("placeholder")
        return objects.count - 1
    }

    func set(_ index: Int, _ value: Any) {
        objects[index] = value
    }

    /// The class description for `name`, added once.
    func classReference(_ name: String, superclasses: [String]) -> Reference {
        if let index = classes[name] { return reference(index) }
        let ref = add(["$classname": name, "$classes": [name] + superclasses + ["NSObject"]])
        classes[name] = ref["CF$UID"] as? Int
        return ref
    }

    /// An archived object's fields with its `$class` set.
    func object(_ className: String, superclasses: [String] = [], _ fields: [String: Any]) -> [String: Any] {
        var result = fields
        result["$class"] = classReference(className, superclasses: superclasses)
        return result
    }

    func array(_ elements: [Reference]) -> Reference {
        add(object("NSArray", ["NS.objects": elements]))
    }

    func dictionary(_ entries: [(key: String, value: Reference)]) -> Reference {
        let keys = entries.map { add($0.key) }
        return add(object("NSDictionary", ["NS.keys": keys, "NS.objects": entries.map(\.value)]))
    }

    func attribute(
        _ name: String, type: Int, packedFlags: Int = 0xF1, extra: [String: Any] = [:],
        className: String = "NSAttributeDescription", superclasses: [String] = ["NSPropertyDescription"]
    ) -> Reference {
        var fields: [String: Any] = [
            "NSPropertyName": add(name), "NSAttributeType": type, "_P": packedFlags,
            "NSVersionHashModifier": null, "NSDefaultValue": null,
        ]
        fields.merge(extra) { $1 }
        return add(object(className, superclasses: superclasses, fields))
    }

    func relationship(_ name: String, destination: String, inverse: String?, maxCount: Int, extra: [String: Any] = [:])
        -> Reference
    {
        var fields: [String: Any] = [
            "NSPropertyName": add(name), "_NSDestinationEntityName": add(destination),
            "_NSInverseRelationshipName": inverse.map { add($0) } ?? null, "NSMaxCount": maxCount,
            "NSMinCount": 0, "NSDeleteRule": 1, "_P": 0xF3,
        ]
        fields.merge(extra) { $1 }
        return add(object("NSRelationshipDescription", superclasses: ["NSPropertyDescription"], fields))
    }

    /// Fills the reserved `slot` with an entity.
    func entity(
        _ slot: Int, name: String, superentity: Int? = nil, properties: [(key: String, value: Reference)],
        extra: [String: Any] = [:]
    ) {
        var fields: [String: Any] = [
            "NSEntityName": add(name), "NSProperties": dictionary(properties),
            "NSSuperentity": superentity.map(reference) ?? null, "NSVersionHashModifier": null,
        ]
        fields.merge(extra) { $1 }
        set(slot, object("NSEntityDescription", fields))
    }

    /// The archive with an `NSManagedObjectModel` root over the entities in `slots`.
    func modelArchive(entities slots: [Int], format: PropertyListSerialization.PropertyListFormat = .xml) throws -> Data
    {
        let root = add(
            object(
                "NSManagedObjectModel",
                [
                    "NSEntities": array(slots.map(reference)),
                    "NSVersionIdentifiers": add(object("NSSet", ["NS.objects": [add("2.0"), add("1.0")]])),
                ]))
        return try archive(root: root, format: format)
    }

    func archive(root: Reference, format: PropertyListSerialization.PropertyListFormat = .xml) throws -> Data {
        let plist: [String: Any] = [
            "$archiver": "NSKeyedArchiver", "$version": 100000, "$top": ["root": root], "$objects": objects,
        ]
        return try PropertyListSerialization.data(fromPropertyList: plist, format: format, options: 0)
    }

    /// Raw DEFLATE made of stored (uncompressed) blocks: valid input for any inflater, no compressor needed.
    static func storedDeflate(_ data: Data) -> Data {
        var output = Data()
        let bytes = Array(data)
        var offset = 0
        repeat {
            let count = min(65_535, bytes.count - offset)
            let final = offset + count == bytes.count
            output.append(final ? 1 : 0)
            output.append(contentsOf: [
                UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF),
            ])
            output.append(contentsOf: bytes[offset..<offset + count])
            offset += count
        } while offset < bytes.count
        return output
    }
}
