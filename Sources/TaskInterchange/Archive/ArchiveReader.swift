import Foundation

/// Streams an archive (version 1, version 2 or NDJSON) to an ``ArchiveVisitor``, record by record, without building a
/// tree of the document.
///
/// Problems in the input are not thrown: they go to `visitor.visitIssue` with a code, a JSON path such as
/// `$.tasks[17].projectId`, and the line and column of the offending value. Reading goes on after every problem but
/// malformed JSON, which ends it without `visitEnd`. A record whose `id` is usable is delivered even when other fields
/// are wrong (they get neutral defaults: empty text, `false`, 0, the reference date), so a validator still sees every
/// id; an archive with errors must not be imported. A record without a usable id is reported and not delivered.
///
/// NDJSON is recognised when the first object has a `type` member (`"header"` on line 1).
package struct ArchiveReader: Sendable {
    /// What to deliver.
    package var options: ArchiveReadingOptions

    /// Creates a reader.
    package init(options: ArchiveReadingOptions = ArchiveReadingOptions()) {
        self.options = options
    }

    /// Reads `bytes` (a whole document, usually memory-mapped) into `visitor`.
    ///
    /// - Throws: only what the visitor throws; input problems are reported through `visitIssue`.
    /// - Parameter consumed: called every 4 MB or so with how many bytes have been read for good, so a caller can
    ///   release the memory of a mapped input behind the reader and show how far it got.
    package func read<Visitor: ArchiveVisitor>(
        _ bytes: UnsafeRawBufferPointer, into visitor: inout Visitor,
        consumed: ((Int) -> Void)? = nil
    ) throws {
        // Moved in and back out, so the parser's visitor is uniquely referenced and its collections are not copied on
        // the first mutation.
        var parser = Parser(input: bytes, options: options, visitor: consume visitor)
        parser.consumed = consumed
        defer { visitor = parser.visitor }
        try parser.run()
    }
}

extension ArchiveReader {
    /// The start of what a file cut off inside a value, or an NDJSON stream without its trailer, is told.
    package static let endsEarly = "the file ends early"

    /// What a file that ends early needs: its writer stopped, or it was cut off copying.
    package static let incomplete =
        "it is incomplete (cut off while it was written or copied); export it again"

    /// What an SQLite file given where an archive belongs is told: the likeliest mix-up, with the way out in the
    /// library's terms (a caller with other names for them says it its own way).
    package static let storeGivenAsArchive =
        "this is a Core Data store (an SQLite database), not an interchange file; "
        + "read it with StoreInspection or export it with Exporter"

    /// The state of one read.
    struct Parser<Visitor: ArchiveVisitor> {
        /// Which rules apply to dates, record fields and required members.
        enum Rules {
            /// The `DataExporter` format: dates as numbers or ISO-8601 text, no categories, subtasks or counts.
            case version1
            /// The current format: lossless ISO dates, every kind, counts.
            case version2
        }

        var scanner: JSONScanner
        var visitor: Visitor
        /// Kinds delivered to the visitor.
        let wanted: Set<RecordKind>
        /// Decided when the first section is reached (or by the header in NDJSON).
        var rules: Rules?
        /// True while reading NDJSON lines.
        var isNDJSON = false
        /// A version-2 member in a version 1 file was reported (only the first one is).
        var versionMismatchReported = false

        // Header members as read.
        var format: String?
        var version: Int?
        var versionSeen = false
        var exportDate: Date?
        var generator: ArchiveHeader.Generator?
        var source: ArchiveHeader.Source?

        /// Array elements actually present, per kind, whatever their validity.
        var found = ArchiveCounts()
        /// The counts the file declares, when it has a usable `counts` member.
        var declared: ArchiveCounts?
        /// Each declared count in ``ArchiveCounts`` order, nil when missing or invalid (empty: no usable `counts`).
        var declaredValues: [Int?] = []
        /// Where each declared count was, for counts-mismatch issues.
        var declaredLocations: [JSONScanner.Location] = []
        /// Generic records read so far per entity, for their paths.
        var entityIndexes: [String: Int] = [:]
        /// Tables of the `tables` section read so far.
        var tableIndex = 0
        /// Per entity, what reading its values needs of its `source.model` declaration (`ValueShape`).
        var valueShapes: [String: ValueShape] = [:]
        /// The record being read, for the path of a malformed-json issue.
        var context: (kind: RecordKind, index: Int)?

        /// Whether `visitHeader` has been called.
        var headerDelivered = false
        /// True while `source` is read ahead of its place: its issues are reported when the main pass gets there.
        var muted = false

        /// Told how far the reader got, every `Self.consumedStep` bytes.
        var consumed: ((Int) -> Void)?
        var lastConsumed = 0
        static var consumedStep: Int { 4 << 20 }

        /// Reports progress after a record, at most every `consumedStep` bytes.
        mutating func noteConsumed() {
            guard let consumed, scanner.index - lastConsumed >= Self.consumedStep else { return }
            lastConsumed = scanner.index
            consumed(scanner.index)
        }

        init(input: UnsafeRawBufferPointer, options: ArchiveReadingOptions, visitor: Visitor) {
            scanner = JSONScanner(input, maximumDepth: options.maximumDepth)
            wanted = options.kinds
            self.visitor = visitor
        }

