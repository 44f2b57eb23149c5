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

    /// The contents of file `name`, or nil when it is missing, unreadable or not a regular file (a FIFO there would
    /// block the read forever; a link could point anywhere).
    package func read(_ name: String) -> [UInt8]? {
        let path = directory + "/" + name
        guard (try? FileManager.default.attributesOfItem(atPath: path)[.type]) as? FileAttributeType == .typeRegular,
            let data = FileManager.default.contents(atPath: path)
        else { return nil }
        return [UInt8](data)
    }
}
