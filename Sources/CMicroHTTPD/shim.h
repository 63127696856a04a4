#include <sys/types.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <stdint.h>
#include <stdarg.h>
#include <microhttpd.h>

// MHD_start_daemon is variadic; this wrapper passes the options Swift needs as an array.
static inline struct MHD_Daemon *a11y_mhd_start(unsigned int flags, uint16_t port,
        MHD_AccessHandlerCallback handler, void *handler_context,
        const struct MHD_OptionItem *options) {
    return MHD_start_daemon(flags, port, NULL, NULL, handler, handler_context,
                            MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}
