-- After bench/library-import-floor.sql, the SQL floor of a migration into the model's next version ("Library 2":
-- Item.title renamed to name, Book.pages widened from Integer 32 to 64 — the same column type in SQLite — and an
-- optional Author.bio added): two schema changes that touch no row. With the page copy of the source (the backup a
-- migration makes), this is the least a migration into that version can do.
BEGIN;
ALTER TABLE ZITEM RENAME COLUMN ZTITLE TO ZNAME;
ALTER TABLE ZAUTHOR ADD COLUMN ZBIO VARCHAR;
COMMIT;
