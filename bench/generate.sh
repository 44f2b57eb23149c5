#!/usr/bin/env bash
# Fills a new benchmark store with N tasks written by SQLite itself, not by `tasks` (bench/README.md: an independent
# writer, so that `tasks export` and `tasks import` are measured on a store `tasks` did not make).
#
#   bench/generate.sh N OUT
#   bench/generate.sh --empty OUT     only the empty store (see below), for EMPTY_STORE
#
# OUT must not exist. The schema, Z_PRIMARYKEY and Z_METADATA come from an EMPTY store of the TaskManager model:
# $EMPTY_STORE when set (bench/run makes it once), otherwise one made here by `$TASKS import` of an archive with no
# records ($TASKS defaults to `tasks` on the PATH). Everything else is one sqlite3 script: recursive CTEs number the
# rows, random() and randomblob() give the ids and the fractions of seconds, so two runs give different ids.
#
# The graph (as the benchmark issue describes it): 100 projects, 5 categories, 20 tags; per task two distinct tags
# (the join table Z_4TASKS), notes on every second task, a due date on every third, a category on every fourth, a
# project on all; 3 ordered subtasks on every 10th task (0.3 per task), positions 2048, 3072, 4096 in Z_FOK_TASK as
# Core Data numbers them; dates as Core Data's REAL seconds since 2001 with random fractions; ids 16-byte random
# version-4 UUID blobs; Z_ENT from Z_PRIMARYKEY, Z_OPT 1, Z_MAX set to the largest key of each entity.
set -euo pipefail

if [ $# -ne 2 ] || ! [[ $1 =~ ^([0-9]+|--empty)$ ]]; then
    echo "usage: bench/generate.sh N OUT | --empty OUT   (env: EMPTY_STORE, TASKS)" >&2
    exit 64
fi
N=$1 OUT=$2
[ -e "$OUT" ] && { echo "generate.sh: $OUT already exists" >&2; exit 73; }

# `tasks generate --tasks 0` is not empty (it writes its 100 projects and 20 tags): the empty store is what
# `tasks import` creates for an archive without records.
make_empty() {
    if ! "${TASKS:-tasks}" import --store "$1" - 2>/dev/null <<'JSON'
{"format":"tasks-interchange","version":2,"generator":{"name":"bench/generate.sh","version":"1"},
 "projects":[],"categories":[],"tags":[],"tasks":[],
 "counts":{"projects":0,"categories":0,"tags":0,"tasks":0,"subtasks":0}}
JSON
    then
        echo "generate.sh: could not make an empty store with ${TASKS:-tasks}" >&2
        exit 70
    fi
}
# shellcheck source=bench/generator.sh
. "$(dirname "${BASH_SOURCE[0]}")/generator.sh"
prepare_store generate.sh "${EMPTY_STORE:-}"

sqlite3 "$OUT" <<SQL
$SCRIPT_START

INSERT INTO ZPROJECT (Z_PK, Z_ENT, Z_OPT, ZCREATEDAT, ZNAME, ZID)
  WITH RECURSIVE seq(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM seq WHERE i < 99)
  SELECT i + 1, (SELECT ent FROM ent WHERE name = 'Project'), 1,
         441763200 + i * 86400 + (random() & 1048575) / 1048576.0, 'Project ' || i, $(id i)
    FROM seq;
INSERT INTO ZCATEGORY (Z_PK, Z_ENT, Z_OPT, ZCOLOR, ZNAME, ZID)
  WITH color(i, name) AS (VALUES (0, 'red'), (1, 'orange'), (2, 'green'), (3, 'blue'), (4, 'purple'))
  SELECT i + 1, (SELECT ent FROM ent WHERE name = 'Category'), 1, name, 'Category ' || i, $(id i)
    FROM color;
INSERT INTO ZTAG (Z_PK, Z_ENT, Z_OPT, ZNAME, ZID)
  WITH RECURSIVE seq(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM seq WHERE i < 19)
  SELECT i + 1, (SELECT ent FROM ent WHERE name = 'Tag'), 1, 'tag-' || i, $(id i)
    FROM seq;

INSERT INTO ZTASK (Z_PK, Z_ENT, Z_OPT, ZISCOMPLETED, ZPRIORITY, ZCATEGORY, ZPROJECT, ZCREATEDAT, ZDUEDATE, ZNOTES,
                   ZTITLE, ZID)
  WITH RECURSIVE seq(i) AS (SELECT 0 WHERE $N > 0 UNION ALL SELECT i + 1 FROM seq WHERE i < $N - 1)
  -- Dates: 2015-01-01 (441763200 s after 2001) plus up to ten years, with a random fraction of a second.
  SELECT i + 1, (SELECT ent FROM ent WHERE name = 'Task'), 1, i % 3 = 0, i % 4,
         CASE WHEN i % 4 = 0 THEN 1 + (i / 4) % 5 END, 1 + i % 100,
         441763200 + (i * 7919) % 315360000 + (random() & 1048575) / 1048576.0,
         CASE WHEN i % 3 = 1 THEN 441763200 + (i * 7919) % 315360000 + 86400 * (1 + i % 60)
                                  + (random() & 1048575) / 1048576.0 END,
         CASE WHEN i % 2 = 0 THEN 'Notes for task ' || i || ', with a little more text.' END,
         'Task ' || i || ': do the thing', $(id i)
    FROM seq;

-- Two distinct tags per task: the first cycles through the 20, the second is 1..19 places further on.
INSERT INTO Z_4TASKS (Z_4TAGS, Z_5TASKS)
  SELECT 1 + (Z_PK - 1) % 20, Z_PK FROM ZTASK
  UNION ALL
  SELECT 1 + ((Z_PK - 1) % 20 + 1 + ((Z_PK - 1) / 20) % 19) % 20, Z_PK FROM ZTASK;

INSERT INTO ZSUBTASK (Z_PK, Z_ENT, Z_OPT, ZISCOMPLETED, ZTASK, Z_FOK_TASK, ZTITLE, ZID)
  WITH step(k) AS (VALUES (0), (1), (2))
  SELECT (t.Z_PK - 1) / 10 * 3 + k + 1, (SELECT ent FROM ent WHERE name = 'Subtask'), 1, k = 0, t.Z_PK,
         (k + 2) * 1024, 'Step ' || (k + 1), $(id t.Z_PK)
    FROM ZTASK t JOIN step
   WHERE (t.Z_PK - 1) % 10 = 0
   ORDER BY t.Z_PK, k;

UPDATE Z_PRIMARYKEY SET Z_MAX = CASE Z_NAME
    WHEN 'Project' THEN (SELECT count(*) FROM ZPROJECT)
    WHEN 'Category' THEN (SELECT count(*) FROM ZCATEGORY)
    WHEN 'Tag' THEN (SELECT count(*) FROM ZTAG)
    WHEN 'Task' THEN (SELECT count(*) FROM ZTASK)
    WHEN 'Subtask' THEN (SELECT count(*) FROM ZSUBTASK)
    ELSE Z_MAX END;
COMMIT;
SQL
