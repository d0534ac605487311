#include "COpenSSL.h"
#include "shim_internal.h"
#include <limits.h>
#include <string.h>
#include <time.h>
#include <openssl/ec.h>
#include <openssl/objects.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

/* OpenSSL keeps failures on a per-thread error queue; nothing here reports through it,
 * so every failure path empties it rather than letting it grow on a long-lived thread. */

X509 *ledger_x509_parse_der(const uint8_t *der, size_t length) {
    if (der == NULL || length == 0 || length > (size_t)LONG_MAX) return NULL;
    const unsigned char *cursor = der;
    X509 *cert = d2i_X509(NULL, &cursor, (long)length);
    if (cert == NULL) { ERR_clear_error(); return NULL; }
    /* d2i stops after the first certificate: bytes after it would make two texts decode
     * to one certificate, which the chain cache (keyed on exact bytes) must not see. */
    if (cursor != der + length) { X509_free(cert); return NULL; }
    return cert;
}

static int asn1_time_to_epoch(const ASN1_TIME *time, int64_t *out) {
    struct tm tm;
    memset(&tm, 0, sizeof tm);
    if (time == NULL || ASN1_TIME_to_tm(time, &tm) != 1) { ERR_clear_error(); return 0; }
    *out = (int64_t)timegm(&tm);
    return 1;
}

int ledger_x509_validity(const X509 *cert, int64_t *not_before, int64_t *not_after) {
    return asn1_time_to_epoch(X509_get0_notBefore(cert), not_before)
        && asn1_time_to_epoch(X509_get0_notAfter(cert), not_after);
}

int ledger_x509_has_extension(const X509 *cert, const char *dotted_oid) {
    ASN1_OBJECT *oid = OBJ_txt2obj(dotted_oid, 1);
    if (oid == NULL) { ERR_clear_error(); return 0; }
    int index = X509_get_ext_by_OBJ(cert, oid, -1);
    ASN1_OBJECT_free(oid);
    return index >= 0;
}

int ledger_x509_is_self_signed(X509 *cert) {
    int result = X509_self_signed(cert, 1) == 1;
    ERR_clear_error();
    return result;
}

int ledger_pkey_is_p256(EVP_PKEY *key) {
    if (key == NULL || EVP_PKEY_get_base_id(key) != EVP_PKEY_EC) { ERR_clear_error(); return 0; }
    char name[80];
    size_t name_length = 0;
    if (EVP_PKEY_get_group_name(key, name, sizeof name, &name_length) != 1) { ERR_clear_error(); return 0; }
    int nid = OBJ_sn2nid(name);
    if (nid == NID_undef) nid = EC_curve_nist2nid(name);
    return nid == NID_X9_62_prime256v1;
}

EVP_PKEY *ledger_x509_p256_key(X509 *cert) {
    EVP_PKEY *key = X509_get0_pubkey(cert);
    return ledger_pkey_is_p256(key) ? key : NULL;
}

int ledger_x509_verify_chain(X509_STORE *store, X509 *leaf, X509 *intermediate, int64_t at_time,
                             int *error, int64_t *root_not_before, int64_t *root_not_after) {
    *error = X509_V_ERR_UNSPECIFIED;
    int ok = 0;
    X509_STORE_CTX *ctx = X509_STORE_CTX_new();
    STACK_OF(X509) *untrusted = sk_X509_new_null();
    if (ctx == NULL || untrusted == NULL || sk_X509_push(untrusted, intermediate) <= 0) goto done;
    if (X509_STORE_CTX_init(ctx, store, leaf, untrusted) != 1) goto done;
    X509_STORE_CTX_set_time(ctx, 0, (time_t)at_time);
    if (X509_verify_cert(ctx) != 1) {
        *error = X509_STORE_CTX_get_error(ctx);
        goto done;
    }
    /* OpenSSL accepts any path to a trusted root; ours must use the given intermediate,
     * since that is the certificate whose WWDR mark the caller checks. */
    STACK_OF(X509) *chain = X509_STORE_CTX_get0_chain(ctx);
    if (chain == NULL || sk_X509_num(chain) != 3
        || X509_cmp(sk_X509_value(chain, 0), leaf) != 0
        || X509_cmp(sk_X509_value(chain, 1), intermediate) != 0) {
        *error = -1;
        goto done;
    }
    if (!ledger_x509_validity(sk_X509_value(chain, 2), root_not_before, root_not_after)) goto done;
    *error = X509_V_OK;
    ok = 1;
done:
    sk_X509_free(untrusted); /* the stack only; the certificates belong to the caller */
    X509_STORE_CTX_free(ctx);
    ERR_clear_error();
    return ok;
}

/* Fetching SHA-256 once: the implicit fetch behind EVP_sha256() costs a lookup per call. */
static CRYPTO_ONCE sha256_once = CRYPTO_ONCE_STATIC_INIT;
static EVP_MD *sha256_md = NULL;
static void fetch_sha256(void) { sha256_md = EVP_MD_fetch(NULL, "SHA256", NULL); }

