#define _GNU_SOURCE
#include "CSocket.h"
#include <sys/eventfd.h>
#include <sys/socket.h>

int
ledger_accept(int fd, struct sockaddr *address, unsigned int *length)
{
    socklen_t size = *length;
    int client = accept4(fd, address, &size, SOCK_NONBLOCK | SOCK_CLOEXEC);
    *length = size;
    return client;
}

int
ledger_wake_fd(void)
{
    return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
}
