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
        var recorder = Recorder()
        try RecordPipeline.run(&recorder, batchSize: 7, depth: 2) { pipeline in
            for number in 0..<10_001 { try pipeline.visitTag(tag(number), index: number) }
            try pipeline.visitEnd(header: ArchiveHeader(version: 2), counts: nil)
        }
        #expect(recorder.names == (0..<10_001).map { "tag \($0)" })
        #expect(recorder.ended)
    }

    @Test("a failing consumer stops the producer with its error, long before it is done")
    func consumerFails() throws {
        var recorder = Recorder(failAt: 100)
        var produced = 0
        #expect(throws: Recorder.Failure.self) {
            try RecordPipeline.run(&recorder, batchSize: 10, depth: 1) { pipeline in
                for number in 0..<100_000 {
                    try pipeline.visitTag(tag(number), index: number)
                    produced += 1
                }
            }
        }
        #expect(produced < 1_000)
        #expect(recorder.names.count == 100)
    }

    @Test("a failing producer stops the consumer; what it saw is a prefix of what was sent, in order")
    func producerFails() throws {
        struct Stop: Error {}
        var recorder = Recorder()
        #expect(throws: Stop.self) {
            try RecordPipeline.run(&recorder, batchSize: 10, depth: 2) { pipeline in
                for number in 0..<55 { try pipeline.visitTag(tag(number), index: number) }
                throw Stop()
            }
        }
        #expect(recorder.names == (0..<recorder.names.count).map { "tag \($0)" })
        #expect(recorder.names.count <= 55)
    }
}
