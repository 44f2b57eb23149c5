import Foundation

extension ArchiveReader.Parser {
    typealias MemberSet = ArchiveReader.MemberSet
    typealias MemberTracker = ArchiveReader.MemberTracker

    /// Moves to the next member of the open object whose name is one of `allowed`, and returns it; nil after the
    /// object's end. Repeated and unknown names are reported and their values skipped on the way.
    mutating func nextMember<M: ArchiveReader.Member>(
        _: M.Type, allowed: MemberSet, in path: @autoclosure () -> String,
        tracker: inout MemberTracker
    ) throws -> M? {
        try nextMember(allowed: allowed, in: path(), tracker: &tracker).map { M(rawValue: $0)! }
    }

    /// `nextMember(_:allowed:in:tracker:)` for members known by position in `tracker.names`.
    mutating func nextMember(
        allowed: MemberSet, in path: @autoclosure () -> String,
        tracker: inout MemberTracker
    ) throws -> Int? {
        while try scanner.nextMember() {
            let location = scanner.location
            // Member names are short and plain: packed while scanned, matched with two comparisons.
            var packed = try scanner.readPackedKey()
            var name: String?
            if packed == nil {
                let key = try scanner.readKey()
                packed = key.withBytes { ArchiveReader.PackedName($0) }
                name = key.string
            }
            if let packed, let rawValue = Self.lookUp(packed, in: tracker.names, hint: tracker.hint),
                allowed.contains(rawValue: rawValue)
            {
                if tracker.seen.contains(rawValue: rawValue) {
                    try reportDuplicate(name ?? packed.string, in: path(), at: location)
                    continue
                }
                tracker.seen.insert(rawValue: rawValue)
                tracker.hint = rawValue + 1
                return rawValue
            }
            let unknownName = name ?? packed?.string ?? ""
            if rules == .version1, packed.flatMap({ Self.lookUp($0, in: tracker.names, hint: 0) }) != nil {
                try reportVersion2Member(unknownName, in: path(), at: location)
                continue
            }
            if tracker.unknown?.contains(unknownName) == true {
                try reportDuplicate(unknownName, in: path(), at: location)
                continue
            }
            tracker.unknown = (tracker.unknown ?? []) + [unknownName]
            try report(
                .unknownField, JSONPath.member(path(), unknownName),
                "unknown member \"\(unknownName)\" is ignored", at: location, severity: .warning)
            try scanner.skipValue()
        }
        return nil
    }

    /// Reports a member that only version 2 defines, in a file labelled version 1 (the first one only), and skips it.
    mutating func reportVersion2Member(_ name: String, in path: String, at location: JSONScanner.Location?) throws {
        if !versionMismatchReported {
            versionMismatchReported = true
            try report(
                .versionMismatch, JSONPath.member(path, name),
                "\"\(name)\" exists only in format version 2, but the file says \"version\": 1; it looks like a "
                    + "version 2 file "
                    + "(set \"version\": 2), and read as version 1 its values would be lost", at: location)
        }
        try scanner.skipValue()
    }

    /// Reports a repeated member name and skips its value; the first value stays.
    private mutating func reportDuplicate(_ name: String, in path: String, at location: JSONScanner.Location) throws {
        try report(
            .duplicateKey, JSONPath.member(path, name),
            "member \"\(name)\" appears more than once in this object; the first value is used", at: location)
        try scanner.skipValue()
    }

    /// Reports each member of `required` that is not in `seen`, at the object's opening brace.
    mutating func reportMissing<M: ArchiveReader.Member>(
        _: M.Type, required: MemberSet, seen: MemberSet,
        in path: @autoclosure () -> String,
        at location: JSONScanner.Location
    ) throws {
        try reportMissing(names: M.names.map { "\($0)" }, required: required, seen: seen, in: path(), at: location)
    }

    /// `reportMissing(_:required:seen:in:at:)` for members known by position in `names`.
    mutating func reportMissing(
        names: [String], required: MemberSet, seen: MemberSet,
        in path: @autoclosure () -> String, at location: JSONScanner.Location
    ) throws {
        let missing = required.subtracting(seen)
        guard missing.bits != 0 else { return }
        for (position, name) in names.enumerated() where missing.contains(rawValue: position) {
            try report(
                .missingField, JSONPath.member(path(), name), "missing required member \"\(name)\"",
                at: location)
        }
    }

    /// The index of `key` in `names`, trying `hint` first.
    static func lookUp(_ key: ArchiveReader.PackedName, in names: [ArchiveReader.PackedName], hint: Int) -> Int? {
        if hint < names.count, names[hint] == key { return hint }
        return names.firstIndex(of: key)
    }

