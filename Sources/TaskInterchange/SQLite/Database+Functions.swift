import CSQLite

extension Database {
    /// Registers an SQL function of one integer argument that returns an integer or NULL. NULL gives NULL; any other
    /// argument is converted as `sqlite3_value_int64` converts it, which is how keys are read from a row (a key stored
    /// as text in a table whose `Z_PK` is not its rowid is the same key there and here).
    ///
    /// It is `SQLITE_DIRECTONLY`: a store's own triggers, views and schema can never call it.
    func createFunction(_ name: String, _ body: @escaping (Int64) -> Int64?) throws(SQLiteError) {
        let box = Unmanaged.passRetained(IntegerFunction(body)).toOpaque()
        let code = sqlite3_create_function_v2(
            handle, name, 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_DIRECTONLY, box,
            { context, _, arguments in
                let function = Unmanaged<IntegerFunction>.fromOpaque(sqlite3_user_data(context)).takeUnretainedValue()
                guard let argument = arguments?[0],
                    let key = StorageClass(sqlite3_value_type(argument)).exactInteger(
                        integer: { sqlite3_value_int64(argument) }, real: { sqlite3_value_double(argument) },
                        text: {
                            // By its length: text holding a NUL is not the digits before it.
                            sqlite3_value_text(argument).map {
                                String(
                                    decoding: UnsafeBufferPointer(
                                        start: $0, count: Int(sqlite3_value_bytes(argument))), as: UTF8.self)
                            }
                        }),
                    let result = function.body(key)
                else {
                    sqlite3_result_null(context)
                    return
                }
                sqlite3_result_int64(context, result)
            },
            nil, nil,
            { box in box.map { Unmanaged<IntegerFunction>.fromOpaque($0).release() } })
        guard code == SQLITE_OK else { throw error(code: code, sql: nil) }
    }
}

/// Holds a Swift closure for SQLite; released by SQLite when the function is replaced or the connection closes.
private final class IntegerFunction {
    let body: (Int64) -> Int64?
    init(_ body: @escaping (Int64) -> Int64?) { self.body = body }
}
