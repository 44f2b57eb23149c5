#ifndef TASKS_CZLIB_SHIM_H
#define TASKS_CZLIB_SHIM_H

#include <zlib.h>

// inflateInit2 is a macro; Swift needs a function. Negative window bits select raw DEFLATE (no header).
static inline int tasks_inflate_init_raw(z_streamp stream) {
    return inflateInit2(stream, -15);
}

#endif
