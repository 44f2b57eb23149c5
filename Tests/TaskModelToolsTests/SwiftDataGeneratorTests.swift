import Foundation
import Testing
@testable import TaskInterchange
@testable import TaskModelTools

/// `SwiftDataGenerator` against reviewed expected files (`Tests/tasksTests/Fixtures/swiftdata`), and the generated
/// code through `swiftc -parse`.
@Suite("SwiftData code generation")
struct SwiftDataGeneratorTests {
    static let fixtures = Fixtures.tests

    /// The test model (a folder in the repository) and the shared real ones, each with its expected output folder.
    static let cases: [(model: String, version: String?, expected: String)] = [
        (fixtures.appendingPathComponent("models/Ledger.xcdatamodeld").path, nil, "Ledger"),
        (Fixtures.model("CoreDataPlus-SampleModel/SampleModel.xcdatamodeld"), nil, "SampleModel"),
        (
            Fixtures.model("BrowserServicesKit-Bookmarks/BookmarksModel.xcdatamodeld"), "BookmarksModel 6",
            "BookmarksModel6"
        ),
    ]

    static func generate(_ model: String, version: String?) throws -> SwiftDataGenerator.Output {
        let source = try ModelSource(path: model)
        let versions = try version.map { [try source.version(named: $0)] } ?? source.versions
        return SwiftDataGenerator(
            versions: versions, currentVersion: source.currentVersionName,
            modelName: URL(fileURLWithPath: model).deletingPathExtension().lastPathComponent,
            allVersions: source.versions.map(\.name)
        ).files()
    }

