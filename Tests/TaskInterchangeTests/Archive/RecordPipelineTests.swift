import Foundation
import Testing
@testable import TaskInterchange

/// The two-thread hand-over of archive passes and exports, with either half on the second thread: every call
/// arrives, in order; a consumer that fails stops the producer with its error; a producer that fails can abandon the
/// consumer; no thread outlives the pipeline; the half kept on the calling thread runs there.
@Suite("Record pipeline")
struct RecordPipelineTests {
    /// Records what it is given; throws at the `failAt`th tag when set.
    struct Recorder: ArchiveVisitor {
        var names: [String] = []
        var ended = false
        var failAt: Int?
        /// The threads the tags arrived on.
        var threads: Set<UInt> = []
        struct Failure: Error {}
        mutating func visitProject(_ project: ProjectRecord, index: Int) {}
        mutating func visitCategory(_ category: CategoryRecord, index: Int) {}
        mutating func visitTag(_ tag: TagRecord, index: Int) throws {
            if names.count == failAt { throw Failure() }
            names.append(tag.name)
            threads.insert(RecordPipelineTests.currentThread)
        }
        mutating func visitTask(_ task: TaskRecord, index: Int) {}
        mutating func visitIssue(_ issue: ValidationIssue) {}
        mutating func visitEnd(header: ArchiveHeader, counts: ArchiveCounts?) { ended = true }
    }

    typealias Placement = RecordPipeline.Placement
    static let placements: [Placement] = [.consumerOnSecondThread, .producerOnSecondThread]

