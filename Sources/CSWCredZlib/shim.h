#include <zlib.h>

/* inflateInit2 is a macro in zlib.h, which Swift does not import: a static inline wrapper. */
static inline int cswcred_inflate_init_raw(z_stream *stream) {
    return inflateInit2(stream, -15);
}
