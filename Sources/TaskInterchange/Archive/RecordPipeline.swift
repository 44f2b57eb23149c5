import Dispatch
import Foundation

/// Hands an archive's records from the code that produces them (reading a store, parsing JSON) to the visitor that
/// consumes them (formatting and writing JSON, validating, writing a store), in batches and in order, so the two
/// halves run on two cores at once. The consumer sees every call in the order the producer made it, so results do
/// not depend on the threads.
///
/// One half runs on a second thread, which `placement` chooses: the consumer by default; the producer when the
/// consumer must stay on the calling thread (export's writer: a signal must interrupt its blocked `write(2)`, and the
/// second thread blocks the signals, so they reach the calling thread).
///
/// The queue is bounded, so a slow consumer holds the producer back and memory stays flat. A consumer error stops
/// the producer at its next record or cancellation check (the caller gets the consumer's error); a producer error
/// stops the consumer after the batch in hand. `run` waits for the second thread either way, so it never outlives
/// the operation.
///
/// The pipeline itself is what the producer sees, and it is not generic: a producer (the JSON parser, the store
/// reader) is compiled once for it, whatever visitor consumes the records.
final class RecordPipeline: ArchiveVisitor {
    private typealias Event = PipelineEvent

    /// Which half runs on the second thread.
    enum Placement {
        /// The producer stays on the calling thread.
        case consumerOnSecondThread
        /// The consumer stays on the calling thread; the second thread blocks the signals a program traps.
        case producerOnSecondThread
    }

    private let channel: PipelineChannel
    private var batch: [Event] = []
    private let batchSize: Int
    /// The values in `batch` (`PipelineEvent.weight`): a batch also closes at `batchWeight`, so records with long
    /// lists of ids do not hold many times the memory of ordinary ones while they wait.
    private var weight = 0
    static let batchWeight = 16_384
    /// Shows each call to a checker on the producer's thread before it is queued (`run(_:checking:_:)`).
    private let check: ((Event) throws -> Void)?

    /// Lets `produce` feed `consumer` through a pipeline; the half on the second thread is reached only from there
    /// until it has finished, and `consumer` comes back unshared (so its collections are not copied on the next
    /// change) when every record has reached it.
    /// - Parameter batchSize: records per hand-over (a lock round trip each).
    /// - Parameter depth: batches that may wait for the consumer.
    /// - Throws: what the consumer threw, or else what `produce` threw.
    static func run<Consumer: ArchiveVisitor>(
        _ consumer: inout Consumer, placement: Placement = .consumerOnSecondThread, batchSize: Int = 256,
        depth: Int = 8, _ produce: (inout RecordPipeline) throws -> Void
    ) throws {
        try run(&consumer, placement: placement, batchSize: batchSize, depth: depth, check: nil, produce)
    }

    /// Runs like `run(_:placement:batchSize:depth:_:)`, and makes every call on `checker` too, first, on the
    /// producer's thread: a checker that only looks at the records (a validator) runs beside the consumer instead of
    /// before it on the consumer's core. A checker's error stops the producer.
    static func run<Consumer: ArchiveVisitor, Checker: ArchiveVisitor>(
        _ consumer: inout Consumer, checking checker: inout Checker, _ produce: (inout RecordPipeline) throws -> Void
    ) throws {
        let box = Box(consume checker)
        defer { checker = box.take() }
        try run(
            &consumer, placement: .consumerOnSecondThread, batchSize: 256, depth: 8,
            check: { try $0.deliver(to: &box.value!) }, produce)
    }

    private static func run<Consumer: ArchiveVisitor>(
        _ consumer: inout Consumer, placement: Placement, batchSize: Int, depth: Int,
        check: ((Event) throws -> Void)?, _ produce: (inout RecordPipeline) throws -> Void
    ) throws {
        let pipeline = RecordPipeline(channel: PipelineChannel(depth: depth), batchSize: batchSize, check: check)
        switch placement {
        case .consumerOnSecondThread: pipeline.runConsumerOnSecondThread(&consumer, produce)
        case .producerOnSecondThread: pipeline.runProducerOnSecondThread(&consumer, produce)
        }
        if let failure = pipeline.channel.consumerFailure ?? pipeline.channel.producerFailure { throw failure }
    }

    private func runConsumerOnSecondThread<Consumer: ArchiveVisitor>(
        _ consumer: inout Consumer, _ produce: (inout RecordPipeline) throws -> Void
    ) {
        let box = Box(consume consumer)
        channel.start(blockingSignals: false) { [channel] in channel.consume { try $0.deliver(to: &box.value!) } }
        self.produce(produce)
        channel.waitForThread()
        consumer = box.take()
    }