        /// Reads the whole input; malformed JSON ends in a malformed-json issue and no `visitEnd`.
        mutating func run() throws {
            do {
                if Database.startsWithHeader(scanner.input.prefix(Database.fileHeader.count)) {
                    try report(
                        .malformedJSON, "$", Self.storeGivenAsArchive,
                        at: JSONScanner.Location(line: 1, column: 1))
                    return
                }
                try scanner.beginDocument()
                if try scanner.peekKind() != .object {
                    try readNonObjectDocument()
                    return
                }
                if let type = detectRecordType(stoppingAtSections: true),
                    type == "header" || type == "trailer" || RecordKind(recordType: type) != nil
                {
                    try readNDJSON()
                } else if let members = foreignMembers() {
                    try readForeignDocument(members: members)
                } else {
                    try readDocument()
                }
            } catch let error as JSONScanError {
                var path = "$"
                if let context { path = Self.recordPath(context.kind, context.index) }
                if error.kind == .unexpectedEndOfInput
                    || (Self.cutKinds.contains(error.kind) && scanner.runsToEnd(error))
                {
                    try report(.malformedJSON, path, Self.endsEarly(error), at: scanner.endLocation)
                    return
                }
                try report(
                    .malformedJSON, path, error.message,
                    at: JSONScanner.Location(line: error.line, column: error.column))
            }
        }

        /// What an SQLite file given where an archive belongs is told: the likeliest mix-up, with the way out.
        static var storeGivenAsArchive: String { ArchiveReader.storeGivenAsArchive }

        /// What a value cut off by the end of the input is reported as when it is not the end itself: a literal,
        /// number, escape or UTF-8 sequence that would be whole with the bytes that are missing.
        static var cutKinds: Set<JSONScanError.Kind> {
            [.invalidUTF8, .invalidLiteral, .malformedNumber, .invalidEscape, .loneSurrogate]
        }

        /// A file cut off inside a value: what it stopped in, and that only a new export mends it.
        static func endsEarly(_ error: JSONScanError) -> String {
            let inside: String
            if error.kind != .unexpectedEndOfInput {
                inside = "cut inside a value: \(error.message) at line \(error.line), column \(error.column)"
            } else if error.message.contains("inside the string") {
                inside = "inside the string that starts at line \(error.line), column \(error.column)"
            } else {
                let expected = error.message.replacingOccurrences(of: "unexpected end of input", with: "")
                    .trimmingCharacters(in: CharacterSet(charactersIn: "; "))
                inside = expected.isEmpty ? "inside a value" : expected
            }
            return "\(ArchiveReader.endsEarly) (\(inside)): \(ArchiveReader.incomplete)"
        }

        /// A document whose top level is an array, a string…: reported once, checked for syntax, then ended.
        private mutating func readNonObjectDocument() throws {
            let location = scanner.location
            let kind = try scanner.peekKind()
            try report(.wrongType, "$", "the top level must be an object, found \(kind.phrase)", at: location)
            try scanner.skipValue()
            try scanner.endDocument()
            try visitor.visitEnd(header: ArchiveHeader(format: nil, version: 0), counts: nil)
        }

        /// The header the visitor gets at the end; version 0 when the file has no usable version.
        var header: ArchiveHeader {
            ArchiveHeader(
                format: format, version: version ?? 0, exportDate: exportDate, generator: generator,
                source: source)
        }

        /// `$.tasks[17]`
        static func recordPath(_ kind: RecordKind, _ index: Int) -> String {
            "$.\(kind.sectionName)[\(index)]"
        }

        /// Sends an issue to the visitor.
        mutating func report(
            _ code: ValidationIssue.Code, _ path: String, _ message: String,
            at location: JSONScanner.Location?, severity: ValidationIssue.Severity = .error
        ) throws {
            guard !muted else { return }
            try visitor.visitIssue(
                ValidationIssue(
                    code, severity: severity, path: path, message: message,
                    line: location?.line, column: location?.column))
        }

        /// The `type` member of the object at the scanner, read ahead without moving; nil when there is none, when
        /// it is not a string, or when the object is malformed. With `stoppingAtSections`, a section or counts member
        /// ends the search early: the object is a version 1 or 2 document, not an NDJSON line.
        func detectRecordType(stoppingAtSections: Bool) -> String? {
            var lookahead = scanner
            do {
                try lookahead.beginObject()
                while try lookahead.nextMember() {
                    let key = try lookahead.readKey()
                    if key.equals("type") {
                        guard try lookahead.peekKind() == .string else { return nil }
                        return try lookahead.readString()
                    }
                    if stoppingAtSections, let packed = key.withBytes({ ArchiveReader.PackedName($0) }),
                        let member = Self.lookUp(packed, in: ArchiveReader.DocumentMember.packedNames, hint: 0),
                        member >= ArchiveReader.DocumentMember.projects.rawValue,
                        member <= ArchiveReader.DocumentMember.counts.rawValue
                    {
                        return nil
                    }
                    try lookahead.skipValue()
                }
            } catch {
                // The main pass reports malformed input where it meets it.
                return nil
            }
            return nil
        }
    }
}
