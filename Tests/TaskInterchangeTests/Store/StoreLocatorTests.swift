import Foundation
import Testing

@testable import TaskInterchange

/// Where a value lives is decided in one place: the locator (`StoreLocator`, `CoreDataNames`) and the layout engine and
/// table classification it wraps. Code elsewhere asks them instead of spelling a Core Data name.
@Suite("Store locator")
struct StoreLocatorTests {
    /// The locator's files, and the layout engine and table classification it wraps: the only ones that may spell a
    /// Core Data storage name as a string of its own.
    static let locatorFiles: Set<String> = [
        "TaskInterchange/Model/CoreDataNames.swift",
        "TaskInterchange/Model/SchemaLayout.swift",
        "TaskInterchange/Model/SchemaLayout+Building.swift",
        "TaskInterchange/Model/SchemaLayout+CountTriggers.swift",
        "TaskInterchange/Model/SchemaLayout+FetchIndexes.swift",
        "TaskInterchange/Model/SchemaLayout+Triggers.swift",
        "TaskInterchange/Store/Layout/StoreLocator.swift",
        "TaskInterchange/Store/Layout/StoreLocator+Joins.swift",
        "TaskInterchange/Store/Layout/StoreLayout.swift",
        "TaskInterchange/Store/Layout/StoreSchema+TableKind.swift",
    ]

    /// Strings that look like a Core Data name and are something else, by file.
    static let notStorageNames: [String: Set<String>] = [
        // ISO 8601's UTC designator.
        "TaskInterchange/Records/LosslessDate.swift": ["\"Z\""]
    ]

    /// Every string literal outside the locator whose whole text is a Core Data storage name or the start of one
    /// (`"Z_PK"`, `"Z_FOK_"`, `"Z"` before a name, `"ZTIMESTAMP"`), as `file:line: literal`; comments are skipped.
    static func spelledNames(under sources: URL) throws -> [String] {
        let pattern = try Regex(#""Z[A-Z0-9_]*""#)
        var found: [String] = []
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
        while let file = files?.nextObject() as? URL {
            guard file.pathExtension == "swift" else { continue }
            let relative = String(file.standardizedFileURL.path.dropFirst(sources.standardizedFileURL.path.count + 1))
            guard !locatorFiles.contains(relative) else { continue }
            let text = try String(contentsOf: file, encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.trimmingCharacters(in: .whitespaces)
                guard !code.hasPrefix("//") else { continue }
                for match in line.matches(of: pattern) {
                    let literal = String(line[match.range])
                    // A byte compared with a letter (`UInt8(ascii: "Z")`) is no name.
                    if line[..<match.range.lowerBound].hasSuffix("ascii: ") { continue }
                    if notStorageNames[relative]?.contains(literal) == true { continue }
                    found.append("\(relative):\(number + 1): \(literal)")
                }
            }
        }
        return found.sorted()
    }

    static var sources: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources")
    }

    @Test("no code outside the locator spells a Core Data storage name")
    func noSpelledNames() throws {
        #expect(try Self.spelledNames(under: Self.sources) == [])
    }

