#!/usr/bin/env bash
# Fills a new store of the benchmark's generic model (bench/Library.xcdatamodeld, version "Library 1") with N items
# written by SQLite itself, not by `tasks`, like bench/generate.sh does for the task model (bench/README.md).
#
#   bench/generate-library.sh N OUT
#   bench/generate-library.sh --empty OUT     only the empty store, for EMPTY_LIBRARY
#
# OUT must not exist. The schema, Z_PRIMARYKEY, Z_METADATA and the model cache come from an empty store of the
# model's first version: $EMPTY_LIBRARY when set (bench/run makes it once), otherwise one made here by
# `$TASKS model new-store` ($TASKS defaults to `tasks` on the PATH).
#
# The graph exercises what the task model does not: an abstract entity Item whose sub-entities Book and Article share
# one table (ZITEM, told apart by Z_ENT), a many-to-many Item.authors <-> Author.items (join table Z_1ITEMS), an
# ordered to-many Shelf.items (its order in ZITEM.Z_FOK_SHELF) and a one-to-one Book.cover <-> Cover.book (a key on
# both sides). N items, even ones books, odd ones articles; two distinct authors each out of 1000; every item on one
# of 100 shelves, in key order within its shelf; a cover for every 10th item (a book) with a 64-byte image; dates as
# REAL seconds since 2001 with random fractions; ids random version-4 UUID blobs; Z_OPT 1; Z_MAX the largest key of
# each root entity (a sub-entity's keys are its root's).
set -euo pipefail

if [ $# -ne 2 ] || ! [[ $1 =~ ^([0-9]+|--empty)$ ]]; then
    echo "usage: bench/generate-library.sh N OUT | --empty OUT   (env: EMPTY_LIBRARY, TASKS)" >&2
    exit 64
fi
N=$1 OUT=$2
BENCH=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
[ -e "$OUT" ] && { echo "generate-library.sh: $OUT already exists" >&2; exit 73; }

make_empty() {
    if ! "${TASKS:-tasks}" model new-store --model-version "Library 1" -o "$1" "$BENCH/Library.xcdatamodeld" >/dev/null; then
        echo "generate-library.sh: could not make an empty store with ${TASKS:-tasks}" >&2
        exit 70
    fi
}
# shellcheck source=bench/generator.sh
. "$(dirname "${BASH_SOURCE[0]}")/generator.sh"
prepare_store generate-library.sh "${EMPTY_LIBRARY:-}"

sqlite3 "$OUT" <<SQL
$SCRIPT_START

INSERT INTO ZSHELF (Z_PK, Z_ENT, Z_OPT, ZNAME)
  WITH RECURSIVE seq(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM seq WHERE i < 99)
  SELECT i + 1, (SELECT ent FROM ent WHERE name = 'Shelf'), 1, 'Shelf ' || i FROM seq;
INSERT INTO ZAUTHOR (Z_PK, Z_ENT, Z_OPT, ZNAME)
  WITH RECURSIVE seq(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM seq WHERE i < 999)
  SELECT i + 1, (SELECT ent FROM ent WHERE name = 'Author'), 1, 'Author ' || i FROM seq;

INSERT INTO ZITEM (Z_PK, Z_ENT, Z_OPT, ZSHELF, Z_FOK_SHELF, ZVOLUME, ZPAGES, ZCOVER, ZCREATEDAT, ZTITLE, ZJOURNAL,
                   ZISBN, ZID)
  WITH RECURSIVE seq(i) AS (SELECT 1 WHERE $N > 0 UNION ALL SELECT i + 1 FROM seq WHERE i < $N)
  SELECT i, (SELECT ent FROM ent WHERE name = CASE WHEN i % 2 = 0 THEN 'Book' ELSE 'Article' END), 1,
         1 + i % 100, (1 + i / 100) * 1024,
         CASE WHEN i % 2 = 1 THEN 1 + i % 300 END,
         CASE WHEN i % 2 = 0 THEN 50 + i % 900 END,
         CASE WHEN i % 10 = 0 THEN i / 10 END,
         441763200 + (i * 7919) % 315360000 + (random() & 1048575) / 1048576.0,
         'Item ' || i || ': a title of some length',
         CASE WHEN i % 2 = 1 THEN 'Journal ' || (i % 40) END,
         CASE WHEN i % 2 = 0 THEN '978-' || (1000000000 + i) END,
         $(id i)
    FROM seq;

INSERT INTO ZCOVER (Z_PK, Z_ENT, Z_OPT, ZBOOK, ZCOLOR, ZIMAGE)
  SELECT Z_PK / 10, (SELECT ent FROM ent WHERE name = 'Cover'), 1, Z_PK,
         CASE Z_PK % 3 WHEN 0 THEN 'red' WHEN 1 THEN 'green' ELSE 'blue' END, randomblob(64)
    FROM ZITEM WHERE Z_PK % 10 = 0 ORDER BY Z_PK;

-- Two distinct authors per item: i mod 1000 and 500 further on.
INSERT INTO Z_1ITEMS (Z_1AUTHORS, Z_3ITEMS)
  SELECT 1 + Z_PK % 1000, Z_PK FROM ZITEM
  UNION ALL
  SELECT 1 + (Z_PK + 500) % 1000, Z_PK FROM ZITEM;

UPDATE Z_PRIMARYKEY SET Z_MAX = CASE Z_NAME
    WHEN 'Shelf' THEN (SELECT count(*) FROM ZSHELF)
    WHEN 'Author' THEN (SELECT count(*) FROM ZAUTHOR)
    WHEN 'Item' THEN (SELECT coalesce(max(Z_PK), 0) FROM ZITEM)
    WHEN 'Cover' THEN (SELECT count(*) FROM ZCOVER)
    ELSE Z_MAX END;
COMMIT;
SQL
