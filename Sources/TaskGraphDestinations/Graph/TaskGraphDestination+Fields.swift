import Foundation
import TaskInterchange

/// A field of a kind's interchange field table that the graph's object holds: one entry both writes it into the
/// object and reads it back, so what is written is what verification sees.
struct GraphField<Record, Object: AnyObject> {
    /// The field's name in the kind's field table (`RecordKind.fields`).
    let name: String
    let write: (Record, Object) -> Void
    let read: (Object, inout Record) -> Void

    init<Value>(
        _ name: String, _ record: WritableKeyPath<Record, Value>, _ object: ReferenceWritableKeyPath<Object, Value>
    ) {
        self.name = name
        write = { from, into in into[keyPath: object] = from[keyPath: record] }
        read = { from, into in into[keyPath: record] = from[keyPath: object] }
    }
}

/// A field of a kind's field table that the graph's objects have no property for: a record's value in it is
/// counted (`TaskGraphDestination.fieldValuesNotWritten`), never dropped silently.
struct UnheldField<Record> {
    let name: String
    /// Whether a record carries a value in it.
    let isSet: (Record) -> Bool
}

/// Every field of every kind's field table is in exactly one of these lists (a test checks it against
/// `RecordKind.fields`): a new field of the interchange either gets a property in the `TaskGraph…` protocols and an
/// entry here, or is listed as not held.
extension TaskGraphDestination {
    static var projectFields: [GraphField<ProjectRecord, Context.Project>] {
        [GraphField("name", \.name, \.name), GraphField("createdAt", \.createdAt, \.createdAt)]
    }

    static var categoryFields: [GraphField<CategoryRecord, Context.Category>] {
        [GraphField("name", \.name, \.name), GraphField("color", \.color, \.color)]
    }

    static var tagFields: [GraphField<TagRecord, Context.Tag>] {
        [GraphField("name", \.name, \.name)]
    }

    static var taskFields: [GraphField<TaskRecord, Context.Task>] {
        [
            GraphField("title", \.title, \.title), GraphField("notes", \.notes, \.notes),
            GraphField("isCompleted", \.isCompleted, \.isCompleted), GraphField("createdAt", \.createdAt, \.createdAt),
            GraphField("dueDate", \.dueDate, \.dueDate), GraphField("priority", \.priority, \.priority),
        ]
    }

    static var subtaskFields: [GraphField<SubtaskRecord, Context.Subtask>] {
        [GraphField("title", \.title, \.title), GraphField("isCompleted", \.isCompleted, \.isCompleted)]
    }

    /// The seed's model keeps no modification dates.
    static var projectFieldsNotHeld: [UnheldField<ProjectRecord>] {
        [UnheldField(name: "modifiedAt") { $0.modifiedAt != nil }]
    }

    static var taskFieldsNotHeld: [UnheldField<TaskRecord>] {
        [UnheldField(name: "modifiedAt") { $0.modifiedAt != nil }]
    }
}
