import Foundation

/// A bounded hand-over of records from a reader running on its own thread to the comparison.
///
/// Readers push records to a visitor; a merge-join must pull from two of them in step. Running each reader on a thread
/// that blocks when the channel is full keeps only a few batches of each side in memory, whatever the graph's size.
final class RecordChannel: @unchecked Sendable {
    // Everything below is guarded by `condition`.
    private let condition = NSCondition()
    private var batches: [[GraphItem]] = []
    private var finished = false
    private var failure: (any Error)?
    private var cancelled = false
    private var threadDone = false
    private let capacity: Int

    /// Thrown inside the producer when the consumer gave up; never reaches callers.
    struct Cancelled: Error {}

    init(capacity: Int = 8) {
        self.capacity = capacity
    }

    /// Runs `produce` on a new thread; whatever it throws is handed to the consumer after the items before it.
    static func start(_ produce: @escaping @Sendable (RecordChannel) throws -> Void) -> RecordChannel {
        let channel = RecordChannel()
        // The reader stops when the comparison's caller is cancelled: its check goes with it to the new thread.
        let cancellation = Cancellation.current
        let thread = Thread {
            do {
                try Cancellation.$current.withValue(cancellation) { try produce(channel) }
                channel.finish(nil)
            } catch {
                channel.finish(error)
            }
        }
        // The JSON reader recurses per nesting level; give it the main thread's room.
        thread.stackSize = 8 << 20
        thread.start()
        return channel
    }

    /// Producer side: waits while the channel is full.
    func put(_ batch: [GraphItem]) throws {
        condition.lock()
        defer { condition.unlock() }
        while batches.count >= capacity && !cancelled { condition.wait() }
        if cancelled { throw Cancelled() }
        batches.append(batch)
        condition.broadcast()
    }

    private func finish(_ error: (any Error)?) {
        condition.lock()
        finished = true
        threadDone = true
        if !(error is Cancelled) { failure = error }
        condition.broadcast()
        condition.unlock()
    }

    /// Consumer side: the next batch, nil at the end; rethrows the producer's error once the items before it are taken.
    func take() throws -> [GraphItem]? {
        condition.lock()
        defer { condition.unlock() }
        while batches.isEmpty && !finished { condition.wait() }
        if !batches.isEmpty {
            let batch = batches.removeFirst()
            condition.broadcast()
            return batch
        }
        if let failure { throw failure }
        return nil
    }

    /// Stops the producer and waits until its thread has ended, so no reader outlives the comparison.
    func cancel() {
        condition.lock()
        cancelled = true
        batches.removeAll()
        condition.broadcast()
        while !threadDone { condition.wait() }
        condition.unlock()
    }
}

/// What a reader hands over: the header (before the first record), then records in reading order.
enum GraphItem: Sendable {
    case header(ArchiveHeader)
    case project(ProjectRecord)
    case category(CategoryRecord)
    case tag(TagRecord)
    case task(TaskRecord)
    /// A record of the generic `entities` section (they come after the tasks, entity by entity).
    case entity(EntityRecord)
}

extension GraphItem {
    /// The record, when it is one of `Record`'s kind.
    func record<Record: TypedRecord>(as _: Record.Type) -> Record? {
        switch self {
        case .header, .entity: return nil
        case .project(let record): return record as? Record
        case .category(let record): return record as? Record
        case .tag(let record): return record as? Record
        case .task(let record): return record as? Record
        }
    }
}

/// Forwards a reader's records to a channel in batches; an error in the input ends the reading (the comparison needs
/// every record, and an archive that cannot be read whole is trouble, not a difference).
struct ChannelVisitor: ArchiveVisitor {
    let channel: RecordChannel
    /// How to name the input in messages.
    let name: String
    private var batch: [GraphItem] = []
    private static let batchSize = 256

    init(channel: RecordChannel, name: String) {
        self.channel = channel
        self.name = name
        batch.reserveCapacity(Self.batchSize)
    }

    private mutating func add(_ item: GraphItem) throws {
        batch.append(item)
        if batch.count >= Self.batchSize { try flush() }
    }

    mutating func flush() throws {
        guard !batch.isEmpty else { return }
        try channel.put(batch)
        batch.removeAll(keepingCapacity: true)
    }

    mutating func visitHeader(_ header: ArchiveHeader) throws { try add(.header(header)) }
    mutating func visitProject(_ project: ProjectRecord, index: Int) throws { try add(.project(project)) }
    mutating func visitCategory(_ category: CategoryRecord, index: Int) throws { try add(.category(category)) }
    mutating func visitTag(_ tag: TagRecord, index: Int) throws { try add(.tag(tag)) }
    mutating func visitTask(_ task: TaskRecord, index: Int) throws { try add(.task(task)) }
    mutating func visitEntity(_ record: EntityRecord, index: Int) throws { try add(.entity(record)) }

    mutating func visitIssue(_ issue: ValidationIssue) throws {
        guard issue.severity == .error else { return }
        let location = issue.line.map { " (line \($0)\(issue.column.map { ", column \($0)" } ?? ""))" } ?? ""
        throw TaskInterchangeError(
            .invalidData,
            "\(name): \(issue.path): \(issue.code.rawValue): \(issue.message)\(location); run \(setting: .validate) for "
                + "every problem"
        )
    }

    mutating func visitEnd(header: ArchiveHeader, counts: ArchiveCounts?) throws { try flush() }
}