    private func runProducerOnSecondThread<Consumer: ArchiveVisitor>(
        _ consumer: inout Consumer, _ produce: (inout RecordPipeline) throws -> Void
    ) {
        withoutActuallyEscaping(produce) { produce in
            let box = Box { self.produce(produce) }
            channel.start(blockingSignals: true) { box.value!() }
            channel.consume { try $0.deliver(to: &consumer) }
            channel.waitForThread()
            box.value = nil
        }
    }

    /// Starts `produce` on a second thread, the signals a program traps blocked there, and returns the channel its
    /// records arrive on, for a consumer that takes them with `receive()` over several calls of its own. The
    /// consumer ends with `cancel()` then `waitForThread()`, so the thread never outlives it.
    static func producing(
        batchSize: Int = 256, depth: Int = 8, _ produce: @escaping (inout RecordPipeline) throws -> Void
    ) -> PipelineChannel {
        let pipeline = RecordPipeline(channel: PipelineChannel(depth: depth), batchSize: batchSize, check: nil)
        let box = Box { pipeline.produce(produce) }
        pipeline.channel.start(blockingSignals: true) { box.value!() }
        return pipeline.channel
    }

    private init(channel: PipelineChannel, batchSize: Int, check: ((Event) throws -> Void)?) {
        self.channel = channel
        self.batchSize = batchSize
        self.check = check
        batch.reserveCapacity(batchSize)
    }

    func visitProject(_ project: ProjectRecord, index: Int) throws { try add(.project(project, index)) }
    func visitCategory(_ category: CategoryRecord, index: Int) throws { try add(.category(category, index)) }
    func visitTag(_ tag: TagRecord, index: Int) throws { try add(.tag(tag, index)) }
    func visitTask(_ task: TaskRecord, index: Int) throws { try add(.task(task, index)) }
    func visitEntity(_ record: EntityRecord, index: Int) throws { try add(.entity(record, index)) }
    func visitTable(_ table: RawTable, index: Int) throws { try add(.table(table, index)) }
    func visitIssue(_ issue: ValidationIssue) throws { try add(.issue(issue)) }
    func visitHeader(_ header: ArchiveHeader) throws { try add(.header(header)) }
    func visitEnd(header: ArchiveHeader, counts: ArchiveCounts?) throws { try add(.end(header, counts)) }

    /// Runs the producer half: `produce`, then the rest of its batch and the end of the stream, or, when it fails,
    /// the end without the queued batches and its error for `run`.
    private func produce(_ produce: (inout RecordPipeline) throws -> Void) {
        var pipeline = self
        do {
            try produce(&pipeline)
            if !batch.isEmpty { try channel.send(batch) }
            batch = []
            channel.close(failure: nil)
        } catch {
            batch = []
            channel.close(failure: error)
        }
    }

    private func add(_ event: Event) throws {
        try check?(event)
        batch.append(event)
        weight += event.weight
        if batch.count >= batchSize || weight >= Self.batchWeight {
            try channel.send(batch)
            batch.removeAll(keepingCapacity: true)
            weight = 0
        }
    }
}

/// Something reached only from one thread at a time, moved to the second thread for its duration.
///
/// `@unchecked Sendable`: `RecordPipeline.run` touches `value` again only after the second thread has ended.
private final class Box<Value>: @unchecked Sendable {
    var value: Value?
    init(_ value: consuming Value) { self.value = value }
    /// Moves the value out, so the caller holds the only reference to its storage.
    func take() -> Value { value.take()! }
}

/// The bounded queue between a `RecordPipeline`'s two halves, and its second thread.
///
/// `@unchecked Sendable`: every mutable member is touched under `condition` only.
final class PipelineChannel: @unchecked Sendable {
    typealias Event = PipelineEvent
    private let condition = NSCondition()
    private var queue: [[Event]] = []
    private let depth: Int
    /// The producer has sent everything (or gave up).
    private var isClosed = false
    /// The consumer takes no more batches (it has seen everything, or it failed).
    private var isStopped = false
    private var isThreadDone = false
    private var consumerError: (any Error)?
    private var producerError: (any Error)?
    /// The caller's check, carried to the second thread.
    private let cancellation = Cancellation.current

    init(depth: Int) {
        self.depth = depth
    }

    var consumerFailure: (any Error)? { inspected { consumerError } }
    var producerFailure: (any Error)? { inspected { producerError } }

