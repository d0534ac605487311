#include "COpenSSL.h"
#include <openssl/rand.h>
#include <openssl/hmac.h>
#include <pthread.h>

/* SHA-256 fetched once: `EVP_sha256()` makes OpenSSL 3 look the implementation up again
   at every initialisation, which costs more than hashing a Merkle node. */
static EVP_MD *sha256_md;
static pthread_once_t sha256_once = PTHREAD_ONCE_INIT;
static void sha256_fetch(void) { sha256_md = EVP_MD_fetch(NULL, "SHA256", NULL); }
static const EVP_MD *sha256(void) {
    pthread_once(&sha256_once, sha256_fetch);
    return sha256_md != NULL ? sha256_md : EVP_sha256();
}

int ledger_sha256(const void *data, size_t length, uint8_t out[32]) {
    unsigned int n = 0;
    return EVP_Digest(data, length, out, &n, sha256(), NULL) == 1 && n == 32;
}

EVP_MD_CTX *ledger_sha256_new(void) {
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    if (ctx == NULL) return NULL;
    if (EVP_DigestInit_ex2(ctx, sha256(), NULL) != 1) { EVP_MD_CTX_free(ctx); return NULL; }
    return ctx;
}

int ledger_sha256_restart(EVP_MD_CTX *ctx) {
    return EVP_DigestInit_ex2(ctx, sha256(), NULL);
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
