import Foundation
import TaskInterchange

/// Moves the legacy store into a new one on first launch and returns where the backup is.
func migrateLegacyStore(at legacy: URL, to newStore: URL, backups: URL) async throws -> String {
    let migration = Migration(legacyStore: legacy.path, backupDirectory: backups.path)
    do {
        let report = try await migration.run(intoStore: newStore.path) { event in
            if case .stage(let stage) = event { print("migration:", stage.rawValue) }
        }
        return report.backupPath
    } catch let error as MigrationError {
        print(error)  // the stage that failed and where the backup is; newStore was not created
        throw error
    }
}

/// The steps on their own: each runs off the caller's actor, stops when its task is cancelled, reports progress.
func exportAndCheck(store: String, to file: String) async throws -> Bool {
    let summary = try await Exporter.export(store: store, toFile: file) { progress in
        print(progress.phase, progress.done, progress.total ?? 0)
    }
    let report = try await Validator.validate(archiveAt: file)
    let diff = try await GraphComparison.verify(.archive(path: file), against: .store(path: store))
    return report.isValid && report.counts == summary.counts && diff.isEqual
}
