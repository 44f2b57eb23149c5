// The Essentials article's snippets (Sources/TaskInterchange/TaskInterchange.docc/Essentials.md), compiled here; each
// of the article's blocks is in this file line for line (EssentialsSnippetTests), and the tests run them.
import Foundation
import TaskInterchange

func exportStore(_ store: String, to file: String) async throws -> ExportSummary {
    var options = ExportOptions()
    options.selection.since = Date(timeIntervalSinceNow: -30 * 86_400)  // tasks of the last 30 days
    return try await Exporter.export(store: store, toFile: file, options: options) { event in
        print(event.phase, event.done, event.total ?? 0)
    }
}

func essentialsValidate(_ file: String) async throws -> ValidationReport {
    let report = try await Validator.validate(archiveAt: file)
    if !report.isValid {
        print(report)  // "error: $.tasks[3].projectId: …", then "invalid: 1 error(s), 0 warning(s)"
    }
    return report
}

func essentialsImport(_ file: String, into store: String) async throws -> StoreImportOptions {
    var options = StoreImportOptions()
    options.mode = .upsert  // update records the store already has, add the rest
    options.backupPath = store + ".backup"
    let result = try await StoreImport.run(archiveAt: file, into: store, options: options)
    print(result.plan)  // "  project: 0 inserted, 5 unchanged", one line per kind and entity
    print(result)  // as `tasks import` says it: warnings, what was written ("Imported …"), the plan
    return options
}

func essentialsVerify(_ file: String, against store: String) async throws -> GraphDiff {
    let diff = try await GraphComparison.verify(.archive(path: file), against: .store(path: store))
    if !diff.isEqual { print(diff) }  // per kind "  task  12 ↔ 11  (1 only in A)", then each record
    return diff
}

func essentialsMigrate(_ legacy: String, to newStore: String, backups: String) async throws -> MigrationReport {
    let migration = Migration(legacyStore: legacy, backupDirectory: backups)
    let report = try await migration.run(intoStore: newStore) { event in
        if case .stage(let stage) = event { print("migration:", stage.rawValue) }
    }
    print(report)  // "Migrated … in 0.41 s; verified; backup: …", the plan, the model change
    return report
}

func essentialsOwnDestination(_ file: String) async throws -> ImportPlan {
    let plan = try await Importer().run(archiveAt: file, into: { MemoryDestination() })
    print(plan)
    return plan
}

func essentialsFailure(_ file: String, into store: String, options: StoreImportOptions) async throws -> String? {
    var said: String?
    func print(_ text: String) { said = text }  // what the app would show, kept for the test
    do {
        _ = try await StoreImport.run(archiveAt: file, into: store, options: options)
    } catch let error as TaskInterchangeError {
        let text = error.message { setting, values in
            setting == .mode ? "the “Existing tasks” choice" : setting.name
        }
        print(text)
    }
    return said
}
