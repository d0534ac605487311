#include "COpenSSL.h"
#include <openssl/rand.h>
#include <openssl/hmac.h>

int ledger_sha256(const void *data, size_t length, uint8_t out[32]) {
    unsigned int n = 0;
    return EVP_Digest(data, length, out, &n, EVP_sha256(), NULL) == 1 && n == 32;
}

EVP_MD_CTX *ledger_sha256_new(void) {
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    if (ctx == NULL) return NULL;
    if (EVP_DigestInit_ex(ctx, EVP_sha256(), NULL) != 1) { EVP_MD_CTX_free(ctx); return NULL; }
    return ctx;
}

int ledger_sha256_update(EVP_MD_CTX *ctx, const void *data, size_t length) {
    return EVP_DigestUpdate(ctx, data, length);
}

int ledger_sha256_final(EVP_MD_CTX *ctx, uint8_t out[32]) {
    unsigned int n = 0;
    return EVP_DigestFinal_ex(ctx, out, &n) == 1 && n == 32;
}

void ledger_sha256_free(EVP_MD_CTX *ctx) { EVP_MD_CTX_free(ctx); }

int ledger_memeq(const void *a, const void *b, size_t length) {
    return CRYPTO_memcmp(a, b, length) == 0;
}

int ledger_random_bytes(uint8_t *out, size_t length) {
    return RAND_bytes(out, (int)length);
}

int ledger_hmac_sha256(const void *key, size_t key_length, const void *data, size_t length, uint8_t out[32]) {
    unsigned int n = 0;
    return HMAC(EVP_sha256(), key, (int)key_length, data, length, out, &n) != NULL && n == 32;
}
