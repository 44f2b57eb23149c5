import Foundation
@testable import TaskInterchange

/// Random but valid archives: unicode text, full-precision dates (negative and far future), optional fields present
/// and absent, shared tags, ordered subtasks.
enum ArchiveGenerator {
    static let samples = [
        "Buy milk", "Überprüfen", "日本語のタスク", "Emoji 🎉🚀", "tab\there", "line\nbreak", "quote \" and \\ backslash",
        "control \u{01}\u{1F}", "", " spaced ", "RTL עברית", "𝄞 music", "zero‍width",
    ]

    static func uuid(_ rng: inout SeededGenerator) -> UUID {
        var bytes = [UInt8](repeating: 0, count: 16)
        for index in 0..<16 { bytes[index] = UInt8.random(in: 0...255, using: &rng) }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return bytes.withUnsafeBytes { UUID(bytes: $0)! }
    }

    static func date(_ rng: inout SeededGenerator) -> Date {
        switch Int.random(in: 0..<6, using: &rng) {
        case 0: return Date(timeIntervalSinceReferenceDate: Double.random(in: -2e9...2e9, using: &rng))
        case 1: return Date(timeIntervalSinceReferenceDate: Double(Int.random(in: 0...800_000_000, using: &rng)))
        case 2: return Date(timeIntervalSinceReferenceDate: Double.random(in: 6e10...6.3e10, using: &rng))
        case 3: return Date(timeIntervalSinceReferenceDate: -Double.random(in: 0...6e10, using: &rng))
        case 4: return Date(timeIntervalSinceReferenceDate: Double.random(in: -1...1, using: &rng))
        default: return Date(timeIntervalSinceReferenceDate: 7e8 + Double.random(in: 0...1, using: &rng) * 1e7)
        }
    }

    static func text(_ rng: inout SeededGenerator) -> String {
        var result = samples.randomElement(using: &rng)!
        if Bool.random(using: &rng) { result += " #\(Int.random(in: 0...9999, using: &rng))" }
        return result
    }

    static func archive(seed: UInt64, maxTasks: Int = 30) -> Archive {
        var rng = SeededGenerator(state: seed)
        var archive = Archive()
        archive.projects = (0..<Int.random(in: 0...5, using: &rng)).map { _ in
            ProjectRecord(id: uuid(&rng), name: text(&rng), createdAt: Bool.random(using: &rng) ? date(&rng) : nil)
        }
        archive.categories = (0..<Int.random(in: 0...4, using: &rng)).map { _ in
            CategoryRecord(
                id: uuid(&rng), name: text(&rng), color: ["blue", "red", "grün"].randomElement(using: &rng)!)
        }
        archive.tags = (0..<Int.random(in: 0...6, using: &rng)).map { _ in TagRecord(id: uuid(&rng), name: text(&rng)) }
        archive.tasks = (0..<Int.random(in: 0...maxTasks, using: &rng)).map { _ in
            let tagIds = archive.tags.shuffled(using: &rng).prefix(Int.random(in: 0...3, using: &rng)).map(\.id)
            return TaskRecord(
                id: uuid(&rng), title: text(&rng), notes: Bool.random(using: &rng) ? text(&rng) : nil,
                isCompleted: Bool.random(using: &rng), createdAt: date(&rng),
                dueDate: Bool.random(using: &rng) ? date(&rng) : nil,
                priority: Int.random(in: 0...3, using: &rng),
                projectId: archive.projects.randomElement(using: &rng)?.id,
                categoryId: Bool.random(using: &rng) ? archive.categories.randomElement(using: &rng)?.id : nil,
                tagIds: tagIds.sorted { $0.uuidString < $1.uuidString },
                subtasks: (0..<Int.random(in: 0...4, using: &rng)).map { _ in
                    SubtaskRecord(id: uuid(&rng), title: text(&rng), isCompleted: Bool.random(using: &rng))
                })
        }
        return archive.sortedByID()
    }
}

extension Archive {
    /// The canonical order `tasks` writes: each kind sorted by id, each task's tags sorted by id.
    func sortedByID() -> Archive {
        var copy = self
        copy.projects.sort { $0.id.uuidString < $1.id.uuidString }
        copy.categories.sort { $0.id.uuidString < $1.id.uuidString }
        copy.tags.sort { $0.id.uuidString < $1.id.uuidString }
        copy.tasks.sort { $0.id.uuidString < $1.id.uuidString }
        for index in copy.tasks.indices { copy.tasks[index].tagIds.sort { $0.uuidString < $1.uuidString } }
        return copy
    }
}

/// Collects what a reader streams, into an `Archive` and a list of issues.
struct Collector: ArchiveVisitor {
    var archive = Archive()
    var issues: [ValidationIssue] = []
    var ended = false
    mutating func visitProject(_ project: ProjectRecord, index: Int) { archive.projects.append(project) }
    mutating func visitCategory(_ category: CategoryRecord, index: Int) { archive.categories.append(category) }
    mutating func visitTag(_ tag: TagRecord, index: Int) { archive.tags.append(tag) }
    mutating func visitTask(_ task: TaskRecord, index: Int) { archive.tasks.append(task) }
    mutating func visitEntity(_ record: EntityRecord, index: Int) { archive.entities.append(record) }
    mutating func visitTable(_ table: RawTable, index: Int) { archive.tables.append(table) }
    mutating func visitIssue(_ issue: ValidationIssue) { issues.append(issue) }
    mutating func visitEnd(header: ArchiveHeader, counts: ArchiveCounts?) {
        archive.header = header
        ended = true
    }
}

extension Archive {
    /// The typed records without what tells how a store held them (`key`, `nulls`, a subtask's `position`): what a
    /// store read back is compared by, against records no store wrote.
    func withoutStoreForm() -> Archive {
        var copy = self
        func clear<Record: TypedRecord>(_ records: inout [Record]) {
            for index in records.indices {
                records[index].key = nil
                records[index].nulls = nil
            }
        }
        clear(&copy.projects)
        clear(&copy.categories)
        clear(&copy.tags)
        clear(&copy.tasks)
        for index in copy.tasks.indices {
            clear(&copy.tasks[index].subtasks)
            for subtask in copy.tasks[index].subtasks.indices { copy.tasks[index].subtasks[subtask].position = nil }
        }
        return copy
    }
}

/// Reads a whole store into an archive (records only) and its findings; the typed records without their store
/// form unless `keepingStoreForm`.
func readStore(
    _ path: String, mapping: StoreMapping? = nil, model: ObjectModel? = nil, keepingStoreForm: Bool = false
) throws
    -> (archive: Archive, findings: [StoreFinding])
{
    let snapshot = try StoreSnapshot(path: path)
    let reader = try StoreReader(snapshot: snapshot, mapping: mapping, model: model)
    var collector = Collector()
    try reader.read(into: &collector)
    if !keepingStoreForm { collector.archive = collector.archive.withoutStoreForm() }
    if !reader.relationshipDeclarations.isEmpty || !reader.entityDeclarations.isEmpty {
        collector.archive.header.source = ArchiveHeader.Source(
            store: path, storeUUID: reader.schema.storeUUID,
            relationships: reader.relationshipDeclarations,
            model: reader.entityDeclarations)
    }
    return (collector.archive, reader.findings)
}
