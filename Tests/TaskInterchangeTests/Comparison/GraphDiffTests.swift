import Foundation
import Testing
@testable import TaskInterchange

@Suite("Graph comparison")
struct GraphDiffTests {
    /// A generated archive with enough of everything to change one thing at a time.
    static func base() -> Archive {
        var seed: UInt64 = 11
        while true {
            let archive = ArchiveGenerator.archive(seed: seed, maxTasks: 40)
            if archive.projects.count >= 2, archive.tags.count >= 2, archive.tasks.count >= 5,
                archive.tasks.contains(where: { $0.subtasks.count >= 2 })
            {
                return archive
            }
            seed += 1
        }
    }

    static func diff(_ a: Archive, _ b: Archive, options: GraphComparison.Options = .init()) throws -> GraphDiff {
        try GraphComparison.compare(.records(a, name: "a"), .records(b, name: "b"), options: options)
    }

    /// The only differing record, which must be a change of `kind`; returns its fields.
    static func onlyChange(_ diff: GraphDiff, kind: StoreMapping.Kind) -> [FieldDifference] {
        #expect(diff.differenceCount == 1)
        #expect(diff.records.count == 1)
        #expect(diff.records.first?.kind == kind)
        #expect(diff.records.first?.change == .changed)
        return diff.records.first?.fields ?? []
    }

    @Test("identical graphs are equal; export date, generator and source do not count")
    func identical() throws {
        let a = Self.base()
        var b = a
        b.header.exportDate = Date(timeIntervalSinceReferenceDate: 12345)
        b.header.generator = ArchiveHeader.Generator(name: "other", version: "9")
        b.header.source = ArchiveHeader.Source(store: "elsewhere.sqlite")
        let diff = try Self.diff(a, b)
        #expect(diff.isEqual)
        #expect(diff.records.isEmpty)
        let tasks = diff.kinds.first { $0.kind == .task }
        #expect(tasks?.countA == a.tasks.count && tasks?.countB == a.tasks.count && tasks?.changed == 0)
        let subtasks = diff.kinds.first { $0.kind == .subtask }
        #expect(subtasks?.countA == a.counts.subtasks)
    }

    @Test("a changed field is named with old and new values")
    func field() throws {
        let a = Self.base()
        var b = a
        b.tasks[3].title = "Something else"
        b.tasks[3].priority = (a.tasks[3].priority + 1) % 4
        let fields = Self.onlyChange(try Self.diff(a, b), kind: .task)
        #expect(fields.map(\.field) == ["title", "priority"])
        #expect(fields.first?.old == .string(a.tasks[3].title))
        #expect(fields.first?.new == .string("Something else"))
    }

    @Test("a date one bit apart is a difference, shown losslessly")
    func dateBit() throws {
        let a = Self.base()
        var b = a
        let seconds = a.tasks[2].createdAt.timeIntervalSinceReferenceDate
        b.tasks[2].createdAt = Date(timeIntervalSinceReferenceDate: seconds.nextUp)
        let fields = Self.onlyChange(try Self.diff(a, b), kind: .task)
        #expect(fields.map(\.field) == ["createdAt"])
        #expect(fields.first?.old == .string(try LosslessDate.string(from: a.tasks[2].createdAt)))
        #expect(fields.first?.new == .string(try LosslessDate.string(from: b.tasks[2].createdAt)))
        #expect(fields.first?.old != fields.first?.new)
        // −0.0 and 0.0 are different bits too.
        var zero = a, negativeZero = a
        zero.tasks[0].createdAt = Date(timeIntervalSinceReferenceDate: 0.0)
        negativeZero.tasks[0].createdAt = Date(timeIntervalSinceReferenceDate: -0.0)
        #expect(Self.onlyChange(try Self.diff(zero, negativeZero), kind: .task).map(\.field) == ["createdAt"])
    }

    @Test("a to-one reference that points elsewhere is a changed id")
    func toOne() throws {
        let a = Self.base()
        var b = a
        let index = a.tasks.firstIndex { $0.projectId != a.projects[1].id }!
        b.tasks[index].projectId = a.projects[1].id
        let fields = Self.onlyChange(try Self.diff(a, b), kind: .task)
        #expect(fields.map(\.field) == ["projectId"])
        #expect(fields.first?.new == .string(a.projects[1].id.uuidString))
    }

