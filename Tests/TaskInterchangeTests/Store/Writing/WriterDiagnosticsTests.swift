import Testing
@testable import TaskInterchange

@Suite("Writer diagnostics")
struct WriterDiagnosticsTests {
    @Test("what had nowhere to go adds the four counts a strict import refuses, and nothing else")
    func unplaced() {
        var diagnostics = WriterDiagnostics()
        diagnostics.unplacedExtras["Task.mood"] = 2
        diagnostics.unplacedFields["Task.notes"] = 3
        diagnostics.toOneOverflows["Task.mood"] = 1
        diagnostics.missingFileReferences["Note.image"] = 4
        diagnostics.lackingEntityValues["Note.size"] = 5
        diagnostics.droppedDanglingKeys["Note.owner"] = 6
        #expect(diagnostics.unplaced == ["Task.mood": 3, "Task.notes": 3, "Note.image": 4])
    }

    @Test("each count becomes one warning, by kind then name, and the counts start again")
    func reportCounts() {
        var diagnostics = WriterDiagnostics()
        diagnostics.warnings = ["before"]
        diagnostics.unplacedExtras = ["Task.b": 1, "Task.a": 2]
        diagnostics.unplacedFields["Project.notes"] = 1
        diagnostics.toOneOverflows["Task.project"] = 3
        diagnostics.missingFileReferences["Note.image"] = 1
        diagnostics.droppedDanglingKeys["Note.owner"] = 2
        diagnostics.lackingEntityValues["Note.size"] = 7
        diagnostics.reportCounts()
        #expect(
            diagnostics.warnings.map { String($0.prefix { $0 != ":" }) } == [
                "before", "Task.a", "Task.b", "Project.notes", "Task.project", "Note.image", "Note.owner",
            ])
        #expect(diagnostics.warnings[1] == "Task.a: the target has no such property; 2 extra values not imported")
        #expect(diagnostics.warnings[2] == "Task.b: the target has no such property; 1 extra value not imported")
        #expect(diagnostics.warnings[4].contains("3 records with several ids not linked"))
        #expect(diagnostics.warnings[6].contains("2 keys that named no row in the source (dangling) not imported"))
        #expect(diagnostics.unplaced.isEmpty && diagnostics.droppedDanglingKeys.isEmpty)
        // Lacking generic values are the importer's to collect, not a warning of the writer's.
        #expect(diagnostics.lackingEntityValues == ["Note.size": 7])
        diagnostics.reportCounts()
        #expect(diagnostics.warnings.count == 7)
    }

    @Test("lacking generic values are handed over once")
    func takeLacking() {
        var diagnostics = WriterDiagnostics()
        diagnostics.lackingEntityValues["Note.size"] = 2
        #expect(diagnostics.takeLackingEntityValues() == ["Note.size": 2])
        #expect(diagnostics.takeLackingEntityValues().isEmpty)
    }
}
