/* EC_GROUP_precompute_mult is deprecated since OpenSSL 3.0 without a replacement; it is
 * still the only way to give a point other than the curve's generator a table of
 * precomputed multiples. This file alone uses it. */
#define OPENSSL_SUPPRESS_DEPRECATED
#include "COpenSSL.h"
#include "shim_internal.h"
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>

struct ledger_p256_fast_verifier {
    /* P-256 as named: its generator G has OpenSSL's built-in table. */
    EC_GROUP *curve;
    /* P-256 with the key's point Q as generator, and Q's table. */
    EC_GROUP *key_curve;
};

/* Inversion modulo the group order. BN_mod_inverse runs a binary algorithm on general
 * BIGNUMs and spends a third of a verification doing so; the same algorithm on four
 * 64-bit limbs costs a fraction of that. The values are public (a signature's s), so
 * nothing here needs to run in constant time. */
typedef struct { uint64_t limb[4]; } u256; /* little-endian limbs */

static u256 u256_from_bytes(const uint8_t bytes[32]) {
    u256 x;
    for (int i = 0; i < 4; i++) {
        uint64_t w = 0;
        for (int j = 0; j < 8; j++) w = (w << 8) | bytes[(3 - i) * 8 + j];
        x.limb[i] = w;
    }
    return x;
}

static void u256_to_bytes(const u256 *x, uint8_t bytes[32]) {
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 8; j++) bytes[(3 - i) * 8 + j] = (uint8_t)(x->limb[i] >> (56 - 8 * j));
}

static int u256_is_one(const u256 *x) { return x->limb[0] == 1 && (x->limb[1] | x->limb[2] | x->limb[3]) == 0; }
static int u256_is_zero(const u256 *x) { return (x->limb[0] | x->limb[1] | x->limb[2] | x->limb[3]) == 0; }

static int u256_cmp(const u256 *a, const u256 *b) {
    for (int i = 3; i >= 0; i--) {
        if (a->limb[i] != b->limb[i]) return a->limb[i] > b->limb[i] ? 1 : -1;
    }
    return 0;
}

/* a += b; returns the carry out. */
static uint64_t u256_add(u256 *a, const u256 *b) {
    uint64_t carry = 0;
    for (int i = 0; i < 4; i++) {
        uint64_t sum = a->limb[i] + b->limb[i];
        uint64_t c1 = sum < a->limb[i];
        a->limb[i] = sum + carry;
        carry = c1 | (a->limb[i] < sum);
    }
    return carry;
}

/* a -= b, for a >= b. */
static void u256_sub(u256 *a, const u256 *b) {
    uint64_t borrow = 0;
    for (int i = 0; i < 4; i++) {
        uint64_t diff = a->limb[i] - b->limb[i];
        uint64_t b1 = a->limb[i] < b->limb[i];
        a->limb[i] = diff - borrow;
        borrow = b1 | (diff < borrow);
    }
}

/* a = (top:a) >> 1, top being a 257th bit. */
static void u256_shift_right(u256 *a, uint64_t top) {
    for (int i = 0; i < 3; i++) a->limb[i] = (a->limb[i] >> 1) | (a->limb[i + 1] << 63);
    a->limb[3] = (a->limb[3] >> 1) | (top << 63);
}

/* x = x / 2 mod m, for x < m and m odd. */
static void u256_halve_mod(u256 *x, const u256 *m) {
    uint64_t top = 0;
    if (x->limb[0] & 1) top = u256_add(x, m);
    u256_shift_right(x, top);
}

/* x = x - y mod m, for x, y < m. */
static void u256_sub_mod(u256 *x, const u256 *y, const u256 *m) {
    if (u256_cmp(x, y) >= 0) { u256_sub(x, y); return; }
    u256 gap = *y;
    u256_sub(&gap, x);
    *x = *m;
    u256_sub(x, &gap);
}

/* a^-1 mod m for odd m and 0 < a < m (binary extended Euclid: x1·a ≡ u, x2·a ≡ v mod m
 * throughout). Returns 0 when there is no inverse. */
static int u256_inverse(u256 *out, const u256 *a, const u256 *m) {
    u256 u = *a, v = *m, x1 = {{1, 0, 0, 0}}, x2 = {{0, 0, 0, 0}};
    while (!u256_is_one(&u) && !u256_is_one(&v)) {
        if (u256_is_zero(&u) || u256_is_zero(&v)) return 0;
        while ((u.limb[0] & 1) == 0) { u256_shift_right(&u, 0); u256_halve_mod(&x1, m); }
        while ((v.limb[0] & 1) == 0) { u256_shift_right(&v, 0); u256_halve_mod(&x2, m); }
        if (u256_cmp(&u, &v) >= 0) { u256_sub(&u, &v); u256_sub_mod(&x1, &x2, m); }
        else { u256_sub(&v, &u); u256_sub_mod(&x2, &x1, m); }
    }
    *out = u256_is_one(&u) ? x1 : x2;
    return 1;
}

void ledger_p256_fast_verifier_free(ledger_p256_fast_verifier *verifier) {
    if (verifier == NULL) return;
    EC_GROUP_free(verifier->key_curve);
    EC_GROUP_free(verifier->curve);
    OPENSSL_free(verifier);
}

