// A libFuzzer target over the archive reader, the validator and the writer.
//
// `scripts/fuzz SECONDS` builds this with `-sanitize=fuzzer` (plus `-parse-as-library` and `-D TASKS_FUZZ`, so that
// `TasksFuzz_main` hands over to libFuzzer's driver). A plain `swift build` compiles the replay tool at the bottom
// instead: `TasksFuzz FILE…` runs each file through the same checks, which is how a saved crash is reproduced.
//
// The checks, for every input:
// 1. `ArchiveReader` + `Validator` never crash, whatever the bytes (malformed input is an issue, not a trap).
// 2. Every issue has a path that starts with `$`, and a malformed-json issue has a line and column.
// 3. An input that `Archive(json:)` accepts is written back (compact v2 and NDJSON) and read again to the same records,
//    dates bit for bit: nothing accepted is lost or changed on the way through the writer.
// 4. An archive the validator passes is one `Archive(json:)` accepts.
// 5. An archive the validator passes holds only generic values their declared types hold (integers within their
//    width, booleans 0 or 1), however the values were confused (seeds: the malformed corpus's generic-* files).

import Foundation
import TaskInterchange

/// Runs one input through every check; traps (a crash for libFuzzer) when a property does not hold.
func check(_ bytes: UnsafeRawBufferPointer) {
    var validator = Validator()
    do {
        try ArchiveReader().read(bytes, into: &validator)
    } catch {
        // The validator never throws; a visitor error would be a bug.
        fatalError("ArchiveReader threw through a Validator: \(error)")
    }
    for issue in validator.report.issues {
        precondition(issue.path.hasPrefix("$"), "issue without a JSON path: \(issue)")
        if issue.code == .malformedJSON {
            precondition(issue.line != nil && issue.column != nil, "malformed-json issue without line:column: \(issue)")
        }
    }
    guard let archive = try? Archive(json: bytes) else {
        precondition(!validator.report.isValid, "the validator passes an archive that Archive(json:) rejects")
        return
    }
    if validator.report.isValid { checkDeclaredRanges(archive) }
    for layout in [ArchiveWritingOptions.Layout.compact, .ndjson] {
        let written: Data
        do {
            written = try archive.jsonData(options: ArchiveWritingOptions(layout: layout))
        } catch {
            // Unrepresentable values are refused by the writer with an error; that is allowed.
            continue
        }
        let again: Archive
        do {
            again = try Archive(json: written)
        } catch {
            fatalError(
                "an accepted archive, written as \(layout), is not read back: \(error)\n"
                    + String(decoding: written.prefix(2000), as: UTF8.self))
        }
        precondition(again.projects == archive.projects, "projects changed in a \(layout) round trip")
        precondition(again.categories == archive.categories, "categories changed in a \(layout) round trip")
        precondition(again.tags == archive.tags, "tags changed in a \(layout) round trip")
        precondition(again.tasks == archive.tasks, "tasks changed in a \(layout) round trip")
        precondition(again.entities == archive.entities, "generic records changed in a \(layout) round trip")
        // `Date ==` compares Doubles, for which −0.0 == 0.0: the bits are compared too.
        precondition(dateBits(again) == dateBits(archive), "a date lost bits in a \(layout) round trip")
    }
}

/// Traps when a generic value is beyond what its declared type holds: what the validator must have refused.
func checkDeclaredRanges(_ archive: Archive) {
    let model = archive.header.source?.model ?? [:]
    for record in archive.entities {
        for (name, value) in record.values {
            let type = model[record.entity]?.attributes[name]
            switch (type, value) {
            case ("integer16"?, .integer(let number)):
                precondition(Int16(exactly: number) != nil, "a valid archive holds \(number) for Integer 16 \(name)")
            case ("integer32"?, .integer(let number)):
                precondition(Int32(exactly: number) != nil, "a valid archive holds \(number) for Integer 32 \(name)")
            case ("boolean"?, .integer(let number)):
                precondition(number == 0 || number == 1, "a valid archive holds \(number) for Boolean \(name)")
            default:
                continue
            }
        }
    }
}

/// The bit patterns of every date in `archive`, in order (nil for an absent optional date).
func dateBits(_ archive: Archive) -> [UInt64?] {
    func bits(_ date: Date?) -> UInt64? { date.map { $0.timeIntervalSinceReferenceDate.bitPattern } }
    return archive.projects.map { bits($0.createdAt) }
        + archive.tasks.flatMap { [bits($0.createdAt), bits($0.dueDate)] }
}

#if TASKS_FUZZ
    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
        check(UnsafeRawBufferPointer(start: data, count: size))
        return 0
    }

    /// libFuzzer's entry point that takes the callback instead of finding `LLVMFuzzerTestOneInput` by name.
    @_silgen_name("LLVMFuzzerRunDriver")
    func runFuzzerDriver(
        _ argc: UnsafeMutablePointer<CInt>,
        _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
        _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
    ) -> CInt

    /// SwiftPM links an executable target with `main` defined as `<target>_main` (so tests can link it); with
    /// `-parse-as-library` nothing defines that symbol, so it is defined here and hands over to libFuzzer's driver.
    @_cdecl("TasksFuzz_main")
    public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
        var count = argc
        var arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = argv
        return runFuzzerDriver(&count, &arguments) { data, size in fuzz(data, size) }
    }
#else
    /// Replays the files named on the command line through `check`.
    func replay() {
        let files = CommandLine.arguments.dropFirst()
        if files.isEmpty {
            FileHandle.standardError.write(
                Data("usage: TasksFuzz FILE…  (replays inputs; scripts/fuzz builds the fuzzer)\n".utf8))
            exit(64)
        }
        for file in files {
            guard let data = FileManager.default.contents(atPath: file) else {
                FileHandle.standardError.write(Data("TasksFuzz: cannot read \(file)\n".utf8))
                exit(66)
            }
            data.withUnsafeBytes { check($0) }
            print("\(file): ok")
        }
    }

    // A declaration rather than a statement, so the file also parses with -parse-as-library (the fuzzer build).
    let replayed: Void = replay()
#endif