static const EVP_MD *sha256(void) {
    if (!CRYPTO_THREAD_run_once(&sha256_once, fetch_sha256) || sha256_md == NULL) return EVP_sha256();
    return sha256_md;
}

/* One 32-byte big-endian unsigned integer as a DER INTEGER: minimal length, and a zero
 * byte in front when the top bit is set so that it stays positive. */
static size_t der_integer(const uint8_t value[32], uint8_t *out) {
    size_t skip = 0;
    while (skip < 31 && value[skip] == 0) skip++;
    size_t length = 32 - skip;
    int pad = (value[skip] & 0x80) != 0;
    out[0] = 0x02;
    out[1] = (uint8_t)(length + (size_t)pad);
    size_t at = 2;
    if (pad) out[at++] = 0x00;
    memcpy(out + at, value + skip, length);
    return at + length;
}

int ledger_sha256_prefetched(const uint8_t *data, size_t length, uint8_t out[32]) {
    unsigned int digest_length = 0;
    if (EVP_Digest(data, length, out, &digest_length, sha256(), NULL) != 1 || digest_length != 32) {
        ERR_clear_error();
        return 0;
    }
    return 1;
}

int ledger_es256_verify(EVP_PKEY *key, const uint8_t *message, size_t length, const uint8_t signature[64]) {
    uint8_t digest[32];
    if (!ledger_sha256_prefetched(message, length, digest)) return 0;
    /* ECDSA-Sig-Value ::= SEQUENCE { r INTEGER, s INTEGER }: at most 2 + 2 × 35 bytes. */
    uint8_t der[72];
    size_t body = der_integer(signature, der + 2);
    body += der_integer(signature + 32, der + 2 + body);
    der[0] = 0x30;
    der[1] = (uint8_t)body;
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_pkey(NULL, key, NULL);
    int ok = ctx != NULL && EVP_PKEY_verify_init(ctx) == 1
        && EVP_PKEY_verify(ctx, der, body + 2, digest, sizeof digest) == 1;
    EVP_PKEY_CTX_free(ctx);
    if (!ok) ERR_clear_error();
    return ok;
}

EVP_PKEY *ledger_ec_key_generate(const char *group_name) {
    EVP_PKEY *key = EVP_EC_gen(group_name);
    if (key == NULL) ERR_clear_error();
    return key;
}

size_t ledger_ecdsa_sign_raw(EVP_PKEY *key, const uint8_t *message, size_t length, uint8_t *out, size_t capacity) {
    size_t width = ((size_t)EVP_PKEY_get_bits(key) + 7) / 8;
    if (width == 0 || width > 66 || capacity < 2 * width) return 0;
    size_t written = 0;
    unsigned char der[160];
    size_t der_length = sizeof der;
    ECDSA_SIG *sig = NULL;
    EVP_MD_CTX *md = EVP_MD_CTX_new();
    if (md == NULL || EVP_DigestSignInit(md, NULL, EVP_sha256(), NULL, key) != 1
        || EVP_DigestSign(md, der, &der_length, message, length) != 1) goto done;
    const unsigned char *cursor = der;
    sig = d2i_ECDSA_SIG(NULL, &cursor, (long)der_length);
    if (sig == NULL) goto done;
    const BIGNUM *r = NULL, *s = NULL;
    ECDSA_SIG_get0(sig, &r, &s);
    if (BN_bn2binpad(r, out, (int)width) != (int)width || BN_bn2binpad(s, out + width, (int)width) != (int)width) goto done;
    written = 2 * width;
done:
    ECDSA_SIG_free(sig);
    EVP_MD_CTX_free(md);
    ERR_clear_error();
    return written;
}

size_t ledger_ecdsa_sign_der(EVP_PKEY *key, const uint8_t *message, size_t length, uint8_t *out, size_t capacity) {
    size_t written = 0;
    size_t der_length = 0;
    EVP_MD_CTX *md = EVP_MD_CTX_new();
    /* Asking for the length first: the maximum for the key, which `capacity` must hold. */
    if (md == NULL || EVP_DigestSignInit(md, NULL, EVP_sha256(), NULL, key) != 1
        || EVP_DigestSign(md, NULL, &der_length, message, length) != 1 || der_length > capacity) goto done;
    if (EVP_DigestSign(md, out, &der_length, message, length) != 1) goto done;
    written = der_length;
done:
    EVP_MD_CTX_free(md);
    ERR_clear_error();
    return written;
}

