/*
 * auth.h — passwords and tokens with libsodium: passwords as Argon2id
 * strings (crypto_pwhash_str), session and guest tokens as 32 random bytes
 * from the system's source, given to the client in base64url and stored
 * only as their BLAKE2b hash.
 */
#ifndef TENGEN_SERVER_AUTH_H
#define TENGEN_SERVER_AUTH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define AUTH_TOKEN_TEXT 48   /* base64url of 32 bytes, with the NUL */
#define AUTH_HASH_TEXT 160

bool auth_init(void);
/* Argon2id hash of a password; false when out of memory. */
bool auth_password_hash(const char *password, char out[AUTH_HASH_TEXT]);
bool auth_password_check(const char *hash, const char *password);
/* A new token: its text for the client and its hash for the store. */
void auth_token_new(char text[AUTH_TOKEN_TEXT], uint8_t hash[32]);
/* The hash of a token's text; false when the text is not a token. */
bool auth_token_hash(const char *text, uint8_t hash[32]);
/* A name is 1..24 letters, digits, '_', '-', '.'. */
bool auth_name_valid(const char *name);
/* n random bytes as hex (2n characters and a NUL). */
void auth_random_hex(char *out, size_t nbytes);
uint64_t auth_random_u64(void);

#endif