    @Test("a tag link added and one removed are named; tag order alone is no difference")
    func tagLinks() throws {
        var a = Self.base()
        a.tasks[1].tagIds = [a.tags[0].id]
        var b = a
        b.tasks[1].tagIds = [a.tags[1].id]
        let fields = Self.onlyChange(try Self.diff(a, b), kind: .task)
        #expect(fields.count == 1)
        #expect(fields.first?.change == .links)
        #expect(fields.first?.added == [a.tags[1].id.uuidString])
        #expect(fields.first?.removed == [a.tags[0].id.uuidString])
        var reordered = a
        reordered.tasks[1].tagIds = [a.tags[0].id, a.tags[1].id]
        var reversed = reordered
        reversed.tasks[1].tagIds.reverse()
        #expect(try Self.diff(reordered, reversed).isEqual)
    }

    @Test("subtasks in another order are an order change; a changed subtask is its own record")
    func subtaskOrder() throws {
        let a = Self.base()
        var b = a
        let index = a.tasks.firstIndex { $0.subtasks.count >= 2 }!
        b.tasks[index].subtasks.reverse()
        let fields = Self.onlyChange(try Self.diff(a, b), kind: .task)
        #expect(fields.map(\.change) == [.order])
        #expect(fields.first?.oldOrder == a.tasks[index].subtasks.map(\.id.uuidString))
        #expect(fields.first?.newOrder == b.tasks[index].subtasks.map(\.id.uuidString))

        var renamed = a
        renamed.tasks[index].subtasks[1].isCompleted.toggle()
        let diff = try Self.diff(a, renamed)
        #expect(diff.differenceCount == 1)
        #expect(diff.records.first?.kind == .subtask)
        #expect(diff.records.first?.taskId == a.tasks[index].id)
        #expect(diff.records.first?.fields.map(\.field) == ["isCompleted"])
        #expect(diff.kinds.first { $0.kind == .subtask }?.changed == 1)
    }

    @Test("extra values: attributes as values (−0.0 is not 0.0), declared relationships as links and order")
    func extras() throws {
        var a = Self.base()
        a.header.source = ArchiveHeader.Source(
            store: "s",
            relationships: [
                "task": [
                    "blocking": ExtraRelationship(destination: .task, toMany: true, ordered: false),
                    "sequence": ExtraRelationship(destination: .task, toMany: true, ordered: true),
                ]
            ])
        let ids = a.tasks.map(\.id.uuidString)
        a.tasks[0].extra = [
            "estimate": .double(0.0), "blocking": .array([ids[1], ids[2]]), "sequence": .array([ids[3], ids[4]]),
        ]
        var b = a
        b.tasks[0].extra = [
            "estimate": .double(-0.0), "blocking": .array([ids[2], ids[1]]), "sequence": .array([ids[4], ids[3]]),
        ]
        let fields = Self.onlyChange(try Self.diff(a, b), kind: .task)
        // `blocking` is unordered: the same set in another order is no difference.
        #expect(fields.map(\.field) == ["extra.estimate", "extra.sequence"])
        #expect(fields.map(\.change) == [.value, .order])
        var c = a
        c.tasks[0].extra?["blocking"] = .array([ids[1]])
        c.tasks[0].extra?["location"] = .string("home")
        let more = Self.onlyChange(try Self.diff(a, c), kind: .task)
        #expect(more.map(\.field) == ["extra.blocking", "extra.location"])
        #expect(more.first?.removed == [ids[2]])
        #expect(more.last?.old == nil && more.last?.new == .string("home"))
    }

    @Test("records only on one side are named; counts say how many")
    func oneSide() throws {
        let a = Self.base()
        var b = a
        let removed = b.tasks.remove(at: 2)
        let added = TagRecord(id: UUID(), name: "new tag")
        b.tags.append(added)
        b = b.sortedByID()
        let diff = try Self.diff(a, b)
        #expect(diff.differenceCount == 2)
        #expect(diff.records.contains { $0.kind == .task && $0.id == removed.id && $0.change == .onlyInA })
        #expect(diff.records.contains { $0.kind == .tag && $0.id == added.id && $0.change == .onlyInB })
        #expect(diff.kinds.first { $0.kind == .subtask }?.onlyInA == removed.subtasks.count)
        #expect(diff.kinds.first { $0.kind == .tag }?.onlyInB == 1)
    }

