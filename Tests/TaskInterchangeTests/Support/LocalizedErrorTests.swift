import Foundation
import Testing

@testable import TaskInterchange

/// Every public error is something an app can show: `localizedDescription` is one readable line that says what
/// happened and where (never Foundation's "The operation could not be completed"), and the error still carries its
/// details as data.
@Suite("Errors for people")
struct LocalizedErrorTests {
    static func isOneReadableLine(_ text: String) -> Bool {
        !text.isEmpty && !text.contains("\n") && !text.contains("operation could not be completed")
            && !text.contains("TaskInterchange.")
    }

    @Test("TaskInterchangeError: its message, a reason and a suggestion for every kind, none naming a flag")
    func interchangeError() {
        let kinds: [TaskInterchangeError.Kind] = [
            .invalidData, .noInput, .cannotCreate, .io, .busy, .usage, .cancelled, .internal,
        ]
        for kind in kinds {
            let error = TaskInterchangeError(kind, "store.sqlite: something happened")
            #expect((error as any Error).localizedDescription == "store.sqlite: something happened")
            let reason = error.failureReason ?? ""
            let suggestion = error.recoverySuggestion ?? ""
            #expect(Self.isOneReadableLine(reason) && Self.isOneReadableLine(suggestion), "\(kind)")
            #expect(!reason.contains("--") && !suggestion.contains("--"), "\(kind)")
        }
    }

    @Test("an invalid archive: one line with the count by code and the first issue's JSON path; every issue kept")
    func invalidArchive() throws {
        let directory = try TemporaryDirectory()
        let archive = SampleStores.repository.appendingPathComponent("samples/invalid/missing-category.json").path
        do {
            _ = try StoreImport.run(
                try ArchiveInput(path: archive), into: directory.path("new.sqlite"), options: StoreImportOptions())
            Issue.record("the invalid archive was imported")
        } catch let error as ArchiveValidationError {
            let text = (error as any Error).localizedDescription
            #expect(Self.isOneReadableLine(text), "\(text)")
            #expect(text.hasPrefix("the archive is invalid: \(error.report.errorCount) error"), "\(text)")
            #expect(text.contains("missing-category") && text.contains("; first: $."), "\(text)")
            #expect(text.hasSuffix("; nothing was written"))
            #expect(String(describing: error) == text)
            #expect(!error.report.issues.isEmpty && error.recoverySuggestion?.contains("JSON paths") == true)
        }
        #expect(!FileManager.default.fileExists(atPath: directory.path("new.sqlite")))
    }

    @Test("records the store already holds: how many, and the modes that write into such a store")
    func existingRecords() throws {
        let directory = try TemporaryDirectory()
        let store = try SampleStores.copy("TaskManager.sqlite", to: directory)
        do {
            _ = try StoreImport.run(
                try ArchiveInput(
                    path: SampleStores.repository.appendingPathComponent("samples/TaskManager.v2.json").path),
                into: store, options: StoreImportOptions())
            Issue.record("the archive was imported twice")
        } catch let error as ArchiveValidationError {
            let text = (error as any Error).localizedDescription
            #expect(
                text
                    == "\(error.report.errorCount) of the archive's records already exist in the target store (by id); "
                    + "nothing was written", "\(text)")
            #expect(error.recoverySuggestion?.contains("upsert, merge or skip") == true)
        }
    }

    @Test("a failed migration: stage, cause and backup in one line; the cause's advice")
    func migration() {
        let error = MigrationError(
            stage: .validating, backupPath: "/tmp/b.sqlite",
            underlying: TaskInterchangeError(.busy, "old.sqlite: the store is locked"), verification: nil)
        let text = (error as any Error).localizedDescription
        #expect(Self.isOneReadableLine(text) && text.contains("old.sqlite: the store is locked"), "\(text)")
        #expect(text.contains("/tmp/b.sqlite"))
        #expect(error.recoverySuggestion == TaskInterchangeError(.busy, "").recoverySuggestion)
    }

    @Test("decoding, writing and output errors read as their description, on one line")
    func others() {
        let issue = ValidationIssue(.missingField, path: "$.tasks[0].title", message: "required member missing")
        let decoding = ArchiveDecodingError(issues: [issue, issue])
        #expect(
            (decoding as any Error).localizedDescription
                == "the archive has 2 errors; first: $.tasks[0].title: missing-field: required member missing")
        #expect(
            (ArchiveWritingError.ndjsonRequiresVersion2 as any Error).localizedDescription
                == "NDJSON output needs format version 2")
        let output = ByteSinkError(code: EPIPE)
        #expect((output as any Error).localizedDescription == output.description)
    }
}
