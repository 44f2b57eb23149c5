import Foundation
@testable import TaskInterchange

/// Real models beside stores their versions made, from `../shared/fixtures/models` (see its README and SOURCES.tsv).
/// Model folders are read in place (never written); stores are read through private copies, as `RealStores` does.
enum ModelFixtures {
    static let directory: URL = {
        SampleStores.repository.deletingLastPathComponent().appendingPathComponent("shared/fixtures/models")
    }()

    static var available: Bool { FileManager.default.fileExists(atPath: directory.path) }

    static func path(_ relative: String) -> String { directory.appendingPathComponent(relative).path }

    /// Each store with the model folder its app keeps (`folder/name.sqlite`, `folder/Model.xcdatamodeld`).
    static var stores: [String] {
        let folders = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
        return folders.flatMap { folder in
            ((try? FileManager.default.contentsOfDirectory(atPath: path(folder))) ?? []).filter {
                $0.hasSuffix(".sqlite")
            }.sorted().map { folder + "/" + $0 }
        }
    }

    /// Every `.xcdatamodeld` and `.momd`, as `folder/name`.
    static var models: [String] {
        let folders = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
        return folders.flatMap { folder in
            ((try? FileManager.default.contentsOfDirectory(atPath: path(folder))) ?? [])
                .filter { $0.hasSuffix(".xcdatamodeld") || $0.hasSuffix(".momd") }.sorted().map { folder + "/" + $0 }
        }
    }

    /// The `.xcdatamodeld` beside a store.
    static func modelFolder(for store: String) -> String {
        let folder = (store as NSString).deletingLastPathComponent
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path(folder))) ?? []
        return path(folder + "/" + names.first { $0.hasSuffix(".xcdatamodeld") }!)
    }

    /// Copies a store and its `-wal`/`-shm` into `temporary`; returns the copy's path.
    static func copy(_ store: String, to temporary: TemporaryDirectory) throws -> String {
        let name = (store as NSString).lastPathComponent
        for suffix in ["", "-wal", "-shm"] {
            let source = path(store + suffix)
            guard FileManager.default.fileExists(atPath: source) else { continue }
            try FileManager.default.copyItem(atPath: source, toPath: temporary.path(name + suffix))
            try FileManager.default.setAttributes(
                [.posixPermissions: 0o644], ofItemAtPath: temporary.path(name + suffix))
        }
        return temporary.path(name)
    }
}
