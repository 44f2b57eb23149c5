import Foundation
import Testing
@testable import TaskInterchange

/// Problems with the file as a whole, named as such: well-formed JSON that is no archive, and an archive cut off
/// anywhere.
@Suite("Archive reader: no archive, or one that ends early")
struct ArchiveReaderWholeFileTests {
    static func sample(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: SampleStores.repository.appendingPathComponent("samples/" + name)))
    }

    @Test(
        "an object with none of an archive's members is one not-an-archive issue saying what it looks like",
        arguments: [
            (#"{"name": "app", "version": "1.0.0", "scripts": {"test": "x"}}"#, "an object with the members \"name\""),
            (#"{"type": "module", "dependencies": {}}"#, "an object with the members \"type\", \"dependencies\""),
            (#"{"mappingVersion": 1, "kinds": {}}"#, ArchiveReader.mappingGivenAsArchive),
            ("{}", "an empty object"),
        ])
    func notAnArchive(text: String, looksLike: String) throws {
        let collector = try ArchiveFixtures.collect(text)
        #expect(collector.issues.count == 1, "\(collector.issues)")
        let issue = try #require(collector.issues.first)
        #expect(issue.code == .notAnArchive && issue.path == "$" && issue.line == 1 && issue.column == 1)
        #expect(issue.message.hasPrefix("this is not a tasks archive ("), "\(issue.message)")
        #expect(issue.message.contains(looksLike), "\(issue.message)")
        #expect(issue.concernsWholeFile)
        var validator = Validator()
        try Array(text.utf8).withUnsafeBytes { try ArchiveReader().read($0, into: &validator) }
        let error = ArchiveValidationError(report: validator.report)
        #expect(error.description.hasPrefix("this is not a tasks archive ("), "\(error.description)")
        #expect(!error.description.contains("--"), "a library message names no flag: \(error.description)")
    }

    @Test("an archive is never taken for something else: the samples and a version 1 file read without that issue")
    func archivesAreArchives() throws {
        for name in ["v2-example.json", "v2-example.ndjson", "v1-export.json", "TaskManager.v2.json"] {
            let collector = try ArchiveFixtures.collect(try Self.sample(name))
            #expect(!collector.issues.contains { $0.code == .notAnArchive }, "\(name): \(collector.issues)")
        }
        // An object with only a numeric version is an archive missing its members, not something else.
        let versionOnly = try ArchiveFixtures.collect(#"{"version": 2}"#)
        #expect(!versionOnly.issues.contains { $0.code == .notAnArchive }, "\(versionOnly.issues)")
    }

    @Test(
        "a JSON or NDJSON archive cut after any byte says the file ends early, where, and to export it again",
        arguments: ["v2-example.json", "v2-example.ndjson"])
    func cutAnywhere(name: String) throws {
        let bytes = try Self.sample(name)
        var failures: [String] = []
        for length in 1..<bytes.count {
            let prefix = Array(bytes[..<length])
            // The whole file but its last line break is the whole archive.
            if bytes[length...].allSatisfy({ $0 == 0x0A }) { continue }
            var validator = Validator()
            try prefix.withUnsafeBytes { try ArchiveReader().read($0, into: &validator) }
            let report = validator.report
            guard let issue = report.issues.first(where: \.concernsWholeFile) else {
                failures.append("\(length): \(report.issues.prefix(2))")
                continue
            }
            if !issue.message.hasPrefix("the file ends early (") || !issue.message.hasSuffix("export it again")
                || issue.line == nil || issue.column == nil || report.isValid
            {
                failures.append("\(length): \(issue)")
            }
        }
        #expect(failures.isEmpty, "\(failures.count) cuts: \(failures.prefix(5))")
    }

    @Test("where a cut string starts and where the file ends are both given")
    func cutInsideString() throws {
        let text = "{\"format\": \"tasks-interchange\",\n\"version\": 2, \"projects\": [{\"id\": \"1111"
        let issue = try #require(try ArchiveFixtures.collect(text).issues.first)
        let lastLine = try #require(text.split(separator: "\n").last)
        // The issue is at the end of the file; the message names where the string began.
        #expect(issue.code == .malformedJSON && issue.line == 2 && issue.column == lastLine.utf8.count + 1, "\(issue)")
        #expect(issue.path == "$.projects[0]", "\(issue)")
        #expect(
            issue.message.contains("inside the string that starts at line 2, column \(lastLine.utf8.count - 4)"),
            "\(issue.message)")
    }

    @Test("a value wrong where the file goes on is malformed, not cut: the message says what is wrong")
    func wrongInTheMiddle() throws {
        let issues = try ArchiveFixtures.collect(#"{"format": tru, "version": 2}"#).issues
        #expect(issues.contains { $0.code == .malformedJSON }, "\(issues)")
        #expect(!issues.contains { $0.concernsWholeFile }, "\(issues)")
    }
}
