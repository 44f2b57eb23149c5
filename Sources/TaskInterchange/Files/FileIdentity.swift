#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Foundation

/// Which file a path names, whatever the spelling: the device and inode (a symlink, `./x`, `a/../x` and a hard link
/// all name the same file), or for a path that does not exist yet its resolved directory and name.
struct FileIdentity: Hashable {
    private enum Key: Hashable {
        case file(device: UInt64, inode: UInt64)
        case future(String)
    }
    private let key: Key

    /// The identity of `path`; symlinks are followed.
    init(_ path: String) {
        var status = stat()
        if stat(path, &status) == 0 {
            key = .file(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
        } else {
            key = .future(Self.resolved(path))
        }
    }

    /// The path with symlinks resolved (for a missing file: its directory resolved, the name kept).
    static func resolved(_ path: String) -> String {
        if let real = realpath(path, nil) {
            defer { free(real) }
            return String(cString: real)
        }
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        guard let real = realpath(directory, nil) else { return url.standardizedFileURL.path }
        defer { free(real) }
        return String(cString: real) + "/" + url.lastPathComponent
    }

    /// True when `path` exists and is not a regular file (a device, FIFO or socket): such an output is written
    /// into directly, never replaced.
    static func isSpecialFile(_ path: String) -> Bool {
        var status = stat()
        guard stat(path, &status) == 0 else { return false }
        let type = status.st_mode & S_IFMT
        return type != S_IFREG && type != S_IFDIR
    }

    /// The size of a regular file in bytes; nil when there is none at `path` or it is not a regular file.
    static func size(of path: String) -> Int64? {
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        return Int64(status.st_size)
    }

    /// Refuses an output path that names the store being read or written, one of its sidecars, or an input file.
    /// - Throws: `.usage` before anything is written.
    static func checkOutput(
        _ output: String, setting: TaskInterchangeError.Setting, store: String?, inputs: [String] = []
    )
        throws(TaskInterchangeError)
    {
        let target = FileIdentity(output)
        if let store {
            let resolvedStore = resolved(store)
            for suffix in DatabaseFiles.suffixes {
                // Sidecars are looked for beside the real file, as SQLite does.
                if target == FileIdentity(resolvedStore + suffix) || target == FileIdentity(store + suffix) {
                    let what = suffix.isEmpty ? "the store \(store) itself" : "the store's \(suffix) file"
                    throw TaskInterchangeError(
                        .usage,
                        "\(setting: setting) \(output) names \(what); refusing to overwrite it (choose another path)")
                }
            }
        }
        for input in inputs where target == FileIdentity(input) {
            throw TaskInterchangeError(
                .usage,
                "\(setting: setting) \(output) names the input file \(input); refusing to overwrite it (choose another path)"
            )
        }
    }
}
