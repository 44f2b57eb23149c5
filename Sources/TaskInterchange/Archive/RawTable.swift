/// A table the app added to its store outside its model (a plain table, or a virtual one such as a full-text index),
/// carried raw in the archive's `tables` section: the statement that creates it, the indexes on it, and every row,
/// each cell with its SQLite storage class, bit for bit.
public struct RawTable: Sendable, Hashable {
    /// One stored value, as SQLite holds it.
    public enum Cell: Sendable, Hashable {
        /// NULL.
        case null
        /// An INTEGER.
        case integer(Int64)
        /// A REAL, bit for bit (`-0.0` and the infinities included; SQLite stores no NaN).
        case real(Double)
        /// TEXT that is valid UTF-8.
        case text(String)
        /// TEXT whose bytes are not valid UTF-8.
        case textBytes([UInt8])
        /// A BLOB.
        case blob([UInt8])
    }

    /// The table's name.
    public var name: String
    /// Its `CREATE TABLE` or `CREATE VIRTUAL TABLE` statement, as the source store's `sqlite_master` holds it.
    public var statement: String
    /// `CREATE INDEX` statements on it, as the source holds them.
    public var indexes: [String]
    /// The names of the row cells in order: the table's columns, after `rowid` when the table has a rowid that no
    /// column is an alias of (a virtual table's too: a full-text index's `docid`).
    public var columns: [String]
    /// Every row, cells in `columns` order, in rowid order.
    public var rows: [[Cell]]

    /// Creates a table.
    public init(name: String, statement: String, indexes: [String] = [], columns: [String], rows: [[Cell]] = []) {
        self.name = name
        self.statement = statement
        self.indexes = indexes
        self.columns = columns
        self.rows = rows
    }

    /// Whether the statement starts as a table's does (`CREATE TABLE` or `CREATE VIRTUAL TABLE`).
    var startsAsTable: Bool {
        let opening = statement.drop { $0.isWhitespace }.prefix(20).uppercased()
        return opening.hasPrefix("CREATE TABLE") || opening == "CREATE VIRTUAL TABLE"
    }

    /// Whether the statement makes a virtual table (SQLite makes its shadow tables; its rows go through it).
    public var isVirtual: Bool {
        statement.drop { $0.isWhitespace }.prefix(20).uppercased() == "CREATE VIRTUAL TABLE"
    }
}
