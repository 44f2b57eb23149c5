import Foundation
import Testing
@testable import TaskInterchange

/// Model caches built in the test: shapes the shared fixtures lack (proxies, composites, reflexive relationships,
/// non-ASCII names, filters) and malformed ones.
@Suite("Model cache decoding")
struct ModelCacheDecodingTests {
    private func decode(_ builder: ModelArchiveBuilder, entities: [Int]) throws -> ObjectModel {
        try ObjectModel(modelCache: ModelArchiveBuilder.storedDeflate(try builder.modelArchive(entities: entities)))
    }

    private func decodeError(_ builder: ModelArchiveBuilder, entities: [Int]) throws -> ModelCacheError? {
        let cache = ModelArchiveBuilder.storedDeflate(try builder.modelArchive(entities: entities))
        do {
            _ = try ObjectModel(modelCache: cache)
            return nil
        } catch {
            return error
        }
    }

    @Test(
        "inherited properties archived as proxies or copies belong to the parent; the hashes are those of the plain model"
    )
    func inheritance() throws {
        let builder = ModelArchiveBuilder()
        let base = builder.reserve(), viaProxy = builder.reserve(), viaCopy = builder.reserve()
        let title = builder.attribute("title", type: 700)
        let owner = builder.relationship("owner", destination: "Base", inverse: nil, maxCount: 1)
        let proxy = { (reference: ModelArchiveBuilder.Reference) in
            builder.add(
                builder.object(
                    "_NSPropertyDescriptionProxy",
                    [
                        "NSUnderlyingProperty": reference, "NSReferenceID": 0,
                        "NSEntityDescription": builder.reference(viaProxy),
                    ]))
        }
        builder.entity(
            base, name: "Base", properties: [("title", title), ("owner", owner)], extra: ["NSIsAbstract": true])
        builder.entity(
            viaProxy, name: "Proxied", superentity: base,
            properties: [
                ("title", proxy(title)), ("owner", proxy(owner)), ("extra", builder.attribute("extra", type: 200)),
            ])
        builder.entity(
            viaCopy, name: "Copied", superentity: base,
            properties: [
                ("title", builder.attribute("title", type: 700)),
                ("owner", builder.relationship("owner", destination: "Base", inverse: nil, maxCount: 1)),
                ("extra", builder.attribute("extra", type: 200)),
            ])
        let model = try decode(builder, entities: [base, viaProxy, viaCopy])
        #expect(model.entities.map(\.name) == ["Base", "Copied", "Proxied"])
        #expect(model.entity(named: "Base")?.isAbstract == true)
        for name in ["Proxied", "Copied"] {
            let entity = try #require(model.entity(named: name))
            #expect(entity.superentity == "Base")
            #expect(entity.attributes.map(\.name) == ["extra"])
            #expect(entity.relationships.isEmpty)
        }
        var plainBase = ObjectModel.Entity(
            "Base", attributes: [.init("title", .string)],
            relationships: [.init("owner", to: "Base", inverse: nil, toMany: false)])
        plainBase.isAbstract = true
        plainBase.relationships[0].isOptional = true
        let child = { (name: String) in
            ObjectModel.Entity(name, superentity: "Base", attributes: [.init("extra", .integer32)])
        }
        let plain = ObjectModel(entities: [plainBase, child("Proxied"), child("Copied")])
        #expect(model.versionHashes == plain.versionHashes)
        #expect(model.versionIdentifiers == ["1.0", "2.0"])
    }

