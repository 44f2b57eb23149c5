#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Foundation

/// The files Core Data keeps for attributes that allow external storage: `.<StoreName>_SUPPORT/_EXTERNAL_DATA/<UUID>`
/// beside the store. Such an attribute's column starts with a marker byte: `0x01` and the value itself, or `0x02` and
/// the ASCII name of the file that holds it (ended by a NUL).
package struct ExternalData {
    /// What a column of such an attribute holds.
    package enum Stored: Equatable {
        /// The value, kept in the row (marker stripped).
        case inline([UInt8])
        /// The name of the file that holds the value.
        case file(String)
        /// Bytes without a known marker: kept as they are.
        case unmarked([UInt8])
    }

    /// `…/.<StoreName>_SUPPORT/_EXTERNAL_DATA`.
    package let directory: String
    /// Files written but not yet under their names in `directory` (a new store's, before it is placed): name → path.
    var staged: [String: String] = [:]

    /// The external data directory of the store at `store` (symbolic links resolved: the files are beside the store
    /// file itself).
    package init(store: String) {
        let url = URL(fileURLWithPath: FileIdentity.resolved(store))
        let name = url.deletingPathExtension().lastPathComponent
        directory = url.deletingLastPathComponent().path + "/." + name + "_SUPPORT/_EXTERNAL_DATA"
    }

    /// Reads a column's bytes.
    package static func decode(_ bytes: [UInt8]) -> Stored {
        switch bytes.first {
        case 0x01: return .inline(Array(bytes.dropFirst()))
        case 0x02:
            let text = bytes.dropFirst().prefix { $0 != 0 }
            let name = String(decoding: text, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            // Only a UUID names a file: nothing in a store can point outside the directory.
            return name.utf8.count == 36 && UUID(uuidString: name) != nil ? .file(name) : .unmarked(bytes)
        default: return .unmarked(bytes)
        }
    }

    /// The column bytes for a value kept in the row.
    package static func inline(_ value: [UInt8]) -> [UInt8] { [0x01] + value }

    /// The column bytes for a value kept in file `name`.
    package static func reference(_ name: String) -> [UInt8] { [0x02] + Array(name.utf8) + [0x00] }

    /// The contents of file `name` in base64, as an export writes it, or nil when `read` would give nil. The file is
    /// read and encoded a few megabytes at a time into a string made as long as the result once, so a large value
    /// costs its base64 text and no whole copy of its bytes.
    package func base64(of name: String) -> String? {
        let path = path(of: name)
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        let size = Int(status.st_size)
        var text = ""
        text.reserveCapacity((size + 2) / 3 * 4)
        // A multiple of 3 bytes per piece, so the pieces' base64 joins into the whole file's.
        var piece = [UInt8](repeating: 0, count: 3 << 20)
        var filled = 0
        while true {
            let count = piece.withUnsafeMutableBytes {
                systemRead(descriptor, $0.baseAddress! + filled, $0.count - filled)
            }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { return nil }
            filled += count
            if filled == piece.count || (count == 0 && filled > 0) {
                text += Data(piece[..<filled]).base64EncodedString()
                filled = 0
            }
            if count == 0 { return text }
        }
    }

    /// The contents of file `name`, or nil when it is missing, unreadable or not a regular file (a FIFO there would
    /// block the read forever; a link could point anywhere).
    package func read(_ name: String) -> [UInt8]? {
        let path = path(of: name)
        guard (try? FileManager.default.attributesOfItem(atPath: path)[.type]) as? FileAttributeType == .typeRegular,
            let data = FileManager.default.contents(atPath: path)
        else { return nil }
        return [UInt8](data)
    }

    private func path(of name: String) -> String {
        staged[name] ?? directory + "/" + name
    }
}

#if canImport(Glibc)
    private let systemRead = Glibc.read
#elseif canImport(Darwin)
    private let systemRead = Darwin.read
#endif
