import Dispatch
import Foundation

/// Hands an archive's records from the thread that produces them (reading a store, parsing JSON) to a thread that
/// consumes them (formatting and writing JSON, validating, writing a store), in batches and in order, so the two
/// halves run on two cores at once. The consumer sees every call in the order the producer made it, so results do
/// not depend on the threads.
///
/// The queue is bounded, so a slow consumer holds the producer back and memory stays flat. A consumer error stops
/// the producer at its next record (it throws that error); a producer error stops the consumer after the batch in
/// hand. `run` waits for the consumer thread either way, so it never outlives the operation.
final class RecordPipeline<Consumer: ArchiveVisitor>: ArchiveVisitor {
    private typealias Event = PipelineEvent
    /// The consumer, reached only from the consumer thread until the pipeline has finished.
    private final class Box {
        var consumer: Consumer?
        init(_ consumer: consuming Consumer) { self.consumer = consumer }
    }

    private let box: Box
    private let channel: PipelineChannel
    private var batch: [Event] = []
    private let batchSize: Int

    /// Lets `produce` feed `consumer` through a pipeline: `consumer` moves to a second thread for the duration and
    /// comes back (unshared, so its collections are not copied on the next change) when every record has reached it.
    /// - Parameter batchSize: records per hand-over (a lock round trip each).
    /// - Parameter depth: batches that may wait for the consumer.
    /// - Throws: what `produce` throws, or else what the consumer threw.
    static func run(
        _ consumer: inout Consumer, batchSize: Int = 256, depth: Int = 8,
        _ produce: (inout RecordPipeline) throws -> Void
    ) throws {
        var pipeline = RecordPipeline(consume consumer, batchSize: batchSize, depth: depth)
        var failure: (any Error)?
        do {
            try produce(&pipeline)
        } catch {
            failure = error
            pipeline.abandon()
        }
        let result = pipeline.finish()
        consumer = result.consumer
        if let failure = failure ?? result.failure { throw failure }
    }

    private init(_ consumer: consuming Consumer, batchSize: Int, depth: Int) {
        self.batchSize = batchSize
        let box = Box(consumer)
        self.box = box
        channel = PipelineChannel(depth: depth, cancellation: Cancellation.current) { event in
            try event.deliver(to: &box.consumer!)
        }
        batch.reserveCapacity(batchSize)
        channel.start()
    }

    func visitProject(_ project: ProjectRecord, index: Int) throws { try add(.project(project, index)) }
    func visitCategory(_ category: CategoryRecord, index: Int) throws { try add(.category(category, index)) }
    func visitTag(_ tag: TagRecord, index: Int) throws { try add(.tag(tag, index)) }
    func visitTask(_ task: TaskRecord, index: Int) throws { try add(.task(task, index)) }
    func visitEntity(_ record: EntityRecord, index: Int) throws { try add(.entity(record, index)) }
    func visitIssue(_ issue: ValidationIssue) throws { try add(.issue(issue)) }
    func visitHeader(_ header: ArchiveHeader) throws { try add(.header(header)) }
    func visitEnd(header: ArchiveHeader, counts: ArchiveCounts?) throws { try add(.end(header, counts)) }

    /// Waits until the consumer has seen every record (or, after `abandon()`, has stopped) and hands it back, with
    /// its error if it failed.
    private func finish() -> (consumer: Consumer, failure: (any Error)?) {
        var failure: (any Error)?
        do {
            if !batch.isEmpty { try channel.send(batch) }
            batch = []
            try channel.close()
        } catch {
            failure = error
        }
        return (box.consumer.take()!, failure)
    }

    /// Stops the consumer without the records still queued, after the producer failed.
    private func abandon() {
        batch = []
        channel.abandon()
    }

    private func add(_ event: Event) throws {
        batch.append(event)
        if batch.count >= batchSize {
            try channel.send(batch)
            batch.removeAll(keepingCapacity: true)
        }
    }
}

/// The bounded queue between a `RecordPipeline`'s two threads.
///
/// `@unchecked Sendable`: every mutable member is touched under `condition` only; `deliver` (and the consumer it
/// reaches) only on the consumer thread, until `close()` or `abandon()` has waited for that thread to end.
private final class PipelineChannel: @unchecked Sendable {
    typealias Event = PipelineEvent
    private let condition = NSCondition()
    private var queue: [[Event]] = []
    private let depth: Int
    private var isClosed = false
    private var isDone = false
    private var failure: (any Error)?
    private let deliver: (Event) throws -> Void
    private let cancellation: Cancellation

    init(depth: Int, cancellation: Cancellation, deliver: @escaping (Event) throws -> Void) {
        self.depth = depth
        self.cancellation = cancellation
        self.deliver = deliver
    }

    func start() {
        let thread = Thread { [self] in
            Cancellation.$current.withValue(cancellation) { consume() }
        }
        // Consumers walk nested values recursively; give them the main thread's room.
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// Queues a batch, waiting while the queue is full; throws the consumer's error instead once it failed.
    func send(_ batch: [Event]) throws {
        condition.lock()
        defer { condition.unlock() }
        while queue.count >= depth && failure == nil && !isDone { condition.wait() }
        if let failure { throw failure }
        queue.append(batch)
        condition.broadcast()
    }

    /// Ends the stream and waits for the consumer thread.
    func close() throws {
        condition.lock()
        isClosed = true
        condition.broadcast()
        while !isDone { condition.wait() }
        let failure = self.failure
        condition.unlock()
        if let failure { throw failure }
    }

    /// Ends the stream without the queued batches and waits for the consumer thread.
    func abandon() {
        condition.lock()
        queue.removeAll()
        isClosed = true
        condition.broadcast()
        while !isDone { condition.wait() }
        condition.unlock()
    }

    private func consume() {
        while true {
            condition.lock()
            while queue.isEmpty && !isClosed { condition.wait() }
            if queue.isEmpty {
                isDone = true
                condition.broadcast()
                condition.unlock()
                return
            }
            let batch = queue.removeFirst()
            condition.broadcast()
            condition.unlock()
            do {
                for event in batch { try deliver(event) }
            } catch {
                condition.lock()
                failure = error
                queue.removeAll()
                isDone = true
                condition.broadcast()
                condition.unlock()
                return
            }
        }
    }
}

/// One call of an `ArchiveVisitor`, to be made again on another thread.
private enum PipelineEvent {
    case project(ProjectRecord, Int)
    case category(CategoryRecord, Int)
    case tag(TagRecord, Int)
    case task(TaskRecord, Int)
    case entity(EntityRecord, Int)
    case issue(ValidationIssue)
    case header(ArchiveHeader)
    case end(ArchiveHeader, ArchiveCounts?)

    func deliver(to consumer: inout some ArchiveVisitor) throws {
        switch self {
        case .project(let record, let index): try consumer.visitProject(record, index: index)
        case .category(let record, let index): try consumer.visitCategory(record, index: index)
        case .tag(let record, let index): try consumer.visitTag(record, index: index)
        case .task(let record, let index): try consumer.visitTask(record, index: index)
        case .entity(let record, let index): try consumer.visitEntity(record, index: index)
        case .issue(let issue): try consumer.visitIssue(issue)
        case .header(let header): try consumer.visitHeader(header)
        case .end(let header, let counts): try consumer.visitEnd(header: header, counts: counts)
        }
    }
}
