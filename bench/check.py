#!/usr/bin/env python3
"""Correctness checks for the benchmark: the references must carry the same graph as `tasks export`.

    python3 bench/check.py export TASKS.json KIND REF.json      KIND: sqlite3 | doc
    python3 bench/check.py store STORE TASKS PROJECTS TAGS LINKS SUBTASKS [--sqlite-utils]
    python3 bench/check.py library-export TASKS.json SQLITE3.json

`export` compares every task of REF with the one of the same id in TASKS.json: title, notes, isCompleted, createdAt
and dueDate (within 1 ms: the references write milliseconds, `tasks` every digit), priority, projectId, the SET of tag
ids, and the subtasks IN ORDER (id, title, isCompleted); also the record order (sorted by id) and the projects and
tags. `store` checks an imported store's row counts. `library-export` compares the generic model's export
(bench/generate-library.sh) with bench/library-export.sql's output record by record, keys standing for ids: every
item's entity and attributes, each author's set of items, each shelf's items in order, each cover's book and bytes. Prints one line; exits 1 on any difference.
"""
import base64
import json
import sqlite3
import sys
from datetime import datetime

EPOCH_2001 = 978307200.0


def seconds(text):
    return None if text is None else datetime.fromisoformat(text).timestamp() - EPOCH_2001


def normal_task(t, kind):
    tag_ids = t.get("tagIds") or []
    subtasks = t.get("subtasks") or []
    if kind == "sqlite3":  # JSON-valued columns come out of `sqlite3 -json` as strings
        tag_ids = json.loads(tag_ids)
        subtasks = json.loads(subtasks)
    return {
        "title": t["title"], "notes": t.get("notes"), "isCompleted": bool(t["isCompleted"]),
        "createdAt": seconds(t["createdAt"]), "dueDate": seconds(t.get("dueDate")), "priority": t["priority"],
        "projectId": t.get("projectId"), "categoryId": t.get("categoryId"), "tagIds": frozenset(tag_ids),
        "subtasks": [(s["id"], s["title"], bool(s["isCompleted"])) for s in subtasks],
    }


def same(a, b):
    for key in a:
        x, y = a[key], b[key]
        if key in ("createdAt", "dueDate"):
            if (x is None) != (y is None) or (x is not None and abs(x - y) > 0.0011):
                return key
        elif x != y:
            return key
    return None


def check_export(tasks_path, kind, ref_path):
    with open(tasks_path, "rb") as f:
        expected = json.load(f)
    with open(ref_path, "rb") as f:
        ref = json.load(f)
    ref_tasks = ref if kind == "sqlite3" else ref["tasks"]
    problems = []
    if len(ref_tasks) != len(expected["tasks"]):
        problems.append(f"{len(ref_tasks)} tasks, expected {len(expected['tasks'])}")
    want = {t["id"]: normal_task(t, "doc") for t in expected["tasks"]}
    links = subtasks = 0
    mismatches = 0
    for t in ref_tasks:
        got = normal_task(t, kind)
        links += len(got["tagIds"])
        subtasks += len(got["subtasks"])
        w = want.get(t["id"])
        if w is None:
            mismatches += 1
            if mismatches <= 3:
                problems.append(f"unknown task {t['id']}")
        elif (key := same(w, got)) is not None:
            mismatches += 1
            if mismatches <= 3:
                problems.append(f"task {t['id']}: {key} {w[key]!r} != {got[key]!r}")
    if [t["id"] for t in ref_tasks] != [t["id"] for t in expected["tasks"]]:
        problems.append("tasks not in the same (id) order")
    if kind == "doc":
        for member in ("projects", "tags", "categories"):
            a = sorted((r["id"], r["name"]) for r in expected[member])
            b = sorted((r["id"], r["name"]) for r in ref[member])
            if a != b:
                problems.append(f"{member} differ")
    want_links = sum(len(t["tagIds"]) for t in expected["tasks"])
    want_subtasks = sum(len(t.get("subtasks", ())) for t in expected["tasks"])
    if (links, subtasks) != (want_links, want_subtasks):
        problems.append(f"{links} tag links / {subtasks} subtasks, expected {want_links} / {want_subtasks}")
    label = f"{ref_path}: {len(ref_tasks)} tasks, {links} tag links, {subtasks} subtasks"
    if problems or mismatches:
        print(f"FAIL {label}: {'; '.join(problems)} ({mismatches} tasks differ)")
        return 1
    print(f"ok   {label}: same graph as {tasks_path}")
    return 0