    /// Runs `body` on a new thread; with `blockingSignals`, the signals a program traps are blocked there, so the
    /// kernel delivers them to the calling thread.
    func start(blockingSignals: Bool, _ body: @escaping @Sendable () -> Void) {
        let outer = cancellation
        // The half on the second thread also stops once the other half has: a failed consumer should not wait for
        // a long SQLite sort to end (its progress handler asks this check).
        let check = Cancellation { [self] in outer.isRequestedNow() || inspected { isStopped } }
        let thread = Thread { [self] in
            if blockingSignals { Self.blockSignals() }
            Cancellation.$current.withValue(check) { body() }
            locked { isThreadDone = true }
        }
        // Readers and consumers walk nested values recursively; give them the main thread's room.
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// Waits until the second thread has ended.
    func waitForThread() {
        condition.lock()
        while !isThreadDone { condition.wait() }
        condition.unlock()
    }

    /// Ends the stream: after the queued batches, or, when the producer failed, without them.
    func close(failure: (any Error)?) {
        locked {
            if let failure {
                producerError = failure
                queue.removeAll()
            }
            isClosed = true
        }
    }

    /// Runs the consumer half: hands every batch to `deliver` until the stream ends or `deliver` throws.
    func consume(_ deliver: (Event) throws -> Void) {
        while let batch = receive() {
            do {
                for event in batch { try deliver(event) }
            } catch {
                locked {
                    consumerError = error
                    queue.removeAll()
                    isStopped = true
                }
                return
            }
        }
        locked { isStopped = true }
    }

    /// Takes no more batches, for a consumer that pulls (`receive`) and stops early: the producer stops at its next
    /// record or cancellation check.
    func cancel() {
        locked {
            queue.removeAll()
            isStopped = true
        }
    }

    /// Queues a batch, waiting while the queue is full; throws the consumer's error instead once it failed.
    func send(_ batch: [Event]) throws {
        condition.lock()
        defer { condition.unlock() }
        while queue.count >= depth && !isStopped { condition.wait() }
        if let consumerError { throw consumerError }
        if isStopped { throw Cancellation.cancelled }
        queue.append(batch)
        condition.broadcast()
    }

    /// The next batch, nil once the producer has closed the stream and the queue is empty.
    func receive() -> [Event]? {
        condition.lock()
        defer { condition.unlock() }
        while queue.isEmpty && !isClosed { condition.wait() }
        if queue.isEmpty { return nil }
        condition.broadcast()
        return queue.removeFirst()
    }

    /// Reads state under the lock.
    private func inspected<Result>(_ body: () -> Result) -> Result {
        condition.lock()
        defer { condition.unlock() }
        return body()
    }

    /// Runs `body` under the lock and wakes every waiter (each state change is one a waiter may be waiting for).
    private func locked(_ body: () -> Void) {
        condition.lock()
        body()
        condition.broadcast()
        condition.unlock()
    }

    private static func blockSignals() {
        var mask = sigset_t()
        sigfillset(&mask)
        pthread_sigmask(SIG_BLOCK, &mask, nil)
    }
}

/// One call of an ``ArchiveVisitor``, to be made again on another thread.
enum PipelineEvent {
    case project(ProjectRecord, Int)
    case category(CategoryRecord, Int)
    case tag(TagRecord, Int)
    case task(TaskRecord, Int)
    case entity(EntityRecord, Int)
    case table(RawTable, Int)
    case issue(ValidationIssue)
    case header(ArchiveHeader)
    case end(ArchiveHeader, ArchiveCounts?)

    /// About how many values the call carries: one per value, one per id of a to-many, one per row of a table.
    var weight: Int {
        switch self {
        case .entity(let record, _):
            return record.values.values.reduce(1) { total, value in
                if case .array(let ids) = value { return total + ids.count }
                return total + 1
            }
        case .task(let task, _): return 1 + task.tagIds.count + task.subtasks.count
        case .table(let table, _): return 1 + table.rows.count
        default: return 1
        }
    }

    func deliver(to consumer: inout some ArchiveVisitor) throws {
        switch self {
        case .project(let record, let index): try consumer.visitProject(record, index: index)
        case .category(let record, let index): try consumer.visitCategory(record, index: index)
        case .tag(let record, let index): try consumer.visitTag(record, index: index)
        case .task(let record, let index): try consumer.visitTask(record, index: index)
        case .entity(let record, let index): try consumer.visitEntity(record, index: index)
        case .table(let table, let index): try consumer.visitTable(table, index: index)
        case .issue(let issue): try consumer.visitIssue(issue)
        case .header(let header): try consumer.visitHeader(header)
        case .end(let header, let counts): try consumer.visitEnd(header: header, counts: counts)
        }
    }
}
