extension ArchiveReader {
    /// The start of what a well-formed JSON object that is no archive is told; the rest says what it looks like.
    package static let notAnArchive = "this is not a tasks archive"

    /// What a mapping file given where an archive belongs is told, with the way out in the library's terms (a caller
    /// with other names for the mapping says it its own way).
    package static let mappingGivenAsArchive =
        "it looks like a mapping file, with mappingVersion and kinds, which says how a store's entities map: "
        + "it is read as StoreMapping, not as an archive"

    /// Where archives come from, for one given something else.
    package static let exportWrites = "an archive is what an export writes"
}

extension ArchiveReader.Parser {
    /// The top-level object's member names when it has none of an archive's (a `version` that is no number, as a
    /// package manifest's, does not count); nil when it has one, or is malformed (the main pass reports that).
    func foreignMembers() -> [String]? {
        var lookahead = scanner
        var names: [String] = []
        do {
            try lookahead.beginObject()
            while try lookahead.nextMember() {
                let key = try lookahead.readKey()
                if key.equals("version") {
                    if try lookahead.peekKind() == .number { return nil }
                } else if !key.equals("type"),
                    let packed = key.withBytes({ ArchiveReader.PackedName($0) }),
                    Self.lookUp(packed, in: ArchiveReader.DocumentMember.packedNames, hint: 0) != nil
                {
                    return nil
                }
                names.append(key.string)
                try lookahead.skipValue()
            }
        } catch {
            return nil
        }
        return names
    }

    /// Reports a well-formed object that is no archive as such, once, with what it looks like, and ends.
    mutating func readForeignDocument(members: [String]) throws {
        let location = scanner.location
        let looksLike: String
        if members.contains("mappingVersion") || members.contains("kinds") {
            looksLike = ArchiveReader.mappingGivenAsArchive
        } else {
            let shown = members.prefix(6).map { "\"\($0)\"" }.joined(separator: ", ")
            looksLike =
                (members.isEmpty ? "an empty object" : "an object with the members \(shown)")
                + (members.count > 6 ? ", …" : "") + " and none of an archive's: "
                + "format, version, projects, categories, tags, tasks; \(ArchiveReader.exportWrites)"
        }
        try report(.notAnArchive, "$", "\(ArchiveReader.notAnArchive) (\(looksLike))", at: location)
        try scanner.skipValue()
        try visitor.visitEnd(header: ArchiveHeader(format: nil, version: 0), counts: nil)
    }
}
