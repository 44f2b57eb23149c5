#if canImport(CoreData)
    import CoreData
    import Foundation

    /// The seed model's objects in a Core Data store, read and written by key-value coding: any `NSManagedObject` of
    /// the entities Project, Category, Tag, Task and Subtask (with the attribute and relationship names of
    /// `samples/README.md`) works, whether the app generated classes for them or not. The subtasks relationship is an
    /// ordered one, so its order is kept by Core Data itself and `position` is the index in it.
    public enum ManagedTaskObjects {
        /// A managed object of the seed's model, with its `id`.
        public class Object {
            /// The managed object.
            public let object: NSManagedObject
            init(_ object: NSManagedObject) { self.object = object }
            /// `id`.
            public var id: UUID {
                get { object.value("id", or: UUID()) }
                set { object.setValue(newValue, forKey: "id") }
            }
        }

        /// An object with a `name`.
        public class Named: Object {
            /// `name`.
            public var name: String {
                get { object.value("name", or: "") }
                set { object.setValue(newValue, forKey: "name") }
            }
        }

        /// A Project object.
        public final class Project: Named, TaskGraphProject {
            /// `createdAt`.
            public var createdAt: Date? {
                get { object.value(forKey: "createdAt") as? Date }
                set { object.setValue(newValue, forKey: "createdAt") }
            }
        }

        /// A Category object.
        public final class Category: Named, TaskGraphCategory {
            /// `color`.
            public var color: String {
                get { object.value("color", or: "blue") }
                set { object.setValue(newValue, forKey: "color") }
            }
        }

        /// A Tag object.
        public final class Tag: Named, TaskGraphTag {}

        /// A Subtask object.
        public final class Subtask: Object, TaskGraphSubtask {
            /// The index in its task's ordered subtasks.
            public var position: Int
            init(_ object: NSManagedObject, position: Int = 0) {
                self.position = position
                super.init(object)
            }
            /// `title`.
            public var title: String {
                get { object.value("title", or: "") }
                set { object.setValue(newValue, forKey: "title") }
            }
            /// `isCompleted`.
            public var isCompleted: Bool {
                get { object.value("isCompleted", or: false) }
                set { object.setValue(newValue, forKey: "isCompleted") }
            }
        }

        /// A Task object.
        public final class Task: Object, TaskGraphTask {
            /// `title`.
            public var title: String {
                get { object.value("title", or: "") }
                set { object.setValue(newValue, forKey: "title") }
            }
            /// `notes`.
            public var notes: String? {
                get { object.value(forKey: "notes") as? String }
                set { object.setValue(newValue, forKey: "notes") }
            }
            /// `isCompleted`.
            public var isCompleted: Bool {
                get { object.value("isCompleted", or: false) }
                set { object.setValue(newValue, forKey: "isCompleted") }
            }
            /// `createdAt`.
            public var createdAt: Date {
                get { object.value("createdAt", or: Date(timeIntervalSinceReferenceDate: 0)) }
                set { object.setValue(newValue, forKey: "createdAt") }
            }
            /// `dueDate`.
            public var dueDate: Date? {
                get { object.value(forKey: "dueDate") as? Date }
                set { object.setValue(newValue, forKey: "dueDate") }
            }
            /// `priority` (an Int16 attribute).
            public var priority: Int {
                get { (object.value(forKey: "priority") as? NSNumber)?.intValue ?? 0 }
                set { object.setValue(NSNumber(value: newValue), forKey: "priority") }
            }
            /// `project`.
            public var project: ManagedTaskObjects.Project? {
                get { (object.value(forKey: "project") as? NSManagedObject).map(ManagedTaskObjects.Project.init) }
                set { object.setValue(newValue?.object, forKey: "project") }
            }
            /// `category`.
            public var category: ManagedTaskObjects.Category? {
                get { (object.value(forKey: "category") as? NSManagedObject).map(ManagedTaskObjects.Category.init) }
                set { object.setValue(newValue?.object, forKey: "category") }
            }
            /// `tags` (a to-many, unordered relationship).
            public var tags: [ManagedTaskObjects.Tag] {
                get {
                    let objects = (object.value(forKey: "tags") as? NSSet)?.allObjects ?? []
                    return objects.compactMap { ($0 as? NSManagedObject).map(ManagedTaskObjects.Tag.init) }
                }
                set { object.setValue(NSSet(array: newValue.map(\.object)), forKey: "tags") }
            }
            /// `subtasks` (a to-many, ordered relationship).
            public var subtasks: [ManagedTaskObjects.Subtask] {
                get {
                    let objects = (object.value(forKey: "subtasks") as? NSOrderedSet)?.array ?? []
                    return objects.enumerated().compactMap { index, element in
                        (element as? NSManagedObject).map { ManagedTaskObjects.Subtask($0, position: index) }
                    }
                }
                set { object.setValue(NSOrderedSet(array: newValue.map(\.object)), forKey: "subtasks") }
            }
        }
    }
    extension NSManagedObject {
        /// The attribute's value as `Value`, or `fallback` when it is nil or of another type.
        func value<Value>(_ key: String, or fallback: Value) -> Value { value(forKey: key) as? Value ?? fallback }
    }
#endif