    @Test("verify: the target may hold more; a version 1 file is checked only for what it carries")
    func verify() throws {
        let a = Self.base()
        var store = a
        store.tags.append(TagRecord(id: UUID(), name: "only in the store"))
        store = store.sortedByID()
        let verified = try GraphComparison.verify(.records(a), against: .records(store))
        #expect(verified.isEqual)
        #expect(verified.kinds.first { $0.kind == .tag }?.onlyInB == 1)
        var missing = a
        missing.tags.removeAll()
        missing.tasks = missing.tasks.map {
            var task = $0; task.tagIds = []; return task
        }
        let failed = try GraphComparison.verify(.records(a), against: .records(missing))
        #expect(!failed.isEqual)
        #expect(failed.records.contains { $0.kind == .tag && $0.change == .onlyInA })

        var version1 = a
        version1.header = ArchiveHeader(format: nil, version: 1)
        var withNotes = a
        withNotes.tasks[0].notes = "notes a version 1 file cannot hold"
        #expect(try GraphComparison.verify(.records(version1), against: .records(withNotes)).isEqual)
        #expect(!(try GraphComparison.compare(.records(version1), .records(withNotes)).isEqual))
    }

    @Test("the detail limit caps what is listed, never what is counted")
    func limit() throws {
        let a = Self.base()
        var b = a
        for index in b.tasks.indices { b.tasks[index].title += "!" }
        let diff = try Self.diff(a, b, options: .init(detailLimit: 2))
        #expect(diff.differenceCount == a.tasks.count)
        #expect(diff.records.count == 2)
        #expect(diff.omittedCount == a.tasks.count - 2)
    }

    @Test("archive files: streamed when sorted, sorted in memory when not; duplicate ids are trouble")
    func files() throws {
        let directory = try TemporaryDirectory()
        let a = Self.base()
        try a.jsonData().write(to: URL(fileURLWithPath: directory.path("a.json")))
        var shuffled = a
        shuffled.tasks.reverse()
        shuffled.projects.reverse()
        try shuffled.jsonData().write(to: URL(fileURLWithPath: directory.path("shuffled.json")))
        let same = try GraphComparison.compare(
            .archive(path: directory.path("a.json")), .archive(path: directory.path("shuffled.json")))
        #expect(same.isEqual)
        #expect(same.kinds.first { $0.kind == .task }?.countB == a.tasks.count)

        var changed = a
        changed.tasks[0].isCompleted.toggle()
        try changed.jsonData().write(to: URL(fileURLWithPath: directory.path("b.json")))
        let diff = try GraphComparison.compare(
            .archive(path: directory.path("a.json")), try .detecting(path: directory.path("b.json")))
        #expect(diff.differenceCount == 1)
        #expect(diff.records.first?.fields.map(\.field) == ["isCompleted"])

        var duplicated = a
        duplicated.tasks.append(a.tasks[0])
        try duplicated.jsonData().write(to: URL(fileURLWithPath: directory.path("dup.json")))
        #expect(throws: TaskInterchangeError.self) {
            try GraphComparison.compare(
                .archive(path: directory.path("a.json")), .archive(path: directory.path("dup.json")))
        }
        do {
            _ = try GraphComparison.compare(
                .archive(path: directory.path("a.json")), .archive(path: directory.path("missing.json")))
            Issue.record("a missing file must throw")
        } catch let error as TaskInterchangeError {
            #expect(error.kind == .noInput)
        }
    }

    @Test("a store compares equal to the archive imported into it, and differs after a change")
    func store() throws {
        let directory = try TemporaryDirectory()
        let a = Self.base()
        _ = try StoreImport.run(a, into: directory.path("s.sqlite"), options: StoreImportOptions())
        let store = GraphSource.store(path: directory.path("s.sqlite"))
        #expect(try GraphComparison.compare(.records(a), store).isEqual)
        #expect(try GraphComparison.compare(.records(a), try .detecting(path: directory.path("s.sqlite"))).isEqual)
        let database = try Database(path: directory.path("s.sqlite"), mode: .readWrite)
        try database.execute("UPDATE ZTASK SET ZTITLE = 'edited in the store' WHERE Z_PK = 1")
        let diff = try GraphComparison.verify(.records(a), against: store)
        #expect(diff.differenceCount == 1)
        #expect(diff.records.first?.fields.first?.new == .string("edited in the store"))
    }
}
