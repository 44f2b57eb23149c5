import Foundation
@testable import TaskInterchange

/// SplitMix64: small, fast and seedable, so a failing random archive can be rebuilt.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}

enum ArchiveFixtures {
    /// A fixed UUID made of one repeated hex digit, such as `1111…`.
    static func uuid(_ digit: Character) -> UUID {
        let group = { (count: Int) in String(repeating: digit, count: count) }
        return UUID(uuidString: "\(group(8))-\(group(4))-\(group(4))-\(group(4))-\(group(12))")!
    }

    /// A small archive with every field used once, for golden files.
    static let small = Archive(
        header: ArchiveHeader(
            exportDate: Date(timeIntervalSinceReferenceDate: 757_382_400.5),
            generator: .init(name: "tasks", version: "1.0.0"),
            source: .init(
                store: "/tmp/Tasks.sqlite", storeUUID: "0F1E2D3C-4B5A-6978-8796-A5B4C3D2E1F0",
                entities: ["task": "Task", "project": "Project"])),
        projects: [ProjectRecord(id: uuid("1"), name: "Home", createdAt: Date(timeIntervalSinceReferenceDate: 0.25))],
        categories: [CategoryRecord(id: uuid("2"), name: "Work", color: "red")],
        tags: [TagRecord(id: uuid("3"), name: "urgent")],
        tasks: [
            TaskRecord(
                id: uuid("A"), title: "Buy \"milk\"", notes: "2% fat\n", isCompleted: false,
                createdAt: Date(timeIntervalSinceReferenceDate: 757_382_400),
                dueDate: Date(timeIntervalSinceReferenceDate: -0.3), priority: 2, projectId: uuid("1"),
                categoryId: uuid("2"), tagIds: [uuid("3")],
                subtasks: [SubtaskRecord(id: uuid("4"), title: "Go to shop", isCompleted: true)]),
            TaskRecord(id: uuid("B"), title: "Call", createdAt: Date(timeIntervalSinceReferenceDate: 1e-7)),
        ])

    /// A random archive whose references are consistent, with awkward text and dates.
    static func random(seed: UInt64, tasks taskCount: Int = 200) -> Archive {
        var generator = SeededGenerator(state: seed)
        func text() -> String {
            let pieces = [
                "plain", "\"quoted\"", "back\\slash", "line\nbreak", "tab\t", "\u{0}\u{1}\u{1F}", "é",
                "e\u{301}", "😀", "👩‍👩‍👧", "日本", "/slash/", "\u{7F}", "\u{2028}", " ",
            ]
            return (0..<Int.random(in: 0...4, using: &generator))
                .map { _ in pieces.randomElement(using: &generator)! }.joined()
        }
        func date() -> Date {
            let seconds: Double
            switch Int.random(in: 0..<4, using: &generator) {
            case 0: seconds = Double.random(in: -3e9...3e9, using: &generator)
            case 1: seconds = Double(Int.random(in: -1_000_000_000...1_000_000_000, using: &generator))
            case 2: seconds = Double.random(in: -1...1, using: &generator) * 1e-12
            default: seconds = [0.0, -0.0, 1e17, -1e17, 0.1, -0.3][Int.random(in: 0..<6, using: &generator)]
            }
            return Date(timeIntervalSinceReferenceDate: seconds)
        }
        func id() -> UUID {
            var bytes = [UInt8](repeating: 0, count: 16)
            for index in bytes.indices { bytes[index] = UInt8.random(in: 0...255, using: &generator) }
            return UUID(
                uuid: (
                    bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                    bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
                ))
        }
        let projects = (0..<20).map { _ in
            ProjectRecord(id: id(), name: text(), createdAt: Bool.random(using: &generator) ? date() : nil)
        }
        let categories = (0..<5).map { _ in CategoryRecord(id: id(), name: text(), color: text()) }
        let tags = (0..<10).map { _ in TagRecord(id: id(), name: text()) }
        let tasks = (0..<taskCount).map { _ in
            TaskRecord(
                id: id(), title: text(), notes: Bool.random(using: &generator) ? text() : nil,
                isCompleted: Bool.random(using: &generator), createdAt: date(),
                dueDate: Bool.random(using: &generator) ? date() : nil,
                priority: Int.random(in: 0...3, using: &generator),
                projectId: Bool.random(using: &generator) ? projects.randomElement(using: &generator)!.id : nil,
                categoryId: Bool.random(using: &generator) ? categories.randomElement(using: &generator)!.id : nil,
                tagIds: Array(tags.shuffled(using: &generator).prefix(Int.random(in: 0...3, using: &generator)))
                    .map(\.id),
                subtasks: (0..<Int.random(in: 0...3, using: &generator)).map { _ in
                    SubtaskRecord(id: id(), title: text(), isCompleted: Bool.random(using: &generator))
                })
        }
        let header = ArchiveHeader(
            exportDate: date(), generator: .init(name: "tasks", version: text()),
            source: .init(
                store: text(), storeUUID: Bool.random(using: &generator) ? id().uuidString : nil,
                entities: ["project": text(), "task": "Task", "subtask": "Subtask"]))
        return Archive(header: header, projects: projects, categories: categories, tags: tags, tasks: tasks)
    }

    /// The archive written with `options`.
    static func encode(_ archive: Archive, _ options: ArchiveWritingOptions = ArchiveWritingOptions()) throws
        -> [UInt8]
    {
        let buffer = ByteBuffer()
        try archive.write(to: buffer, options: options)
        return buffer.bytes
    }

    /// Everything a reader delivers for `bytes`.
    static func collect(_ bytes: [UInt8], kinds: Set<RecordKind> = Set(RecordKind.allCases)) throws
        -> ArchiveCollector
    {
        var collector = ArchiveCollector()
        let reader = ArchiveReader(options: ArchiveReadingOptions(kinds: kinds))
        try bytes.withUnsafeBytes { try reader.read($0, into: &collector) }
        return collector
    }

    /// Everything a reader delivers for `text`.
    static func collect(_ text: String, kinds: Set<RecordKind> = Set(RecordKind.allCases)) throws -> ArchiveCollector {
        try collect(Array(text.utf8), kinds: kinds)
    }

    /// Every date of an archive as bit patterns, to compare what `Date ==` does not (the sign of zero).
    static func dateBits(_ archive: Archive) -> [UInt64?] {
        var bits: [UInt64?] = [archive.header.exportDate?.timeIntervalSinceReferenceDate.bitPattern]
        bits += archive.projects.map { $0.createdAt?.timeIntervalSinceReferenceDate.bitPattern }
        for task in archive.tasks {
            bits.append(task.createdAt.timeIntervalSinceReferenceDate.bitPattern)
            bits.append(task.dueDate?.timeIntervalSinceReferenceDate.bitPattern)
        }
        return bits
    }

    /// Every text of an archive as UTF-8 bytes, to compare what `String ==` does not (normalization).
    static func textBytes(_ archive: Archive) -> [[UInt8]] {
        var texts = archive.projects.map { Array($0.name.utf8) } + archive.tags.map { Array($0.name.utf8) }
        texts += archive.categories.flatMap { [Array($0.name.utf8), Array($0.color.utf8)] }
        for task in archive.tasks {
            texts.append(Array(task.title.utf8))
            texts.append(Array((task.notes ?? "∅").utf8))
            texts += task.subtasks.map { Array($0.title.utf8) }
        }
        return texts
    }
}