    static var swiftc: String? {
        let candidates =
            ["/opt/swift/usr/bin/swiftc"]
            + (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map { "\($0)/swiftc" }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    @Test("the generated files equal the expected files, file for file", arguments: cases.indices)
    func matchesExpected(index: Int) throws {
        let (model, version, expected) = Self.cases[index]
        guard FileManager.default.fileExists(atPath: model) else { return }  // a shared model, absent here
        let output = try Self.generate(model, version: version)
        let folder = Self.fixtures.appendingPathComponent("swiftdata/\(expected)").path
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        #expect(output.files.map(\.name) == names)
        for file in output.files {
            let wanted = try String(contentsOfFile: folder + "/" + file.name, encoding: .utf8)
            #expect(file.contents == wanted, "\(expected)/\(file.name) differs from the expected file")
        }
    }

    @Test("swiftc -parse accepts the generated code, and rejects a broken copy", arguments: cases.indices)
    func parses(index: Int) throws {
        let (model, version, _) = Self.cases[index]
        guard FileManager.default.fileExists(atPath: model), let swiftc = Self.swiftc else { return }
        let directory = try TemporaryDirectory()
        let output = try Self.generate(model, version: version)
        try SwiftDataGenerator.write(output.files, to: directory.path("out"))
        let files = output.files.map { directory.path("out/" + $0.name) }
        #expect(try Self.run(swiftc, ["-parse"] + files) == 0)
        // The control: the same check fails when a class loses its closing brace.
        let broken = directory.path("broken.swift")
        try Data(output.files[1].contents.replacingOccurrences(of: "    }\n}\n", with: "\n").utf8).write(
            to: URL(fileURLWithPath: broken))
        #expect(try Self.run(swiftc, ["-parse", broken]) != 0)
    }

    static func run(_ executable: String, _ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    @Test(
        "names Swift cannot use as they are get unique spellings that type-check, originalName: keeps the model's, and lint names each"
    )
    func respelledMembers() throws {
        var base = ObjectModel.Entity(
            "Item",
            attributes: [
                .init("Type", .string, optional: true), .init("a/*b", .string, optional: true),
                .init("a//b", .string, optional: true), .init("a__b", .string, optional: true),
            ])
        base.relationships = [.init("Protocol", to: "Part", inverse: "item", toMany: false)]
        var part = ObjectModel.Entity("Part", attributes: [.init("a_b", .integer64, optional: true)])
        part.relationships = [.init("item", to: "Item", inverse: "Protocol", toMany: false)]
        var sub = ObjectModel.Entity("Special", attributes: [.init("a__b_2", .string, optional: true)])
        sub.superentity = "Item"
        sub.attributes.append(.init("a-_b", .string, optional: true))
        let model = ObjectModel(entities: [base, part, sub])
        let names = SwiftNames.memberNames(of: sub, in: model)
        #expect(
            names == [
                "Type": "Type_", "Protocol": "Protocol_", "a__b": "a__b", "a/*b": "a__b_2", "a//b": "a__b_3",
                "a__b_2": "a__b_2_2", "a-_b": "a__b_4",
            ], "\(names)")
        #expect(Set(names.values).count == names.count)
        let item = SwiftDataEntityWriter(entity: base, model: model, schema: "S", source: "x").file()
        #expect(item.contains("@Attribute(originalName: \"Type\") var Type_: String?"), "\(item)")
        #expect(item.contains("@Attribute(originalName: \"a//b\") var a__b_3: String?"), "\(item)")
        #expect(item.contains("var a__b: String?") && !item.contains("originalName: \"a__b\""), "\(item)")
        let lint = ModelLint(model: model).findings.filter { $0.code == "ML015" }
        #expect(
            lint.map { "\($0.entity).\($0.property ?? "")" }.sorted() == [
                "Item.Protocol", "Item.Type", "Item.a/*b", "Item.a//b", "Special.a-_b", "Special.a__b_2",
            ], "\(lint)")
        // The classes type-check once SwiftData's macros are set aside: no member is declared twice, none is a
        // metatype's name, and every key path and inverse names a member that exists.
        guard let swiftc = Self.swiftc else { return }
        let directory = try TemporaryDirectory()
        var source = "import Foundation\nenum S {}\n"
        for entity in model.entities {
            source += SwiftDataEntityWriter(entity: entity, model: model, schema: "S", source: "x").file()
        }
        let plain =
            source.split(separator: "\n", omittingEmptySubsequences: false).filter {
                let line = $0.trimmingCharacters(in: .whitespaces)
                return !line.hasPrefix("@Model") && !line.hasPrefix("@available") && !line.hasPrefix("//")
                    && line != "import SwiftData"
            }.map {
                $0.replacingOccurrences(
                    of: #"@(Attribute|Relationship)\((.*)\) var"#, with: "var", options: .regularExpression)
            }.joined(separator: "\n")
        let path = directory.path("Generated.swift")
        try plain.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try Self.run(swiftc, ["-typecheck", path]) == 0, "\(plain)")
        // The same check fails on the spelling the names had before (two members a__b, one named Type).
        let clash = plain.replacingOccurrences(of: "a__b_3", with: "a__b")
        try clash.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try Self.run(swiftc, ["-typecheck", path]) != 0)
    }

    @Test("every relationship pair writes inverse: on exactly one side, and never both")
    func inverseOnOneSide() throws {
        for (model, _, _) in Self.cases where FileManager.default.fileExists(atPath: model) {
            for version in try ModelSource(path: model).versions {
                let output = SwiftDataGenerator(versions: [version], currentVersion: nil).files()
                let written = output.files.map { $0.contents.components(separatedBy: "inverse: \\").count - 1 }.reduce(
                    0, +)
                // Pairs, counted from the model: each relationship with an inverse belongs to one pair of two.
                let withInverse = version.model.entities.flatMap(\.relationships).filter { $0.inverse != nil }.count
                #expect(written * 2 == withInverse, "\(version.name)")
            }
        }
    }

