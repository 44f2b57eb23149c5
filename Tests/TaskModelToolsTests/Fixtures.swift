import Foundation
@testable import TaskInterchange

/// What these tests read beside the repository: its `Tests/tasksTests/Fixtures`, and `../shared/fixtures` (real models
/// and stores written by Apple's frameworks; the tests that use them are enabled only when it exists).
enum Fixtures {
    /// The repository's root.
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    /// `Tests/tasksTests/Fixtures`.
    static let tests = repository.appendingPathComponent("Tests/tasksTests/Fixtures")
    static let shared = repository.deletingLastPathComponent().appendingPathComponent("shared/fixtures")

    static var modelsAvailable: Bool { FileManager.default.fileExists(atPath: shared.path + "/models") }
    static var storesAvailable: Bool { FileManager.default.fileExists(atPath: shared.path + "/real-stores") }

    /// A model under `../shared/fixtures/models`.
    static func model(_ relative: String) -> String { shared.appendingPathComponent("models/" + relative).path }

    /// The real stores' names and model caches (nil for a store whose framework kept none), each read through a
    /// private copy of the store and its sidecars: several keep rows only in `-wal`.
    static func realStoreModels() throws -> [(name: String, model: ObjectModel?)] {
        let folder = shared.appendingPathComponent("real-stores").path
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".sqlite") }
        return try names.sorted().map { name in
            let directory = try TemporaryDirectory()
            for suffix in ["", "-wal", "-shm"]
            where FileManager.default.fileExists(atPath: "\(folder)/\(name)\(suffix)") {
                let copy = directory.path(name + suffix)
                try FileManager.default.copyItem(atPath: "\(folder)/\(name)\(suffix)", toPath: copy)
                try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: copy)
            }
            return (name, try ObjectModel(modelCacheOf: try StoreSnapshot(path: directory.path(name))))
        }
    }
}

/// A fresh directory per test, removed when the value goes away.
final class TemporaryDirectory {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("tasks-model-tests-\(UUID().uuidString)")

    init() throws { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }

    deinit { try? FileManager.default.removeItem(at: url) }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }
}
