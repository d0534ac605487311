#ifndef LEDGER_CCURL_SHIM_H
#define LEDGER_CCURL_SHIM_H
#include <stdint.h>
#include <string.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <curl/curl.h>

/*
 * Swift cannot call C variadic functions, and curl_easy_setopt, curl_multi_setopt and
 * curl_easy_getinfo are variadic. Each wrapper gives one fixed, typed signature; the C type
 * of the last argument is the one libcurl reads for that kind of option.
 */
static inline CURLcode ledger_curl_setopt_long(CURL *easy, CURLoption option, long value) {
    return curl_easy_setopt(easy, option, value);
}
static inline CURLcode ledger_curl_setopt_string(CURL *easy, CURLoption option, const char *value) {
    return curl_easy_setopt(easy, option, value);
}
static inline CURLcode ledger_curl_setopt_pointer(CURL *easy, CURLoption option, void *value) {
    return curl_easy_setopt(easy, option, value);
}
static inline CURLcode ledger_curl_setopt_slist(CURL *easy, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(easy, option, value);
}
static inline CURLcode ledger_curl_setopt_size(CURL *easy, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(easy, option, value);
}

typedef size_t (*ledger_curl_write_callback)(char *data, size_t size, size_t count, void *userdata);
static inline CURLcode ledger_curl_setopt_write(CURL *easy, ledger_curl_write_callback callback) {
    return curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, callback);
}

typedef curl_socket_t (*ledger_curl_open_callback)(void *clientp, curlsocktype purpose, struct curl_sockaddr *address);
static inline CURLcode ledger_curl_setopt_opensocket(CURL *easy, ledger_curl_open_callback callback) {
    return curl_easy_setopt(easy, CURLOPT_OPENSOCKETFUNCTION, callback);
}

static inline CURLcode ledger_curl_getinfo_long(CURL *easy, CURLINFO info, long *value) {
    return curl_easy_getinfo(easy, info, value);
}
static inline CURLcode ledger_curl_getinfo_offset(CURL *easy, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(easy, info, value);
}
static inline CURLcode ledger_curl_getinfo_string(CURL *easy, CURLINFO info, char **value) {
    return curl_easy_getinfo(easy, info, value);
}
static inline CURLcode ledger_curl_getinfo_pointer(CURL *easy, CURLINFO info, void **value) {
    return curl_easy_getinfo(easy, info, value);
}

/*
 * The address libcurl is about to connect to, as 4 (IPv4) or 16 (IPv6) bytes in network
 * order; 0 for any other family. `address->addr` is a struct sockaddr, but for IPv6 curl
 * stores a whole struct sockaddr_in6 there, longer than struct sockaddr: read through the
 * family's own struct.
 */
static inline int ledger_curl_address_bytes(const struct curl_sockaddr *address, uint8_t out[16]) {
    if (address->family == AF_INET && address->addrlen >= sizeof(struct sockaddr_in)) {
        const struct sockaddr_in *in = (const struct sockaddr_in *)(const void *)&address->addr;
        memcpy(out, &in->sin_addr, 4);
        return 4;
    }
    if (address->family == AF_INET6 && address->addrlen >= sizeof(struct sockaddr_in6)) {
        const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)(const void *)&address->addr;
        memcpy(out, &in6->sin6_addr, 16);
        return 16;
    }
    return 0;
}

/* The socket libcurl asked for, once the address is allowed. */
static inline curl_socket_t ledger_curl_open_socket(const struct curl_sockaddr *address) {
    return socket(address->family, address->socktype, address->protocol);
}

/* CURLMsg's `data` is a union; Swift reads the result through this. */
static inline CURLcode ledger_curl_message_result(const CURLMsg *message) {
    return message->data.result;
}
#endif
