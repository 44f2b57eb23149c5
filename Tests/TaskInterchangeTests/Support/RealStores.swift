import Foundation
@testable import TaskInterchange

/// Stores written by Apple's frameworks, from `../shared/fixtures/real-stores`, always read through private copies:
/// several keep rows only in `-wal`, and opening an original could change it. Suites that use them are enabled only
/// when the directory exists.
enum RealStores {
    static let directory: URL = {
        SampleStores.repository.deletingLastPathComponent().appendingPathComponent("shared/fixtures/real-stores")
    }()

    static var available: Bool { FileManager.default.fileExists(atPath: directory.path) }

    static var names: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter {
            $0.hasSuffix(".sqlite")
        }.sorted()
    }

    /// Copies a fixture and its `-wal`/`-shm` into `temporary`; returns the copy's path.
    static func copy(_ name: String, to temporary: TemporaryDirectory) throws -> String {
        for suffix in ["", "-wal", "-shm"] {
            let source = directory.appendingPathComponent(name + suffix).path
            guard FileManager.default.fileExists(atPath: source) else { continue }
            try FileManager.default.copyItem(atPath: source, toPath: temporary.path(name + suffix))
            try FileManager.default.setAttributes(
                [.posixPermissions: 0o644], ofItemAtPath: temporary.path(name + suffix))
        }
        return temporary.path(name)
    }

    /// The model cache and metadata of a fixture, read through a copy.
    static func read(_ name: String) throws -> (model: ObjectModel?, metadata: StoreMetadata?) {
        let directory = try TemporaryDirectory()
        let snapshot = try StoreSnapshot(path: try copy(name, to: directory))
        return (try ObjectModel(modelCacheOf: snapshot), try StoreMetadata(of: snapshot))
    }

    /// A fixture's raw `Z_MODELCACHE` blob.
    static func modelCacheBlob(_ name: String) throws -> Data? {
        let directory = try TemporaryDirectory()
        let snapshot = try StoreSnapshot(path: try copy(name, to: directory))
        guard case .blob(let bytes)? = try snapshot.database.scalar("SELECT Z_CONTENT FROM Z_MODELCACHE") else {
            return nil
        }
        return Data(bytes)
    }
}
