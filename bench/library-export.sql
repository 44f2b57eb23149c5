-- The reference export of the generic model's store (bench/generate-library.sh) for `tasks export`, run as
--     sqlite3 -json -readonly STORE < bench/library-export.sql > sqlite3.json
-- One statement per entity, each row the record's key and values as `tasks export` writes them: every attribute
-- (dates as ISO 8601 text, the UUID attribute as hyphenated text; the cover's image as hex, SQLite 3.40 having no
-- base64), the to-many sides as arrays of keys (the authors' items through the join table's primary key, each shelf's
-- items in their Z_FOK_SHELF order) and the cover's book. Keys stand for the derived record ids `tasks` writes
-- (SQL has no SHA-1): the same graph, a little less work.
SELECT i.Z_PK AS key, p.Z_NAME AS entity,
       strftime('%Y-%m-%dT%H:%M:%fZ', i.ZCREATEDAT + 978307200, 'unixepoch') AS createdAt,
       substr(h, 1, 8) || '-' || substr(h, 9, 4) || '-' || substr(h, 13, 4) || '-' || substr(h, 17, 4) || '-' ||
         substr(h, 21, 12) AS id,
       i.ZTITLE AS title, i.ZJOURNAL AS journal, i.ZVOLUME AS volume, i.ZISBN AS isbn, i.ZPAGES AS pages
  FROM (SELECT *, hex(ZID) AS h FROM ZITEM) i JOIN Z_PRIMARYKEY p ON p.Z_ENT = i.Z_ENT
 ORDER BY i.Z_PK;
SELECT a.Z_PK AS key, a.ZNAME AS name, coalesce(j.items, '[]') AS items
  FROM ZAUTHOR a
  LEFT JOIN (SELECT Z_1AUTHORS AS k, json_group_array(Z_3ITEMS) AS items FROM Z_1ITEMS GROUP BY Z_1AUTHORS) j
    ON j.k = a.Z_PK
 ORDER BY a.Z_PK;
SELECT s.Z_PK AS key, s.ZNAME AS name, coalesce(o.items, '[]') AS items
  FROM ZSHELF s
  LEFT JOIN (SELECT k, json_group_array(item) AS items
               FROM (SELECT ZSHELF AS k, Z_PK AS item FROM ZITEM WHERE ZSHELF IS NOT NULL ORDER BY ZSHELF, Z_FOK_SHELF)
              GROUP BY k) o
    ON o.k = s.Z_PK
 ORDER BY s.Z_PK;
SELECT Z_PK AS key, ZBOOK AS book, ZCOLOR AS color, hex(ZIMAGE) AS image FROM ZCOVER ORDER BY Z_PK;
