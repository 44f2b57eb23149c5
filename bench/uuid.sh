# Random version-4 UUID blobs in SQL, for the benchmark generators (sourced). SQLite 3.40 has no unhex(), so byte 6
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
