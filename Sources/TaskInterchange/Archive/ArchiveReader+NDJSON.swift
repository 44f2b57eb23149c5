extension ArchiveReader.Parser {
    /// NDJSON: a header line, one line per record, a trailer line with the counts.
    mutating func readNDJSON() throws {
        isNDJSON = true
        rules = .version2
        var ordinal = 0
        var previousLine = 0
        var headerSeen = false
        var countsAtTrailer: ArchiveCounts?
        while true {
            scanner.skipWhitespace()
            if scanner.isAtEnd { break }
            let location = scanner.location
            if ordinal > 0 && location.line == previousLine {
                throw scanner.error(.trailingGarbage, "NDJSON: each value must start on a new line")
            }
            let kind = try scanner.peekKind()
            if kind != .object {
                try reportWrongType("an object on each NDJSON line", found: kind, "$", at: location)
            } else {
                let type = detectRecordType(stoppingAtSections: false)
                switch type {
                case "header":
                    if ordinal == 0 {
                        try readNDJSONHeader()
                        headerSeen = true
                    } else {
                        try report(
                            .wrongType, "$",
                            "NDJSON: the header must be the first line; this one is on line "
                                + "\(location.line) and is ignored", at: location)
                        try scanner.skipValue()
                    }
                case "trailer":
                    if countsAtTrailer != nil {
                        try report(
                            .countsMismatch, "$.counts", "NDJSON: a second trailer; it is ignored",
                            at: location)
                        try scanner.skipValue()
                    } else {
                        try readTrailer()
                        countsAtTrailer = found
                    }
                case "entity":
                    if ordinal == 0 {
                        try report(
                            .missingVersion, "$.version",
                            "NDJSON: the first line must be the header "
                                + "({\"type\":\"header\",\"format\":…,\"version\":2,…}); it is an entity",
                            at: location)
                    }
                    try deliverHeader()
                    try readEntityRecord(entity: nil, at: location)
                case "table":
                    try deliverHeader()
                    try readTable(named: nil, at: location)
                case let type? where RecordKind(recordType: type) != nil:
                    try readNDJSONRecord(
                        RecordKind(recordType: type)!, at: location, isFirst: ordinal == 0,
                        afterTrailer: countsAtTrailer != nil)
                case let type?:
                    try report(
                        .unknownField, "$", "NDJSON: unknown line type \"\(type)\" is ignored", at: location,
                        severity: .warning)
                    try scanner.skipValue()
                case nil:
                    try report(.missingField, "$", "NDJSON: this line has no string \"type\" member", at: location)
                    try scanner.skipValue()
                }
            }
            previousLine = scanner.line
            ordinal += 1
        }
        if !headerSeen && ordinal == 0 {
            try report(.missingVersion, "$.version", "NDJSON: no header line", at: scanner.location)
        }
        try deliverHeader()
        if let countsAtTrailer {
            try checkCounts(against: countsAtTrailer)
        } else {
            try report(
                .countsMismatch, "$.counts",
                "\(ArchiveReader.endsEarly) (NDJSON: no trailer line with counts after line \(previousLine)): "
                    + ArchiveReader.incomplete,
                at: scanner.location)
        }
        try visitor.visitEnd(header: header, counts: declared)
    }

    /// Line 1: `{"type":"header","format":…,"version":2,…}`.
    private mutating func readNDJSONHeader() throws {
        let start = scanner.location
        try scanner.beginObject()
        var tracker = MemberTracker(DocumentMember.self)
        let allowed = MemberSet(DocumentMember.format, .version, .exportDate, .generator, .source, .type)
        while let member = try nextMember(DocumentMember.self, allowed: allowed, in: "$", tracker: &tracker) {
            if member == .type {
                try scanner.skipValue()
            } else {
                try readHeaderMember(member)
            }
        }
        try checkHeader(seen: tracker.seen, at: start)
    }

    /// `{"type":"project",…}` and the other record lines; indexes count within the kind.
    private mutating func readNDJSONRecord(
        _ kind: RecordKind, at location: JSONScanner.Location, isFirst: Bool,
        afterTrailer: Bool
    ) throws {
        let index = found[kind]
        if isFirst {
            try report(
                .missingVersion, "$.version",
                "NDJSON: the first line must be the header "
                    + "({\"type\":\"header\",\"format\":…,\"version\":2,…}); it is a \(kind.rawValue)", at: location)
        }
        if afterTrailer {
            try report(
                .countsMismatch, Self.recordPath(kind, index),
                "NDJSON: a \(kind.rawValue) follows the trailer, which must be the last line", at: location)
        }
        try deliverHeader()
        found[kind] += 1
        context = (kind, index)
        if wanted.contains(kind) {
            try readRecord(kind, index: index)
        } else {
            try skipRecord(kind)
        }
        context = nil
        noteConsumed()
    }

    /// The last line: `{"type":"trailer","counts":{…}}`.
    private mutating func readTrailer() throws {
        typealias TrailerMember = ArchiveReader.TrailerMember
        let start = scanner.location
        try scanner.beginObject()
        var tracker = MemberTracker(TrailerMember.self)
        while let member = try nextMember(
            TrailerMember.self, allowed: .all(TrailerMember.self), in: "$",
            tracker: &tracker)
        {
            switch member {
            case .type: try scanner.skipValue()
            case .counts: try readCounts()
            }
        }
        if !tracker.seen.contains(TrailerMember.counts) {
            try report(.countsMismatch, "$.counts", "NDJSON: the trailer has no counts", at: start)
        }
    }
}
