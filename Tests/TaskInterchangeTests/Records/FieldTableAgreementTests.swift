import Foundation
import Testing
@testable import TaskInterchange

/// Every field in every kind's table, at a value no blank record has, through the archive writer and reader, the store
/// writer and reader, and against the JSON schemas: a field the table lists and a reader, writer or schema does not
/// (or the other way round) fails here, whichever field it is, so a new field needs no test of its own to be covered.
@Suite("Field tables agree with the readers, writers and schemas")
struct FieldTableAgreementTests {
    /// `record` with every field of its table at a value its blank record does not have; `salt` tells records apart.
    static func filled<Record: TypedRecord>(_ record: Record, salt: Int) -> Record {
        var record = record
        let blank = Record(blank: record.id)
        for field in Record.layout {
            let text = "\(field.name) \(salt) ü"
            let date = Date(timeIntervalSinceReferenceDate: Double(salt * 1_000 + field.index) + 0.25)
            switch field.access {
            case .text(let slot), .textOrDefault(let slot): record[slot] = text
            case .optionalText(let slot): record[slot] = text
            case .flag(let slot): record[slot] = !blank[slot]
            case .date(let slot): record[slot] = date
            case .optionalDate(let slot): record[slot] = date
            case .level(let slot, let range):
                record[slot] = blank[slot] == range.upperBound ? range.lowerBound : range.upperBound
            case .optionalInteger(let slot): record[slot] = -(salt * 1_000 + field.index)
            }
        }
        return record
    }

    /// One record of each kind, every field filled, with every reference between them.
    static let archive: Archive = {
        var task = filled(TaskRecord(blank: UUID()), salt: 4)
        let project = filled(ProjectRecord(blank: UUID()), salt: 1)
        let category = filled(CategoryRecord(blank: UUID()), salt: 2)
        let tag = filled(TagRecord(blank: UUID()), salt: 3)
        task.projectId = project.id
        task.categoryId = category.id
        task.tagIds = [tag.id]
        task.subtasks = [filled(SubtaskRecord(blank: UUID()), salt: 5)]
        return Archive(projects: [project], categories: [category], tags: [tag], tasks: [task])
    }()

    /// The built-in model with an attribute for every table field it lacks (a modification date, a field added to a
    /// table before the model): the store a full round trip needs.
    static let model: ObjectModel = {
        var model = TaskManagerModel.model
        func add<Record: TypedRecord>(_: Record.Type, to name: String) {
            let index = model.entities.firstIndex { $0.name == name }!
            for field in Record.fields
            where !model.entities[index].attributes.contains(where: { $0.name == field.name }) {
                let type: ObjectModel.AttributeType
                switch field.value.access {
                case .text, .textOrDefault, .optionalText: type = .string
                case .flag: type = .boolean
                case .date, .optionalDate: type = .date
                case .level: type = .integer16
                case .optionalInteger: type = .integer64
                }
                model.entities[index].attributes.append(
                    .init(field.name, type, optional: field.value.access.isOptional))
            }
        }
        add(ProjectRecord.self, to: "Project")
        add(CategoryRecord.self, to: "Category")
        add(TagRecord.self, to: "Tag")
        add(TaskRecord.self, to: "Task")
        add(SubtaskRecord.self, to: "Subtask")
        return model
    }()

    @Test("each field, set alone, changes its record: its slot is its own property")
    func slotsAreDistinct() {
        func check<Record: TypedRecord>(_: Record.Type) {
            let blank = Record(blank: UUID())
            let full = Self.filled(blank, salt: 1)
            for field in Record.layout {
                var one = blank
                switch field.access {
                case .text(let slot), .textOrDefault(let slot): one[slot] = full[slot]
                case .optionalText(let slot): one[slot] = full[slot]
                case .flag(let slot): one[slot] = full[slot]
                case .date(let slot): one[slot] = full[slot]
                case .optionalDate(let slot): one[slot] = full[slot]
                case .level(let slot, _): one[slot] = full[slot]
                case .optionalInteger(let slot): one[slot] = full[slot]
                }
                #expect(one != blank, "\(Record.kind).\(field.name)")
            }
        }
        check(ProjectRecord.self)
        check(CategoryRecord.self)
        check(TagRecord.self)
        check(TaskRecord.self)
        check(SubtaskRecord.self)
    }

