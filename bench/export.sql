-- The sqlite3-CLI reference for `tasks export`: ONE query over a Core Data store, run as
--     sqlite3 -json -readonly STORE < bench/export.sql > out.json
-- One row per task, sorted by id as `tasks export` sorts them, with
--   * the project's id through a join on ZPROJECT.Z_PK = ZTASK.ZPROJECT,
--   * the tag ids as a JSON array through the many-to-many join table Z_4TASKS(Z_4TAGS, Z_5TASKS),
--   * the subtasks nested as a JSON array of objects in their Core Data order (Z_FOK_TASK),
--   * UUID blobs as uppercase hyphenated text (hex() + substr()),
--   * Core Data's REAL seconds since 2001-01-01 as ISO-8601 (strftime; %f gives milliseconds).
-- The sqlite3 shell prints the JSON-valued columns (tagIds, subtasks) as JSON strings: that is how `sqlite3 -json`
-- renders a value that json_group_array() made. Correlated subqueries (index lookups per task) were measured against
-- CTEs grouped once and LEFT JOINed: same time, a third of the memory, so this is the form used.
SELECT
  substr(hex(t.ZID), 1, 8) || '-' || substr(hex(t.ZID), 9, 4) || '-' || substr(hex(t.ZID), 13, 4) || '-' ||
    substr(hex(t.ZID), 17, 4) || '-' || substr(hex(t.ZID), 21, 12) AS id,
  t.ZTITLE AS title,
  t.ZNOTES AS notes,
  t.ZISCOMPLETED != 0 AS isCompleted,
  strftime('%Y-%m-%dT%H:%M:%fZ', t.ZCREATEDAT + 978307200, 'unixepoch') AS createdAt,
  strftime('%Y-%m-%dT%H:%M:%fZ', t.ZDUEDATE + 978307200, 'unixepoch') AS dueDate,
  t.ZPRIORITY AS priority,
  (SELECT substr(hex(p.ZID), 1, 8) || '-' || substr(hex(p.ZID), 9, 4) || '-' || substr(hex(p.ZID), 13, 4) || '-' ||
            substr(hex(p.ZID), 17, 4) || '-' || substr(hex(p.ZID), 21, 12)
     FROM ZPROJECT p WHERE p.Z_PK = t.ZPROJECT) AS projectId,
  (SELECT json_group_array(id) FROM (
     SELECT substr(hex(g.ZID), 1, 8) || '-' || substr(hex(g.ZID), 9, 4) || '-' || substr(hex(g.ZID), 13, 4) || '-' ||
              substr(hex(g.ZID), 17, 4) || '-' || substr(hex(g.ZID), 21, 12) AS id
       FROM Z_4TASKS j JOIN ZTAG g ON g.Z_PK = j.Z_4TAGS
      WHERE j.Z_5TASKS = t.Z_PK ORDER BY g.ZID)) AS tagIds,
  (SELECT json_group_array(json_object(
            'id', substr(hex(s.ZID), 1, 8) || '-' || substr(hex(s.ZID), 9, 4) || '-' || substr(hex(s.ZID), 13, 4) || '-' ||
                    substr(hex(s.ZID), 17, 4) || '-' || substr(hex(s.ZID), 21, 12),
            'title', s.ZTITLE,
            'isCompleted', json(CASE WHEN s.ZISCOMPLETED THEN 'true' ELSE 'false' END)))
     FROM (SELECT * FROM ZSUBTASK WHERE ZTASK = t.Z_PK ORDER BY Z_FOK_TASK) s) AS subtasks
FROM ZTASK t
ORDER BY t.ZID;
