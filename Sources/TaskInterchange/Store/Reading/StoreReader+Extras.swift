import Foundation

/// The extra columns of a row (attributes no typed field reads) as the archive's `extra` values.
extension StoreReader {
    /// Reads the extra columns starting at result column `first` into an `extra` dictionary (nil when all are NULL).
    /// A cell that does not fit its attribute's type travels as it is stored (`ExtraValue.stored`), with an
    /// `invalid-value` finding: the archive stays valid and a restore writes the same cell back. `room`: how many
    /// values the caller adds after these (a record's links), made room for at once.
    func extraValues(
        _ statement: Statement, from first: Int32, _ columns: [StoreExtras.Column], entity: String, key: Int64,
        room: Int = 0
    ) -> [String: ExtraValue]? {
        guard !columns.isEmpty else { return nil }
        externalFiles = [:]
        var values: [String: ExtraValue] = [:]
        values.reserveCapacity(columns.count + room)
        for (offset, column) in columns.enumerated() {
            let index = first + Int32(offset)
            let type = statement.columnType(at: index)
            guard type != .null else { continue }
            /// The cell as stored, with its finding.
            func misfit(_ what: String) -> ExtraValue? {
                log.add(
                    .invalidValue, entity: entity, property: column.property,
                    message: "\(what); carried as the stored cell (storedAs), so a restore writes it back",
                    example: "p\(key)")
                return Self.cell(statement, index).map(ExtraValue.stored)
            }
            switch (column.kind, type) {
            case (.reference(let destination), .integer):
                let target = statement.int64(at: index)
                if let id = indexes[destination]?.id(of: target) {
                    values[column.property] = .string(CanonicalUUID.string(id))
                } else if isExcluded(destination) {
                    log.add(
                        .excludedReference, entity: entity, property: column.property,
                        message: "key points at a \(destination.rawValue) of an excluded entity; exported without it",
                        example: "p\(key)→p\(target)")
                } else {
                    log.add(
                        .danglingReference, entity: entity, property: column.property,
                        message: "key points at no \(destination.rawValue) row; exported without it",
                        example: "p\(key)→p\(target)")
                }
            case (.reference, _):
                // A relationship's value is an id: a cell that is no key has no id to travel as.
                log.add(
                    .invalidValue, entity: entity, property: column.property,
                    message: "\(type) in a relationship's key column, which holds integer keys; not exported",
                    example: "p\(key)")
            case (.external, .blob):
                values[column.property] = externalValue(statement, index, column.property, entity: entity, key: key)
            case (.bool, .integer) where (0...1).contains(statement.int64(at: index)):
                values[column.property] = .bool(statement.int64(at: index) != 0)
            case (.bool, .integer): values[column.property] = misfit("integer other than 0 or 1 in a Boolean attribute")
            case (.integer16, .integer), (.integer32, .integer):
                let type: ArchiveType = column.kind == .integer16 ? .integer16 : .integer32
                let range = type.integerRange!
                values[column.property] =
                    range.contains(statement.int64(at: index))
                    ? .integer(statement.int64(at: index))
                    : misfit("integer outside the \(type.label) range \(range.lowerBound)…\(range.upperBound)")
            case (.integer, .integer), (.double, .integer), (.float, .integer):
                values[column.property] = .integer(statement.int64(at: index))
            case (.double, .real) where statement.double(at: index).isFinite:
                values[column.property] = .double(statement.double(at: index))
            case (.float, .real)
            where statement.double(at: index).magnitude <= Double(Float.greatestFiniteMagnitude):
                values[column.property] = .double(statement.double(at: index))
            case (.double, .real), (.float, .real):
                values[column.property] = misfit("real beyond \(column.kind.label) attribute's range")
            case (.decimal, .integer): values[column.property] = .string(String(statement.int64(at: index)))
            case (.decimal, .real) where statement.double(at: index).isFinite:
                values[column.property] = .string(String(statement.double(at: index)))
            case (.date, .integer), (.date, .real):
                let seconds = type == .integer ? Double(statement.int64(at: index)) : statement.double(at: index)
                if let text = try? LosslessDate.string(from: Date(timeIntervalSinceReferenceDate: seconds)) {
                    values[column.property] = .string(text)
                } else {
                    values[column.property] = misfit("date beyond what an archive's dates hold (±1e17 s)")
                }
            case (.uuid, .blob):
                if let id = statement.withBytes(at: index, { $0.flatMap(UUID.init(bytes:)) }) {
                    values[column.property] = .string(CanonicalUUID.string(id))
                } else {
                    values[column.property] = .string(Data(statement.blob(at: index) ?? []).base64EncodedString())
                }
            case (.binary, .blob), (.automatic, .blob):
                values[column.property] = .string(Data(statement.blob(at: index) ?? []).base64EncodedString())
            case (.string, .text), (.automatic, .text):
                let (text, isExact) = statement.checkedText(at: index) ?? ("", true)
                values[column.property] = .string(text)
                if !isExact {
                    log.add(
                        .invalidValue, entity: entity, property: column.property,
                        message: "text that is not valid UTF-8; exported with U+FFFD in place of the bad bytes",
                        example: "p\(key)")
                }
            case (.automatic, .integer): values[column.property] = .integer(statement.int64(at: index))
            case (.automatic, .real):
                let value = statement.double(at: index)
                values[column.property] = value.isFinite ? .double(value) : misfit("real that is not finite")
            case (.external, _), (.bool, _), (.integer16, _), (.integer32, _), (.integer, _), (.float, _),
                (.double, _), (.decimal, _), (.date, _), (.uuid, _), (.binary, _), (.string, _):
                values[column.property] = misfit("\(type) in \(column.kind.label) attribute")
            case (_, .null):
                continue
            }
        }
        return values.isEmpty ? nil : values
    }

