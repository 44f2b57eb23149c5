import Foundation
import Testing
@testable import TaskInterchange

@Suite("Mapping detection")
struct StoreMappingDetectionTests {
    /// A legacy layout: `ZTODO` with a done flag, a deadline and a to-one project, spelled unusually in its model.
    func schema(_ directory: TemporaryDirectory) throws -> StoreSchema {
        let path = directory.path("legacy.sqlite")
        let database = try Database(path: path, mode: .create)
        try database.execute(
            """
            CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
            INSERT INTO Z_PRIMARYKEY VALUES (1, 'List', 0, 0), (2, 'Todo', 0, 0);
            CREATE TABLE ZLIST (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR);
            CREATE TABLE ZTODO (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZISDONE INTEGER, ZLIST INTEGER,
                                ZDEADLINE TIMESTAMP, ZTITLE VARCHAR);
            """)
        return try StoreSchema(reading: database, path: path)
    }

    @Test("without a model, names are the synonyms' usual camel case")
    func synonyms() throws {
        let mapping = StoreMapping(detectingFrom: try schema(TemporaryDirectory()))
        #expect(mapping[.task]?.property(for: "isCompleted") == "isDone")
        #expect(mapping[.task]?.property(for: "dueDate") == "deadline")
        #expect(mapping[.task]?.relationship(for: "project") == "list")
    }

    @Test("with the store's model, names are spelled exactly as the model has them")
    func modelSpelling() throws {
        var todo = ObjectModel.Entity(
            "Todo",
            attributes: [
                ObjectModel.Attribute("isdone", .boolean), ObjectModel.Attribute("DeadLine", .date),
                ObjectModel.Attribute("title", .string),
            ])
        todo.relationships = [ObjectModel.Relationship("List", to: "List", inverse: "todos", toMany: false)]
        let model = ObjectModel(entities: [
            ObjectModel.Entity("List", attributes: [ObjectModel.Attribute("name", .string)]), todo,
        ])
        let mapping = StoreMapping(detectingFrom: try schema(TemporaryDirectory()), model: model)
        #expect(mapping[.task]?.property(for: "isCompleted") == "isdone")
        #expect(mapping[.task]?.property(for: "dueDate") == "DeadLine")
        #expect(mapping[.task]?.property(for: "title") == "title")
        #expect(mapping[.task]?.relationship(for: "project") == "List")
        #expect(mapping[.project]?.property(for: "name") == "name")
    }
}