    @Test(
        "Ledger: colliding names keep the entity name, typealiases rename them; Double → Decimal makes a custom stage")
    func ledger() throws {
        let output = try Self.generate(Self.cases[0].model, version: nil)
        let aliases = try #require(output.files.first { $0.name == "Ledger.swift" }).contents
        #expect(aliases.contains("typealias TaskModel = Ledger2Schema.Task\n"))
        #expect(aliases.contains("typealias TransactionModel = Ledger2Schema.Transaction\n"))
        #expect(aliases.contains("typealias PredicateModel = Ledger2Schema.Predicate\n"))
        #expect(aliases.contains("typealias Account = Ledger2Schema.Account\n"))
        #expect(output.notes.filter { $0.hasPrefix("entity ") }.count == 3)
        let plan = try #require(output.files.first { $0.name == "LedgerMigrationPlan.swift" }).contents
        #expect(plan.contains("MigrationStage.custom(") && plan.contains("Transaction.amount: type Double → Decimal"))
        #expect(
            SwiftDataGenerator.customReasons(
                from: try ModelSource(path: Self.cases[0].model).versions[0].model,
                to: try ModelSource(path: Self.cases[0].model).versions[0].model
            ).isEmpty)
    }

    @Test(
        "Bookmarks: every step is lightweight (renaming identifiers and hash modifiers only)",
        .enabled(
            if: Fixtures.modelsAvailable,
            "../shared/fixtures/models is absent (the shared fixtures, checked out beside this repository as ../shared)"
        ))
    func bookmarksLightweight() throws {
        let source = try ModelSource(path: Self.cases[2].model)
        let output = SwiftDataGenerator(versions: source.versions, currentVersion: source.currentVersionName).files()
        let plan = try #require(output.files.first { $0.name.hasSuffix("MigrationPlan.swift") }).contents
        #expect(plan.components(separatedBy: "MigrationStage.lightweight(").count - 1 == source.versions.count - 1)
        #expect(!plan.contains(".custom("))
    }

    @Test(
        "names Swift cannot spell are escaped or mapped (originalName), defaults it cannot write are written or NOTEd")
    func unspellable() throws {
        var owner = ObjectModel.Entity(
            "class",
            attributes: [
                .init("var", .integer16), .init("x-y", .string, optional: true), .init("2nd", .boolean, optional: true),
                .init("ratio", .double), .init("low", .double), .init("small", .integer16), .init("tiny", .float),
            ],
            relationships: [.init("for", to: "x-y", inverse: "owner", toMany: true)])
        for (name, value) in [("ratio", "NaN"), ("low", "-inf"), ("small", "99999"), ("tiny", "1e39"), ("var", "7")] {
            owner.attributes[owner.attributes.firstIndex { $0.name == name }!].defaultValue = value
        }
        let other = ObjectModel.Entity(
            "x-y", attributes: [.init("in", .string, optional: true)],
            relationships: [.init("owner", to: "class", inverse: "for", toMany: false)])
        let version = ModelSource.Version(
            name: "V", model: ObjectModel(entities: [owner, other]), path: "V.xcdatamodel")
        let output = SwiftDataGenerator(versions: [version], currentVersion: nil, modelName: "Odd").files()
        let code = output.files.map(\.contents).joined(separator: "\n")
        for line in [
            "final class `class` {", "var `var`: Int16 = 7", "@Attribute(originalName: \"x-y\") var x_y: String?",
            "@Attribute(originalName: \"2nd\") var _2nd: Bool?", "var ratio: Double = .nan",
            "var low: Double = -.infinity",
            "// NOTE: default value \"99999\" has no Swift literal here; set it in init.", "var small: Int16\n",
            "// NOTE: default value \"1e39\" has no Swift literal here; set it in init.",
            "@Relationship(deleteRule: .nullify, inverse: \\x_y.owner) var `for`: [x_y] = []", "final class x_y {",
            "var `in`: String?", "[VSchema.`class`.self, VSchema.x_y.self]", "typealias x_y = VSchema.x_y",
        ] {
            #expect(code.contains(line), "\(line)")
        }
        #expect(code.contains("// NOTE: the entity name \"x-y\" is no Swift name, so the class is x_y;"))
        guard let swiftc = Self.swiftc else { return }
        let directory = try TemporaryDirectory()
        try SwiftDataGenerator.write(output.files, to: directory.path("out"))
        #expect(try Self.run(swiftc, ["-parse"] + output.files.map { directory.path("out/" + $0.name) }) == 0)
    }

    @Test("write refuses an existing directory and leaves nothing behind")
    func writeAtomic() throws {
        let directory = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory.path("taken"), withIntermediateDirectories: false)
        try Data("x".utf8).write(to: URL(fileURLWithPath: directory.path("taken/keep.swift")))
        #expect(throws: TaskInterchangeError.self) {
            try SwiftDataGenerator.write([.init(name: "A.swift", contents: "")], to: directory.path("taken"))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path("taken")) == ["keep.swift"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path("")) == ["taken"])
    }

    @Test(
        "the code made from every real store's model cache parses",
        .enabled(if: Fixtures.storesAvailable && SwiftDataGeneratorTests.swiftc != nil, "real stores or swiftc absent"))
    func realStoresParse() throws {
        let directory = try TemporaryDirectory()
        var files: [String] = []
        for (name, model) in try Fixtures.realStoreModels() {
            guard let model else { continue }  // frameworks that kept no cache
            let version = ModelSource.Version(name: "Store", model: model, path: name)
            let output = SwiftDataGenerator(versions: [version], currentVersion: nil, modelName: "Store").files()
            try SwiftDataGenerator.write(output.files, to: directory.path(UUID().uuidString))
            files += output.files.map(\.name)
            #expect(
                try Self.run(
                    Self.swiftc!,
                    ["-parse"]
                        + (try FileManager.default.contentsOfDirectory(atPath: directory.path(""))
                            .flatMap { folder in
                                try FileManager.default.contentsOfDirectory(atPath: directory.path(folder)).map {
                                    directory.path(folder + "/" + $0)
                                }
                            })) == 0,
                "\(name)")
            try FileManager.default.contentsOfDirectory(atPath: directory.path("")).forEach {
                try FileManager.default.removeItem(atPath: directory.path($0))
            }
        }
        #expect(files.count > 40)
    }
}

