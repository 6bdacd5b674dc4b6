/*
 * auth.c — see auth.h.  The Argon2id cost is OWASP's minimum (2 passes
 * over 19 MiB): about 30 ms here, paid on the event loop at each register
 * and login.
 */
#include "auth.h"

#include <ctype.h>
#include <sodium.h>
#include <string.h>

#define PWHASH_OPS 2
#define PWHASH_MEM (19u * 1024 * 1024)

bool auth_init(void) { return sodium_init() >= 0; }

bool auth_password_hash(const char *password, char out[AUTH_HASH_TEXT])
{
    _Static_assert(AUTH_HASH_TEXT >= crypto_pwhash_STRBYTES, "room for the hash");
    return crypto_pwhash_str(out, password, strlen(password), PWHASH_OPS, PWHASH_MEM) == 0;
}

bool auth_password_check(const char *hash, const char *password)
{
    return hash[0] && crypto_pwhash_str_verify(hash, password, strlen(password)) == 0;
}

void auth_token_new(char text[AUTH_TOKEN_TEXT], uint8_t hash[32])
{
    uint8_t raw[32];
    randombytes_buf(raw, sizeof raw);
    sodium_bin2base64(text, AUTH_TOKEN_TEXT, raw, sizeof raw,
                      sodium_base64_VARIANT_URLSAFE_NO_PADDING);
    crypto_generichash(hash, 32, raw, sizeof raw, NULL, 0);
    sodium_memzero(raw, sizeof raw);
}

bool auth_token_hash(const char *text, uint8_t hash[32])
{
    uint8_t raw[32];
    size_t len = 0;
    if (strlen(text) != 43 ||
        sodium_base642bin(raw, sizeof raw, text, strlen(text), NULL, &len, NULL,
                          sodium_base64_VARIANT_URLSAFE_NO_PADDING) != 0 ||
        len != sizeof raw)
        return false;
    crypto_generichash(hash, 32, raw, sizeof raw, NULL, 0);
    return true;
}

bool auth_name_valid(const char *name)
{
    size_t n = strlen(name);
    if (n < 1 || n > 24)
        return false;
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)name[i];
        if (!(isalnum(ch) || ch == '_' || ch == '-' || ch == '.') || ch > 127)
            return false;
    }
    return true;
}

void auth_random_hex(char *out, size_t nbytes)
{
    uint8_t raw[32];
    if (nbytes > sizeof raw)
        nbytes = sizeof raw;
    randombytes_buf(raw, nbytes);
    sodium_bin2hex(out, 2 * nbytes + 1, raw, nbytes);
}

uint64_t auth_random_u64(void)
{
    uint64_t v;
    randombytes_buf(&v, sizeof v);
    return v;
}
