#ifndef LEDGER_COPENSSL_H
#define LEDGER_COPENSSL_H
/*
 * The few OpenSSL entry points the project uses. OpenSSL's function-like macros are
 * invisible to Swift, so anything that is a macro upstream gets a real function here.
 */
#include <stddef.h>
#include <stdint.h>
#include <openssl/evp.h>
#include <openssl/err.h>
#include <openssl/crypto.h>

/* One-shot SHA-256. Returns 1 on success. */
int ledger_sha256(const void *data, size_t length, uint8_t out[32]);

/* Incremental SHA-256 over an EVP_MD_CTX the caller owns. */
EVP_MD_CTX *ledger_sha256_new(void);
int ledger_sha256_update(EVP_MD_CTX *ctx, const void *data, size_t length);
int ledger_sha256_final(EVP_MD_CTX *ctx, uint8_t out[32]);
void ledger_sha256_free(EVP_MD_CTX *ctx);

/* Constant-time comparison (CRYPTO_memcmp). */
int ledger_memeq(const void *a, const void *b, size_t length);

/* Cryptographically secure random bytes. Returns 1 on success. */
int ledger_random_bytes(uint8_t *out, size_t length);

/* HMAC-SHA256. Returns 1 on success. */
int ledger_hmac_sha256(const void *key, size_t key_length, const void *data, size_t length, uint8_t out[32]);

#endif
