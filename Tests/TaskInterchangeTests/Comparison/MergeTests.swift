import Foundation
import Testing
@testable import TaskInterchange

@Suite("Merging")
struct MergeTests {
    static func stamp(_ seconds: Double) -> ExtraValue {
        .string(try! LosslessDate.string(from: Date(timeIntervalSinceReferenceDate: seconds)))
    }

    /// A store from `archive` whose tasks table has a `lastModified` column (as an app's would), set per task id.
    static func datedStore(_ directory: TemporaryDirectory, _ archive: Archive, dates: [UUID: Double]) throws -> String
    {
        let path = directory.path("target.sqlite")
        _ = try StoreImport.run(archive, into: path, options: StoreImportOptions())
        let database = try Database(path: path, mode: .readWrite)
        // An app's model with one more attribute: the cache tasks wrote for the built-in model is stale.
        try database.execute("ALTER TABLE ZTASK ADD COLUMN ZLASTMODIFIED TIMESTAMP; DELETE FROM Z_MODELCACHE")
        for (id, seconds) in dates {
            try database.execute(
                "UPDATE ZTASK SET ZLASTMODIFIED = \(seconds) WHERE ZID = X'\(id.uuidString.replacingOccurrences(of: "-", with: ""))' OR ZID = '\(id.uuidString)'"
            )
        }
        return path
    }

    static func titles(_ path: String) throws -> [UUID: String] {
        let archive = try readStore(path).archive
        return Dictionary(uniqueKeysWithValues: archive.tasks.map { ($0.id, $0.title) })
    }

    @Test("newer wins per record: both dated (newer archive, newer target, tie), one side dated, neither")
    func newerWins() throws {
        let directory = try TemporaryDirectory()
        let base = GraphDiffTests.base()
        try #require(base.tasks.count >= 6)
        let t = base.tasks.map(\.id)
        let path = try Self.datedStore(directory, base, dates: [t[0]: 100, t[1]: 300, t[2]: 200, t[4]: 100])
        // Every task's title changes; the dates decide which version stays.
        var incoming = base
        for index in 0..<6 { incoming.tasks[index].title = "incoming \(index)" }
        incoming.tasks[0].extra = ["lastmodified": Self.stamp(200)]  // both dated, archive newer → archive
        incoming.tasks[1].extra = ["lastmodified": Self.stamp(200)]  // both dated, target newer → target
        incoming.tasks[2].extra = ["lastmodified": Self.stamp(200)]  // tie → target
        incoming.tasks[3].extra = ["lastmodified": Self.stamp(50)]  // only the archive dated → archive
        // tasks[4]: only the target dated → target; tasks[5]: neither → archive
        incoming.tasks[5].modifiedAt = nil
        var options = StoreImportOptions()
        options.mode = .merge
        options.dryRun = true
        let plan = try StoreImport.run(incoming, into: path, options: options).plan
        #expect(plan[.task].conflicts == 6)
        #expect(plan[.task].updated == 3 && plan[.task].skipped == 3)
        let winners = Dictionary(
            uniqueKeysWithValues: plan.decisions.filter { $0.kind == .conflict }.map { ($0.id, $0.winner) })
        #expect(winners[t[0]] == .archive && winners[t[1]] == .target && winners[t[2]] == .target)
        #expect(winners[t[3]] == .archive && winners[t[4]] == .target && winners[t[5]] == .archive)
        #expect(
            plan.decisions.first { $0.id == t[1] }?.targetModifiedAt
                == (try LosslessDate.string(from: Date(timeIntervalSinceReferenceDate: 300))))

        options.dryRun = false
        let before = try Self.titles(path)
        let result = try StoreImport.run(incoming, into: path, options: options)
        #expect(result.plan[.task].updated == 3)
        let after = try Self.titles(path)
        #expect(after[t[0]] == "incoming 0" && after[t[3]] == "incoming 3" && after[t[5]] == "incoming 5")
        #expect(after[t[1]] == before[t[1]] && after[t[2]] == before[t[2]] && after[t[4]] == before[t[4]])
        // Merging the same file again changes nothing: the winners are now equal, the kept ones still older or tied.
        let hash = SHA2.sha256(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        let again = try StoreImport.run(incoming, into: path, options: options)
        #expect(again.plan[.task].updated == 0)
        #expect(SHA2.sha256(Array(try Data(contentsOf: URL(fileURLWithPath: path)))) == hash)
    }

