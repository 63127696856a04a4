#include <zlib.h>

// deflateInit2 is a macro (it passes zlib's version and the stream's size), which Swift cannot
// call; windowBits 15 + 16 asks for a gzip wrapper instead of zlib's own.
static inline int a11y_deflate_init_gzip(z_stream *stream, int level) {
    return deflateInit2(stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
}

// inflateInit2 likewise; 15 + 32 accepts gzip and zlib streams (tests read our gzip back).
static inline int a11y_inflate_init_auto(z_stream *stream) {
    return inflateInit2(stream, 15 + 32);
}
