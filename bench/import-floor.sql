-- The SQL floor for `tasks import` into a new store: the same rows written by sqlite3 itself, run as
--     sqlite3 -cmd "ATTACH 'SOURCE' AS src" NEW.sqlite < bench/import-floor.sql
-- where SOURCE is the benchmark store the archive was exported from, and NEW.sqlite does not exist. No JSON is read,
-- no id is resolved: every row is copied with INSERT … SELECT from the ATTACHed store into the TaskManager model's
-- tables (the DDL of a store that `tasks import` creates), created without their indexes, the indexes built after
-- the rows, no rollback journal, no fsync, everything in one transaction: about the least work that writing these
-- rows takes, so `tasks import` ÷ this is the price of reading, checking and resolving the archive and of the
-- store's guarantees.
-- Every table's rows go in in its primary key's order, as `tasks import` writes them: the entity tables' keys are
-- their rowids (a plain scan gives that order), the join table's key is (Z_4TAGS, Z_5TASKS), so its rows are sorted
-- on the way in. Copied in the source's order (by task), the 2M join rows of the 1M-task store land out of key order
-- and cost the floor 6.75 s instead of 3.4-4.0 s: a floor slower than it needs to be flatters every ratio.
-- The column lists are written out: `INSERT INTO t SELECT * FROM src.t` would let SQLite copy the records' bytes
-- without decoding them (its transfer optimization; 0.45 s of CPU instead of 1.1 s at 200k tasks), which no importer
-- can do. The 256 MB page cache took the system time from 0.45 s to 0.1 s at 200k (the index builds no longer spill).
PRAGMA journal_mode = OFF;
PRAGMA synchronous = OFF;
PRAGMA cache_size = -262144;  -- 256 MB of page cache: index builds and updates stay in memory
PRAGMA auto_vacuum = INCREMENTAL;  -- the layout of the stores `tasks import` creates
BEGIN;
CREATE TABLE ZCATEGORY ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCOLOR VARCHAR, ZNAME VARCHAR,
                         ZID BLOB );
CREATE TABLE ZPROJECT ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCREATEDAT TIMESTAMP, ZNAME VARCHAR,
                        ZID BLOB );
CREATE TABLE ZSUBTASK ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZISCOMPLETED INTEGER, ZTASK INTEGER,
                        Z_FOK_TASK INTEGER, ZTITLE VARCHAR, ZID BLOB );
CREATE TABLE ZTAG ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR, ZID BLOB );
CREATE TABLE Z_4TASKS ( Z_4TAGS INTEGER, Z_5TASKS INTEGER, PRIMARY KEY (Z_4TAGS, Z_5TASKS) );
CREATE TABLE ZTASK ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZISCOMPLETED INTEGER, ZPRIORITY INTEGER,
                     ZCATEGORY INTEGER, ZPROJECT INTEGER, ZCREATEDAT TIMESTAMP, ZDUEDATE TIMESTAMP, ZNOTES VARCHAR,
                     ZTITLE VARCHAR, ZID BLOB );
CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB);

INSERT INTO ZCATEGORY (Z_PK, Z_ENT, Z_OPT, ZCOLOR, ZNAME, ZID)
  SELECT Z_PK, Z_ENT, Z_OPT, ZCOLOR, ZNAME, ZID FROM src.ZCATEGORY;
INSERT INTO ZPROJECT (Z_PK, Z_ENT, Z_OPT, ZCREATEDAT, ZNAME, ZID)
  SELECT Z_PK, Z_ENT, Z_OPT, ZCREATEDAT, ZNAME, ZID FROM src.ZPROJECT;
INSERT INTO ZTAG (Z_PK, Z_ENT, Z_OPT, ZNAME, ZID)
  SELECT Z_PK, Z_ENT, Z_OPT, ZNAME, ZID FROM src.ZTAG;
INSERT INTO ZTASK (Z_PK, Z_ENT, Z_OPT, ZISCOMPLETED, ZPRIORITY, ZCATEGORY, ZPROJECT, ZCREATEDAT, ZDUEDATE, ZNOTES,
                   ZTITLE, ZID)
  SELECT Z_PK, Z_ENT, Z_OPT, ZISCOMPLETED, ZPRIORITY, ZCATEGORY, ZPROJECT, ZCREATEDAT, ZDUEDATE, ZNOTES, ZTITLE, ZID
    FROM src.ZTASK;
INSERT INTO ZSUBTASK (Z_PK, Z_ENT, Z_OPT, ZISCOMPLETED, ZTASK, Z_FOK_TASK, ZTITLE, ZID)
  SELECT Z_PK, Z_ENT, Z_OPT, ZISCOMPLETED, ZTASK, Z_FOK_TASK, ZTITLE, ZID FROM src.ZSUBTASK;
INSERT INTO Z_4TASKS (Z_4TAGS, Z_5TASKS) SELECT Z_4TAGS, Z_5TASKS FROM src.Z_4TASKS ORDER BY Z_4TAGS, Z_5TASKS;
INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM src.Z_PRIMARYKEY;
INSERT INTO Z_METADATA (Z_VERSION, Z_UUID, Z_PLIST) SELECT Z_VERSION, Z_UUID, Z_PLIST FROM src.Z_METADATA;
INSERT INTO Z_MODELCACHE (Z_CONTENT) SELECT Z_CONTENT FROM src.Z_MODELCACHE;

CREATE INDEX ZSUBTASK_ZTASK_INDEX ON ZSUBTASK (ZTASK);
CREATE INDEX Z_4TASKS_Z_5TASKS_INDEX ON Z_4TASKS (Z_5TASKS, Z_4TAGS);
CREATE INDEX ZTASK_ZCATEGORY_INDEX ON ZTASK (ZCATEGORY);
CREATE INDEX ZTASK_ZPROJECT_INDEX ON ZTASK (ZPROJECT);
COMMIT;
