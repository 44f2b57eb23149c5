-- The SQL floor for `tasks import` into a populated store: the archive's rows added by sqlite3 itself, run as
--     sqlite3 -cmd "ATTACH 'SOURCE' AS src" TARGET.sqlite < bench/import-floor-add.sql
-- where SOURCE is the (second) benchmark store the archive was exported from, and TARGET a copy of a populated store.
-- The target keeps its indexes (a real store has them); every key is offset by the target's Z_MAX for its entity
-- (Z_PK and the foreign keys that point at it: ZTASK.ZPROJECT/ZCATEGORY, ZSUBTASK.ZTASK, both Z_4TASKS columns) so
-- that nothing collides, and Z_MAX grows by the source's. No rollback journal, no fsync, one transaction; no id is
-- checked against the target's (the ids are new by construction), which `tasks import` must do. Rows go in in each
-- table's primary key order (the join table's rows sorted by its two keys), as `tasks import` writes them.
PRAGMA journal_mode = OFF;
PRAGMA synchronous = OFF;
PRAGMA cache_size = -262144;  -- 256 MB of page cache: index builds and updates stay in memory
BEGIN;
CREATE TEMP TABLE base AS SELECT Z_NAME AS name, Z_MAX AS offset FROM main.Z_PRIMARYKEY;

INSERT INTO ZCATEGORY (Z_PK, Z_ENT, Z_OPT, ZCOLOR, ZNAME, ZID)
  SELECT Z_PK + (SELECT offset FROM base WHERE name = 'Category'), Z_ENT, Z_OPT, ZCOLOR, ZNAME, ZID
    FROM src.ZCATEGORY;
INSERT INTO ZPROJECT (Z_PK, Z_ENT, Z_OPT, ZCREATEDAT, ZNAME, ZID)
  SELECT Z_PK + (SELECT offset FROM base WHERE name = 'Project'), Z_ENT, Z_OPT, ZCREATEDAT, ZNAME, ZID
    FROM src.ZPROJECT;
INSERT INTO ZTAG (Z_PK, Z_ENT, Z_OPT, ZNAME, ZID)
  SELECT Z_PK + (SELECT offset FROM base WHERE name = 'Tag'), Z_ENT, Z_OPT, ZNAME, ZID FROM src.ZTAG;
INSERT INTO ZTASK (Z_PK, Z_ENT, Z_OPT, ZISCOMPLETED, ZPRIORITY, ZCATEGORY, ZPROJECT, ZCREATEDAT, ZDUEDATE, ZNOTES,
                   ZTITLE, ZID)
  SELECT Z_PK + (SELECT offset FROM base WHERE name = 'Task'), Z_ENT, Z_OPT, ZISCOMPLETED, ZPRIORITY,
         ZCATEGORY + (SELECT offset FROM base WHERE name = 'Category'),
         ZPROJECT + (SELECT offset FROM base WHERE name = 'Project'), ZCREATEDAT, ZDUEDATE, ZNOTES, ZTITLE, ZID
    FROM src.ZTASK;
INSERT INTO ZSUBTASK (Z_PK, Z_ENT, Z_OPT, ZISCOMPLETED, ZTASK, Z_FOK_TASK, ZTITLE, ZID)
  SELECT Z_PK + (SELECT offset FROM base WHERE name = 'Subtask'), Z_ENT, Z_OPT, ZISCOMPLETED,
         ZTASK + (SELECT offset FROM base WHERE name = 'Task'), Z_FOK_TASK, ZTITLE, ZID
    FROM src.ZSUBTASK;
INSERT INTO Z_4TASKS (Z_4TAGS, Z_5TASKS)
  SELECT Z_4TAGS + (SELECT offset FROM base WHERE name = 'Tag'),
         Z_5TASKS + (SELECT offset FROM base WHERE name = 'Task')
    FROM src.Z_4TASKS ORDER BY Z_4TAGS, Z_5TASKS;
UPDATE Z_PRIMARYKEY
   SET Z_MAX = Z_MAX + coalesce((SELECT s.Z_MAX FROM src.Z_PRIMARYKEY s WHERE s.Z_NAME = Z_PRIMARYKEY.Z_NAME), 0);
COMMIT;
