#ifndef TASKS_CSQLITE_SHIM_H
#define TASKS_CSQLITE_SHIM_H

#include <sqlite3.h>

// Swift cannot call C variadic functions; these wrappers fix the arguments we need.

static inline int tasks_sqlite3_enable_defensive(sqlite3 *db) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, (int *)0);
}

// Only for a private file `tasks` is building itself (a new store's schema, written in batches).
static inline int tasks_sqlite3_disable_defensive(sqlite3 *db) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 0, (int *)0);
}

static inline int tasks_sqlite3_disable_triggers(sqlite3 *db) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, (int *)0);
}

static inline int tasks_sqlite3_disable_views(sqlite3 *db) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_VIEW, 0, (int *)0);
}

static inline int tasks_sqlite3_trusted_schema_off(sqlite3 *db) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, (int *)0);
}

// A read-only connection must not try to checkpoint (and so write) a store it only reads when it closes.
static inline int tasks_sqlite3_no_checkpoint_on_close(sqlite3 *db) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, (int *)0);
}

#endif
