# What the benchmark generators (bench/generate.sh, bench/generate-library.sh) share; sourced after they set N, OUT
# and define make_empty PATH (an empty store of their model).
#
# prepare_store NAME EMPTY: for N = --empty, makes OUT empty and exits; otherwise copies the empty store EMPTY (one
# made here when EMPTY is unset) to OUT, which is removed again if the generator fails.
prepare_store() {
    local name=$1
    if [ "$N" = --empty ]; then
        make_empty "$OUT"
        exit 0
    fi
    tmp="" made=0
    trap 'rc=$?; [ $rc = 0 ] || [ $made = 0 ] || rm -f "$OUT" "$OUT-wal" "$OUT-shm"; [ -z "$tmp" ] || rm -rf "$tmp"' EXIT
    empty=$2
    if [ -z "$empty" ]; then
        tmp=$(mktemp -d "${TMPDIR:-/tmp}/$name.XXXXXX")
        empty=$tmp/empty.sqlite
        make_empty "$empty"
    fi
    [ -f "$empty" ] && [ ! -e "$empty-wal" ] || { echo "$name: $empty is not a closed store" >&2; exit 66; }
    made=1
    cp "$empty" "$OUT"
}

# Random version-4 UUID blobs in SQL. SQLite 3.40 has no unhex(), so byte 6
# (0x40 | random nibble) and byte 8 (0x80 | random 6 bits) come from tables of blob literals; || makes text of the
# bytes, CAST gives the blob back.
#   $UUID_TABLES   SQL that makes the temp lookup tables (run once, inside the script)
#   id ROW         the SQL expression of a new id for the row named ROW (naming it makes SQLite run the lookups once
#                  per row, not once per statement)
v4=$(for n in $(seq 0 15); do printf "(%d,x'%02X')," "$n" $((0x40 | n)); done)
v8=$(for n in $(seq 0 63); do printf "(%d,x'%02X')," "$n" $((0x80 | n)); done)
UUID_TABLES="CREATE TEMP TABLE v4 (n INTEGER PRIMARY KEY, b BLOB);
CREATE TEMP TABLE v8 (n INTEGER PRIMARY KEY, b BLOB);
INSERT INTO v4 VALUES ${v4%,};
INSERT INTO v8 VALUES ${v8%,};"
uuid="CAST(randomblob(6) || (SELECT b FROM v4 WHERE n = (random() & 15) + 0 * ROW)
      || randomblob(1) || (SELECT b FROM v8 WHERE n = (random() & 63) + 0 * ROW) || randomblob(7) AS BLOB)"
id() { printf '%s' "${uuid//ROW/$1}"; }

# How a generator's sqlite3 script starts: stop at the first error, no fsync, a large page cache, one transaction,
# the UUID lookups and each entity's number by name (`ent`).
SCRIPT_START=".bail on
PRAGMA synchronous = OFF;
PRAGMA cache_size = -262144;
BEGIN;
$UUID_TABLES
CREATE TEMP TABLE ent AS SELECT Z_NAME AS name, Z_ENT AS ent FROM Z_PRIMARYKEY;"
