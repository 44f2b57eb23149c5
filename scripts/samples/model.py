"""The legacy task-manager Core Data model the samples are made for (entities Category, Project, Subtask, Tag, Task)."""
import coredata_hash as ch
from coredata_hash import Attribute as A, Entity as E, Relationship as R

ENTITIES = [
    E("Category", [
        A("color", ch.STRING),                 # default "blue" in the model; defaults are not part of the hash
        A("id", ch.UUID),
        A("name", ch.STRING),
        R("tasks", "Task", "category", max_count=0),           # cascade
    ]),
    E("Project", [
        A("createdAt", ch.DATE, optional=True),
        A("id", ch.UUID),
        A("name", ch.STRING),
        R("tasks", "Task", "project", max_count=0),            # nullify
    ]),
    E("Subtask", [
        A("id", ch.UUID),
        A("isCompleted", ch.BOOLEAN),
        A("title", ch.STRING),
        R("task", "Task", "subtasks", max_count=1),             # nullify
    ]),
    E("Tag", [
        A("id", ch.UUID),
        A("name", ch.STRING),
        R("tasks", "Task", "tags", max_count=0),                # nullify
    ]),
    E("Task", [
        A("createdAt", ch.DATE),
        A("dueDate", ch.DATE, optional=True),
        A("id", ch.UUID),
        A("isCompleted", ch.BOOLEAN),
        A("notes", ch.STRING, optional=True),
        A("priority", ch.INTEGER16),
        A("title", ch.STRING),
        R("category", "Category", "tasks", max_count=1),        # nullify
        R("project", "Project", "tasks", max_count=1),          # nullify
        R("subtasks", "Subtask", "task", max_count=0, ordered=True),   # cascade
        R("tags", "Tag", "tasks", max_count=0),                 # nullify
    ]),
]
