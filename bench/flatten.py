#!/usr/bin/env python3
"""Prepares the sqlite-utils reference (not timed): the interchange file as flat NDJSON rows, one file per table.

    python3 bench/flatten.py ARCHIVE.json DIR

DIR/projects.ndjson, tags.ndjson, categories.ndjson, tasks.ndjson (scalar columns; projectId/categoryId as text
ids), task_tags.ndjson (taskId, tagId) and subtasks.ndjson (taskId, position, id, title, isCompleted).
"""
import json
import os
import sys


def main(archive, directory):
    with open(archive, "rb") as f:
        doc = json.load(f)
    os.makedirs(directory, exist_ok=True)

    def write(name, rows):
        with open(os.path.join(directory, name + ".ndjson"), "w", encoding="utf-8") as out:
            for row in rows:
                out.write(json.dumps(row, ensure_ascii=False, separators=(",", ":")))
                out.write("\n")

    write("projects", doc["projects"])
    write("categories", doc["categories"])
    write("tags", doc["tags"])
    scalar = ("id", "title", "notes", "isCompleted", "createdAt", "dueDate", "priority", "projectId", "categoryId")
    write("tasks", ({k: t.get(k) for k in scalar} for t in doc["tasks"]))
    write("task_tags", ({"taskId": t["id"], "tagId": tag} for t in doc["tasks"] for tag in t["tagIds"]))
    write("subtasks", ({"taskId": t["id"], "position": i, **s}
                       for t in doc["tasks"] for i, s in enumerate(t.get("subtasks", ()))))


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: flatten.py ARCHIVE.json DIR")
    main(sys.argv[1], sys.argv[2])