    /// Reports a value of the wrong JSON type and skips it.
    mutating func reportWrongType(
        _ expected: String, found kind: JSONScanner.ValueKind, _ path: String,
        at location: JSONScanner.Location
    ) throws {
        try report(.wrongType, path, "expected \(expected), found \(kind.phrase)", at: location)
        try scanner.skipValue()
    }

    /// A string; nil after reporting a wrong type, or for `null` when `nullable`.
    mutating func readString(_ path: @autoclosure () -> String, nullable: Bool = false) throws -> String? {
        let kind = try scanner.peekKind()
        if kind == .string { return try scanner.readString() }
        if kind == .null && nullable {
            try scanner.readNull()
            return nil
        }
        try reportWrongType("a string", found: kind, path(), at: scanner.location)
        return nil
    }

    /// A canonical UUID string; nil after reporting a problem, or for `null` when `nullable`.
    mutating func readUUID(_ path: @autoclosure () -> String, nullable: Bool = false) throws -> UUID? {
        let kind = try scanner.peekKind()
        let location = scanner.location
        if kind == .string {
            let text = try scanner.readStringValue()
            if let uuid = text.withBytes({ CanonicalUUID.parse($0) }) { return uuid }
            try report(.invalidUUID, path(), CanonicalUUID.problem(with: text.string), at: location)
            return nil
        }
        if kind == .null && nullable {
            try scanner.readNull()
            return nil
        }
        try reportWrongType("a UUID string", found: kind, path(), at: location)
        return nil
    }

    /// A date: lossless ISO-8601 text; in version 1 also seconds since 2001 as a number. Nil after reporting a
    /// problem, or for `null` when `nullable`.
    mutating func readDate(_ path: @autoclosure () -> String, nullable: Bool = false) throws -> Date? {
        let kind = try scanner.peekKind()
        let location = scanner.location
        switch kind {
        case .string:
            let text = try scanner.readStringValue()
            let result = text.withBytes { bytes in
                Result { () throws(LosslessDateError) -> Double in try LosslessDate.parse(bytes) }
            }
            switch result {
            case .success(let seconds):
                return Date(timeIntervalSinceReferenceDate: seconds)
            case .failure(let error):
                let shown = text.string.count > 60 ? "\(text.string.prefix(60))…" : text.string
                try report(.invalidDate, path(), "\"\(shown)\" is not a valid date: \(error)", at: location)
                return nil
            }
        case .number where rules == .version1:
            let number = try scanner.readNumber()
            guard let seconds = number.doubleValue, seconds.magnitude <= LosslessDate.maximumMagnitude else {
                try report(
                    .invalidDate, path(),
                    "\(number.description) seconds from 2001-01-01 is out of range for a date", at: location)
                return nil
            }
            return Date(timeIntervalSinceReferenceDate: seconds)
        case .number:
            let number = try scanner.readNumber()
            try report(
                .invalidDate, path(),
                "format version 2 writes dates as ISO-8601 text such as "
                    + "\"2024-03-01T09:30:00Z\", found the number \(number.description)", at: location)
            return nil
        case .null where nullable:
            try scanner.readNull()
            return nil
        default:
            try reportWrongType(
                rules == .version1 ? "a date (a number or ISO-8601 text)" : "an ISO-8601 date string",
                found: kind, path(), at: location)
            return nil
        }
    }

    /// An `extra` object: property name → null, boolean, number or string (what a store column can hold); nested
    /// values are reported as wrong types. A number of a property in `decimals` is kept as written, as text: a
    /// `Double` would round its digits away. `room`: how many values to make room for at once. Nil after reporting a
    /// wrong type.
    mutating func readExtra(
        _ path: @autoclosure () -> String, decimals: Set<String> = [], room: Int = 0
    ) throws -> [String: ExtraValue]? {
        let kind = try scanner.peekKind()
        guard kind == .object else {
            try reportWrongType("an object of extra properties", found: kind, path(), at: scanner.location)
            return nil
        }
        try scanner.beginObject()
        var values: [String: ExtraValue] = [:]
        values.reserveCapacity(room)
        while try scanner.nextMember() {
            let location = scanner.location
            let name = try scanner.readKey().string
            if values[name] != nil {
                try report(
                    .duplicateKey, JSONPath.member(path(), name),
                    "member \"\(name)\" appears more than once in this object; the first value is used", at: location)
                try scanner.skipValue()
                continue
            }
            let valueLocation = scanner.location
            switch try scanner.peekKind() {
            case .null:
                try scanner.readNull()
                values[name] = .null
            case .bool:
                values[name] = .bool(try scanner.readBool())
            case .string:
                values[name] = .string(try scanner.readString())
            case .number:
                let number = try scanner.readNumber()
                if !decimals.isEmpty, decimals.contains(name) {
                    values[name] = .string(number.description)
                } else if let integer = number.int64Value {
                    values[name] = .integer(integer)
                } else if let double = number.doubleValue, double.isFinite, !number.isInteger {
                    values[name] = .double(double)
                } else {
                    try report(
                        .wrongType, JSONPath.member(path(), name), "number \(number.description) is out of range",
                        at: valueLocation)
                }
            case .array:
                if let ids = try readIdArray(JSONPath.member(path(), name)) { values[name] = .array(ids) }
            case .object:
                if let cell = try readCell(JSONPath.member(path(), name)) { values[name] = .stored(cell) }
            case let other:
                try reportWrongType(
                    "null, a boolean, a number, a string, an array of ids or a stored cell", found: other,
                    JSONPath.member(path(), name), at: valueLocation)
            }
        }
        return values
    }

