#include "COpenSSL.h"

EVP_PKEY *ledger_ed25519_generate(void) {
    EVP_PKEY *key = NULL;
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_id(EVP_PKEY_ED25519, NULL);
    if (ctx != NULL && EVP_PKEY_keygen_init(ctx) == 1 && EVP_PKEY_keygen(ctx, &key) != 1) key = NULL;
    EVP_PKEY_CTX_free(ctx);
    ERR_clear_error();
    return key;
}

int ledger_pkey_is_ed25519(const EVP_PKEY *key) {
    return key != NULL && EVP_PKEY_get_id(key) == EVP_PKEY_ED25519;
}

int ledger_ed25519_public_raw(const EVP_PKEY *key, uint8_t out[32]) {
    size_t length = 32;
    int ok = ledger_pkey_is_ed25519(key) && EVP_PKEY_get_raw_public_key(key, out, &length) == 1 && length == 32;
    ERR_clear_error();
    return ok;
}

int ledger_ed25519_sign(EVP_PKEY *key, const uint8_t *message, size_t length, uint8_t signature[64]) {
    if (!ledger_pkey_is_ed25519(key)) return 0;
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    size_t written = 64;
    int ok = ctx != NULL && EVP_DigestSignInit(ctx, NULL, NULL, NULL, key) == 1
        && EVP_DigestSign(ctx, signature, &written, message, length) == 1 && written == 64;
    EVP_MD_CTX_free(ctx);
    ERR_clear_error();
    return ok;
}

int ledger_ed25519_verify(const uint8_t public_key[32], const uint8_t *message, size_t length, const uint8_t signature[64]) {
    EVP_PKEY *key = EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, NULL, public_key, 32);
    EVP_MD_CTX *ctx = key != NULL ? EVP_MD_CTX_new() : NULL;
    int ok = ctx != NULL && EVP_DigestVerifyInit(ctx, NULL, NULL, NULL, key) == 1
        && EVP_DigestVerify(ctx, signature, 64, message, length) == 1;
    EVP_MD_CTX_free(ctx);
    EVP_PKEY_free(key);
    ERR_clear_error();
    return ok;
}
