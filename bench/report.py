#!/usr/bin/env python3
"""Writes bench/RESULTS.md (stdout) from bench/run's raw timings.

    python3 bench/report.py RESULTS.tsv META.txt CHECKS.txt > RESULTS.md

RESULTS.tsv: size, op, tool, run, seconds, peak RSS KB, status (ok | timeout). Medians over the runs; peak RSS is the
largest over the runs. "×" columns are tasks ÷ the reference (below 1: tasks is faster or smaller).
"""
import re
import statistics
import sys
from collections import defaultdict

OPS = ("export", "import", "validate", "compare")
TASKS_TOOL = {"export": "tasks export", "import": "tasks import", "validate": "tasks validate", "compare": "tasks diff"}
ORDER = {
    "export": ["tasks export", "tasks export -o - >/dev/null", "sqlite3 -json", "python export.py", "swift codable-export"],
    "import": ["tasks import", "python import.py", "sqlite-utils insert"],
    "validate": ["tasks validate", "python jsonschema"],
    "compare": ["tasks diff", "tasks verify"],
}
COMMANDS = {
    "tasks export": "tasks export --store S -o out.json",
    "tasks export -o - >/dev/null": "tasks export --store S -o - > /dev/null   (diagnostic: no file written)",
    "sqlite3 -json": "sqlite3 -json -readonly S < bench/export.sql > sqlite3.json",
    "python export.py": "python3 bench/export.py S python.json",
    "swift codable-export": "codable-export S codable.json   (bench/codable-export, same build configuration)",
    "tasks import": "tasks import --store new.sqlite out.json   (new.sqlite does not exist)",
    "python import.py": "python3 bench/import.py new.sqlite out.json",
    "sqlite-utils insert": ("for t in projects tags tasks task_tags subtasks; do sqlite-utils insert new.db $t flat/$t.ndjson "
                            "--nl --batch-size 10000; done   (flat/ made from out.json by bench/flatten.py, not timed)"),
    "tasks validate": "tasks validate out.json",
    "python jsonschema": "python3 bench/validate.py schema/tasks-interchange-v2.schema.json out.json   (Draft202012Validator)",
    "tasks diff": "tasks diff S out.json   (the source store against its export, both streamed)",
    "tasks verify": "tasks verify --store new.sqlite out.json   (the imported store against the file)",
}


class Cell:
    def __init__(self, rows):
        ok = [r for r in rows if r["status"] == "ok"]
        self.n = len(rows)
        self.timeout = any(r["status"] == "timeout" for r in rows)
        times = [r["seconds"] for r in (ok or rows)]
        self.median = statistics.median(times)
        self.min, self.max = min(times), max(times)
        self.rss_mb = max(r["rss"] for r in rows) / 1024
        self.cpu = statistics.median(r["cpu"] for r in (ok or rows))

    def time_text(self):
        if self.timeout:
            return f"> {self.max:.0f}"
        return fmt_s(self.median)

    def spread(self):
        if self.timeout or self.n == 1:
            return f"n={self.n}"
        return f"{fmt_s(self.min)}–{fmt_s(self.max)}, n={self.n}"


def fmt_s(seconds):
    if seconds >= 100:
        return f"{seconds:.0f}"
    if seconds >= 10:
        return f"{seconds:.1f}"
    return f"{seconds:.2f}"


def fmt_ratio(x):
    return f"{x:.2f}" if x < 10 else f"{x:.1f}"


def size_text(size):
    return f"{size // 1_000_000}M" if size >= 1_000_000 and size % 1_000_000 == 0 else (
        f"{size // 1000}k" if size % 1000 == 0 else str(size))