def check_store(path, tasks, projects, tags, links, subtasks, sqlite_utils=False):
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    tables = (("tasks", "projects", "tags", "task_tags", "subtasks") if sqlite_utils
              else ("ZTASK", "ZPROJECT", "ZTAG", "Z_4TASKS", "ZSUBTASK"))
    got = [db.execute(f"SELECT count(*) FROM {table}").fetchone()[0] for table in tables]
    want = [int(tasks), int(projects), int(tags), int(links), int(subtasks)]
    label = f"{path}: " + ", ".join(f"{n} {t}" for n, t in zip(got, tables))
    if got != want:
        print(f"FAIL {label}; expected {want}")
        return 1
    print(f"ok   {label}")
    return 0


def json_documents(path):
    """The arrays sqlite3 -json prints, one per statement, one after the other."""
    text, decoder, at, docs = open(path, encoding="utf-8").read(), json.JSONDecoder(), 0, []
    while at < len(text):
        if text[at].isspace():
            at += 1
            continue
        doc, at = decoder.raw_decode(text, at)
        docs.append(doc)
    return docs


def check_library_export(tasks_path, ref_path):
    entities = json.load(open(tasks_path, encoding="utf-8"))["entities"]
    key_of = {r["id"]: r["key"] for records in entities.values() for r in records}
    items_ref, authors_ref, shelves_ref, covers_ref = json_documents(ref_path)
    problems = []

    def compare(what, got, want):
        if got != want:
            problems.append(f"{what}: {got!r} in tasks' export, {want!r} in sqlite3's")

    items = {r["key"]: (name, r["values"]) for name in ("Article", "Book") for r in entities.get(name, [])}
    compare("item count", len(items), len(items_ref))
    for ref in items_ref:
        entity, values = items.get(ref["key"], (None, {}))
        compare(f"item {ref['key']} entity", entity, ref["entity"])
        for name in ("id", "title", "journal", "volume", "isbn", "pages"):
            compare(f"item {ref['key']} {name}", values.get(name), ref[name])
        if abs(seconds(values["createdAt"]) - seconds(ref["createdAt"])) > 0.001:
            compare(f"item {ref['key']} createdAt", values["createdAt"], ref["createdAt"])
    for name, refs, ordered in (("Author", authors_ref, False), ("Shelf", shelves_ref, True)):
        records = {r["key"]: r["values"] for r in entities.get(name, [])}
        compare(f"{name} count", len(records), len(refs))
        for ref in refs:
            got = [key_of[i] for i in records.get(ref["key"], {}).get("items", [])]
            want = json.loads(ref["items"])
            if not ordered:
                got, want = sorted(got), sorted(want)
            compare(f"{name} {ref['key']} items", got, want)
            compare(f"{name} {ref['key']} name", records.get(ref["key"], {}).get("name"), ref["name"])
    covers = {r["key"]: r["values"] for r in entities.get("Cover", [])}
    compare("cover count", len(covers), len(covers_ref))
    for ref in covers_ref:
        values = covers.get(ref["key"], {})
        compare(f"cover {ref['key']} book", key_of.get(values.get("book")), ref["book"])
        compare(f"cover {ref['key']} color", values.get("color"), ref["color"])
        compare(f"cover {ref['key']} image", base64.b64decode(values.get("image", "")).hex().upper(), ref["image"])
    label = (f"{tasks_path}: {len(items)} items, {len(authors_ref)} authors, {len(shelves_ref)} shelves, "
             f"{len(covers)} covers")
    if problems:
        print(f"FAIL {label}: {len(problems)} differences, first: " + "; ".join(problems[:3]))
        return 1
    print(f"ok   {label}: the same values and links as sqlite3's export")
    return 0


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "library-export":
        sys.exit(check_library_export(sys.argv[2], sys.argv[3]))
    if len(sys.argv) == 5 and sys.argv[1] == "export":
        sys.exit(check_export(sys.argv[2], sys.argv[3], sys.argv[4]))
    if len(sys.argv) in (8, 9) and sys.argv[1] == "store":
        sys.exit(check_store(*sys.argv[2:8], sqlite_utils=sys.argv[8:] == ["--sqlite-utils"]))
    sys.exit(__doc__)
