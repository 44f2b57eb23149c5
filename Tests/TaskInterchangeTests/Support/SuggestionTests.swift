import Foundation
import Testing
@testable import TaskInterchange

@Suite("Did-you-mean suggestions")
struct SuggestionTests {
    @Test("edit distance counts insertions, deletions, substitutions and a transposition as one edit each")
    func distance() {
        #expect(Suggestion.distance("--stor", "--store") == 1)
        #expect(Suggestion.distance("exprot", "export") == 1)
        #expect(Suggestion.distance("TodoItm", "TodoItem") == 1)
        #expect(Suggestion.distance("kitten", "sitting") == 3)
        #expect(Suggestion.distance("", "abc") == 3 && Suggestion.distance("abc", "") == 3)
    }

    @Test("the closest name within two edits, or a unique beginning; nothing for a name nothing is near")
    func closest() {
        let options = ["--store", "--mapping", "--busy-timeout", "--strict", "--json-summary"]
        #expect(Suggestion.closest(to: "--stor", among: options) == "--store")
        #expect(Suggestion.closest(to: "--busy", among: options) == "--busy-timeout")
        #expect(Suggestion.closest(to: "--maping", among: options) == "--mapping")
        #expect(Suggestion.closest(to: "--frobnicate", among: options) == nil)
        // A short name allows one edit only.
        #expect(Suggestion.closest(to: "tag", among: ["task", "tags"]) != nil)
        #expect(Suggestion.closest(to: "xyz", among: ["task"]) == nil)
        #expect(Suggestion.phrase(for: "--stor", among: options) == ". Did you mean '--store'?")
        #expect(Suggestion.phrase(for: "--zzz", among: options) == "")
    }

    @Test("a missing path: the entry of its directory that differs by case or a typo, never a sidecar or hidden file")
    func nearPath() throws {
        let directory = try TemporaryDirectory()
        for name in ["Tasks.sqlite", "Tasks.sqlite-wal", ".Tasks_SUPPORT", "Other.json"] {
            #expect(FileManager.default.createFile(atPath: directory.path(name), contents: Data()))
        }
        let base = directory.url.path + "/"
        #expect(Suggestion.nearPath(to: base + "tasks.sqlite") == "; did you mean '\(base)Tasks.sqlite'?")
        #expect(Suggestion.nearPath(to: base + "Taks.sqlite") == "; did you mean '\(base)Tasks.sqlite'?")
        #expect(Suggestion.nearPath(to: base + "Tasks_SUPPORT").isEmpty)
        #expect(Suggestion.nearPath(to: base + "Nothing.db").isEmpty)
        #expect(Suggestion.nearPath(to: base + "missing/Tasks.sqlite").isEmpty)
    }
}