    @Test("non-ASCII entity and property names survive; composite elements, reflexive inverses and flags decode")
    func shapes() throws {
        let builder = ModelArchiveBuilder()
        let person = builder.reserve()
        let street = builder.attribute("street", type: 700)
        let zip = builder.attribute("zip", type: 200, packedFlags: 0xF3)
        let address = builder.attribute(
            "address", type: 2100, extra: ["NSCompositeElements": builder.array([street, zip])],
            className: "NSCompositeAttributeDescription",
            superclasses: ["NSAttributeDescription", "NSPropertyDescription"])
        builder.entity(
            person, name: "Personne",
            properties: [
                (
                    "prénom",
                    builder.attribute(
                        "prénom", type: 700, packedFlags: 0x71, extra: ["NSVersionHashModifier": builder.add("v2")])
                ),
                // 0x80 set: the modifier under the key is stale and must be ignored.
                (
                    "nom",
                    builder.attribute(
                        "nom", type: 700, packedFlags: 0xF1, extra: ["NSVersionHashModifier": builder.add("stale")])
                ),
                ("photo", builder.attribute("photo", type: 1000, extra: ["NSFlagsKey": 0x14])),
                // _P 0: the boolean keys hold the flags.
                (
                    "note",
                    builder.attribute(
                        "note", type: 700, packedFlags: 0, extra: ["NSIsOptional": true, "NSIsTransient": true])
                ),
                ("address", address),
                (
                    "conjoint",
                    builder.relationship("conjoint", destination: "Personne", inverse: "conjoint", maxCount: 1)
                ),
                (
                    "enfants",
                    builder.relationship(
                        "enfants", destination: "Personne", inverse: nil, maxCount: 0,
                        extra: ["_P": 0x4F3, "NSDeleteRule": 2])
                ),
            ], extra: ["NSUniqueTuples": builder.array([builder.array([builder.add("prénom"), builder.add("nom")])])])
        let model = try decode(builder, entities: [person])
        let entity = try #require(model.entity(named: "Personne"))
        #expect(entity.attributes.map(\.name) == ["address", "nom", "note", "photo", "prénom"])
        #expect(entity.uniquenessConstraints == [["prénom", "nom"]])
        let attributes = Dictionary(uniqueKeysWithValues: entity.attributes.map { ($0.name, $0) })
        #expect(attributes["prénom"]?.versionHashModifier == "v2")
        #expect(attributes["nom"]?.versionHashModifier == nil)
        #expect(attributes["photo"]?.allowsExternalStorage == true)
        #expect(attributes["photo"]?.preservesValueInHistoryOnDeletion == true)
        #expect(attributes["note"]?.isOptional == true && attributes["note"]?.isTransient == true)
        #expect(attributes["address"]?.type == .composite)
        #expect(attributes["address"]?.elements.map(\.name) == ["street", "zip"])
        #expect(attributes["address"]?.elements.map(\.type) == [.string, .integer32])
        #expect(attributes["address"]?.elements.last?.isOptional == true)
        let relationships = Dictionary(uniqueKeysWithValues: entity.relationships.map { ($0.name, $0) })
        #expect(relationships["conjoint"]?.inverse == "conjoint")
        #expect(relationships["conjoint"]?.destination == "Personne")
        #expect(relationships["enfants"]?.isOrdered == true)
        #expect(relationships["enfants"]?.deleteRule == .cascade)
        #expect(relationships["enfants"]?.isToMany == true)
        #expect(model.versionHashes["Personne"]?.count == 32)
    }

