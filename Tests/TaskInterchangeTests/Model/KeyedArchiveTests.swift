import Foundation
import Testing
@testable import TaskInterchange

@Suite("Keyed archives")
struct KeyedArchiveTests {
    @Test("CF$UID references read the same from XML (real UIDs) and binary (plain dictionaries) plists; $null is nil")
    func references() throws {
        for format in [PropertyListSerialization.PropertyListFormat.xml, .binary] {
            let builder = ModelArchiveBuilder()
            let name = builder.add("Café ☕")
            let root = builder.add(
                builder.object("Thing", ["name": name, "missing": builder.null, "count": 3, "flag": true]))
            let archive = try KeyedArchive(data: try builder.archive(root: root, format: format))
            let fields = try #require(try archive.object(archive.top["root"]!, "root"))
            #expect(try archive.className(of: fields) == "Thing")
            #expect(try archive.string(fields["name"], "name") == "Café ☕")
            #expect(try archive.resolve(fields["missing"]!) == nil)
            #expect(fields["count"] == .integer(3))
            #expect(fields["flag"] == .bool(true))
            #expect(archive.archiver == "NSKeyedArchiver")
            #expect(archive.version == 100000)
        }
    }

    @Test("garbage, a damaged binary plist and plists that are not archives are errors")
    func notArchives() throws {
        #expect { try KeyedArchive(data: Data("garbage \u{1} bytes".utf8)) } throws: { error in
            if case .notAPropertyList = error as? KeyedArchiveError { return true }
            return false
        }
        let builder = ModelArchiveBuilder()
        let good = try builder.archive(root: builder.add("x"), format: .binary)
        #expect(throws: KeyedArchiveError.notAPropertyList("a damaged or truncated binary property list")) {
            try KeyedArchive(data: good.prefix(good.count - 10))
        }
        let array = try PropertyListSerialization.data(fromPropertyList: [1, 2], format: .binary, options: 0)
        #expect(throws: KeyedArchiveError.notAKeyedArchive("the property list is not a dictionary")) {
            try KeyedArchive(data: array)
        }
        let noObjects = try PropertyListSerialization.data(
            fromPropertyList: ["$top": [String: Any]()], format: .binary, options: 0)
        #expect(throws: KeyedArchiveError.notAKeyedArchive("no $objects array")) { try KeyedArchive(data: noObjects) }
    }

    @Test("a reference outside $objects and a reference to a reference are errors")
    func badReferences() throws {
        let builder = ModelArchiveBuilder()
        let chained = builder.add(builder.reference(1))
        let root = builder.add(builder.object("Thing", ["far": builder.reference(9999), "chained": chained]))
        let archive = try KeyedArchive(data: try builder.archive(root: root))
        let fields = try #require(try archive.object(archive.top["root"]!, "root"))
        #expect(throws: KeyedArchiveError.badReference(index: 9999, objectCount: archive.objects.count)) {
            try archive.resolve(fields["far"]!)
        }
        #expect(throws: KeyedArchiveError.self) { try archive.resolve(fields["chained"]!) }
    }

    @Test("expanding a cyclic object graph is an error, not a hang; so is an exponential one")
    func cycles() throws {
        let builder = ModelArchiveBuilder()
        let first = builder.reserve(), second = builder.reserve()
        builder.set(first, builder.object("NSArray", ["NS.objects": [builder.reference(second)]]))
        builder.set(second, builder.object("NSArray", ["NS.objects": [builder.reference(first)]]))
        // Each level refers twice to the next: 40 levels would expand to 2^40 values.
        var next = builder.add("leaf")
        for _ in 0..<40 { next = builder.add(builder.object("NSArray", ["NS.objects": [next, next]])) }
        let root = builder.add(builder.object("Root", ["cycle": builder.reference(first), "diamond": next]))
        let archive = try KeyedArchive(data: try builder.archive(root: root))
        let fields = try #require(try archive.object(archive.top["root"]!, "root"))
        #expect(throws: KeyedArchiveError.cyclicReference(index: first)) { try archive.tree(fields["cycle"]!) }
        #expect(throws: KeyedArchiveError.tooLarge(limit: 100_000)) {
            try archive.tree(fields["diamond"]!, depthLimit: 1000)
        }
        // The elements are still readable one step at a time.
        #expect(try archive.elements(fields["cycle"], "cycle") == [.reference(second)])
    }

    @Test("nesting beyond the depth budget is an error")
    func depth() throws {
        var nested: Any = "deep"
        for _ in 0..<100 { nested = [nested] }
        let builder = ModelArchiveBuilder()
        let root = builder.add(builder.object("Thing", ["nested": nested]))
        let data = try builder.archive(root: root, format: .binary)
        #expect(throws: KeyedArchiveError.tooDeep(limit: 64)) { try KeyedArchive(data: data) }
        #expect(throws: Never.self) { try KeyedArchive(data: data, depthLimit: 200) }
    }
}
