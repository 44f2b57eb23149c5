import Foundation

/// Stores and models from `../shared/fixtures`, always used through private copies: the originals are never opened
/// (several keep rows only in `-wal`, and opening one could change it). Suites that need them are enabled only when
/// they are present, and say so when skipped.
enum SharedFixtures {
    static let root = TasksBinary.repository.deletingLastPathComponent().appendingPathComponent("shared/fixtures")

    /// The path of `relative` under the fixtures (`real-stores/…`, `models/…`).
    static func path(_ relative: String) -> String {
        root.appendingPathComponent(relative).path
    }

    /// Whether `relative` is present.
    static func exists(_ relative: String) -> Bool {
        FileManager.default.fileExists(atPath: path(relative))
    }

    /// Copies `relative` and its `-wal`/`-shm` into `scratch` (as `name`, by default its own name), writable; returns
    /// the copy's path.
    static func copy(_ relative: String, into scratch: Scratch, as name: String? = nil) throws -> String {
        let name = name ?? (relative as NSString).lastPathComponent
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: path(relative) + suffix) {
            try FileManager.default.copyItem(atPath: path(relative) + suffix, toPath: scratch.path(name + suffix))
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: scratch.path(name + suffix))
        }
        return scratch.path(name)
    }
}
