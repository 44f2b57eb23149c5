#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The files of one SQLite database: the file itself and the sidecars SQLite keeps beside it under its name.
enum DatabaseFiles {
    /// The sidecars' suffixes: a rollback journal, a write-ahead log and its shared-memory index.
    static let sidecars = ["-journal", "-wal", "-shm"]
    /// The file's suffix (none) and its sidecars'.
    static let suffixes = [""] + sidecars

    /// Removes the database at `path` with its sidecars.
    static func remove(_ path: String) {
        for suffix in suffixes { unlink(path + suffix) }
    }
}
