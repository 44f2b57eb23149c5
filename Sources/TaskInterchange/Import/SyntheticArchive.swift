import Foundation

/// A synthetic task graph for benchmarks and examples, made on the fly from a seed: the same seed always gives the
/// same archive, and nothing is held in memory. 100 projects, 20 tags, 2 tags per task, 3 subtasks on every 10th
/// task, notes on half the tasks, due dates on a third, dates with sub-second fractions spread over 2015–2025.
package struct SyntheticArchive: ArchiveSource, Sendable {
    /// How many tasks.
    package var tasks: Int
    /// The seed every id, date and choice derives from.
    package var seed: UInt64
    /// Projects in every synthetic archive.
    package static let projects = 100
    /// Tags in every synthetic archive.
    package static let tags = 20

    /// Creates the archive's description; nothing is generated until it is streamed.
    package init(tasks: Int, seed: UInt64) {
        self.tasks = tasks
        self.seed = seed
    }

    /// Writes the archive into a new store at `path`, as `StoreImport` builds new stores.
    /// - Throws: `TaskInterchangeError` (`.cannotCreate` when `path` already exists: a synthetic store never lands
    ///   in an existing one), and what `StoreImport.run` throws.
    package func makeStore(at path: String) throws -> StoreImportResult {
        if FileManager.default.fileExists(atPath: path) {
            throw TaskInterchangeError(.cannotCreate, "\(path): already exists")
        }
        return try StoreImport.run(self, into: path, options: StoreImportOptions())
    }

    /// A UUID from (kind, index, seed): stable, distinct, random-looking.
    private func uuid(_ kind: UInt64, _ index: Int) -> UUID {
        var state = seed &* 0x9E37_79B9_7F4A_7C15 ^ kind << 56 ^ UInt64(index)
        func mix() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        let (a, b) = (mix(), mix())
        var bytes = withUnsafeBytes(of: a.bigEndian) { Array($0) } + withUnsafeBytes(of: b.bigEndian) { Array($0) }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }

    private func date(_ index: Int, _ salt: Int) -> Date {
        // Spread over 2015–2025 with sub-second fractions, so dates exercise the lossless path.
        let seconds = Double((index &* 7919 &+ salt &* 104_729) % 315_360_000) + Double(index % 1000) / 1024
        return Date(timeIntervalSinceReferenceDate: 441_763_200 + seconds)
    }

    /// Streams the records of `kinds` (all when nil), then the end with the counts.
    package func stream(kinds: Set<RecordKind>?, into visitor: inout some ArchiveVisitor) throws {
        let all = kinds ?? Set(RecordKind.sections)
        if all.contains(.project) {
            for index in 0..<Self.projects {
                let project = ProjectRecord(id: uuid(1, index), name: "Project \(index)", createdAt: date(index, 1))
                try visitor.visitProject(project, index: index)
            }
        }
        if all.contains(.tag) {
            for index in 0..<Self.tags {
                try visitor.visitTag(TagRecord(id: uuid(3, index), name: "tag-\(index)"), index: index)
            }
        }
        var subtaskCount = 0
        if all.contains(.task) {
            for index in 0..<tasks {
                let first = index % Self.tags
                let second = (first + 1 + (index / Self.tags) % (Self.tags - 1)) % Self.tags
                var task = TaskRecord(
                    id: uuid(4, index), title: "Task \(index): do the thing",
                    notes: index % 2 == 0 ? "Notes for task \(index), with a little more text." : nil,
                    isCompleted: index % 3 == 0, createdAt: date(index, 2),
                    dueDate: index % 3 == 1 ? date(index, 3) : nil,
                    priority: index % 4, projectId: uuid(1, index % Self.projects),
                    tagIds: [uuid(3, first), uuid(3, second)].sorted { $0.uuidString < $1.uuidString })
                if index % 10 == 0 {
                    task.subtasks = (0..<3).map {
                        SubtaskRecord(id: uuid(5, index * 3 + $0), title: "Step \($0 + 1)", isCompleted: $0 == 0)
                    }
                    subtaskCount += 3
                }
                try visitor.visitTask(task, index: index)
            }
        }
        let counts = ArchiveCounts(projects: Self.projects, tags: Self.tags, tasks: tasks, subtasks: subtaskCount)
        try visitor.visitEnd(header: ArchiveHeader(), counts: counts)
    }
}