    @Test("modifiedAt on the record is the archive's date; a named property overrides detection")
    func modifiedAtAndProperty() throws {
        let directory = try TemporaryDirectory()
        let base = GraphDiffTests.base()
        let id = base.tasks[0].id
        let path = try Self.datedStore(directory, base, dates: [id: 500])
        var incoming = base
        incoming.tasks[0].title = "newer by modifiedAt"
        incoming.tasks[0].modifiedAt = Date(timeIntervalSinceReferenceDate: 600)
        var options = StoreImportOptions()
        options.mode = .merge
        options.dryRun = true
        #expect(try StoreImport.run(incoming, into: path, options: options).plan.decisions.first?.winner == .archive)
        incoming.tasks[0].modifiedAt = Date(timeIntervalSinceReferenceDate: 400)
        #expect(try StoreImport.run(incoming, into: path, options: options).plan.decisions.first?.winner == .target)
        // A named property is only where a record without modifiedAt keeps its date: the record's modifiedAt (400),
        // not its editedAt (700), is the archive's date, and the target's lastModified (500) is newer.
        incoming.tasks[0].extra = ["editedAt": Self.stamp(700)]
        options.modificationDates = ModificationDates(property: "editedAt")
        #expect(try StoreImport.run(incoming, into: path, options: options).plan.decisions.first?.winner == .target)
        // An archive that keeps its date under extra by that name: it is read there.
        incoming.tasks[0].modifiedAt = nil
        #expect(try StoreImport.run(incoming, into: path, options: options).plan.decisions.first?.winner == .archive)
        // A name neither the archive nor the target has would leave every record undated: refused.
        options.modificationDates = ModificationDates(property: "editedOn")
        let error = try #require(throws: TaskInterchangeError.self) {
            try StoreImport.run(incoming, into: path, options: options)
        }
        #expect(error.kind == .usage)
        #expect(error.message.contains("(did you mean 'editedAt'?)"))
    }

    @Test("--match name: same-named projects and tags of an independently made graph become the target's; tasks follow")
    func matchByName() throws {
        let directory = try TemporaryDirectory()
        let target = GraphDiffTests.base()
        let path = directory.path("t.sqlite")
        _ = try StoreImport.run(target, into: path, options: StoreImportOptions())
        // Another device's graph: its own ids, the same project and tag names, a task in that project with that tag.
        let project = ProjectRecord(id: UUID(), name: target.projects[0].name)
        let tag = TagRecord(id: UUID(), name: target.tags[1].name)
        let newTag = TagRecord(id: UUID(), name: "only on the other device")
        let task = TaskRecord(
            id: UUID(), title: "from the iPad", createdAt: Date(timeIntervalSinceReferenceDate: 1),
            projectId: project.id, tagIds: [tag.id, newTag.id])
        let other = Archive(projects: [project], tags: [tag, newTag], tasks: [task]).sortedByID()
        var options = StoreImportOptions()
        options.match = .name
        let result = try StoreImport.run(other, into: path, options: options)
        #expect(result.plan[.project].matched == 1 && result.plan[.project].inserted == 0)
        #expect(result.plan[.tag].matched == 1 && result.plan[.tag].inserted == 1)
        let stored = try readStore(path).archive
        #expect(stored.projects.count == target.projects.count)
        #expect(stored.tags.count == target.tags.count + 1)
        let imported = try #require(stored.tasks.first { $0.id == task.id })
        #expect(imported.projectId == target.projects[0].id)
        #expect(imported.tagIds.contains(target.tags[1].id))
        #expect(!imported.tagIds.contains(tag.id))
        #expect(
            result.plan.decisions.contains {
                $0.kind == .match && $0.id == project.id && $0.targetId == target.projects[0].id
            })
    }

    @Test("match rules: 'name' and Entity.attribute, comma-separated; checked against the archive's model")
    func matchRules() throws {
        #expect(try MatchRule(parsing: "name") == .name)
        #expect(MatchRule.name.kinds == [.project, .category, .tag])
        let both = try MatchRule(parsing: "name,Folder.title")
        #expect(both.byName && both.attribute(of: "Folder") == "title" && both.attribute(of: "Note") == nil)
        #expect(try MatchRule(parsing: "Folder.title").kinds.isEmpty)
        #expect(throws: TaskInterchangeError.self) { try MatchRule(parsing: "title") }
        #expect(throws: TaskInterchangeError.self) { try MatchRule(parsing: "Folder.title,Folder.name") }
        #expect(throws: TaskInterchangeError.self) { try MatchRule(parsing: "name,") }
        let model = [
            "Folder": EntityDeclaration(
                attributes: ["title": "string"],
                relationships: ["notes": EntityRelationship(destination: "Note", toMany: true)])
        ]
        try MatchRule(parsing: "Folder.title").check(against: model)
        for (text, expected) in [
            ("Foldr.title", "Did you mean 'Folder'?"), ("Folder.titel", "Did you mean 'title'?"),
            ("Folder.notes", "(it is a relationship)"),
        ] {
            do {
                try MatchRule(parsing: text).check(against: model)
                Issue.record("\(text) must be refused")
            } catch {
                #expect(error.kind == .usage)
                #expect(error.message.contains(expected), "\(error.message)")
            }
        }
    }

    @Test("modifiedAt travels in version 2 archives, every bit, and is optional")
    func modifiedAtRoundTrip() throws {
        var archive = GraphDiffTests.base()
        archive.tasks[0].modifiedAt = Date(timeIntervalSinceReferenceDate: (7e8 + 0.1).nextUp)
        archive.projects[0].modifiedAt = Date(timeIntervalSinceReferenceDate: -0.0)
        let data = try archive.jsonData()
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.components(separatedBy: "\"modifiedAt\"").count == 3)
        let read = try Archive(json: data)
        #expect(
            read.tasks[0].modifiedAt?.timeIntervalSinceReferenceDate.bitPattern
                == archive.tasks[0].modifiedAt?.timeIntervalSinceReferenceDate.bitPattern)
        #expect(read.projects[0].modifiedAt?.timeIntervalSinceReferenceDate.sign == .minus)
        #expect(read.tasks[1].modifiedAt == nil)
        #expect(try GraphComparison.compare(.records(archive), .records(read)).isEqual)
    }
}
