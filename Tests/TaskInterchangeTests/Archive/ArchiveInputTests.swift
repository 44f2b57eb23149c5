import Foundation
import Testing
@testable import TaskInterchange

@Suite struct ArchiveInputTests {
    private func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("archive-input-\(UUID().uuidString)-\(name)").path
    }

    @Test("a file is mapped and read in full")
    func mapsFile() throws {
        let path = temporaryPath("a.json")
        let bytes = try ArchiveFixtures.encode(ArchiveFixtures.small)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let input = try ArchiveInput(path: path)
        #expect(input.path == path)
        #expect(input.count == bytes.count)
        #expect(input.withBytes { Array($0) } == bytes)
        var collector = ArchiveCollector()
        try input.withBytes { try ArchiveReader().read($0, into: &collector) }
        #expect(collector.archive == ArchiveFixtures.small)
    }

    @Test("an empty file gives no bytes, which the reader reports as empty input")
    func emptyFile() throws {
        let path = temporaryPath("empty.json")
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let input = try ArchiveInput(path: path)
        #expect(input.count == 0)
        var collector = ArchiveCollector()
        try input.withBytes { try ArchiveReader().read($0, into: &collector) }
        #expect(collector.issues.map(\.code) == [.malformedJSON])
    }

    @Test("a missing file or a directory is noInput (exit 66)")
    func missing() throws {
        let path = temporaryPath("missing.json")
        #expect {
            _ = try ArchiveInput(path: path)
        } throws: { error in
            guard let error = error as? TaskInterchangeError else { return false }
            return error.kind == .noInput && error.message == "\(path): no such file"
        }
        #expect {
            _ = try ArchiveInput(path: FileManager.default.temporaryDirectory.path)
        } throws: { ($0 as? TaskInterchangeError)?.kind == .noInput }
    }

    @Test("a pipe is read to its end, beyond the first buffer size")
    func readsPipe() throws {
        var descriptors: [Int32] = [0, 0]
        #expect(pipe(&descriptors) == 0)
        let payload = [UInt8](repeating: UInt8(ascii: "z"), count: 3 << 20)
        let (readEnd, writeEnd) = (descriptors[0], descriptors[1])
        defer { close(readEnd) }
        let writer = Thread {
            payload.withUnsafeBytes { try? FileDescriptorSink(fileDescriptor: writeEnd).write($0) }
            close(writeEnd)
        }
        writer.start()
        // Standard input itself is left alone: tests run in parallel in one process.
        let input = try ArchiveInput.reading(fileDescriptor: readEnd, name: "pipe")
        #expect(input.count == payload.count)
        #expect(input.withBytes { $0.allSatisfy { $0 == UInt8(ascii: "z") } })
    }

    @Test("bytes in memory are copied")
    func inMemory() {
        let input = ArchiveInput(bytes: Array("{}".utf8))
        #expect(input.path == nil)
        #expect(input.withBytes { Array($0) } == Array("{}".utf8))
    }
}
