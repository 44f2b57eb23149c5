-- The sqlite3-CLI reference for `tasks export`: ONE query over a Core Data store, run as
--     sqlite3 -json -readonly STORE < bench/export.sql > out.json
-- One row per task, sorted by id as `tasks export` sorts them, with
--   * the project's and the category's id (ZTASK.ZPROJECT / ZCATEGORY → Z_PK),
--   * the tag ids as a JSON array, sorted, through the many-to-many join table Z_4TASKS(Z_4TAGS, Z_5TASKS),
--   * the subtasks nested as a JSON array of objects in their Core Data order (Z_FOK_TASK),
--   * UUID blobs as uppercase hyphenated text (hex() + substr()),
--   * Core Data's REAL seconds since 2001-01-01 as ISO-8601 (strftime; %f gives milliseconds).
-- The sqlite3 shell prints the JSON-valued columns (tagIds, subtasks) as JSON strings: that is how `sqlite3 -json`
-- renders a value that json_group_array() made.
--
-- Written to be fast (user + system time of `sqlite3 -json` at 200k tasks, best of 4–6 interleaved runs, SQLite
-- 3.40.1; every form below gave byte-identical output):
--   2.60 s  the first form: correlated subqueries for everything, hex(ZID) five times per UUID, ORDER BY ZID
--   2.36 s  projects/tags as MATERIALIZED CTEs with their ids formatted once, hex() once per task, the tasks sorted
--           by ZID in a CTE before the subqueries (these then probe in random Z_PK order)
--   2.30 s  the same with tag ids and subtasks aggregated once (GROUP BY) and looked up per task
--   1.75 s  the subqueries run in Z_PK order (cache-friendly index probes), and the finished rows sorted by ZID
--   1.63 s  THIS FORM: that, plus the subtask arrays aggregated once and LEFT JOINed (only 1 task in 10 has any),
--           projects and categories LEFT JOINed; json('true')/json('false') are constants instead of a json() call
--           per subtask. Tag arrays aggregated once and joined instead: 1.80 s (a second sort of the links).
-- At 1M tasks: 13.4 s for the first form, 8.8 s for this one (peak RSS 16 MB; the final sort spills to temp files,
-- and a 1 GB page cache or temp_store = MEMORY to avoid that did not make it faster).
-- A TEMP table of Z_PKs sorted by ZID, then joined, was slower (2.5 s: its sort and temp B-tree cost more than
-- sorting the finished rows).
WITH
p AS MATERIALIZED (
  SELECT Z_PK, substr(h, 1, 8) || '-' || substr(h, 9, 4) || '-' || substr(h, 13, 4) || '-' || substr(h, 17, 4) || '-' ||
               substr(h, 21, 12) AS id
    FROM (SELECT Z_PK, hex(ZID) AS h FROM ZPROJECT)),
c AS MATERIALIZED (
  SELECT Z_PK, substr(h, 1, 8) || '-' || substr(h, 9, 4) || '-' || substr(h, 13, 4) || '-' || substr(h, 17, 4) || '-' ||
               substr(h, 21, 12) AS id
    FROM (SELECT Z_PK, hex(ZID) AS h FROM ZCATEGORY)),
g AS MATERIALIZED (
  SELECT Z_PK, substr(h, 1, 8) || '-' || substr(h, 9, 4) || '-' || substr(h, 13, 4) || '-' || substr(h, 17, 4) || '-' ||
               substr(h, 21, 12) AS id
    FROM (SELECT Z_PK, hex(ZID) AS h FROM ZTAG)),
st AS MATERIALIZED (
  SELECT k, json_group_array(json_object(
           'id', substr(h, 1, 8) || '-' || substr(h, 9, 4) || '-' || substr(h, 13, 4) || '-' ||
                 substr(h, 17, 4) || '-' || substr(h, 21, 12),
           'title', ZTITLE,
           'isCompleted', CASE WHEN ZISCOMPLETED THEN json('true') ELSE json('false') END)) AS a
    FROM (SELECT ZTASK AS k, hex(ZID) AS h, ZTITLE, ZISCOMPLETED FROM ZSUBTASK ORDER BY ZTASK, Z_FOK_TASK)
   GROUP BY k),
t AS (SELECT *, hex(ZID) AS h FROM ZTASK)
SELECT
  substr(t.h, 1, 8) || '-' || substr(t.h, 9, 4) || '-' || substr(t.h, 13, 4) || '-' || substr(t.h, 17, 4) || '-' ||
    substr(t.h, 21, 12) AS id,
  t.ZTITLE AS title,
  t.ZNOTES AS notes,
  t.ZISCOMPLETED != 0 AS isCompleted,
  strftime('%Y-%m-%dT%H:%M:%fZ', t.ZCREATEDAT + 978307200, 'unixepoch') AS createdAt,
  strftime('%Y-%m-%dT%H:%M:%fZ', t.ZDUEDATE + 978307200, 'unixepoch') AS dueDate,
  t.ZPRIORITY AS priority,
  p.id AS projectId,
  c.id AS categoryId,
  (SELECT json_group_array(id) FROM (
     SELECT g.id FROM Z_4TASKS j JOIN g ON g.Z_PK = j.Z_4TAGS WHERE j.Z_5TASKS = t.Z_PK ORDER BY g.id)) AS tagIds,
  coalesce(st.a, '[]') AS subtasks
FROM t
LEFT JOIN p ON p.Z_PK = t.ZPROJECT
LEFT JOIN c ON c.Z_PK = t.ZCATEGORY
LEFT JOIN st ON st.k = t.Z_PK
ORDER BY t.ZID;