    @Test("derived attributes carry their expression and filter formats; defaults read as text")
    func derivedAndDefaults() throws {
        let builder = ModelArchiveBuilder()
        let order = builder.reserve()
        let selfExpression = builder.add(builder.object("NSSelfExpression", ["NSExpressionType": 1]))
        let keyPath = { (path: String) in
            builder.add(
                builder.object(
                    "NSKeyPathExpression", superclasses: ["NSFunctionExpression", "NSExpression"],
                    [
                        "NSExpressionType": 3, "NSOperand": selfExpression,
                        "NSSelectorName": builder.add("valueForKey:"),
                        "NSArguments": builder.array([
                            builder.add(
                                builder.object(
                                    "NSKeyPathSpecifierExpression",
                                    ["NSExpressionType": 10, "NSKeyPath": builder.add(path)]))
                        ]),
                    ]))
        }
        let utilities = builder.add(
            builder.object(
                "NSConstantValueExpression",
                [
                    "NSExpressionType": 0, "NSConstantValueClassName": builder.add("_NSPredicateUtilities"),
                ]))
        let sum = builder.add(
            builder.object(
                "NSFunctionExpression",
                [
                    "NSExpressionType": 4, "NSOperand": utilities,
                    "NSSelectorName": builder.add("sum:"),
                    "NSArguments": builder.array([keyPath("items.price")]),
                ]))
        let zero = builder.add(
            builder.object("NSConstantValueExpression", ["NSExpressionType": 0, "NSConstantValue": 0]))
        let positive = builder.add(
            builder.object(
                "NSComparisonPredicate",
                [
                    "NSLeftExpression": keyPath("price"), "NSRightExpression": zero,
                    "NSPredicateOperator": builder.add(
                        builder.object(
                            "NSComparisonPredicateOperator", ["NSOperatorType": 2, "NSModifier": 0, "NSOptions": 0])),
                ]))
        let decimal = builder.add(
            builder.object(
                "NSDecimalNumberPlaceholder",
                [
                    "NS.mantissa": Data([0x39, 0x30] + Array(repeating: 0, count: 14)), "NS.mantissa.bo": 1,
                    "NS.length": 1,
                    "NS.exponent": -2, "NS.negative": true, "NS.compact": true,
                ]))
        let uuid = builder.add(builder.object("NSUUID", ["NS.uuidbytes": Data((0..<16).map { UInt8($0) })]))
        let date = builder.add(builder.object("NSDate", ["NS.time": 0.5]))
        builder.entity(
            order, name: "Order",
            properties: [
                (
                    "total",
                    builder.attribute(
                        "total", type: 400, packedFlags: 0xF7,
                        extra: ["NSDerivationExpression": sum, "NSFilteringPredicate": positive],
                        className: "NSDerivedAttributeDescription",
                        superclasses: ["NSAttributeDescription", "NSPropertyDescription"])
                ),
                ("amount", builder.attribute("amount", type: 400, extra: ["NSDefaultValue": decimal])),
                ("code", builder.attribute("code", type: 1100, extra: ["NSDefaultValue": uuid])),
                ("placed", builder.attribute("placed", type: 900, extra: ["NSDefaultValue": date])),
                ("paid", builder.attribute("paid", type: 800, extra: ["NSDefaultValue": false])),
                ("label", builder.attribute("label", type: 700, extra: ["NSDefaultValue": builder.add("n/a")])),
            ])
        let model = try decode(builder, entities: [order])
        let attributes = Dictionary(
            uniqueKeysWithValues: try #require(model.entity(named: "Order")).attributes.map { ($0.name, $0) })
        #expect(attributes["total"]?.derivation == "sum:(items.price)")
        #expect(attributes["total"]?.derivationFilter == "price > 0")
        #expect(attributes["amount"]?.defaultValue == "-123.45")
        #expect(attributes["code"]?.defaultValue == "00010203-0405-0607-0809-0A0B0C0D0E0F")
        #expect(attributes["placed"]?.defaultValue == "2001-01-01T00:00:00.5Z")
        #expect(attributes["paid"]?.defaultValue == "NO")
        #expect(attributes["label"]?.defaultValue == "n/a")
    }

    @Test("an inheritance cycle, a self-parent and a missing parent are malformed, not an endless hash")
    func inheritanceErrors() throws {
        let cycle = ModelArchiveBuilder()
        let a = cycle.reserve(), b = cycle.reserve()
        cycle.entity(a, name: "A", superentity: b, properties: [])
        cycle.entity(b, name: "B", superentity: a, properties: [])
        #expect(try decodeError(cycle, entities: [a, b]) == .malformed("entities A → B → A form an inheritance cycle"))

        let selfParent = ModelArchiveBuilder()
        let c = selfParent.reserve()
        selfParent.entity(c, name: "C", superentity: c, properties: [])
        #expect(try decodeError(selfParent, entities: [c]) == .malformed("entities C → C form an inheritance cycle"))

        let missing = ModelArchiveBuilder()
        let d = missing.reserve(), e = missing.reserve()
        missing.entity(d, name: "D", superentity: e, properties: [])
        missing.entity(e, name: "E", properties: [])
        #expect(try decodeError(missing, entities: [d]) == .malformed("entity D's superentity E is not in the model"))
    }

    @Test("an expression that contains itself is an error, not endless recursion")
    func cyclicExpression() throws {
        let builder = ModelArchiveBuilder()
        let entity = builder.reserve(), function = builder.reserve()
        builder.set(
            function,
            builder.object(
                "NSFunctionExpression",
                [
                    "NSExpressionType": 4, "NSSelectorName": builder.add("count:"),
                    "NSOperand": builder.reference(function),
                    "NSArguments": builder.array([builder.reference(function)]),
                ]))
        builder.entity(
            entity, name: "Loop",
            properties: [
                (
                    "n",
                    builder.attribute(
                        "n", type: 300, extra: ["NSDerivationExpression": builder.reference(function)],
                        className: "NSDerivedAttributeDescription", superclasses: ["NSAttributeDescription"])
                )
            ])
        #expect(
            try decodeError(builder, entities: [entity])
                == .malformed(
                    "the derivation of property n of entity Loop nests deeper than 32 levels (or refers to itself)"))
    }

