#ifndef CZLIB_SHIM_H
#define CZLIB_SHIM_H
#include <zlib.h>

// inflateInit2 is a macro (it passes zlib's version and the stream's size), which Swift cannot
// call. Negative window bits: a zip entry is raw deflate, without the zlib header and trailer.
static inline int czlib_inflate_init_raw(z_stream *stream) {
    return inflateInit2(stream, -MAX_WBITS);
}

#endif