    /// An externally storable value: the bytes behind Core Data's inline marker, or the file's contents (its name
    /// kept in `externalFiles`, also when the file is missing: a restore then points at the same missing file).
    private func externalValue(_ statement: Statement, _ index: Int32, _ property: String, entity: String, key: Int64)
        -> ExtraValue?
    {
        switch ExternalData.decode(statement.blob(at: index) ?? []) {
        case .inline(let bytes):
            return .string(Data(bytes).base64EncodedString())
        case .unmarked(let bytes):
            log.add(
                .invalidValue, entity: entity, property: property,
                message: "an externally storable value without Core Data's marker byte (or naming no "
                    + "file); exported as stored, and an import writes it back behind the inline marker",
                example: "p\(key)")
            return .string(Data(bytes).base64EncodedString())
        case .file(let name):
            externalFiles[property] = name
            if let text = externalData.base64(of: name) { return .string(text) }
            log.add(
                .missingExternalData, entity: entity, property: property,
                message: "the value is kept in the external file \(externalData.directory)/\(name), "
                    + "which is missing or unreadable; only the file's name was exported",
                example: "p\(key)")
            return nil
        }
    }

    /// The cell at `index` as SQLite holds it; nil for NULL.
    static func cell(_ statement: Statement, _ index: Int32) -> StoredCell? {
        switch statement.columnType(at: index) {
        case .integer: return .integer(statement.int64(at: index))
        case .real: return .real(statement.double(at: index))
        case .text: return .text(statement.text(at: index) ?? "")
        case .blob: return .blob(statement.blob(at: index) ?? [])
        case .null: return nil
        }
    }
}

extension StoreExtras.ValueKind {
    /// "a Boolean", "an Integer 16", …: the attribute's type as Xcode's model editor names it, for findings.
    var label: String {
        switch self {
        case .bool: return "a Boolean"
        case .integer16: return "an Integer 16"
        case .integer32: return "an Integer 32"
        case .integer: return "an integer"
        case .float: return "a Float"
        case .double: return "a Double"
        case .date: return "a Date"
        case .uuid: return "a UUID"
        case .binary: return "a Binary Data"
        case .string: return "a String"
        case .decimal: return "a Decimal"
        case .external: return "an externally stored Binary Data"
        case .reference: return "a relationship's"
        case .automatic: return "an untyped"
        }
    }
}
