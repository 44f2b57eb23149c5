import Foundation
import Testing

@testable import TaskInterchange

/// Where a value lives is decided in one place: the locator (`StoreLocator`, `CoreDataNames`) and the layout engine and
/// table classification it wraps. Code elsewhere asks them instead of spelling a Core Data name.
@Suite("Store locator")
struct StoreLocatorTests {
    /// The locator's files, and the layout engine and table classification it wraps: the only ones that may spell a
    /// Core Data storage name in a string literal (whole, or inside SQL and messages).
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

    /// Names inside string literals outside the locator that are allowed, by file, each for its reason. Any other
    /// `Z…` word in a literal outside the locator is a spelled storage name.
    static let allowedNames: [String: Set<String>] = [
        // ISO 8601's UTC designator.
        "TaskInterchange/Records/LosslessDate.swift": ["Z"],
        "TaskInterchange/Records/LosslessDate+Parsing.swift": ["Z"],
    ]

    /// A `Z…` word inside a string literal: a Core Data storage name, the start of one (`Z_FOK_`, `Z` before a
    /// name) or something that looks like one.
    struct Spelling: Equatable, Comparable, CustomStringConvertible {
        var file: String
        var line: Int
        var name: String

        var description: String { "\(file):\(line): \(name)" }

        static func < (lhs: Self, rhs: Self) -> Bool {
            (lhs.file, lhs.line, lhs.name) < (rhs.file, rhs.line, rhs.name)
        }
    }

    /// Every `Z…` word in the text of a string literal (whole, between interpolations, multi-line, raw) of a file
    /// outside the locator, with its line; comments and code are skipped, and so is a letter compared as a byte
    /// (`UInt8(ascii: "Z")`).
    static func spellings(under sources: URL) throws -> [Spelling] {
        var found: [Spelling] = []
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
        while let file = files?.nextObject() as? URL {
            guard file.pathExtension == "swift" else { continue }
            let relative = String(file.standardizedFileURL.path.dropFirst(sources.standardizedFileURL.path.count + 1))
            guard !locatorFiles.contains(relative) else { continue }
            var scanner = LiteralScanner(try String(contentsOf: file, encoding: .utf8))
            scanner.scanCode()
            for piece in scanner.pieces where !piece.isByte {
                for (line, word) in piece.words where isStorageName(word) {
                    found.append(Spelling(file: relative, line: line, name: word))
                }
            }
        }
        return found.sorted()
    }

    /// Whether `word` is spelled as Core Data spells its storage names: `Z`, then capitals, digits and underscores.
    static func isStorageName(_ word: String) -> Bool {
        word.first == "Z" && word.allSatisfy { $0.isASCII && ($0.isUppercase || $0.isNumber || $0 == "_") }
    }

    /// The spellings no exception allows, as `file:line: name`.
    static func spelledNames(under sources: URL) throws -> [String] {
        try spellings(under: sources).filter { allowedNames[$0.file]?.contains($0.name) != true }.map(\.description)
    }

    /// Reads Swift source and collects the text of its string literals, piece by piece between interpolations.
    struct LiteralScanner {
        struct Piece {
            /// The line the piece starts on.
            var line: Int
            var text: String
            /// The literal is the argument of `ascii:`: a byte, not a name.
            var isByte: Bool

            /// Its words (runs of letters, digits and underscores), each with its line.
            var words: [(line: Int, word: String)] {
                var (result, line, word) = ([(line: Int, word: String)](), self.line, "")
                for character in text + " " {
                    if character.isLetter || character.isNumber || character == "_" {
                        word.append(character)
                        continue
                    }
                    if !word.isEmpty { result.append((line, word)) }
                    word = ""
                    if character == "\n" { line += 1 }
                }
                return result
            }
        }

        let characters: [Character]
        var index = 0
        var line = 1
        var pieces: [Piece] = []

        init(_ source: String) { characters = Array(source) }

        func at(_ offset: Int) -> Character? {
            index + offset < characters.count ? characters[index + offset] : nil
        }

        func starts(with text: String, at offset: Int = 0) -> Bool {
            text.enumerated().allSatisfy { at(offset + $0.offset) == $0.element }
        }

        /// Code up to the end, or up to the parenthesis that closes an interpolation.
        mutating func scanCode(closingInterpolation: Bool = false) {
            var depth = 0
            while let character = at(0) {
                if starts(with: "//") {
                    while let next = at(0), next != "\n" { index += 1 }
                } else if starts(with: "/*") {
                    skipBlockComment()
                } else if character == "#" || character == "\"" {
                    var hashes = 0
                    while at(hashes) == "#" { hashes += 1 }
                    if at(hashes) == "\"" { scanString(hashes: hashes) } else { index += max(hashes, 1) }
                } else {
                    if character == "\n" { line += 1 }
                    if closingInterpolation && character == "(" { depth += 1 }
                    if closingInterpolation && character == ")" {
                        index += 1
                        if depth == 0 { return }
                        depth -= 1
                        continue
                    }
                    index += 1
                }
            }
        }

