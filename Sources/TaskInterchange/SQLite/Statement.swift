import CSQLite
import Foundation

/// A prepared statement; finalized when the last reference goes away.
///
/// Not `Sendable`: it belongs to the connection that prepared it.
package final class Statement {
    let handle: OpaquePointer
    /// The SQL this statement was prepared from.
    package let sql: String
    unowned let database: Database

    init(database: Database, sql: String) throws(SQLiteError) {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(database.handle, sql, -1, 0, &statement, nil)
        guard code == SQLITE_OK, let statement else {
            throw database.error(code: code, sql: sql)
        }
        self.handle = statement
        self.sql = sql
        self.database = database
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// Binds values to the positional parameters, starting at 1.
    package func bind(_ values: [SQLValue]) throws(SQLiteError) {
        for (offset, value) in values.enumerated() {
            try bind(value, at: Int32(offset + 1))
        }
    }

    /// Binds one value to a parameter index (1-based).
    package func bind(_ value: SQLValue, at index: Int32) throws(SQLiteError) {
        let code: Int32
        switch value {
        case .null: code = sqlite3_bind_null(handle, index)
        case .integer(let int): code = sqlite3_bind_int64(handle, index, int)
        case .real(let double): code = sqlite3_bind_double(handle, index, double)
        case .text(let string): code = sqlite3_bind_text(handle, index, string, -1, SQLITE_TRANSIENT)
        case .blob(let bytes):
            code = bytes.withUnsafeBytes { buffer in
                sqlite3_bind_blob(
                    handle, index, buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(buffer.count),
                    SQLITE_TRANSIENT)
            }
        }
        guard code == SQLITE_OK else { throw database.error(code: code, sql: sql) }
    }

    /// Binds an integer without boxing it in `SQLValue` (hot paths).
    package func bind(_ value: Int64, at index: Int32) {
        sqlite3_bind_int64(handle, index, value)
    }

    /// Binds a Double (hot paths).
    package func bind(_ value: Double, at index: Int32) {
        sqlite3_bind_double(handle, index, value)
    }

    /// Binds text from its UTF-8 bytes without a C-string copy (hot paths); an empty string stays text, not NULL.
    package func bind(_ value: String, at index: Int32) {
        var text = value
        text.withUTF8 { bytes in
            let empty: StaticString = ""
            sqlite3_bind_text(
                handle, index,
                UnsafeRawPointer(bytes.baseAddress ?? UnsafePointer(empty.utf8Start))
                    .assumingMemoryBound(to: CChar.self), Int32(bytes.count), SQLITE_TRANSIENT)
        }
    }

    /// Binds raw bytes as a BLOB (hot paths).
    package func bind(blob bytes: UnsafeRawBufferPointer, at index: Int32) {
        sqlite3_bind_blob(
            handle, index, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(bytes.count), SQLITE_TRANSIENT)
    }

    /// Binds text from bytes as they are, valid UTF-8 or not (a cell copied from another store).
    package func bind(textBytes bytes: UnsafeRawBufferPointer, at index: Int32) {
        sqlite3_bind_text(
            handle, index, (bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1))?.assumingMemoryBound(to: CChar.self),
            Int32(bytes.count), SQLITE_TRANSIENT)
    }

    /// Binds NULL.
    package func bindNull(at index: Int32) {
        sqlite3_bind_null(handle, index)
    }

    /// Runs a statement that returns no rows with its current bindings, then resets it.
    package func run() throws(SQLiteError) {
        defer { sqlite3_reset(handle) }
        while try step() {}
    }

    /// Resets the statement so it can run again; keeps the bindings.
    package func reset() {
        sqlite3_reset(handle)
    }

    /// Advances to the next row; false when done.
    @discardableResult
    package func step() throws(SQLiteError) -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let error = database.error(code: code, sql: sql)
            sqlite3_reset(handle)
            throw error
        }
    }

    /// Runs the statement to completion with the given bindings.
    package func execute(_ values: [SQLValue] = []) throws(SQLiteError) {
        reset()
        try bind(values)
        while try step() {}
        reset()
    }

    /// Number of result columns.
    package var columnCount: Int32 { sqlite3_column_count(handle) }

    /// The value of a result column of the current row; type checked first, so NULL never reaches a text read.
    package func value(at index: Int32) -> SQLValue {
        switch columnType(at: index) {
        case .integer: return .integer(sqlite3_column_int64(handle, index))
        case .real: return .real(sqlite3_column_double(handle, index))
        case .text: return .text(text(at: index) ?? "")
        case .blob: return .blob(blob(at: index) ?? [])
        case .null: return .null
        }
    }

    /// True when the column of the current row is NULL.
    package func isNull(at index: Int32) -> Bool {
        columnType(at: index) == .null
    }

    /// The column's storage class in the current row.
    package func columnType(at index: Int32) -> StorageClass {
        StorageClass(sqlite3_column_type(handle, index))
    }

    /// The column's value as an exact integer key (see `StorageClass.exactInteger`), nil when it is not one.
    package func exactInteger(at index: Int32) -> Int64? {
        let type = columnType(at: index)
        // Every key Core Data writes: read straight, without the general rule (this runs for every link and key).
        if type == .integer { return int64(at: index) }
        return type.exactInteger(integer: { int64(at: index) }, real: { double(at: index) }, text: { text(at: index) })
    }

    /// The integer value of a column (0 for NULL).
    package func int64(at index: Int32) -> Int64 {
        sqlite3_column_int64(handle, index)
    }

    /// The double value of a column (0 for NULL).
    package func double(at index: Int32) -> Double {
        sqlite3_column_double(handle, index)
    }

    /// The text of a column, or nil for NULL.
    package func text(at index: Int32) -> String? {
        guard columnType(at: index) != .null,
            let pointer = sqlite3_column_text(handle, index)
        else { return nil }
        let count = Int(sqlite3_column_bytes(handle, index))
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }

    /// The text of a column, and whether it is exactly the column's bytes (false when invalid UTF-8 was decoded
    /// with U+FFFD in place of the bad bytes); nil for NULL.
    package func checkedText(at index: Int32) -> (text: String, isExact: Bool)? {
        guard columnType(at: index) != .null,
            let pointer = sqlite3_column_text(handle, index)
        else { return nil }
        let bytes = UnsafeBufferPointer(start: pointer, count: Int(sqlite3_column_bytes(handle, index)))
        let text = String(decoding: bytes, as: UTF8.self)
        let isExact =
            text.utf8.withContiguousStorageIfAvailable {
                $0.count == bytes.count && (bytes.isEmpty || memcmp($0.baseAddress!, pointer, bytes.count) == 0)
            } ?? text.utf8.elementsEqual(bytes)
        return (text, isExact)
    }

    /// The bytes of a column (text or blob), or nil for NULL.
    package func blob(at index: Int32) -> [UInt8]? {
        guard columnType(at: index) != .null else { return nil }
        let count = Int(sqlite3_column_bytes(handle, index))
        guard count > 0, let pointer = sqlite3_column_blob(handle, index) else { return [] }
        return Array(UnsafeRawBufferPointer(start: pointer, count: count))
    }

    /// Calls `body` with the raw bytes of a column without copying; the buffer is valid only inside `body`.
    package func withBytes<R>(at index: Int32, _ body: (UnsafeRawBufferPointer?) throws -> R) rethrows -> R {
        guard columnType(at: index) != .null else { return try body(nil) }
        let pointer = sqlite3_column_blob(handle, index)
        let count = Int(sqlite3_column_bytes(handle, index))
        return try body(UnsafeRawBufferPointer(start: pointer, count: count))
    }
}

@available(*, unavailable, message: "A statement belongs to one connection and one thread.")
extension Statement: Sendable {}

/// `SQLITE_TRANSIENT` does not import into Swift; SQLite defines it as the destructor pointer -1.
let SQLITE_TRANSIENT = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