/// Indexes Core Data creates for a model become SwiftData indexes: fetch indexes, compound indexes and attributes
/// marked indexed alike.
@Suite("SwiftData indexes from a model's index declarations")
struct SwiftDataIndexTests {
    @Test("indexed=\"YES\" and <compoundIndexes> give #Index, and a new store indexes the same columns")
    func indexedAttributes() throws {
        let directory = try TemporaryDirectory()
        let folder = directory.path("Notes.xcdatamodel")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
            <entity name="Note" representedClassName="Note" syncable="YES">
                <attribute name="title" optional="YES" attributeType="String" indexed="YES"/>
                <attribute name="folder" optional="YES" attributeType="String"/>
                <attribute name="created" optional="YES" attributeType="Date"/>
                <compoundIndexes>
                    <compoundIndex>
                        <index value="folder"/>
                        <index value="created"/>
                    </compoundIndex>
                </compoundIndexes>
            </entity>
        </model>
        """.write(toFile: folder + "/contents", atomically: true, encoding: .utf8)
        let source = try ModelSource(path: folder)
        let model = try #require(source.versions.first?.model)
        let code = SwiftDataGenerator(versions: source.versions, currentVersion: nil).files().files
            .map(\.contents).joined()
        #expect(code.contains("#Index<Note>([\\.folder, \\.created], [\\.title])"), "\(code)")
        let statements = model.schemaStatements()
        #expect(statements.contains("CREATE INDEX Z_Note_title ON ZNOTE (ZTITLE COLLATE BINARY ASC)"))
        #expect(
            statements.contains(
                "CREATE INDEX Z_Note_folder_created ON ZNOTE (ZFOLDER COLLATE BINARY ASC, ZCREATED COLLATE BINARY ASC)")
        )
    }
}
