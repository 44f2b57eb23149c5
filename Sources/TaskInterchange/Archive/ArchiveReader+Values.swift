import Foundation

extension ArchiveReader {
    /// A member value as read: usable, absent (`null` where allowed), or reported as invalid.
    enum Parsed<Value> {
        case value(Value)
        case absent
        case invalid

        /// The value when usable.
        var value: Value? {
            if case .value(let value) = self { return value }
            return nil
        }
    }
}

extension ArchiveReader.Parser {
    typealias Parsed = ArchiveReader.Parsed
    typealias MemberSet = ArchiveReader.MemberSet
    typealias MemberTracker = ArchiveReader.MemberTracker

    /// Moves to the next member of the open object whose name is one of `allowed`, and returns it; nil after the
    /// object's end. Repeated and unknown names are reported and their values skipped on the way.
    mutating func nextMember<M: ArchiveReader.Member>(_: M.Type, allowed: MemberSet, in path: @autoclosure () -> String,
                                                      tracker: inout MemberTracker) throws -> M? {
        while try scanner.nextMember() {
            let location = scanner.location
            let key = try scanner.readKey()
            if let rawValue = Self.lookUp(key, in: M.names, hint: tracker.hint), allowed.contains(rawValue: rawValue) {
                if tracker.seen.contains(rawValue: rawValue) {
                    try reportDuplicate(key.string, in: path(), at: location)
                    continue
                }
                tracker.seen.insert(rawValue: rawValue)
                tracker.hint = rawValue + 1
                return M(rawValue: rawValue)
            }
            let name = key.string
            if tracker.unknown.contains(name) {
                try reportDuplicate(name, in: path(), at: location)
                continue
            }
            tracker.unknown.append(name)
            try report(.unknownField, Self.memberPath(path(), name), "unknown member \"\(name)\" is ignored",
                       at: location, severity: .warning)
            try scanner.skipValue()
        }
        return nil
    }

    /// Reports a repeated member name and skips its value; the first value stays.
    private mutating func reportDuplicate(_ name: String, in path: String, at location: JSONScanner.Location) throws {
        try report(.duplicateKey, Self.memberPath(path, name),
                   "member \"\(name)\" appears more than once in this object; the first value is used", at: location)
        try scanner.skipValue()
    }

    /// Reports each member of `required` that is not in `seen`, at the object's opening brace.
    mutating func reportMissing<M: ArchiveReader.Member>(_: M.Type, required: MemberSet, seen: MemberSet,
                                                         in path: @autoclosure () -> String,
                                                         at location: JSONScanner.Location) throws {
        let missing = required.subtracting(seen)
        guard missing.bits != 0 else { return }
        for member in M.allCases where missing.contains(member) {
            let name = "\(M.names[member.rawValue])"
            try report(.missingField, Self.memberPath(path(), name), "missing required member \"\(name)\"",
                       at: location)
        }
    }

    /// The index of `key` in `names`, trying `hint` first.
    static func lookUp(_ key: JSONScanner.StringValue, in names: [StaticString], hint: Int) -> Int? {
        if hint < names.count, key.equals(names[hint]) { return hint }
        for index in names.indices where index != hint && key.equals(names[index]) { return index }
        return nil
    }

    /// Reports a value of the wrong JSON type and skips it.
    mutating func reportWrongType(_ expected: String, found kind: JSONScanner.ValueKind, _ path: String,
                                  at location: JSONScanner.Location) throws {
        try report(.wrongType, path, "expected \(expected), found \(kind.phrase)", at: location)
        try scanner.skipValue()
    }

    /// A string; `null` is `.absent` when `nullable`.
    mutating func readString(_ path: @autoclosure () -> String, nullable: Bool = false) throws -> Parsed<String> {
        let kind = try scanner.peekKind()
        if kind == .string { return .value(try scanner.readString()) }
        if kind == .null && nullable {
            try scanner.readNull()
            return .absent
        }
        try reportWrongType("a string", found: kind, path(), at: scanner.location)
        return .invalid
    }

    /// A canonical UUID string; `null` is `.absent` when `nullable`.
    mutating func readUUID(_ path: @autoclosure () -> String, nullable: Bool = false) throws -> Parsed<UUID> {
        let kind = try scanner.peekKind()
        let location = scanner.location
        if kind == .string {
            let text = try scanner.readStringValue()
            if let uuid = text.withBytes({ CanonicalUUID.parse($0) }) { return .value(uuid) }
            try report(.invalidUUID, path(), CanonicalUUID.problem(with: text.string), at: location)
            return .invalid
        }
        if kind == .null && nullable {
            try scanner.readNull()
            return .absent
        }
        try reportWrongType("a UUID string", found: kind, path(), at: location)
        return .invalid
    }

    /// A date: lossless ISO-8601 text; in version 1 also seconds since 2001 as a number.
    mutating func readDate(_ path: @autoclosure () -> String, nullable: Bool = false) throws -> Parsed<Date> {
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
                return .value(Date(timeIntervalSinceReferenceDate: seconds))
            case .failure(let error):
                let shown = text.string.count > 60 ? "\(text.string.prefix(60))…" : text.string
                try report(.invalidDate, path(), "\"\(shown)\" is not a valid date: \(error)", at: location)
                return .invalid
            }
        case .number where rules == .version1:
            let number = try scanner.readNumber()
            guard let seconds = number.doubleValue, seconds.magnitude <= LosslessDate.maximumMagnitude else {
                try report(.invalidDate, path(),
                           "\(number.description) seconds from 2001-01-01 is out of range for a date", at: location)
                return .invalid
            }
            return .value(Date(timeIntervalSinceReferenceDate: seconds))
        case .number:
            let number = try scanner.readNumber()
            try report(.invalidDate, path(), "format version 2 writes dates as ISO-8601 text such as "
                       + "\"2024-03-01T09:30:00Z\", found the number \(number.description)", at: location)
            return .invalid
        case .null where nullable:
            try scanner.readNull()
            return .absent
        default:
            try reportWrongType(rules == .version1 ? "a date (a number or ISO-8601 text)" : "an ISO-8601 date string",
                                found: kind, path(), at: location)
            return .invalid
        }
    }

    /// `true` or `false`, nothing else.
    mutating func readBool(_ path: @autoclosure () -> String) throws -> Parsed<Bool> {
        let kind = try scanner.peekKind()
        if kind == .bool { return .value(try scanner.readBool()) }
        try reportWrongType("true or false", found: kind, path(), at: scanner.location)
        return .invalid
    }

    /// An integer within `range`; fractions, exponents and values outside the range are wrong-type.
    mutating func readInteger(_ path: @autoclosure () -> String, in range: ClosedRange<Int64>,
                              rangeName: String) throws -> Parsed<Int> {
        let kind = try scanner.peekKind()
        let location = scanner.location
        guard kind == .number else {
            try reportWrongType("an integer", found: kind, path(), at: location)
            return .invalid
        }
        let number = try scanner.readNumber()
        guard number.isInteger else {
            try report(.wrongType, path(), "expected an integer, found \(number.description)", at: location)
            return .invalid
        }
        guard let value = number.int64Value, range.contains(value) else {
            try report(.wrongType, path(), "expected an integer in \(rangeName), found \(number.description)",
                       at: location)
            return .invalid
        }
        return .value(Int(value))
    }
}