    @Test("wrong kinds of values are malformed; unknown types are unsupported; references outside $objects fail")
    func valueErrors() throws {
        let wrongType = ModelArchiveBuilder()
        let a = wrongType.reserve()
        wrongType.entity(
            a, name: "A",
            properties: [("x", wrongType.attribute("x", type: 0, extra: ["NSAttributeType": wrongType.add("700")]))])
        #expect(
            try decodeError(wrongType, entities: [a])
                == .malformed("property x of entity A's NSAttributeType is a string, not an integer"))

        let unknownType = ModelArchiveBuilder()
        let b = unknownType.reserve()
        unknownType.entity(b, name: "B", properties: [("x", unknownType.attribute("x", type: 4242))])
        #expect(
            try decodeError(unknownType, entities: [b])
                == .unsupported("property x of entity B has attribute type 4242, which tasks does not know"))

        let dangling = ModelArchiveBuilder()
        let c = dangling.reserve()
        dangling.entity(c, name: "C", properties: [("x", dangling.reference(5000))])
        guard case .archive(.badReference(index: 5000, _))? = try decodeError(dangling, entities: [c]) else {
            Issue.record("a dangling reference is not reported as such")
            return
        }
    }

    @Test("the root must be a managed object model; garbage and truncation are reported by layer")
    func layers() throws {
        let builder = ModelArchiveBuilder()
        let data = try builder.archive(root: builder.add(builder.object("NSArray", ["NS.objects": [Any]()])))
        #expect(throws: ModelCacheError.malformed("the archive's root is an NSArray, not an NSManagedObjectModel")) {
            try ObjectModel(modelCache: ModelArchiveBuilder.storedDeflate(data))
        }
        #expect {
            try ObjectModel(modelCache: ModelArchiveBuilder.storedDeflate(Data("not a plist at all".utf8)))
        } throws: { error in
            if case .archive(.notAPropertyList) = error as? ModelCacheError { return true }
            return false
        }
        let cache = ModelArchiveBuilder.storedDeflate(data)
        #expect(throws: ModelCacheError.inflate(.truncated)) {
            try ObjectModel(modelCache: cache.prefix(cache.count / 2))
        }
        #expect(throws: ModelCacheError.inflate(.tooLarge(limit: 100))) {
            try ObjectModel(modelCache: cache, inflateLimit: 100)
        }
    }
}
