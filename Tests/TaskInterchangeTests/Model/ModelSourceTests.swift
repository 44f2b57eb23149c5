import Foundation
import Testing
@testable import TaskInterchange

/// Reading `.xcdatamodel` XML: every feature the issue lists, and located errors for bad input.
@Suite("Model sources: .xcdatamodel XML")
struct ModelSourceTests {
    /// A model using every feature the parser reads, written as Xcode writes it.
    static let everything = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" userDefinedModelVersionIdentifier="v7">
            <entity name="Item" representedClassName="Item" isAbstract="YES" versionHashModifier="e2" elementID="OldItem" syncable="YES">
                <attribute name="count" attributeType="Integer 32" minValueString="0" maxValueString="10" defaultValueString="3" usesScalarValueType="YES"/>
                <attribute name="photo" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/>
                <attribute name="colors" optional="YES" attributeType="Transformable" valueTransformerName="ColorsTransformer" customClassName="[String]"/>
                <attribute name="scratch" optional="YES" transient="YES" attributeType="String"/>
                <attribute name="title" optional="YES" attributeType="String" versionHashModifier="t1" elementID="name" preserveAfterDeletion="YES">
                    <userInfo>
                        <entry key="note" value="shown in lists"/>
                    </userInfo>
                </attribute>
                <attribute name="titleLength" optional="YES" attributeType="Integer 64" derived="YES" derivationExpression="title.length"/>
                <relationship name="parts" optional="YES" toMany="YES" minCount="1" maxCount="5" deletionRule="Cascade" ordered="YES" destinationEntity="Part" inverseName="owner" inverseEntity="Part"/>
                <fetchedProperty name="recentParts" optional="YES">
                    <fetchRequest name="fetchedPropertyFetchRequest" entity="Part" predicateString="TRUEPREDICATE"/>
                </fetchedProperty>
                <uniquenessConstraints>
                    <uniquenessConstraint>
                        <constraint value="title"/>
                    </uniquenessConstraint>
                    <uniquenessConstraint>
                        <constraint value="count"/>
                        <constraint value="title"/>
                    </uniquenessConstraint>
                </uniquenessConstraints>
                <fetchIndex name="byTitle">
                    <fetchIndexElement property="title" type="Binary" order="descending"/>
                </fetchIndex>
                <userInfo>
                    <entry key="owner" value="catalog"/>
                </userInfo>
            </entity>
            <entity name="Part" parentEntity="Thing" syncable="YES">
                <relationship name="owner" maxCount="1" deletionRule="Deny" destinationEntity="Item" inverseName="parts" inverseEntity="Item"/>
            </entity>
            <entity name="Thing" syncable="YES">
                <attribute name="id" attributeType="UUID" usesScalarValueType="NO"/>
            </entity>
            <configuration name="Cloud">
                <memberEntity name="Item"/>
                <memberEntity name="Part"/>
            </configuration>
            <elements>
                <element name="Item" positionX="0" positionY="0" width="128" height="100"/>
            </elements>
        </model>
        """

    static func parse(_ text: String) throws(TaskInterchangeError) -> ObjectModel {
        try XCDataModelParser(path: "M.xcdatamodel/contents").parse(Data(text.utf8))
    }

    /// The error `body` throws, or nil (recorded as an issue) when it does not throw.
    static func failure(_ body: () throws(TaskInterchangeError) -> Void) -> TaskInterchangeError? {
        do {
            try body()
            Issue.record("no error was thrown")
            return nil
        } catch {
            return error
        }
    }

    @Test("every feature is read into the ObjectModel")
    func everyFeature() throws {
        let model = try Self.parse(Self.everything)
        #expect(model.entities.map(\.name) == ["Item", "Part", "Thing"])
        #expect(model.versionIdentifiers == ["v7"])
        #expect(model.configurations == ["Cloud": ["Item", "Part"]])
        let item = try #require(model.entity(named: "Item"))
        #expect(
            item.isAbstract && item.versionHashModifier == "e2" && item.renamingIdentifier == "OldItem"
                && item.className == "Item")
        #expect(item.userInfo == ["owner": "catalog"])
        // Own properties in byte-wise name order, as the model-cache decoder gives them.
        #expect(item.attributes.map(\.name) == ["colors", "count", "photo", "scratch", "title", "titleLength"])
        let count = try #require(item.attributes.first { $0.name == "count" })
        #expect(
            count.type == .integer32 && !count.isOptional && count.defaultValue == "3" && count.minValue == "0"
                && count.maxValue == "10")
        let photo = try #require(item.attributes.first { $0.name == "photo" })
        #expect(photo.type == .binaryData && photo.isOptional && photo.allowsExternalStorage)
        let colors = try #require(item.attributes.first { $0.name == "colors" })
        #expect(
            colors.type == .transformable && colors.valueTransformerName == "ColorsTransformer"
                && colors.valueClassName == "[String]")
        #expect(item.attributes.first { $0.name == "scratch" }?.isTransient == true)
        let title = try #require(item.attributes.first { $0.name == "title" })
        #expect(
            title.versionHashModifier == "t1" && title.renamingIdentifier == "name"
                && title.preservesValueInHistoryOnDeletion)
        #expect(title.userInfo == ["note": "shown in lists"])
        #expect(item.attributes.first { $0.name == "titleLength" }?.derivation == "title.length")
        let parts = try #require(item.relationships.first)
        #expect(parts.name == "parts" && parts.destination == "Part" && parts.inverse == "owner" && parts.isToMany)
        #expect(
            parts.minCount == 1 && parts.maxCount == 5 && parts.isOrdered && parts.deleteRule == .cascade
                && parts.isOptional)
        #expect(item.fetchedProperties == ["recentParts"])
        #expect(item.uniquenessConstraints == [["title"], ["count", "title"]])
        #expect(item.fetchIndexes == [ObjectModel.FetchIndex("byTitle", elements: [.init("title", ascending: false)])])
        let part = try #require(model.entity(named: "Part"))
        #expect(part.superentity == "Thing")
        let owner = try #require(part.relationships.first)
        #expect(!owner.isToMany && owner.maxCount == 1 && !owner.isOptional && owner.deleteRule == .deny)
        #expect(model.entity(named: "Thing")?.attributes.first?.type == .uuid)
    }

    @Test("the version hash of a parsed entity changes with what Core Data hashes, not with what it ignores")
    func hashesFollowCoreDataRules() throws {
        let base = try Self.parse(Self.everything).versionHashes
        // Delete rules, class names, transformer names, user info and min/max values are not part of the hash.
        let ignored = Self.everything.replacingOccurrences(
            of: "deletionRule=\"Cascade\"", with: "deletionRule=\"Nullify\""
        )
        .replacingOccurrences(of: "ColorsTransformer", with: "Other").replacingOccurrences(
            of: "value=\"catalog\"", with: "value=\"x\""
        )
        .replacingOccurrences(of: "maxValueString=\"10\"", with: "maxValueString=\"11\"")
        #expect(try Self.parse(ignored).versionHashes == base)
        // The hash modifier of a property is.
        let modified = Self.everything.replacingOccurrences(
            of: "versionHashModifier=\"t1\"", with: "versionHashModifier=\"t2\"")
        let changed = try Self.parse(modified).versionHashes
        #expect(changed["Item"] != base["Item"])
        #expect(changed["Thing"] == base["Thing"])
    }

    @Test(
        "malformed XML is a located error",
        arguments: [
            ("<model>\n  <entity name=\"A\">\n  </entiti>\n</model>", "contents:3:"),
            (
                "<model>\n<entity name=\"A\"><attribute name=\"x\" attributeType=\"Integer 128\"/></entity></model>",
                "attributeType \"Integer 128\""
            ),
            (
                "<model>\n<entity name=\"A\">\n<relationship name=\"b\" maxCount=\"1\" destinationEntity=\"B\"/></entity></model>",
                "contents:3:"
            ),
            ("<model><entity name=\"A\" parentEntity=\"Z\"/></model>", "superentity Z is not in the model"),
            ("<model><entity name=\"A\"/><entity name=\"A\"/></model>", "two entities are named A"),
            ("<plist version=\"1.0\"><dict/></plist>", "not <model>"),
            ("", "M.xcdatamodel/contents"),
            (
                "<model><entity name=\"A\"><relationship name=\"b\" destinationEntity=\"A\" deletionRule=\"Explode\"/></entity></model>",
                "deletionRule \"Explode\""
            ),
            (
                "<model><entity name=\"A\"><relationship name=\"b\" destinationEntity=\"A\" inverseName=\"c\"/></entity></model>",
                "names inverse c"
            ),
        ])
    func malformed(text: String, expected: String) {
        let error = Self.failure { () throws(TaskInterchangeError) in _ = try Self.parse(text) }
        #expect(error?.kind == .invalidData)
        #expect(error?.message.hasPrefix("M.xcdatamodel/contents") == true, "\(error?.message ?? "")")
        #expect(error?.message.contains(expected) == true, "\(error?.message ?? "")")
    }

    @Test(
        "an .xcdatamodeld: versions in numeric name order, the current one from .xccurrentversion, versions chosen by name"
    )
    func modelFolder() throws {
        let directory = try TemporaryDirectory()
        let folder = directory.path("App.xcdatamodeld")
        for (name, entity) in [("App", "A"), ("App 2", "B"), ("App 10", "C")] {
            try FileManager.default.createDirectory(
                atPath: folder + "/\(name).xcdatamodel", withIntermediateDirectories: true)
            try Data("<model><entity name=\"\(entity)\"/></model>".utf8).write(
                to: URL(fileURLWithPath: folder + "/\(name).xcdatamodel/contents"))
        }
        let plist = try PropertyListSerialization.data(
            fromPropertyList: ["_XCCurrentVersionName": "App 2.xcdatamodel"], format: .xml, options: 0)
        try plist.write(to: URL(fileURLWithPath: folder + "/.xccurrentversion"))
        let source = try ModelSource(path: folder + "/")
        #expect(source.kind == .xcdatamodeld)
        #expect(source.versions.map(\.name) == ["App", "App 2", "App 10"])
        #expect(source.currentVersionName == "App 2")
        #expect(try source.version(named: nil).model.entities.map(\.name) == ["B"])
        #expect(try source.version(named: "App 10.xcdatamodel").model.entities.map(\.name) == ["C"])
        #expect(
            throws: TaskInterchangeError(.usage, "\(folder): has no version App 3 (it has App, App 2, App 10)")
        ) {
            try source.version(named: "App 3")
        }
        // A single version read alone.
        let single = try ModelSource(path: folder + "/App 10.xcdatamodel")
        #expect(
            single.kind == .xcdatamodel && single.versions.map(\.name) == ["App 10"]
                && single.currentVersionName == "App 10")
        // A bad .xccurrentversion names itself.
        try Data("not a plist".utf8).write(to: URL(fileURLWithPath: folder + "/.xccurrentversion"))
        let error = Self.failure { () throws(TaskInterchangeError) in _ = try ModelSource(path: folder) }
        #expect(error?.message.hasPrefix(folder + "/.xccurrentversion: not a property list") == true)
        // Without .xccurrentversion there is no current version: a command must be told which one.
        try FileManager.default.removeItem(atPath: folder + "/.xccurrentversion")
        let unnamed = try ModelSource(path: folder)
        #expect(unnamed.currentVersionName == nil)
        let choose = Self.failure { () throws(TaskInterchangeError) in _ = try unnamed.version(named: nil) }
        #expect(
            choose?.message
                == "\(folder): names no current version; choose one with a version name (App, App 2, App 10)")
    }

    @Test("missing and unknown inputs: no such model, no versions, not a model, a damaged .mom")
    func badInputs() throws {
        let directory = try TemporaryDirectory()
        func failure(_ path: String) -> TaskInterchangeError? {
            Self.failure { () throws(TaskInterchangeError) in _ = try ModelSource(path: directory.path(path)) }
        }
        #expect(failure("none.xcdatamodeld")?.kind == .noInput)
        try FileManager.default.createDirectory(atPath: directory.path("Empty.momd"), withIntermediateDirectories: true)
        let empty = failure("Empty.momd")
        #expect(empty?.kind == .noInput && empty?.message.contains("no .mom file") == true)
        try Data("x".utf8).write(to: URL(fileURLWithPath: directory.path("notes.txt")))
        let text = failure("notes.txt")
        #expect(text?.kind == .invalidData && text?.message.contains("not a model") == true)
        try Data("bplist00 garbage".utf8).write(to: URL(fileURLWithPath: directory.path("Bad.mom")))
        let damaged = failure("Bad.mom")
        #expect(
            damaged?.kind == .invalidData
                && damaged?.message.hasPrefix(directory.path("Bad.mom") + ": not a compiled model") == true)
        try FileManager.default.createDirectory(
            atPath: directory.path("Old.xcdatamodel"), withIntermediateDirectories: true)
        let old = failure("Old.xcdatamodel")
        #expect(old?.kind == .noInput && old?.message.contains("has no contents file") == true)
    }

    @Test("hostile XML: entity expansion and external entities are refused, deep nesting does not crash")
    func hostile() throws {
        let laughs =
            "<?xml version=\"1.0\"?>\n<!DOCTYPE model [\n<!ENTITY a \"aaaaaaaaaaaaaaaa\">\n"
            + (1...8).map { level in
                let previous = level == 1 ? "a" : "l\(level - 1)"
                return "<!ENTITY l\(level) \"" + String(repeating: "&\(previous);", count: 16) + "\">\n"
            }.joined() + "]>\n<model><entity name=\"&l8;\"/></model>"
        let expansion = Self.failure { () throws(TaskInterchangeError) in _ = try Self.parse(laughs) }
        #expect(expansion?.message.contains("M.xcdatamodel/contents:") == true)
        let external =
            "<?xml version=\"1.0\"?>\n<!DOCTYPE model [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>\n<model><entity name=\"&x;\"/></model>"
        let refused = Self.failure { () throws(TaskInterchangeError) in _ = try Self.parse(external) }
        #expect(refused?.kind == .invalidData && refused?.message.contains("root:") == false)
        // Elements where no model element belongs are skipped, however deep.
        let deep =
            "<model><entity name=\"A\">" + String(repeating: "<entity name=\"B\">", count: 20_000)
            + String(repeating: "</entity>", count: 20_001) + "</model>"
        do {
            #expect(try Self.parse(deep).entities.map(\.name) == ["A"])
        } catch {
            #expect(error.kind == .invalidData)  // a parser depth limit is an answer too, as long as it is an error
        }
    }
}
