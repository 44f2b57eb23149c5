import Testing
@testable import TaskInterchange

@Suite("History recorder")
struct HistoryRecorderTests {
    private static func entity(_ name: String, _ number: Int64, _ table: String) -> StoreSchema.Entity {
        StoreSchema.Entity(
            name: name, number: number, superNumber: 0, maxKey: 0, table: table, expectedTable: table,
            numbersIncludingSubentities: [number])
    }

    private static let entities = StoreWriter.HistoryEntities(
        change: entity("CHANGE", 16_001, "ACHANGE"), transaction: entity("TRANSACTION", 16_002, "ATRANSACTION"),
        string: entity("TRANSACTIONSTRING", 16_003, "ATRANSACTIONSTRING"))

    private func changes(
        _ recorder: HistoryRecorder, entities: [String: Int64] = [:]
    ) -> [HistoryRecorder.Change] {
        var changes: [HistoryRecorder.Change] = []
        recorder.forEachChange(entity: { table, key in entities["\(table).\(key)"] }) { changes.append($0) }
        return changes
    }

    @Test("inserts, then updates of objects that existed before, then deletes, each in key order")
    func order() {
        var recorder = HistoryRecorder(entities: Self.entities)
        recorder.noteInserted(11, entity: 3, table: "ZTASK")
        recorder.noteInserted(12, entity: 3, table: "ZTASK")
        recorder.noteInserted(1, entity: 2, table: "ZTAG")
        // Keys from the first new one up were inserted by the import: not updates.
        recorder.noteChanged(12, in: "ZTASK")
        recorder.noteChanged(4, in: "ZTASK")
        recorder.noteChanged(2, in: "ZTASK")
        recorder.noteDeleted(7, entity: 3, table: "ZTASK")
        recorder.noteDeleted(5, entity: 3, table: "ZTASK")
        #expect(recorder.existedBefore(10, in: "ZTASK") && !recorder.existedBefore(11, in: "ZTASK"))
        #expect(
            changes(recorder, entities: ["ZTASK.2": 3, "ZTASK.4": 3]) == [
                .init(type: .insert, entity: 2, key: 1), .init(type: .insert, entity: 3, key: 11),
                .init(type: .insert, entity: 3, key: 12), .init(type: .update, entity: 3, key: 2),
                .init(type: .update, entity: 3, key: 4), .init(type: .delete, entity: 3, key: 5),
                .init(type: .delete, entity: 3, key: 7),
            ])
    }

    @Test("an object inserted and deleted by the same import, or changed and then deleted, leaves one row or none")
    func insertedThenDeleted() {
        var recorder = HistoryRecorder(entities: Self.entities)
        recorder.noteInserted(20, entity: 3, table: "ZTASK")
        recorder.noteInserted(21, entity: 3, table: "ZTASK")
        recorder.noteDeleted(20, entity: 3, table: "ZTASK")
        recorder.noteChanged(5, in: "ZTASK")
        recorder.noteDeleted(5, entity: 3, table: "ZTASK")
        // The changed row is gone when the rows are written: its entity reads as nil.
        #expect(
            changes(recorder) == [
                .init(type: .insert, entity: 3, key: 21), .init(type: .delete, entity: 3, key: 5),
            ])
        recorder.clear()
        #expect(changes(recorder).isEmpty)
    }

    @Test("a table whose keys are all new records no updates; generic inserts leave where new keys begin alone")
    func allNew() {
        var recorder = HistoryRecorder(entities: Self.entities)
        recorder.noteAllNew(in: "ZNOTE")
        recorder.noteInserted(1, entity: 9)
        recorder.noteChanged(1, in: "ZNOTE")
        #expect(changes(recorder, entities: ["ZNOTE.1": 9]) == [.init(type: .insert, entity: 9, key: 1)])
        #expect(recorder.existedBefore(1, in: "ZOTHER"))
    }
}