    @Test("every field comes back from the archive writer and reader", arguments: ArchiveWritingOptions.Layout.allCases)
    func archiveRoundTrip(layout: ArchiveWritingOptions.Layout) throws {
        let read = try Archive(json: Self.archive.jsonData(options: ArchiveWritingOptions(layout: layout)))
        #expect(read == Self.archive)
    }

    @Test("every field comes back from the store writer and reader")
    func storeRoundTrip() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("fields.sqlite")
        var options = StoreImportOptions()
        options.template = StoreTemplate(model: Self.model)
        let result = try StoreImport.run(Self.archive, into: path, options: options)
        #expect(result.warnings.isEmpty, "\(result.warnings)")
        let read = try readStore(path, model: Self.model)
        #expect(read.findings.isEmpty, "\(read.findings)")
        #expect(read.archive.projects == Self.archive.projects)
        #expect(read.archive.categories == Self.archive.categories)
        #expect(read.archive.tags == Self.archive.tags)
        #expect(read.archive.tasks == Self.archive.tasks)
    }

    @Test("the interchange schema has every field, required as its shape says, and nothing else of the table's kind")
    func interchangeSchema() throws {
        let definitions = try #require(Self.schema("tasks-interchange-v2.schema.json")["$defs"] as? [String: Any])
        /// Members a record has besides its table's fields.
        let members: Set<String> = [
            "id", "key", "nulls", "extra", "position", "projectId", "categoryId", "tagIds", "subtasks",
        ]
        func check<Record: TypedRecord>(_: Record.Type, _ name: String) throws {
            let definition = try #require(definitions[name] as? [String: Any], "\(name)")
            let properties = try #require(definition["properties"] as? [String: Any], "\(name)")
            let required = Set(try #require(definition["required"] as? [String], "\(name)"))
            let fields = Record.layout.map(\.name)
            #expect(Set(properties.keys).subtracting(members) == Set(fields), "\(name)")
            for field in Record.layout {
                #expect(required.contains(field.name) == !field.access.isOptional, "\(name).\(field.name)")
            }
            let nulls = (properties["nulls"] as? [String: Any])?["items"] as? [String: Any]
            #expect(
                nulls?["enum"] as? [String] == Record.layout.filter { !$0.access.isOptional }.map(\.name), "\(name)")
        }
        try check(ProjectRecord.self, "projectFields")
        try check(CategoryRecord.self, "categoryFields")
        try check(TagRecord.self, "tagFields")
        try check(TaskRecord.self, "taskFields")
        try check(SubtaskRecord.self, "subtask")
    }

    @Test("the mapping schema lists each kind's fields in mapping order")
    func mappingSchema() throws {
        let kinds = try #require(
            (Self.schema("tasks-mapping-v1.schema.json")["properties"] as? [String: Any])?["kinds"] as? [String: Any])
        let properties = try #require(kinds["properties"] as? [String: Any])
        for kind in RecordKind.allCases {
            let kindSchema = properties[kind.rawValue] as? [String: Any]
            let fields = (kindSchema?["properties"] as? [String: Any])?["fields"] as? [String: Any]
            let names = (fields?["propertyNames"] as? [String: Any])?["enum"] as? [String]
            #expect(names == kind.fields, "\(kind)")
        }
    }

    static func schema(_ name: String) throws -> [String: Any] {
        let data = try Data(contentsOf: SampleStores.repository.appendingPathComponent("schema/" + name))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }
}

/// The optional integer shape, which no kind's table uses yet, at the store reader: what its values read as.
@Suite("Optional integer fields")
struct OptionalIntegerFieldTests {
    @Test("a store's integer reads as it is, NULL as nil, anything else rounded with a finding")
    func storeValues() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("a.sqlite")
        _ = try StoreImport.run(
            ArchiveGenerator.archive(seed: 1, maxTasks: 1), into: path, options: StoreImportOptions())
        let reader = try StoreReader(snapshot: try StoreSnapshot(path: path))
        let statement = try reader.database.prepare("SELECT -7, NULL, 2.6, '12', 1e300 * 1e300")
        #expect(try statement.step())
        let origin = StoreReader.Origin(entity: "Task", field: "estimate", column: "ZESTIMATE", key: 1)
        let values = (0..<5).map { reader.optionalInteger(statement, Int32($0), origin) }
        #expect(values == [-7, nil, 3, 12, nil])
        #expect(reader.findings.map(\.code) == [.invalidValue] && reader.findings.first?.count == 3)
    }
}
