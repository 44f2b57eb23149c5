"""A second process that writes a store the way an app does, keeping an invariant a consistent reader must see.

Usage: writer.py STORE MODE READY_FILE
  MODE wal | delete   the journal mode to write in
       wal-reopen     WAL, with a connection per transaction: closing the last connection checkpoints and deletes
                      the -wal, as an app going to the background does, so the -wal keeps appearing and vanishing
Each transaction swaps the completion flag of 40 pairs of tasks (one completed, one open), so the number of
completed tasks never changes in any committed state, while rows across many pages change on every commit. In WAL
mode every fifth commit is followed by a checkpoint that truncates the WAL, as an app's own checkpoints do, so the
database file and the WAL keep changing together. Writes READY_FILE after the first commit, then runs until killed.
"""
import random
import sqlite3
import sys

store, mode, ready = sys.argv[1], sys.argv[2], sys.argv[3]
reopen = mode == "wal-reopen"
if reopen:
    mode = "wal"


def connect():
    connection = sqlite3.connect(store, isolation_level=None, timeout=30)
    connection.execute(f"PRAGMA journal_mode = {mode}")
    # Small cache: pages reach the file (or the WAL) before the commit, as in a large transaction.
    connection.execute("PRAGMA cache_size = 8")
    return connection


connection = connect()
keys = [row[0] for row in connection.execute("SELECT Z_PK FROM ZTASK")]
generator = random.Random(7)
first = True
commits = 0
while True:
    if reopen:
        connection.close()
        connection = connect()
    connection.execute("BEGIN IMMEDIATE")
    done = [row[0] for row in connection.execute("SELECT Z_PK FROM ZTASK WHERE ZISCOMPLETED = 1 ORDER BY random() LIMIT 40")]
    open_ = [row[0] for row in connection.execute("SELECT Z_PK FROM ZTASK WHERE ZISCOMPLETED = 0 ORDER BY random() LIMIT 40")]
    for a, b in zip(done, open_):
        connection.execute("UPDATE ZTASK SET ZISCOMPLETED = 0, Z_OPT = Z_OPT + 1, ZTITLE = ZTITLE || '' WHERE Z_PK = ?", (a,))
        connection.execute("UPDATE ZTASK SET ZISCOMPLETED = 1, Z_OPT = Z_OPT + 1 WHERE Z_PK = ?", (b,))
    connection.execute("COMMIT")
    commits += 1
    if mode == "wal" and commits % 5 == 0:
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
    if first:
        open(ready, "w").close()
        first = False
