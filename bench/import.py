#!/usr/bin/env python3
"""The Python reference for `tasks import` into a new store: json + sqlite3 from the standard library.

    python3 bench/import.py NEW_STORE ARCHIVE.json

Loads the interchange v2 document (json.load), creates the task manager's Core Data layout (the same tables, indexes,
Z_PRIMARYKEY and Z_METADATA rows that `tasks import` creates; WAL and incremental auto-vacuum as Core Data sets them)
and inserts everything with executemany in ONE transaction: projects, categories and tags first (Z_PK from 1 up, UUID
text -> 16-byte blob), then tasks with their foreign keys resolved through dicts, the Z_4TASKS join rows and the
subtasks with their ordering key (Z_FOK_TASK). Dates are parsed with datetime.fromisoformat (C code; microsecond
precision, so the 7th+ fraction digit of `tasks`' lossless dates is dropped) into seconds since 2001. Z_MAX is
written last. A dangling id fails with KeyError (no other validation: `tasks import` validates the whole file first).
Fast and fair: no per-row execute, no ORM, generators feeding executemany, one commit.
"""
import json
import os
import plistlib
import sqlite3
import sys
import uuid
from datetime import datetime

SCHEMA = """
CREATE TABLE ZCATEGORY ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCOLOR VARCHAR, ZNAME VARCHAR, ZID BLOB );
CREATE TABLE ZPROJECT ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCREATEDAT TIMESTAMP, ZNAME VARCHAR, ZID BLOB );
CREATE TABLE ZSUBTASK ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZISCOMPLETED INTEGER, ZTASK INTEGER, Z_FOK_TASK INTEGER, ZTITLE VARCHAR, ZID BLOB );
CREATE TABLE ZTAG ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR, ZID BLOB );
CREATE TABLE Z_4TASKS ( Z_4TAGS INTEGER, Z_5TASKS INTEGER, PRIMARY KEY (Z_4TAGS, Z_5TASKS) );
CREATE TABLE ZTASK ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZISCOMPLETED INTEGER, ZPRIORITY INTEGER, ZCATEGORY INTEGER, ZPROJECT INTEGER, ZCREATEDAT TIMESTAMP, ZDUEDATE TIMESTAMP, ZNOTES VARCHAR, ZTITLE VARCHAR, ZID BLOB );
CREATE INDEX ZSUBTASK_ZTASK_INDEX ON ZSUBTASK (ZTASK);
CREATE INDEX Z_4TASKS_Z_5TASKS_INDEX ON Z_4TASKS (Z_5TASKS, Z_4TAGS);
CREATE INDEX ZTASK_ZCATEGORY_INDEX ON ZTASK (ZCATEGORY);
CREATE INDEX ZTASK_ZPROJECT_INDEX ON ZTASK (ZPROJECT);
CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB);
"""

CATEGORY, PROJECT, SUBTASK, TAG, TASK = 1, 2, 3, 4, 5
EPOCH_2001 = 978307200.0
FOK_STEP = 1024  # Core Data's spacing of ordered-relationship keys


def blob(text):
    return bytes.fromhex(text.replace("-", ""))


def seconds(text):
    return datetime.fromisoformat(text).timestamp() - EPOCH_2001


def main(store, archive_path):
    if os.path.exists(store):
        sys.exit(f"{store}: already exists")
    with open(archive_path, "rb") as f:
        doc = json.load(f)

    db = sqlite3.connect(store, isolation_level=None)
    db.execute("PRAGMA auto_vacuum = 2")
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("BEGIN")
    for statement in SCHEMA.split(";"):
        if statement.strip():
            db.execute(statement)

    project_pk = {p["id"]: pk for pk, p in enumerate(doc["projects"], 1)}
    db.executemany("INSERT INTO ZPROJECT (Z_PK, Z_ENT, Z_OPT, ZCREATEDAT, ZNAME, ZID) VALUES (?, 2, 1, ?, ?, ?)",
                   ((project_pk[p["id"]], seconds(p["createdAt"]) if "createdAt" in p else None, p["name"], blob(p["id"]))
                    for p in doc["projects"]))
    category_pk = {c["id"]: pk for pk, c in enumerate(doc["categories"], 1)}
    db.executemany("INSERT INTO ZCATEGORY (Z_PK, Z_ENT, Z_OPT, ZCOLOR, ZNAME, ZID) VALUES (?, 1, 1, ?, ?, ?)",
                   ((category_pk[c["id"]], c.get("color", "blue"), c["name"], blob(c["id"])) for c in doc["categories"]))
    tag_pk = {t["id"]: pk for pk, t in enumerate(doc["tags"], 1)}
    db.executemany("INSERT INTO ZTAG (Z_PK, Z_ENT, Z_OPT, ZNAME, ZID) VALUES (?, 4, 1, ?, ?)",
                   ((tag_pk[t["id"]], t["name"], blob(t["id"])) for t in doc["tags"]))

    tasks = doc["tasks"]
    db.executemany(
        "INSERT INTO ZTASK (Z_PK, Z_ENT, Z_OPT, ZISCOMPLETED, ZPRIORITY, ZCATEGORY, ZPROJECT, ZCREATEDAT, ZDUEDATE, "
        "ZNOTES, ZTITLE, ZID) VALUES (?, 5, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        ((pk, t["isCompleted"], t["priority"],
          category_pk[t["categoryId"]] if "categoryId" in t else None,
          project_pk[t["projectId"]] if "projectId" in t else None,
          seconds(t["createdAt"]), seconds(t["dueDate"]) if "dueDate" in t else None,
          t.get("notes"), t["title"], blob(t["id"]))
         for pk, t in enumerate(tasks, 1)))
    db.executemany("INSERT INTO Z_4TASKS (Z_4TAGS, Z_5TASKS) VALUES (?, ?)",
                   ((tag_pk[tag], pk) for pk, t in enumerate(tasks, 1) for tag in t["tagIds"]))

    def subtask_rows():
        spk = 0
        for pk, t in enumerate(tasks, 1):
            for position, s in enumerate(t.get("subtasks", ()), 2):
                spk += 1
                yield spk, s["isCompleted"], pk, position * FOK_STEP, s["title"], blob(s["id"])
    db.executemany("INSERT INTO ZSUBTASK (Z_PK, Z_ENT, Z_OPT, ZISCOMPLETED, ZTASK, Z_FOK_TASK, ZTITLE, ZID) "
                   "VALUES (?, 3, 1, ?, ?, ?, ?, ?)", subtask_rows())
    subtasks = db.execute("SELECT count(*) FROM ZSUBTASK").fetchone()[0]

    maxima = {CATEGORY: len(category_pk), PROJECT: len(project_pk), SUBTASK: subtasks, TAG: len(tag_pk), TASK: len(tasks)}
    names = {CATEGORY: "Category", PROJECT: "Project", SUBTASK: "Subtask", TAG: "Tag", TASK: "Task"}
    db.executemany("INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, 0, ?)",
                   ((ent, names[ent], maxima[ent]) for ent in sorted(names)))
    store_uuid = str(uuid.uuid4()).upper()
    plist = plistlib.dumps({"NSStoreType": "SQLite", "NSStoreUUID": store_uuid}, fmt=plistlib.FMT_BINARY)
    db.execute("INSERT INTO Z_METADATA (Z_VERSION, Z_UUID, Z_PLIST) VALUES (1, ?, ?)", (store_uuid, plist))
    db.execute("COMMIT")
    db.close()


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: import.py NEW_STORE ARCHIVE.json")
    main(sys.argv[1], sys.argv[2])