    /// A cell that does not fit its attribute, `{"storedAs": "text", "value": "yes"}` (see `StoredCell`); nil after
    /// reporting.
    mutating func readCell(_ path: String) throws -> StoredCell? {
        let location = scanner.location
        try scanner.beginObject()
        var storageClass: String?
        var number: (integer: Int64?, double: Double?)?
        var text: String?
        var valid = true
        while try scanner.nextMember() {
            let memberLocation = scanner.location
            let name = try scanner.readKey().string
            switch (name, try scanner.peekKind()) {
            case ("storedAs", .string) where storageClass == nil: storageClass = try scanner.readString()
            case ("value", .number) where number == nil && text == nil:
                let read = try scanner.readNumber()
                number = (read.isInteger ? read.int64Value : nil, read.doubleValue)
            case ("value", .string) where number == nil && text == nil: text = try scanner.readString()
            default:
                valid = false
                try report(
                    .wrongType, JSONPath.member(path, name),
                    "a stored cell has two members, \"storedAs\" (a string) and \"value\" (a number or a string)",
                    at: memberLocation)
                try scanner.skipValue()
            }
        }
        if valid, let storageClass, number != nil || text != nil {
            if let cell = StoredCell.decoding(storageClass, number: number, text: text) { return cell }
        }
        if valid {
            try report(
                .wrongType, path,
                "a stored cell is {\"storedAs\": \"integer\", \"real\", \"text\" or \"blob\", \"value\": a number "
                    + "(integer, real; a real may be \"Infinity\" or \"-Infinity\") or a string (text, base64 blob)}",
                at: location)
        }
        return nil
    }

    /// A to-many relationship's value in `extra`: an array of strings (whether they are ids of existing records is
    /// the validator's business, once `source.relationships` says what they point at). Nil after reporting.
    mutating func readIdArray(_ path: String) throws -> [String]? {
        try scanner.beginArray()
        var ids: [String] = []
        var valid = true
        var index = 0
        while try scanner.nextElement() {
            let location = scanner.location
            let kind = try scanner.peekKind()
            if kind == .string {
                ids.append(try scanner.readString())
            } else {
                try reportWrongType("an id string", found: kind, "\(path)[\(index)]", at: location)
                valid = false
            }
            index += 1
        }
        return valid ? ids : nil
    }

    /// `true` or `false`, nothing else; nil after reporting a wrong type.
    mutating func readBool(_ path: @autoclosure () -> String) throws -> Bool? {
        let kind = try scanner.peekKind()
        if kind == .bool { return try scanner.readBool() }
        try reportWrongType("true or false", found: kind, path(), at: scanner.location)
        return nil
    }

    /// An integer within `range`; fractions, exponents and values outside the range are wrong-type (nil).
    mutating func readInteger(
        _ path: @autoclosure () -> String, in range: ClosedRange<Int64>,
        rangeName: @autoclosure () -> String
    ) throws -> Int? {
        let kind = try scanner.peekKind()
        let location = scanner.location
        guard kind == .number else {
            try reportWrongType("an integer", found: kind, path(), at: location)
            return nil
        }
        let number = try scanner.readNumber()
        guard number.isInteger else {
            try report(.wrongType, path(), "expected an integer, found \(number.description)", at: location)
            return nil
        }
        guard let value = number.int64Value, range.contains(value) else {
            try report(
                .wrongType, path(), "expected an integer in \(rangeName()), found \(number.description)",
                at: location)
            return nil
        }
        return Int(value)
    }
}
