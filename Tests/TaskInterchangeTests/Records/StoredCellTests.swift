import Foundation
import Testing

@testable import TaskInterchange

/// A stored cell keeps its storage class and value through `Codable` and through the archive's own writer and
/// reader, and a malformed one is refused.
@Suite("Stored cells")
struct StoredCellTests {
    static let cells: [StoredCell] = [
        .integer(99_999_999), .integer(Int64.min), .real(1.5), .real(3.0), .real(1e300), .real(.infinity),
        .real(-.infinity), .text("yes"), .text(""), .blob([0, 1, 255]), .blob([]),
    ]

    @Test("Codable: every storage class comes back as the same cell")
    func codable() throws {
        for cell in Self.cells {
            let data = try JSONEncoder().encode(ExtraValue.stored(cell))
            #expect(try JSONDecoder().decode(ExtraValue.self, from: data) == .stored(cell), "\(cell)")
        }
        let wrong = Data(#"{"storedAs": "integer", "value": "7"}"#.utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(StoredCell.self, from: wrong) }
    }

    @Test("the archive writer and reader: the same cells, and a malformed cell is refused")
    func archive() throws {
        var values: [String: ExtraValue] = [:]
        for (index, cell) in Self.cells.enumerated() { values["p\(index)"] = .stored(cell) }
        let record = EntityRecord(id: UUID(), entity: "Sample", key: 1, values: values)
        let attributes = Dictionary(uniqueKeysWithValues: values.keys.map { ($0, "boolean") })
        let archive = Archive(
            header: ArchiveHeader(
                source: ArchiveHeader.Source(
                    store: "s.sqlite", model: ["Sample": EntityDeclaration(attributes: attributes)])),
            entities: [record])
        let data = try archive.jsonData()
        #expect(try Archive(json: data).entities == [record])

        let text = String(decoding: data, as: UTF8.self)
        let malformed = text.replacingOccurrences(
            of: #"{"storedAs":"text","value":"yes"}"#, with: #"{"storedAs":"text","value":7}"#)
        #expect(malformed != text)
        #expect(throws: (any Error).self) { try Archive(json: Data(malformed.utf8)) }
    }
}
