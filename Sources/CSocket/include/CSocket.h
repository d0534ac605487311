#ifndef LEDGER_CSOCKET_H
#define LEDGER_CSOCKET_H
#include <stdint.h>

/*
 * Socket facts the Swift side needs and cannot reach itself: the kernel's TCP_INFO
 * lives in <linux/tcp.h>, whose struct clashes with glibc's <netinet/tcp.h> when both
 * are imported into Swift modules, so it is read here, in C, behind a plain function.
 */

/* Bytes the kernel has received on a TCP socket since it opened, or 0 if unknown. */
uint64_t ledger_tcp_bytes_received(int fd);

/*
 * accept4(2) and eventfd(2) are GNU extensions, which Swift's Glibc module does not
 * show. The accepted socket is non-blocking and close-on-exec from the start, so that
 * no child process started meanwhile inherits it.
 */
struct sockaddr;
int ledger_accept(int fd, struct sockaddr *address, unsigned int *length);

/* An eventfd (non-blocking, close-on-exec) to wake a thread out of poll(2); -1 on error. */
int ledger_wake_fd(void);

#endif
