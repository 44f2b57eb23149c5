import Foundation
import Testing
@testable import TaskInterchange

/// The two-thread hand-over of an export: every call arrives, in order; a consumer that fails stops the producer with
/// its error; a producer that fails can abandon the consumer; no thread outlives the pipeline.
@Suite("Record pipeline")
struct RecordPipelineTests {
    /// Records what it is given; throws at the `failAt`th tag when set.
    struct Recorder: ArchiveVisitor {
        var names: [String] = []
        var ended = false
        var failAt: Int?
        struct Failure: Error {}
        mutating func visitProject(_ project: ProjectRecord, index: Int) {}
        mutating func visitCategory(_ category: CategoryRecord, index: Int) {}
        mutating func visitTag(_ tag: TagRecord, index: Int) throws {
            if names.count == failAt { throw Failure() }
            names.append(tag.name)
        }
        mutating func visitTask(_ task: TaskRecord, index: Int) {}
        mutating func visitIssue(_ issue: ValidationIssue) {}
        mutating func visitEnd(header: ArchiveHeader, counts: ArchiveCounts?) { ended = true }
    }

    private func tag(_ number: Int) -> TagRecord {
        TagRecord(id: UUID(), name: "tag \(number)")
    }

    @Test("every record arrives in order, across many small batches and a partial last one")
    func order() throws {
        let pipeline = RecordPipeline(Recorder(), batchSize: 7, depth: 2)
        for number in 0..<10_001 { try pipeline.visitTag(tag(number), index: number) }
        try pipeline.visitEnd(header: ArchiveHeader(version: 2), counts: nil)
        let recorder = try pipeline.finish()
        #expect(recorder.names == (0..<10_001).map { "tag \($0)" })
        #expect(recorder.ended)
    }

    @Test("a failing consumer stops the producer with its error")
    func consumerFails() throws {
        let pipeline = RecordPipeline(Recorder(failAt: 100), batchSize: 10, depth: 1)
        var thrown: (any Error)?
        do {
            for number in 0..<100_000 { try pipeline.visitTag(tag(number), index: number) }
        } catch {
            thrown = error
        }
        #expect(thrown is Recorder.Failure)
        #expect(throws: Recorder.Failure.self) { try pipeline.finish() }
    }

    @Test("a failing producer abandons the consumer, which then ends")
    func producerFails() throws {
        let pipeline = RecordPipeline(Recorder(), batchSize: 10, depth: 2)
        for number in 0..<55 { try pipeline.visitTag(tag(number), index: number) }
        pipeline.abandon()
        // Abandon waited for the consumer thread: what it saw is a prefix of what was sent, in order.
        let seen = try pipeline.finish().names
        #expect(seen == (0..<seen.count).map { "tag \($0)" })
        #expect(seen.count <= 55)
    }
}