size_t ledger_pkey_private_der(EVP_PKEY *key, uint8_t *out, size_t capacity) {
    size_t written = 0;
    PKCS8_PRIV_KEY_INFO *info = EVP_PKEY2PKCS8(key);
    if (info != NULL) {
        int length = i2d_PKCS8_PRIV_KEY_INFO(info, NULL);
        unsigned char *cursor = out;
        if (length > 0 && (size_t)length <= capacity && i2d_PKCS8_PRIV_KEY_INFO(info, &cursor) == length) written = (size_t)length;
        PKCS8_PRIV_KEY_INFO_free(info);
    }
    ERR_clear_error();
    return written;
}

EVP_PKEY *ledger_pkey_from_private_der(const uint8_t *der, size_t length) {
    if (der == NULL || length == 0 || length > (size_t)LONG_MAX) return NULL;
    const unsigned char *cursor = der;
    PKCS8_PRIV_KEY_INFO *info = d2i_PKCS8_PRIV_KEY_INFO(NULL, &cursor, (long)length);
    EVP_PKEY *key = NULL;
    if (info != NULL && cursor == der + length) key = EVP_PKCS82PKEY(info);
    PKCS8_PRIV_KEY_INFO_free(info);
    ERR_clear_error();
    return key;
}

static int add_extension(X509 *cert, X509V3_CTX *v3, int nid, const char *value) {
    X509_EXTENSION *ext = X509V3_EXT_conf_nid(NULL, v3, nid, value);
    if (ext == NULL) return 0;
    int ok = X509_add_ext(cert, ext, -1) == 1;
    X509_EXTENSION_free(ext);
    return ok;
}

static int add_marker_extension(X509 *cert, const char *dotted_oid) {
    static const unsigned char der_null[2] = { 0x05, 0x00 };
    int ok = 0;
    ASN1_OBJECT *oid = OBJ_txt2obj(dotted_oid, 1);
    ASN1_OCTET_STRING *value = ASN1_OCTET_STRING_new();
    X509_EXTENSION *ext = NULL;
    if (oid == NULL || value == NULL || ASN1_OCTET_STRING_set(value, der_null, sizeof der_null) != 1) goto done;
    ext = X509_EXTENSION_create_by_OBJ(NULL, oid, 0, value);
    ok = ext != NULL && X509_add_ext(cert, ext, -1) == 1;
done:
    X509_EXTENSION_free(ext);
    ASN1_OCTET_STRING_free(value);
    ASN1_OBJECT_free(oid);
    return ok;
}

size_t ledger_x509_issue(EVP_PKEY *subject_key, const char *common_name,
                         const uint8_t *issuer_der, size_t issuer_der_length, EVP_PKEY *issuer_key,
                         int64_t not_before, int64_t not_after, int64_t serial, int is_ca,
                         const char *marker_oid, uint8_t *out, size_t capacity) {
    size_t written = 0;
    X509 *issuer = NULL;
    X509_NAME *name = NULL;
    X509 *cert = X509_new();
    if (cert == NULL) goto done;
    if (issuer_der != NULL) {
        issuer = ledger_x509_parse_der(issuer_der, issuer_der_length);
        if (issuer == NULL) goto done;
    }
    name = X509_NAME_new();
    if (name == NULL
        || X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_UTF8, (const unsigned char *)common_name, -1, -1, 0) != 1
        || X509_set_version(cert, X509_VERSION_3) != 1
        || ASN1_INTEGER_set_int64(X509_get_serialNumber(cert), serial) != 1
        || X509_set_subject_name(cert, name) != 1
        || X509_set_issuer_name(cert, issuer != NULL ? X509_get_subject_name(issuer) : name) != 1
        || ASN1_TIME_set(X509_getm_notBefore(cert), (time_t)not_before) == NULL
        || ASN1_TIME_set(X509_getm_notAfter(cert), (time_t)not_after) == NULL
        || X509_set_pubkey(cert, subject_key) != 1) goto done;
    X509V3_CTX v3;
    X509V3_set_ctx(&v3, issuer != NULL ? issuer : cert, cert, NULL, NULL, 0);
    if (!add_extension(cert, &v3, NID_basic_constraints, is_ca ? "critical,CA:TRUE" : "critical,CA:FALSE")
        || !add_extension(cert, &v3, NID_key_usage, is_ca ? "critical,keyCertSign,cRLSign" : "critical,digitalSignature")
        || !add_extension(cert, &v3, NID_subject_key_identifier, "hash")) goto done;
    if (issuer != NULL && !add_extension(cert, &v3, NID_authority_key_identifier, "keyid:always")) goto done;
    if (marker_oid != NULL && !add_marker_extension(cert, marker_oid)) goto done;
    if (X509_sign(cert, issuer_key, EVP_sha256()) <= 0) goto done;
    int length = i2d_X509(cert, NULL);
    if (length <= 0 || (size_t)length > capacity) goto done;
    unsigned char *cursor = out;
    if (i2d_X509(cert, &cursor) != length) goto done;
    written = (size_t)length;
done:
    X509_NAME_free(name);
    X509_free(issuer);
    X509_free(cert);
    ERR_clear_error();
    return written;
}