    @Test("the scan finds a name spelled, a prefix built, and skips comments and letters compared as bytes")
    func scanFindsSpellings() throws {
        let directory = try TemporaryDirectory()
        let sources = URL(fileURLWithPath: directory.path("Sources"))
        let folder = sources.appendingPathComponent("TaskInterchange/Store/Layout")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try """
        let key = "Z_PK"
        // "Z_ENT" in a comment
        let column = "Z" + name.uppercased()
        let isZ = byte == UInt8(ascii: "Z")
        """.write(to: folder.appendingPathComponent("Spelling.swift"), atomically: true, encoding: .utf8)
        try "let key = \"Z_PK\"\n".write(
            to: folder.appendingPathComponent("StoreLocator.swift"), atomically: true, encoding: .utf8)
        #expect(
            try Self.spelledNames(under: sources) == [
                "TaskInterchange/Store/Layout/Spelling.swift:1: \"Z_PK\"",
                "TaskInterchange/Store/Layout/Spelling.swift:3: \"Z\"",
            ])
    }

    @Test("names alone: a property's column, a column's property, join and entity-number columns")
    func namesAlone() {
        #expect(CoreDataNames.column(of: "dueDate") == "ZDUEDATE")
        #expect(CoreDataNames.property(ofColumn: "ZTEXT1") == "text1")
        #expect(CoreDataNames.splitJoinColumn("Z_4TAGS")! == (4, "TAGS"))
        #expect(CoreDataNames.splitJoinColumn("Z_FOK_4TAGS") == nil)
        #expect(CoreDataNames.orderColumn(ofJoinColumn: "Z_4TAGS") == "Z_FOK_4TAGS")
        #expect(CoreDataNames.isEntityColumn("Z12_PROJECT", of: "PROJECT"))
        #expect(!CoreDataNames.isEntityColumn("ZPROJECT", of: "PROJECT"))
        #expect(CoreDataNames.isPlumbing("Z12_PROJECT") && CoreDataNames.isPlumbing("Z_OPT"))
        #expect(CoreDataNames.isPropertyColumn("ZTITLE") && !CoreDataNames.isPropertyColumn("Z3_OWNER"))
        #expect(CoreDataNames.table(ofRoot: "Change", isInternal: true) == "ACHANGE")
        #expect(CoreDataNames.entityFilter([2, 5]) == "Z_ENT IN (2, 5)")
    }
}

/// The model-derived answers against a store whose inheritance tree shares one table: a property stored in a
/// numbered column (`ZTEXT1`) is found there and named by the model, not by the column's spelling.
@Suite(
    "Store locator, against a real store",
    .enabled(
        if: RealStores.available,
        "../shared/fixtures/real-stores is absent (the shared fixtures, checked out beside this repository as ../shared); skipped"
    ))
struct StoreLocatorRealStoreTests {
    /// The schema of a copy of Wire's store (one table for the messages' inheritance tree), read by names alone and
    /// located with the store's own model.
    static func schemas(in directory: TemporaryDirectory) throws -> (named: StoreSchema, located: StoreSchema) {
        let path = try WholeStoreRestoreTests.copy(EditedStoreAccountingTests.wire, to: directory)
        let snapshot = try StoreSnapshot(path: path)
        let model = try #require(try ObjectModel(modelCacheOf: snapshot))
        let named = try StoreSchema(reading: snapshot.database, path: snapshot.path)
        var located = named
        located.locate(with: model)
        return (named, located)
    }

    @Test("a shared table's numbered column: found from the model, named by it, spelled only without it")
    func sharedTableColumn() throws {
        let directory = try TemporaryDirectory()
        let (named, located) = try Self.schemas(in: directory)
        let (key, _) = try #require(located.layout?.attribute(at: "ZTEXT1", in: "ZMESSAGE"))
        #expect(key.property == "text")
        let entity = try #require(located.entity(named: key.entity))

        #expect(located.locator.column(of: "text", in: entity) == "ZTEXT1")
        #expect(located.locator.property(ofColumn: "ZTEXT1", in: "ZMESSAGE") == "text")
        #expect(located.locator.propertyNames(of: entity).contains("text"))
        #expect(!located.locator.propertyNames(of: entity).contains("text1"))

        // Without the model only the spelling is left.
        #expect(named.locator.property(ofColumn: "ZTEXT1", in: "ZMESSAGE") == "text1")
        #expect(named.locator.propertyNames(of: entity).contains("text1"))
    }

    @Test("join directions from the model and from the names agree on a store whose join tables follow the rule")
    func joinDirectionsAgree() throws {
        let directory = try TemporaryDirectory()
        let (named, located) = try Self.schemas(in: directory)
        func pairs(_ schema: StoreSchema) -> Set<[String]> {
            Set(schema.locator.joinDirections.map { [$0.table, $0.ownerColumn, $0.memberColumn] })
        }
        #expect(!pairs(located).isEmpty)
        #expect(pairs(located) == pairs(named))
    }
}
