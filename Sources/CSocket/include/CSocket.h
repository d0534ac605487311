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

#endif
