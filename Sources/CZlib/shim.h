#ifndef TASKS_CZLIB_SHIM_H
#define TASKS_CZLIB_SHIM_H

#include <zlib.h>

// inflateInit2 is a macro; Swift needs a function. Negative window bits select raw DEFLATE (no header).
static inline int tasks_inflate_init_raw(z_streamp stream) {
    return inflateInit2(stream, -15);
}

// deflateInit2 is a macro too. Raw DEFLATE, a 32 KiB window and zlib's default memory level, as Core Data writes its
// model caches.
static inline int tasks_deflate_init_raw(z_streamp stream, int level) {
    return deflateInit2(stream, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY);
}

#endif