ledger_p256_fast_verifier *ledger_p256_fast_verifier_new(EVP_PKEY *key) {
    unsigned char encoded[65];
    size_t encoded_length = 0;
    EC_POINT *q = NULL;
    BN_CTX *ctx = BN_CTX_new();
    ledger_p256_fast_verifier *verifier = OPENSSL_zalloc(sizeof *verifier);
    int ok = 0;
    if (ctx == NULL || verifier == NULL || ledger_pkey_is_p256(key) != 1) goto done;
    if (EVP_PKEY_get_octet_string_param(key, OSSL_PKEY_PARAM_PUB_KEY, encoded, sizeof encoded, &encoded_length) != 1) goto done;
    verifier->curve = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1);
    if (verifier->curve == NULL) goto done;
    verifier->key_curve = EC_GROUP_dup(verifier->curve);
    q = EC_POINT_new(verifier->curve);
    /* oct2point refuses a point off the curve; P-256's cofactor is 1, so any other point
     * but infinity has the group's order and can serve as a generator. */
    if (verifier->key_curve == NULL || q == NULL
        || EC_POINT_oct2point(verifier->curve, q, encoded, encoded_length, ctx) != 1
        || EC_POINT_is_at_infinity(verifier->curve, q)
        || EC_GROUP_set_generator(verifier->key_curve, q, EC_GROUP_get0_order(verifier->curve), BN_value_one()) != 1
        || EC_GROUP_precompute_mult(verifier->key_curve, ctx) != 1) goto done;
    ok = 1;
done:
    EC_POINT_free(q);
    BN_CTX_free(ctx);
    ERR_clear_error();
    if (!ok) { ledger_p256_fast_verifier_free(verifier); return NULL; }
    return verifier;
}

/* ECDSA verification (SEC 1 v2 §4.1.4, FIPS 186-4 §6.4.2) of raw r||s over SHA-256(message):
 * r and s in [1, n-1]; w = s^-1 mod n; u1 = e·w, u2 = r·w mod n; R = u1·G + u2·Q not at
 * infinity; valid when R.x mod n = r. e is the digest as a 256-bit integer: P-256's order
 * has 256 bits, so no truncation applies. */
int ledger_p256_fast_verify(const ledger_p256_fast_verifier *verifier, const uint8_t *message, size_t length,
                            const uint8_t signature[64]) {
    uint8_t digest[32];
    if (!ledger_sha256_prefetched(message, length, digest)) return 0;
    int ok = 0;
    EC_POINT *from_g = NULL, *from_q = NULL;
    BN_CTX *ctx = BN_CTX_new();
    if (ctx == NULL) goto done;
    BN_CTX_start(ctx);
    BIGNUM *r = BN_CTX_get(ctx), *s = BN_CTX_get(ctx), *e = BN_CTX_get(ctx), *w = BN_CTX_get(ctx);
    BIGNUM *u1 = BN_CTX_get(ctx), *u2 = BN_CTX_get(ctx), *x = BN_CTX_get(ctx);
    if (x == NULL) goto done;
    const BIGNUM *n = EC_GROUP_get0_order(verifier->curve);
    if (BN_bin2bn(signature, 32, r) == NULL || BN_bin2bn(signature + 32, 32, s) == NULL
        || BN_bin2bn(digest, 32, e) == NULL) goto done;
    if (BN_is_zero(r) || BN_is_zero(s) || BN_cmp(r, n) >= 0 || BN_cmp(s, n) >= 0) goto done;
    uint8_t order_bytes[32], inverse_bytes[32];
    if (BN_bn2binpad(n, order_bytes, 32) != 32) goto done;
    u256 order = u256_from_bytes(order_bytes), s_value = u256_from_bytes(signature + 32), inverse;
    if (!u256_inverse(&inverse, &s_value, &order)) goto done;
    u256_to_bytes(&inverse, inverse_bytes);
    if (BN_bin2bn(inverse_bytes, 32, w) == NULL
        || BN_mod_mul(u1, e, w, n, ctx) != 1 || BN_mod_mul(u2, r, w, n, ctx) != 1) goto done;
    from_g = EC_POINT_new(verifier->curve);
    from_q = EC_POINT_new(verifier->curve);
    if (from_g == NULL || from_q == NULL
        || EC_POINT_mul(verifier->curve, from_g, u1, NULL, NULL, ctx) != 1
        || EC_POINT_mul(verifier->key_curve, from_q, u2, NULL, NULL, ctx) != 1
        || EC_POINT_add(verifier->curve, from_g, from_g, from_q, ctx) != 1
        || EC_POINT_is_at_infinity(verifier->curve, from_g)
        || EC_POINT_get_affine_coordinates(verifier->curve, from_g, x, NULL, ctx) != 1
        || BN_nnmod(x, x, n, ctx) != 1) goto done;
    ok = BN_cmp(x, r) == 0;
done:
    EC_POINT_free(from_q);
    EC_POINT_free(from_g);
    if (ctx != NULL) BN_CTX_end(ctx);
    BN_CTX_free(ctx);
    ERR_clear_error();
    return ok;
}