def main(tsv_path, meta_path, checks_path):
    rows = []
    with open(tsv_path) as f:
        for line in f:
            size, op, tool, run, seconds, rss, status, *rest = line.rstrip("\n").split("\t")
            rows.append({"size": int(size), "op": op, "tool": tool, "run": int(run), "seconds": float(seconds),
                         "rss": int(rss or 0), "status": status, "cpu": float(rest[0]) if rest else 0.0})
    meta, notes, loads = {}, [], []
    with open(meta_path) as f:
        for line in f:
            key, _, value = line.rstrip("\n").partition("=")
            if key == "note":
                notes.append(value)
            elif key == "load":
                loads.append(value)
            else:
                meta[key] = value
    with open(checks_path) as f:
        checks = [re.sub(r"/\S*/(\d+)/(\S+)", r"\1/\2", line.rstrip("\n")) for line in f if line.strip()]

    grouped = defaultdict(list)
    for r in rows:
        grouped[(r["size"], r["op"], r["tool"])].append(r)
    cells = {key: Cell(value) for key, value in grouped.items()}
    sizes = sorted({r["size"] for r in rows})
    big, small = sizes[-1], sizes[0]
    out = []
    w = out.append

    w("# Benchmark results: `tasks` against the tools people would use instead")
    w("")
    w(f"Written by `bench/run` on {meta.get('date')} — **{meta.get('nproc')} cores** ({meta.get('cpu')}), "
      f"{meta.get('memory')}, {meta.get('os')}. Shared machine: other jobs may have run at the same time; the tools "
      "were interleaved run by run so such load falls on all of them alike.")
    w("")
    w(f"- tasks at commit `{meta.get('commit')}`, built `-c {meta.get('config')}`; {meta.get('swift')}")
    w(f"- sqlite3 {meta.get('sqlite3')}; {meta.get('python')}; jsonschema {meta.get('jsonschema')}; "
      f"sqlite-utils {meta.get('sqlite_utils')}")
    w(f"- Sizes {', '.join(size_text(s) for s in sizes)} tasks, stores made by `tasks generate --tasks N -o store.sqlite` "
      "(100 projects, 20 tags, 2 tags per task, 3 subtasks on every 10th task, notes on half, due dates on a third).")
    w(f"- Times are the **median of {meta.get('runs')} runs** (wall clock; min–max and n in the spread column); "
      "peak RSS is the largest maximum resident set size (`/usr/bin/time -v`) over the runs. A tool whose first run "
      f"at a size took over {meta.get('slow')} s ran only once at that size (n=1); jsonschema runs are capped at "
      f"{meta.get('jsonschema_timeout')} s (`timeout`).")
    w("- **×** columns: tasks ÷ reference, for time and for peak RSS. Below 1 means tasks is faster / smaller. "
      "CPU is user + system time (median), less sensitive than wall time to other jobs on the machine; the ratios and "
      "targets use wall time, as the issue states them.")
    if loads:
        w("- Load average (1, 5, 15 min) when each size started: " + "; ".join(loads) + ".")
    for note in notes:
        w(f"- **Note:** {note}")
    w("")

    titles = {"export": "Export: Core Data store → JSON", "import": "Import: JSON → a fresh store",
              "validate": "Validate the exported file",
              "compare": "Compare: diff (store ↔ file) and verify (imported store ↔ file)"}
    for op in OPS:
        w(f"## {titles[op]}")
        w("")
        w("| tasks | tool | time (s) | spread (s) | CPU (s) | peak RSS (MB) | × time | × RSS |")
        w("|---:|---|---:|---|---:|---:|---:|---:|")
        for size in sizes:
            base = cells.get((size, op, TASKS_TOOL[op]))
            for tool in ORDER[op]:
                cell = cells.get((size, op, tool))
                if cell is None:
                    continue
                if base is None or tool == TASKS_TOOL[op]:
                    ratio_t = ratio_m = "—"
                else:
                    ratio_t = ("< " if cell.timeout else "") + fmt_ratio(base.median / (cell.max if cell.timeout else cell.median))
                    ratio_m = fmt_ratio(base.rss_mb / cell.rss_mb) if cell.rss_mb else "—"
                name = f"**{tool}**" if tool == TASKS_TOOL[op] else tool
                w(f"| {size_text(size)} | {name} | {cell.time_text()} | {cell.spread()} | {fmt_s(cell.cpu)} | {cell.rss_mb:.0f} | {ratio_t} | {ratio_m} |")
        w("")

    # Per-task cost.
    w("## Per-task cost")
    w("")
    w(f"Median wall time ÷ number of tasks, in µs per task, with the CPU time (user + system) per task in parentheses; "
      f"the last column is cost({size_text(big)}) ÷ cost({size_text(small)}) (1.0 = perfectly linear), wall (CPU).")
    w("")
    w("| operation | tool | " + " | ".join(size_text(s) for s in sizes) + f" | {size_text(big)} ÷ {size_text(small)} |")
    w("|---|---|" + "---:|" * len(sizes) + "---:|")
    for op in OPS:
        for tool in ORDER[op]:
            if not any((s, op, tool) in cells for s in sizes):
                continue
            costs = []
            for s in sizes:
                c = cells.get((s, op, tool))
                costs.append(None if c is None else ((c.max if c.timeout else c.median) / s * 1e6, c.timeout, c.cpu / s * 1e6))

            def us(x):
                return f"{x:.1f}" if x < 1000 else f"{x:.0f}"
            text = ["—" if c is None else (("> " if c[1] else "") + f"{us(c[0])} ({us(c[2])})") for c in costs]
            if costs[0] is not None and costs[-1] is not None and len(sizes) > 1 and not costs[0][1] and not costs[-1][1]:
                growth = f"{costs[-1][0] / costs[0][0]:.2f}"
                if costs[0][2] > 0:
                    growth += f" ({costs[-1][2] / costs[0][2]:.2f})"
            else:
                growth = "—"
            name = f"**{tool}**" if tool == TASKS_TOOL[op] else tool
            w(f"| {op} | {name} | " + " | ".join(text) + f" | {growth} |")
    w("")

    # Phase ratios for tasks.
    w("## tasks: import, validate, diff and verify relative to export")
    w("")
    w("Wall time, with the ratio of CPU times in parentheses.")
    w("")
    w("| tasks | export (s) | import (s) | import ÷ export | validate (s) | validate ÷ export | diff (s) | diff ÷ export | verify (s) | verify ÷ export |")
    w("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for s in sizes:
        e, i, v = (cells.get((s, op, TASKS_TOOL[op])) for op in ("export", "import", "validate"))
        d, f = cells.get((s, "compare", "tasks diff")), cells.get((s, "compare", "tasks verify"))
        if e is None:
            continue
        def cpu_ratio(c):
            return f" ({fmt_ratio(c.cpu / e.cpu)})" if c and e.cpu > 0 else ""
        w(f"| {size_text(s)} | {fmt_s(e.median)} | {fmt_s(i.median) if i else '—'} | "
          f"{(fmt_ratio(i.median / e.median) + cpu_ratio(i)) if i else '—'} | {fmt_s(v.median) if v else '—'} | "
          f"{(fmt_ratio(v.median / e.median) + cpu_ratio(v)) if v else '—'} | {fmt_s(d.median) if d else '—'} | "
          f"{(fmt_ratio(d.median / e.median) + cpu_ratio(d)) if d else '—'} | {fmt_s(f.median) if f else '—'} | "
          f"{(fmt_ratio(f.median / e.median) + cpu_ratio(f)) if f else '—'} |")
    w("")

    # Targets.
    w(f"## Targets (from the issue), at {size_text(big)} tasks")
    w("")
    if big != 1_000_000:
        w(f"**This run's largest size is {size_text(big)}, not 1M: the targets below are evaluated at {size_text(big)}.**")
        w("")
    w("Met/not met is judged on wall time, as the issue states the targets; the CPU-time ratio is given beside it "
      "because the machine was shared (see the load averages above).")
    w("")
    w("| target | measured | met |")
    w("|---|---|:---:|")

    def target(text, measured, ok):
        w(f"| {text} | {measured} | {'✓' if ok else '✗'} |")

    def by_cpu(a, b, invert=False):
        if not a or not b or a.cpu <= 0 or b.cpu <= 0:
            return ""
        return f"; by CPU time {(b.cpu / a.cpu) if invert else (a.cpu / b.cpu):.2f}×"

    e = cells.get((big, "export", "tasks export"))
    sq = cells.get((big, "export", "sqlite3 -json"))
    i = cells.get((big, "import", "tasks import"))
    su = cells.get((big, "import", "sqlite-utils insert"))
    v = cells.get((big, "validate", "tasks validate"))
    if e and sq:
        r = e.median / sq.median
        target("export ≤ 0.5 × the `sqlite3 -json` query's time", f"{fmt_s(e.median)} s vs {fmt_s(sq.median)} s = {r:.2f}×{by_cpu(e, sq)}", r <= 0.5)
    if e:
        target("export peak RSS ≤ 100 MB", f"{e.rss_mb:.0f} MB", e.rss_mb <= 100)
    if e and i:
        r = i.median / e.median
        target("import into a fresh store ≤ 1.0 × export time", f"{fmt_s(i.median)} s vs {fmt_s(e.median)} s = {r:.2f}×{by_cpu(i, e)}", r <= 1.0)
    if i:
        target("import peak RSS ≤ 400 MB", f"{i.rss_mb:.0f} MB", i.rss_mb <= 400)
    if i and su:
        r = su.median / i.median
        target("import ≥ 5× faster than sqlite-utils", f"{fmt_s(su.median)} s ÷ {fmt_s(i.median)} s = {r:.2f}× faster{by_cpu(i, su, invert=True)}", r >= 5)
    elif i:
        w("| import ≥ 5× faster than sqlite-utils | sqlite-utils not available | — |")
    if e and v:
        r = v.median / e.median
        target("validate ≤ 0.3 × export time", f"{fmt_s(v.median)} s vs {fmt_s(e.median)} s = {r:.2f}×{by_cpu(v, e)}", r <= 0.3)
    if small != big:
        for op in ("export", "import", "validate"):
            a, b = cells.get((small, op, TASKS_TOOL[op])), cells.get((big, op, TASKS_TOOL[op]))
            if a and b:
                ca, cb = a.median / small * 1e6, b.median / big * 1e6
                cpu = f"; by CPU time {(b.cpu / big) / (a.cpu / small):.2f}×" if a.cpu > 0 and b.cpu > 0 else ""
                target(f"{op}: per-task cost at {size_text(big)} within 1.3× of the cost at {size_text(small)}",
                       f"{cb:.2f} µs vs {ca:.2f} µs = {cb / ca:.2f}×{cpu}", cb / ca <= 1.3)
    w("")

    w("## Correctness checks (same run)")
    w("")
    w("Each reference's output was compared with `tasks export`'s (bench/check.py: every task's fields, the set of tag "
      "ids, the subtasks in order, the id order, projects and tags; dates within 1 ms since the references write "
      "milliseconds), each imported store's row counts were checked, and the stores imported by `tasks` and by "
      "import.py were exported again and compared with the original file:")
    w("")
    w("```")
    out.extend(checks)
    w("```")
    w("")

    w("## Exact commands")
    w("")
    w("S is the generated store; every import goes into a path that does not exist yet; outputs are removed between "
      "runs. From `bench/run`:")
    w("")
    w("```")
    for op in OPS:
        for tool in ORDER[op]:
            if any((s, op, tool) in cells for s in sizes):
                w(f"{op:8}  {COMMANDS[tool]}")
    w("```")
    w("")
    gen = [cells[(s, "generate", "tasks generate")] for s in sizes if (s, "generate", "tasks generate") in cells]
    if gen:
        w("Store generation (not compared): " + ", ".join(f"{size_text(s)} in {fmt_s(c.median)} s" for s, c in zip(sizes, gen)) + ".")
        w("")
    sys.stdout.write("\n".join(out))


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit("usage: report.py RESULTS.tsv META.txt CHECKS.txt")
    main(*sys.argv[1:])
