import Foundation

/// The stores in the repository's `samples/`, copied (with their sidecars) into a test's directory before use; and
/// the repository's root, which every test that reads a file of the repository (or `../shared`) starts from.
enum SampleStores {
    static let repository: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }
        return url
    }()

    /// Copies `samples/<name>` and whichever of its `-wal` and `-shm` exist to `directory`; returns the copy's path.
    static func copy(_ name: String, to directory: TemporaryDirectory) throws -> String {
        let store = directory.path(name)
        let sample = repository.appendingPathComponent("samples/" + name).path
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: sample + suffix) {
            try FileManager.default.copyItem(atPath: sample + suffix, toPath: store + suffix)
        }
        return store
    }
}
