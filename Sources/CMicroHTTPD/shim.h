#ifndef LEDGER_CMICROHTTPD_SHIM_H
#define LEDGER_CMICROHTTPD_SHIM_H
#include <stdarg.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <stdio.h>
#include <microhttpd.h>

/*
 * Swift cannot call C variadic functions, and MHD_start_daemon and
 * MHD_get_connection_info are variadic. These wrappers give them fixed,
 * typed signatures; each argument's C type is the one libmicrohttpd reads
 * with va_arg, which is easy to get wrong from the other side.
 */

typedef void *(*ledger_mhd_uri_log_callback)(void *cls, const char *uri, struct MHD_Connection *connection);

/* Receives libmicrohttpd's own diagnostics, already formatted. */
typedef void (*ledger_mhd_message_callback)(void *cls, const char *message);

struct ledger_mhd_logger {
    ledger_mhd_message_callback callback;
    void *cls;
};

static void
ledger_mhd_format_message(void *cls, const char *format, va_list arguments)
{
    const struct ledger_mhd_logger *logger = (const struct ledger_mhd_logger *) cls;
    char buffer[512];
    vsnprintf(buffer, sizeof buffer, format, arguments);
    logger->callback(logger->cls, buffer);
}

/*
 * Starts a daemon without a listening socket of its own, served by an internal pool of
 * `threads` epoll loops that only move bytes: handlers run elsewhere while their
 * connection is suspended (MHD_ALLOW_SUSPEND_RESUME). Connections are accepted by the
 * caller and handed over with MHD_add_connection, for which MHD_USE_ITC wakes the loops
 * (as it does for MHD_resume_connection from other threads).
 *
 * Why not let libmicrohttpd listen: stopping it from accepting (MHD_quiesce_daemon)
 * races with its own epoll loop in 0.9.75. Both remove the listening socket from the
 * epoll set, and the loop's removal aborts the process when it loses (ENOENT). Owning
 * the accept loop, the server closes its socket itself.
 * `logger` must outlive the daemon.
 */
static inline struct MHD_Daemon *
ledger_mhd_start(unsigned int threads,
                 unsigned int connection_limit,
                 unsigned int connection_timeout_seconds,
                 size_t connection_memory_limit,
                 MHD_AccessHandlerCallback handler,
                 ledger_mhd_uri_log_callback uri_log,
                 MHD_RequestCompletedCallback completed,
                 MHD_NotifyConnectionCallback notify_connection,
                 void *context,
                 const struct ledger_mhd_logger *logger)
{
    return MHD_start_daemon(MHD_USE_EPOLL_INTERNAL_THREAD | MHD_USE_ITC | MHD_ALLOW_SUSPEND_RESUME | MHD_USE_ERROR_LOG
                                | MHD_USE_NO_LISTEN_SOCKET,
                            0, NULL, NULL,
                            handler, context,
                            MHD_OPTION_THREAD_POOL_SIZE, threads,
                            MHD_OPTION_CONNECTION_LIMIT, connection_limit,
                            MHD_OPTION_CONNECTION_TIMEOUT, connection_timeout_seconds,
                            MHD_OPTION_CONNECTION_MEMORY_LIMIT, connection_memory_limit,
                            MHD_OPTION_URI_LOG_CALLBACK, uri_log, context,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, context,
                            MHD_OPTION_NOTIFY_CONNECTION, notify_connection, context,
                            MHD_OPTION_EXTERNAL_LOGGER, ledger_mhd_format_message, (void *) logger,
                            MHD_OPTION_END);
}

/* The connection's socket, or -1. */
static inline int
ledger_mhd_connection_fd(struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : (int) info->connect_fd;
}

/* Bytes of the request line and header fields, once the header is complete; 0 before. */
static inline size_t
ledger_mhd_request_header_size(struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE);
    return info == NULL ? 0 : info->header_size;
}

/* The status of the response queued on the connection (by us or by MHD itself), or 0. */
static inline unsigned int
ledger_mhd_http_status(struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_HTTP_STATUS);
    return info == NULL ? 0 : info->http_status;
}

/* The per-connection pointer set in the MHD_CONNECTION_NOTIFY_STARTED callback. */
static inline void *
ledger_mhd_socket_context(struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info == NULL ? NULL : info->socket_context;
}

/*
 * Writes the peer's IP address ("127.0.0.1", "::1") into `buffer`; returns 0, or -1
 * when it is unknown or does not fit.
 */
static inline int
ledger_mhd_client_ip(struct MHD_Connection *connection, char *buffer, socklen_t size)
{
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (info == NULL || info->client_addr == NULL)
        return -1;
    const struct sockaddr *address = info->client_addr;
    const void *bytes;
    if (address->sa_family == AF_INET)
        bytes = &((const struct sockaddr_in *) address)->sin_addr;
    else if (address->sa_family == AF_INET6)
        bytes = &((const struct sockaddr_in6 *) address)->sin6_addr;
    else
        return -1;
    return inet_ntop(address->sa_family, bytes, buffer, size) == NULL ? -1 : 0;
}

#endif