    static var currentThread: UInt { UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(bitPattern: pthread_self()))) }

    private func tag(_ number: Int) -> TagRecord {
        TagRecord(id: UUID(), name: "tag \(number)")
    }

    @Test("every record arrives in order, across many small batches and a partial last one", arguments: placements)
    func order(placement: Placement) throws {
        var recorder = Recorder()
        let caller = Self.currentThread
        var producers: Set<UInt> = []
        try RecordPipeline.run(&recorder, placement: placement, batchSize: 7, depth: 2) { pipeline in
            producers.insert(Self.currentThread)
            for number in 0..<10_001 { try pipeline.visitTag(tag(number), index: number) }
            try pipeline.visitEnd(header: ArchiveHeader(version: 2), counts: nil)
        }
        #expect(recorder.names == (0..<10_001).map { "tag \($0)" })
        #expect(recorder.ended)
        // The half that stays runs on the calling thread; the other one on a single other thread.
        switch placement {
        case .consumerOnSecondThread:
            #expect(producers == [caller] && recorder.threads.count == 1 && !recorder.threads.contains(caller))
        case .producerOnSecondThread:
            #expect(recorder.threads == [caller] && producers.count == 1 && !producers.contains(caller))
        }
    }

    @Test("the producer's thread blocks the signals a program traps, so they reach the consumer's (calling) thread")
    func producerBlocksSignals() throws {
        var recorder = Recorder()
        var blocked: [Int32] = []
        var before = sigset_t()
        pthread_sigmask(SIG_BLOCK, nil, &before)
        try RecordPipeline.run(&recorder, placement: .producerOnSecondThread) { pipeline in
            var mask = sigset_t()
            pthread_sigmask(SIG_BLOCK, nil, &mask)
            blocked = [SIGINT, SIGTERM, SIGHUP].filter { sigismember(&mask, $0) == 1 }
            try pipeline.visitTag(tag(0), index: 0)
        }
        #expect(blocked == [SIGINT, SIGTERM, SIGHUP])
        // The calling thread's mask is left as it was (test runners may block signals on their own threads).
        var after = sigset_t()
        pthread_sigmask(SIG_BLOCK, nil, &after)
        let trapped = [SIGINT, SIGTERM, SIGHUP]
        #expect(trapped.map { sigismember(&before, $0) } == trapped.map { sigismember(&after, $0) })
        #expect(recorder.names == ["tag 0"])
    }

    @Test("a failing consumer stops the producer with its error, long before it is done", arguments: placements)
    func consumerFails(placement: Placement) throws {
        var recorder = Recorder(failAt: 100)
        var produced = 0
        #expect(throws: Recorder.Failure.self) {
            try RecordPipeline.run(&recorder, placement: placement, batchSize: 10, depth: 1) { pipeline in
                for number in 0..<100_000 {
                    try pipeline.visitTag(tag(number), index: number)
                    produced += 1
                }
            }
        }
        #expect(produced < 1_000)
        #expect(recorder.names.count == 100)
    }

    @Test(
        "a failing producer stops the consumer; what it saw is a prefix of what was sent, in order",
        arguments: placements)
    func producerFails(placement: Placement) throws {
        struct Stop: Error {}
        var recorder = Recorder()
        #expect(throws: Stop.self) {
            try RecordPipeline.run(&recorder, placement: placement, batchSize: 10, depth: 2) { pipeline in
                for number in 0..<55 { try pipeline.visitTag(tag(number), index: number) }
                throw Stop()
            }
        }
        #expect(recorder.names == (0..<recorder.names.count).map { "tag \($0)" })
        #expect(recorder.names.count <= 55)
    }

    /// Counts what it sees; as the visitor, checks that the checker saw each record first.
    final class Seen: @unchecked Sendable {
        private let lock = NSLock()
        private var tags = 0
        var count: Int { lock.withLock { tags } }
        func add() { lock.withLock { tags += 1 } }
    }

    struct Checker: ArchiveVisitor {
        let seen: Seen
        var threads: Set<UInt> = []
        var ended = false
        mutating func visitProject(_ project: ProjectRecord, index: Int) {}
        mutating func visitCategory(_ category: CategoryRecord, index: Int) {}
        mutating func visitTag(_ tag: TagRecord, index: Int) {
            seen.add()
            threads.insert(RecordPipelineTests.currentThread)
        }
        mutating func visitTask(_ task: TaskRecord, index: Int) {}
        mutating func visitIssue(_ issue: ValidationIssue) {}
        mutating func visitEnd(header: ArchiveHeader, counts: ArchiveCounts?) { ended = true }
    }

    struct Follower: ArchiveVisitor {
        let seen: Seen
        var late = 0
        var tags = 0
        var threads: Set<UInt> = []
        mutating func visitProject(_ project: ProjectRecord, index: Int) {}
        mutating func visitCategory(_ category: CategoryRecord, index: Int) {}
        mutating func visitTag(_ tag: TagRecord, index: Int) {
            tags += 1
            if seen.count < tags { late += 1 }
            threads.insert(RecordPipelineTests.currentThread)
        }
        mutating func visitTask(_ task: TaskRecord, index: Int) {}
        mutating func visitIssue(_ issue: ValidationIssue) {}
        mutating func visitEnd(header: ArchiveHeader, counts: ArchiveCounts?) {}
    }

    @Test("a checker sees every call before the consumer, on the producer's thread, and comes back with its state")
    func checker() throws {
        let seen = Seen()
        var checker = Checker(seen: seen)
        var follower = Follower(seen: seen)
        let caller = Self.currentThread
        try RecordPipeline.run(&follower, checking: &checker) { pipeline in
            for number in 0..<5_000 { try pipeline.visitTag(tag(number), index: number) }
            try pipeline.visitEnd(header: ArchiveHeader(version: 2), counts: nil)
        }
        #expect(seen.count == 5_000 && follower.tags == 5_000)
        #expect(follower.late == 0)
        #expect(checker.ended)
        #expect(checker.threads == [caller] && !follower.threads.contains(caller))
    }

    @Test("a source without threads of its own makes the checker's calls just before the visitor's")
    func defaultChecker() throws {
        let seen = Seen()
        var checker = Checker(seen: seen)
        var follower = Follower(seen: seen)
        let archive = Archive(tags: (0..<100).map(tag))
        try archive.stream(kinds: nil, into: &follower, checking: &checker)
        #expect(seen.count == 100 && follower.tags == 100 && follower.late == 0 && checker.ended)
    }

    @Test("records with long lists of ids close their batch early, so few of them wait at once")
    func weight() throws {
        struct Lagging: ArchiveVisitor {
            let produced: Seen
            var consumed = 0
            var mostAhead = 0
            mutating func visitProject(_ project: ProjectRecord, index: Int) {}
            mutating func visitCategory(_ category: CategoryRecord, index: Int) {}
            mutating func visitTag(_ tag: TagRecord, index: Int) {}
            mutating func visitTask(_ task: TaskRecord, index: Int) {}
            mutating func visitEntity(_ record: EntityRecord, index: Int) {
                consumed += 1
                mostAhead = max(mostAhead, produced.count - consumed)
                usleep(200)
            }
            mutating func visitIssue(_ issue: ValidationIssue) {}
            mutating func visitEnd(header: ArchiveHeader, counts: ArchiveCounts?) {}
        }
        let produced = Seen()
        var consumer = Lagging(produced: produced)
        let ids = Array(repeating: UUID().uuidString, count: RecordPipeline.batchWeight + 1)
        try RecordPipeline.run(&consumer, batchSize: 256, depth: 2) { pipeline in
            for index in 0..<60 {
                produced.add()
                try pipeline.visitEntity(
                    EntityRecord(id: UUID(), entity: "Shelf", values: ["items": .array(ids)]), index: index)
            }
        }
        #expect(consumer.consumed == 60)
        // Two batches queued, one in hand, one being made: a batch of one record each.
        #expect(consumer.mostAhead <= 5, "\(consumer.mostAhead) records waited at once")
    }
}
