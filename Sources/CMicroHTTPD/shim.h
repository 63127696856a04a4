#include <sys/types.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <stdint.h>
#include <stdarg.h>
#include <microhttpd.h>

// MHD_start_daemon is variadic; this wrapper passes the request-completed and connection
// notifiers as typed arguments (Swift cannot cast a C function pointer to intptr_t for
// MHD_OPTION_ARRAY safely) and every other option as an array ending in MHD_OPTION_END.
static inline struct MHD_Daemon *a11y_mhd_start(unsigned int flags, uint16_t port,
        MHD_AccessHandlerCallback handler, void *handler_context,
        MHD_RequestCompletedCallback completed, void *completed_context,
        MHD_NotifyConnectionCallback notify, void *notify_context,
        const struct MHD_OptionItem *options) {
    return MHD_start_daemon(flags, port, NULL, NULL, handler, handler_context,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, completed_context,
                            MHD_OPTION_NOTIFY_CONNECTION, notify, notify_context,
                            MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

// MHD_get_daemon_info is variadic too. Returns 0 when the port cannot be read.
static inline uint16_t a11y_mhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

// And MHD_get_connection_info. Returns -1 when the socket cannot be read.
static inline int a11y_mhd_connection_socket(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}
