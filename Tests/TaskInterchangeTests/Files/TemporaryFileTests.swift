import Foundation
import Testing
@testable import TaskInterchange

@Suite("Temporary files")
struct TemporaryFileTests {
    @Test("a temporary file being created is never lost to another run's sweep beside the same output")
    func creationRacesSweep() throws {
        let directory = try TemporaryDirectory()
        let output = directory.path("out.json")
        let stop = PrivateDirectoryTests.Stop()
        let sweeper = Thread {
            while !stop.isStopped { TemporaryFile.sweep(beside: output) }
        }
        sweeper.start()
        defer { stop.stop() }
        var lost = 0
        for _ in 0..<5_000 {
            let file = try TemporaryFile(beside: output)
            if !FileManager.default.fileExists(atPath: file.path) { lost += 1 }
        }
        #expect(lost == 0, "\(lost) of 5000 temporary files were swept while their run was alive")
    }
}