        /// A block comment, nested ones included.
        mutating func skipBlockComment() {
            var depth = 0
            repeat {
                if starts(with: "/*") {
                    depth += 1
                    index += 2
                } else if starts(with: "*/") {
                    depth -= 1
                    index += 2
                } else {
                    if at(0) == "\n" { line += 1 }
                    index += 1
                }
            } while depth > 0 && at(0) != nil
        }

        /// A string literal opened at `index` with `hashes` `#`s before its quotes.
        mutating func scanString(hashes: Int) {
            let isByte = index >= 7 && String(characters[(index - 7)..<index]) == "ascii: "
            let delimiter = starts(with: "\"\"\"", at: hashes) ? "\"\"\"" : "\""
            let closing = delimiter + String(repeating: "#", count: hashes)
            let escape = "\\" + String(repeating: "#", count: hashes)
            index += hashes + delimiter.count
            var piece = Piece(line: line, text: "", isByte: isByte)
            while let character = at(0) {
                if starts(with: closing) {
                    index += closing.count
                    break
                } else if starts(with: escape) {
                    index += escape.count
                    if at(0) == "(" {
                        index += 1
                        pieces.append(piece)
                        scanCode(closingInterpolation: true)
                        piece = Piece(line: line, text: "", isByte: isByte)
                    } else {
                        // An escaped character separates words; `\u{…}` is skipped whole.
                        if at(0) == "u" { while let next = at(0), next != "}" { index += 1 } }
                        if at(0) == "\n" { line += 1 }
                        piece.text.append(at(0) == "\n" ? "\n" : " ")
                        index += 1
                    }
                } else {
                    if character == "\n" { line += 1 }
                    piece.text.append(character)
                    index += 1
                }
            }
            pieces.append(piece)
        }
    }

    static var sources: URL { SampleStores.repository.appendingPathComponent("Sources") }

    @Test("no code outside the locator spells a Core Data storage name")
    func noSpelledNames() throws {
        let spelled = try Self.spelledNames(under: Self.sources)
        #expect(spelled == [])
    }

    @Test("every allowed name is still spelled where it is allowed")
    func allowedNamesAreUsed() throws {
        let spelled = Set(try Self.spellings(under: Self.sources).map { "\($0.file): \($0.name)" })
        let allowed = Self.allowedNames.flatMap { file, names in names.map { "\(file): \($0)" } }
        #expect(allowed.filter { !spelled.contains($0) } == [])
    }

    @Test("the scan finds a name anywhere in a literal, a prefix built, and skips comments, code and bytes")
    func scanFindsSpellings() throws {
        let directory = try TemporaryDirectory()
        let sources = URL(fileURLWithPath: directory.path("Sources"))
        let folder = sources.appendingPathComponent("TaskInterchange/Store/Layout")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try ##"""
        let key = "Z_PK"
        // "Z_ENT" in a comment, and SELECT Z_OPT FROM ZTASK
        let column = "Z" + name.uppercased()
        let isZ = byte == UInt8(ascii: "Z")
        let sql = "SELECT \(Database.quote(column)), Z_ENT FROM \(table(of: "ZTAG")) WHERE d.Z_PK = ?\(n)"
        /* "Z_MAX" in a block comment */ let ZCODE = 1
        let text = """
            UPDATE \(table) SET \(CoreDataNames.version) = 1
            WHERE Z12_PROJECT = ?
            """
        let raw = #"max(ZTIMESTAMP) and \#(key) "\(Z_NOT)""#
        """##.write(to: folder.appendingPathComponent("Spelling.swift"), atomically: true, encoding: .utf8)
        try "let key = \"Z_PK\"\n".write(
            to: folder.appendingPathComponent("StoreLocator.swift"), atomically: true, encoding: .utf8)
        #expect(
            try Self.spelledNames(under: sources) == [
                "TaskInterchange/Store/Layout/Spelling.swift:1: Z_PK",
                "TaskInterchange/Store/Layout/Spelling.swift:3: Z",
                "TaskInterchange/Store/Layout/Spelling.swift:5: ZTAG",
                "TaskInterchange/Store/Layout/Spelling.swift:5: Z_ENT",
                "TaskInterchange/Store/Layout/Spelling.swift:5: Z_PK",
                "TaskInterchange/Store/Layout/Spelling.swift:9: Z12_PROJECT",
                "TaskInterchange/Store/Layout/Spelling.swift:11: ZTIMESTAMP",
                "TaskInterchange/Store/Layout/Spelling.swift:11: Z_NOT",
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
