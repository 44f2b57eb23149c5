import Foundation
import Testing
@testable import TaskInterchange

@Suite struct ArchiveWriterTests {
    private func written(_ archive: Archive, _ options: ArchiveWritingOptions = ArchiveWritingOptions()) throws
        -> String
    {
        String(decoding: try ArchiveFixtures.encode(archive, options), as: UTF8.self)
    }

    @Test("compact output is byte for byte the golden text")
    func compactGolden() throws {
        let expected = #"""
            {
            "format":"tasks-interchange",
            "version":2,
            "exportDate":"2025-01-01T00:00:00.5Z",
            "generator":{"name":"tasks","version":"1.0.0"},
            "source":{"store":"/tmp/Tasks.sqlite","storeUUID":"0F1E2D3C-4B5A-6978-8796-A5B4C3D2E1F0","entities":{"project":"Project","task":"Task"}},
            "projects":[
            {"id":"11111111-1111-1111-1111-111111111111","name":"Home","createdAt":"2001-01-01T00:00:00.25Z"}
            ],
            "categories":[
            {"id":"22222222-2222-2222-2222-222222222222","name":"Work","color":"red"}
            ],
            "tags":[
            {"id":"33333333-3333-3333-3333-333333333333","name":"urgent"}
            ],
            "tasks":[
            {"id":"AAAAAAAA-AAAA-AAAA-AAAA-AAAAAAAAAAAA","title":"Buy \"milk\"","notes":"2% fat\n","isCompleted":false,"createdAt":"2025-01-01T00:00:00Z","dueDate":"2000-12-31T23:59:59.7Z","priority":2,"projectId":"11111111-1111-1111-1111-111111111111","categoryId":"22222222-2222-2222-2222-222222222222","tagIds":["33333333-3333-3333-3333-333333333333"],"subtasks":[{"id":"44444444-4444-4444-4444-444444444444","title":"Go to shop","isCompleted":true}]},
            {"id":"BBBBBBBB-BBBB-BBBB-BBBB-BBBBBBBBBBBB","title":"Call","isCompleted":false,"createdAt":"2001-01-01T00:00:00.0000001Z","priority":0,"tagIds":[],"subtasks":[]}
            ],
            "counts":{"projects":1,"categories":1,"tags":1,"tasks":2,"subtasks":1}
            }

            """#
        #expect(try written(ArchiveFixtures.small) == expected)
    }

    @Test("pretty output indents by two spaces everywhere")
    func prettyGolden() throws {
        var archive = ArchiveFixtures.small
        archive.header.source = nil
        archive.categories = []
        archive.tags = []
        archive.tasks[0].tagIds = [ArchiveFixtures.uuid("3"), ArchiveFixtures.uuid("5")]
        let expected = #"""
            {
              "format": "tasks-interchange",
              "version": 2,
              "exportDate": "2025-01-01T00:00:00.5Z",
              "generator": {
                "name": "tasks",
                "version": "1.0.0"
              },
              "projects": [
                {
                  "id": "11111111-1111-1111-1111-111111111111",
                  "name": "Home",
                  "createdAt": "2001-01-01T00:00:00.25Z"
                }
              ],
              "categories": [],
              "tags": [],
              "tasks": [
                {
                  "id": "AAAAAAAA-AAAA-AAAA-AAAA-AAAAAAAAAAAA",
                  "title": "Buy \"milk\"",
                  "notes": "2% fat\n",
                  "isCompleted": false,
                  "createdAt": "2025-01-01T00:00:00Z",
                  "dueDate": "2000-12-31T23:59:59.7Z",
                  "priority": 2,
                  "projectId": "11111111-1111-1111-1111-111111111111",
                  "categoryId": "22222222-2222-2222-2222-222222222222",
                  "tagIds": [
                    "33333333-3333-3333-3333-333333333333",
                    "55555555-5555-5555-5555-555555555555"
                  ],
                  "subtasks": [
                    {
                      "id": "44444444-4444-4444-4444-444444444444",
                      "title": "Go to shop",
                      "isCompleted": true
                    }
                  ]
                },
                {
                  "id": "BBBBBBBB-BBBB-BBBB-BBBB-BBBBBBBBBBBB",
                  "title": "Call",
                  "isCompleted": false,
                  "createdAt": "2001-01-01T00:00:00.0000001Z",
                  "priority": 0,
                  "tagIds": [],
                  "subtasks": []
                }
              ],
              "counts": {
                "projects": 1,
                "categories": 0,
                "tags": 0,
                "tasks": 2,
                "subtasks": 1
              }
            }

            """#
        #expect(try written(archive, ArchiveWritingOptions(layout: .pretty)) == expected)
    }

    @Test("NDJSON has a header line, one line per record and a trailer")
    func ndjsonGolden() throws {
        var archive = ArchiveFixtures.small
        archive.tasks.removeFirst()
        archive.header.source = nil
        let expected = #"""
            {"type":"header","format":"tasks-interchange","version":2,"exportDate":"2025-01-01T00:00:00.5Z","generator":{"name":"tasks","version":"1.0.0"}}
            {"type":"project","id":"11111111-1111-1111-1111-111111111111","name":"Home","createdAt":"2001-01-01T00:00:00.25Z"}
            {"type":"category","id":"22222222-2222-2222-2222-222222222222","name":"Work","color":"red"}
            {"type":"tag","id":"33333333-3333-3333-3333-333333333333","name":"urgent"}
            {"type":"task","id":"BBBBBBBB-BBBB-BBBB-BBBB-BBBBBBBBBBBB","title":"Call","isCompleted":false,"createdAt":"2001-01-01T00:00:00.0000001Z","priority":0,"tagIds":[],"subtasks":[]}
            {"type":"trailer","counts":{"projects":1,"categories":1,"tags":1,"tasks":1,"subtasks":0}}

            """#
        #expect(try written(archive, ArchiveWritingOptions(layout: .ndjson)) == expected)
    }

    @Test("an empty archive still lists every section and the counts")
    func emptyArchive() throws {
        let expected =
            "{\n\"format\":\"tasks-interchange\",\n\"version\":2,\n\"projects\":[],\n\"categories\":[],\n"
            + "\"tags\":[],\n\"tasks\":[],\n\"counts\":{\"projects\":0,\"categories\":0,\"tags\":0,\"tasks\":0,\"subtasks\":0}\n}\n"
        #expect(try written(Archive()) == expected)
    }

    @Test("the same archive gives the same bytes every time, whatever the dictionary order")
    func deterministic() throws {
        let archive = ArchiveFixtures.random(seed: 7, tasks: 50)
        let first = try ArchiveFixtures.encode(archive)
        var copy = archive
        copy.header.source?.entities = Dictionary(uniqueKeysWithValues: archive.header.source!.entities.reversed())
        #expect(try ArchiveFixtures.encode(copy) == first)
    }

    @Test("sections out of order, records before begin and anything after finish are refused")
    func callOrder() throws {
        var writer = try ArchiveWriter(sink: ByteBuffer())
        #expect(throws: ArchiveWritingError.self) { try writer.write(tag: TagRecord(id: UUID(), name: "t")) }
        try writer.begin(header: ArchiveHeader())
        #expect(throws: ArchiveWritingError.self) { try writer.begin(header: ArchiveHeader()) }
        try writer.write(tag: TagRecord(id: UUID(), name: "t"))
        #expect {
            try writer.write(project: ProjectRecord(id: UUID(), name: "p"))
        } throws: { error in
            (error as? ArchiveWritingError)?.description
                == "projects cannot follow tags: sections are written in the order projects, categories, tags, tasks"
        }
        try writer.finish()
        #expect(throws: ArchiveWritingError.self) { try writer.finish() }
        #expect(throws: ArchiveWritingError.self) {
            try writer.write(task: TaskRecord(id: UUID(), title: "", createdAt: Date()))
        }
    }

    @Test("unsupported options are refused before anything is written")
    func options() {
        #expect(throws: ArchiveWritingError.unsupportedVersion(3)) {
            _ = try ArchiveWriter(sink: ByteBuffer(), options: ArchiveWritingOptions(formatVersion: 3))
        }
        #expect(throws: ArchiveWritingError.ndjsonRequiresVersion2) {
            _ = try ArchiveWriter(sink: ByteBuffer(), options: ArchiveWritingOptions(formatVersion: 1, layout: .ndjson))
        }
    }

    @Test("a date that cannot be written is refused with the record named, and nothing of the record is written")
    func unrepresentableDate() throws {
        let buffer = ByteBuffer()
        var writer = try ArchiveWriter(sink: buffer)
        try writer.begin(header: ArchiveHeader())
        let id = ArchiveFixtures.uuid("A")
        #expect {
            try writer.write(
                task: TaskRecord(id: id, title: "t", createdAt: Date(timeIntervalSinceReferenceDate: .nan)))
        } throws: { error in
            "\(error)".hasPrefix("task AAAAAAAA-AAAA-AAAA-AAAA-AAAAAAAAAAAA: createdAt: nan")
        }
        #expect(throws: ArchiveWritingError.self) {
            try writer.write(
                task: TaskRecord(
                    id: id, title: "t", createdAt: Date(),
                    dueDate: Date(timeIntervalSinceReferenceDate: 1e18)))
        }
        try writer.finish()
        let collector = try ArchiveFixtures.collect(buffer.bytes)
        #expect(collector.issues.isEmpty)
        #expect(collector.archive.tasks.isEmpty)
    }

    @Test("memory stays bounded: the writer hands full buffers to the sink as it goes")
    func streaming() throws {
        final class CountingSink: ByteSink {
            var writes = 0
            var largest = 0
            func write(_ bytes: UnsafeRawBufferPointer) throws {
                writes += 1
                largest = max(largest, bytes.count)
            }
        }
        let sink = CountingSink()
        var writer = try ArchiveWriter(sink: sink)
        try writer.begin(header: ArchiveHeader())
        let task = TaskRecord(id: UUID(), title: String(repeating: "x", count: 1000), createdAt: Date())
        for _ in 0..<2000 { try writer.write(task: task) }
        try writer.finish()
        #expect(sink.writes >= 7)
        #expect(sink.largest < JSONWriter.defaultFlushThreshold + 4096)
    }
}
