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
/* Starts `ctx` over, for the next hash, without allocating. */
int ledger_sha256_restart(EVP_MD_CTX *ctx);
void ledger_sha256_free(EVP_MD_CTX *ctx);

/* Constant-time comparison (CRYPTO_memcmp). */
int ledger_memeq(const void *a, const void *b, size_t length);

/* Cryptographically secure random bytes. Returns 1 on success. */
int ledger_random_bytes(uint8_t *out, size_t length);

/* HMAC-SHA256. Returns 1 on success. */
int ledger_hmac_sha256(const void *key, size_t key_length, const void *data, size_t length, uint8_t out[32]);

/* ---- X.509 and ES256, for App Store JWS verification (AppStore module) ---- */
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>

/* Parses one DER certificate; NULL unless the bytes are exactly one certificate (no
 * trailing bytes). The caller frees it with X509_free. */
X509 *ledger_x509_parse_der(const uint8_t *der, size_t length);

/* notBefore and notAfter as seconds since the epoch. Returns 1 on success. */
int ledger_x509_validity(const X509 *cert, int64_t *not_before, int64_t *not_after);

/* 1 when the certificate carries an extension with this dotted OID, else 0. */
int ledger_x509_has_extension(const X509 *cert, const char *dotted_oid);

/* 1 when the certificate is self-issued and its signature verifies with its own key. */
int ledger_x509_is_self_signed(X509 *cert);

/* 1 when `key` is an EC key on P-256 (named prime256v1 / P-256). */
int ledger_pkey_is_p256(EVP_PKEY *key);

/* The certificate's public key when it is an EC key on P-256, else NULL. Borrowed: it
 * lives as long as the certificate. */
EVP_PKEY *ledger_x509_p256_key(X509 *cert);

/* Verifies leaf <- intermediate <- a root of `store` at `at_time` (seconds since the
 * epoch), with only `intermediate` as an untrusted certificate and no partial chains.
 * Returns 1 when the built chain is exactly [leaf, intermediate, root]; then the root's
 * validity window is written to root_not_before / root_not_after. Otherwise returns 0
 * and writes OpenSSL's X509_V_ERR_* code to *error (or -1 when verification passed but
 * the chain had another shape, e.g. a leaf issued by a root directly). */
int ledger_x509_verify_chain(X509_STORE *store, X509 *leaf, X509 *intermediate, int64_t at_time,
                             int *error, int64_t *root_not_before, int64_t *root_not_after);

/* ES256 (RFC 7518 §3.4): SHA-256 of `message`, then ECDSA with `key` on the raw 64-byte
 * r||s signature (converted to DER here). 1 when it verifies, 0 otherwise. */
int ledger_es256_verify(EVP_PKEY *key, const uint8_t *message, size_t length, const uint8_t signature[64]);

/* ES256 with a key used over and over (a leaf that signs every App Store payload for
 * weeks): multiples of its point are precomputed once (tens of milliseconds, ~150 KB),
 * after which a verification costs about half of ledger_es256_verify's, which must treat
 * the point as new every time. Same acceptance as ledger_es256_verify (tests compare
 * them). NULL unless `key` is an EC key on P-256. */
typedef struct ledger_p256_fast_verifier ledger_p256_fast_verifier;
ledger_p256_fast_verifier *ledger_p256_fast_verifier_new(EVP_PKEY *key);
void ledger_p256_fast_verifier_free(ledger_p256_fast_verifier *verifier);
int ledger_p256_fast_verify(const ledger_p256_fast_verifier *verifier, const uint8_t *message, size_t length,
                            const uint8_t signature[64]);

/* ---- Key and certificate making, for test certificate authorities ---- */

/* A new EC key on the named group ("P-256", "P-384"); NULL on failure. Free with EVP_PKEY_free. */
EVP_PKEY *ledger_ec_key_generate(const char *group_name);

/* ECDSA with SHA-256 over `message`, written as fixed-width raw r||s (64 bytes for
 * P-256, 96 for P-384) into `out`. Returns the length written, 0 on failure. */
size_t ledger_ecdsa_sign_raw(EVP_PKEY *key, const uint8_t *message, size_t length, uint8_t *out, size_t capacity);

/* ECDSA with SHA-256 over `message`, written as the DER ECDSA-Sig-Value (SEQUENCE of the
 * INTEGERs r and s) OpenSSL produces, into `out`: the form StoreKit's promotional offer
 * signatures take. Returns the length written (at most 72 bytes on P-256), 0 on failure
 * or when `capacity` is too small. */
size_t ledger_ecdsa_sign_der(EVP_PKEY *key, const uint8_t *message, size_t length, uint8_t *out, size_t capacity);

/* The private key as PKCS#8 PrivateKeyInfo DER (what a PEM "PRIVATE KEY" block holds)
 * into `out`; returns its length, 0 on failure or when `capacity` is too small. */
size_t ledger_pkey_private_der(EVP_PKEY *key, uint8_t *out, size_t capacity);

/* A private key from PKCS#8 PrivateKeyInfo DER, nothing after it; NULL otherwise. */
EVP_PKEY *ledger_pkey_from_private_der(const uint8_t *der, size_t length);

/* Issues a version 3 certificate for `subject_key` named CN=`common_name`, signed with
 * SHA-256 by `issuer_key`: issuer name from `issuer_der` (NULL: self-issued), validity
 * [not_before, not_after] in seconds since the epoch, basicConstraints (critical) CA or
 * not, keyUsage (critical) keyCertSign+cRLSign for a CA and digitalSignature otherwise,
 * subject and authority key identifiers, and, when `marker_oid` is not NULL, a
 * non-critical extension with that dotted OID whose value is DER NULL (as Apple marks
 * its certificates). Writes the DER into `out`; returns its length, 0 on failure. */
size_t ledger_x509_issue(EVP_PKEY *subject_key, const char *common_name,
                         const uint8_t *issuer_der, size_t issuer_der_length, EVP_PKEY *issuer_key,
                         int64_t not_before, int64_t not_after, int64_t serial, int is_ca,
                         const char *marker_oid, uint8_t *out, size_t capacity);

/* ---- Ed25519, for signed checkpoints of the log (docs/audit.md) ---- */

/* A new Ed25519 key; NULL on failure. Free with EVP_PKEY_free. */
EVP_PKEY *ledger_ed25519_generate(void);

/* 1 when `key` is an Ed25519 key. */
int ledger_pkey_is_ed25519(const EVP_PKEY *key);

/* The 32 raw bytes of an Ed25519 key's public half. Returns 1 on success. */
int ledger_ed25519_public_raw(const EVP_PKEY *key, uint8_t out[32]);

/* Ed25519 (pure, RFC 8032) signature of `message`. Returns 1 on success. */
int ledger_ed25519_sign(EVP_PKEY *key, const uint8_t *message, size_t length, uint8_t signature[64]);

/* 1 when `signature` is a valid Ed25519 signature of `message` by the raw public key. */
int ledger_ed25519_verify(const uint8_t public_key[32], const uint8_t *message, size_t length, const uint8_t signature[64]);

#endif
