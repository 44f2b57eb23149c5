import Foundation

/// The `tables` section: tables the app added outside its model, each its statement, indexes, column names and rows
/// (see `ArchiveWriter+Tables.swift` for the cell forms). A table is delivered whole, with the generic records.
extension ArchiveReader.Parser {
    typealias TableMember = ArchiveReader.TableMember

    /// `"tables": {"<name>": {…}, …}`.
    mutating func readTablesSection() throws {
        guard try expectObject("$.tables") else { return }
        var seen: Set<String> = []
        while try scanner.nextMember() {
            let location = scanner.location
            let name = try scanner.readKey().string
            if !seen.insert(name).inserted {
                try report(
                    .duplicateKey, JSONPath.member("$.tables", name),
                    "member \"\(name)\" appears more than once in this object; both are read", at: location)
            }
            try readTable(named: name, at: scanner.location)
            noteConsumed()
        }
    }

    /// One table: `{statement, indexes?, columns, rows}` in a document (named by its member), with `type` and
    /// `name` on an NDJSON line.
    mutating func readTable(named member: String?, at location: JSONScanner.Location) throws {
        guard RecordKind.deliversEntities(wanted) else {
            try scanner.skipValue()
            return
        }
        guard try expectObject(member.map { JSONPath.member("$.tables", $0) } ?? "$") else { return }
        var path = member.map { JSONPath.member("$.tables", $0) } ?? "$.tables[\(tableIndex)]"
        var tracker = MemberTracker(TableMember.self)
        let allowed =
            isNDJSON ? MemberSet.all(TableMember.self) : MemberSet(TableMember.statement, .indexes, .columns, .rows)
        var name = member
        var statement: String?
        var indexes: [String] = []
        var columns: [String]?
        var rows: [[RawTable.Cell]] = []
        while let next = try nextMember(TableMember.self, allowed: allowed, in: path, tracker: &tracker) {
            switch next {
            case .type: try scanner.skipValue()
            case .name:
                name = try readString(path + ".name")
                if let name { path = JSONPath.member("$.tables", name) }
            case .statement: statement = try readString(path + ".statement")
            case .indexes: indexes = try readStrings(path + ".indexes")
            case .columns: columns = try readStrings(path + ".columns")
            case .rows: rows = try readRows(path + ".rows", width: columns?.count)
            }
        }
        let required =
            isNDJSON
            ? MemberSet(TableMember.statement, .columns, .rows, .name)
            : MemberSet(TableMember.statement, .columns, .rows)
        try reportMissing(TableMember.self, required: required, seen: tracker.seen, in: path, at: location)
        guard let name, let statement, let columns else { return }
        let table = RawTable(name: name, statement: statement, indexes: indexes, columns: columns, rows: rows)
        if !table.startsAsTable {
            try report(
                .wrongType, path + ".statement",
                "a table's statement is a CREATE TABLE or CREATE VIRTUAL TABLE statement", at: location)
        }
        let index = tableIndex
        tableIndex += 1
        try visitor.visitTable(table, index: index)
    }

    private mutating func readStrings(_ path: String) throws -> [String] {
        let kind = try scanner.peekKind()
        guard kind == .array else {
            try reportWrongType("an array of strings", found: kind, path, at: scanner.location)
            try scanner.skipValue()
            return []
        }
        try scanner.beginArray()
        var result: [String] = []
        while try scanner.nextElement() {
            if let string = try readString("\(path)[\(result.count)]") { result.append(string) }
        }
        return result
    }

    /// The rows, each an array of `width` cells (the columns come first in files `tasks` writes).
    private mutating func readRows(_ path: String, width: Int?) throws -> [[RawTable.Cell]] {
        let kind = try scanner.peekKind()
        guard kind == .array else {
            try reportWrongType("an array of rows", found: kind, path, at: scanner.location)
            try scanner.skipValue()
            return []
        }
        try scanner.beginArray()
        var rows: [[RawTable.Cell]] = []
        while try scanner.nextElement() {
            let rowPath = "\(path)[\(rows.count)]"
            let location = scanner.location
            let kind = try scanner.peekKind()
            guard kind == .array else {
                try reportWrongType("an array of cells", found: kind, rowPath, at: location)
                try scanner.skipValue()
                rows.append([])
                continue
            }
            try scanner.beginArray()
            var row: [RawTable.Cell] = []
            while try scanner.nextElement() {
                row.append(try readCell("\(rowPath)[\(row.count)]"))
            }
            if let width, row.count != width {
                try report(
                    .wrongType, rowPath, "a row of \(row.count) cells; the table has \(width) columns", at: location)
            }
            rows.append(row)
            if rows.count % 4_096 == 0 { try Cancellation.checkpoint() }
        }
        return rows
    }

    /// `null`, an integer, a real (a number with a fraction or exponent), a string (text), or
    /// `{"blob"|"textBytes": base64}`, `{"real": "Infinity"|"-Infinity"}`.
    private mutating func readCell(_ path: String) throws -> RawTable.Cell {
        let location = scanner.location
        switch try scanner.peekKind() {
        case .null:
            try scanner.skipValue()
            return .null
        case .string:
            return .text(try scanner.readString())
        case .number:
            let number = try scanner.readNumber()
            if number.isInteger {
                if let value = number.int64Value { return .integer(value) }
            } else if let value = number.doubleValue {
                return .real(value)
            }
            try report(.wrongType, path, "\(number.description) is outside SQLite's range", at: location)
            return .null
        case .object:
            try scanner.beginObject()
            var members: [(tag: String, text: String?)] = []
            while try scanner.nextMember() {
                let tag = try scanner.readKey().string
                if try scanner.peekKind() == .string {
                    members.append((tag, try scanner.readString()))
                } else {
                    try scanner.skipValue()
                    members.append((tag, nil))
                }
            }
            if members.count == 1, let text = members[0].text, let cell = Self.taggedCell(members[0].tag, text) {
                return cell
            }
            try report(
                .wrongType, path,
                "a cell object is {\"blob\": base64}, {\"textBytes\": base64} or {\"real\": \"Infinity\"}",
                at: location)
            return .null
        case let kind:
            try reportWrongType("a cell (null, a number, a string or an object)", found: kind, path, at: location)
            try scanner.skipValue()
            return .null
        }
    }

    private static func taggedCell(_ tag: String, _ text: String) -> RawTable.Cell? {
        switch tag {
        case "blob": return Data(base64Encoded: text).map { .blob([UInt8]($0)) }
        case "textBytes": return Data(base64Encoded: text).map { .textBytes([UInt8]($0)) }
        case "real" where text == "Infinity": return .real(.infinity)
        case "real" where text == "-Infinity": return .real(-.infinity)
        default: return nil
        }
    }
}
