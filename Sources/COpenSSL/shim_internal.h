#ifndef LEDGER_COPENSSL_INTERNAL_H
#define LEDGER_COPENSSL_INTERNAL_H
/* Shared between the shim's C files; not part of what Swift sees. */
#include <stddef.h>
#include <stdint.h>

/* SHA-256 with an implementation fetched once per process (EVP_sha256() looks one up on
 * every call). Returns 1 on success. */
int ledger_sha256_prefetched(const uint8_t *data, size_t length, uint8_t out[32]);

#endif
