#!/usr/bin/env python3
"""Correctness checks for the benchmark: the references must carry the same graph as `tasks export`.

    python3 bench/check.py export TASKS.json KIND REF.json      KIND: sqlite3 | doc
    python3 bench/check.py store STORE TASKS PROJECTS TAGS LINKS SUBTASKS [--sqlite-utils]

`export` compares every task of REF with the one of the same id in TASKS.json: title, notes, isCompleted, createdAt
and dueDate (within 1 ms: the references write milliseconds, `tasks` every digit), priority, projectId, the SET of tag
ids, and the subtasks IN ORDER (id, title, isCompleted); also the record order (sorted by id) and the projects and
tags. `store` checks an imported store's row counts. Prints one line; exits 1 on any difference.
"""
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


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "export":
        sys.exit(check_export(sys.argv[2], sys.argv[3], sys.argv[4]))
    if len(sys.argv) in (8, 9) and sys.argv[1] == "store":
        sys.exit(check_store(*sys.argv[2:8], sqlite_utils=sys.argv[8:] == ["--sqlite-utils"]))
    sys.exit(__doc__)
