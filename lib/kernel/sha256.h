/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sha256.h - SHA-256 (FIPS 180-4, by libmd) of a file, for the image bench vm
 * boots (its metadata records which bzImage it was, byte for byte).
 * No state; prints nothing.
 */
#ifndef KSB_SHA256_H
#define KSB_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define SHA256_HEX	65		/* 64 hex digits and the NUL */

/**
 * sha256_buf - the digest of @len bytes at @buf, as lower-case hex into @hex.
 */
void sha256_buf(const void *buf, size_t len, char hex[SHA256_HEX]);

/**
 * sha256_file - the digest of the file @path into @hex. Returns 0, or
 * -errno of opening or reading it.
 */
int sha256_file(const char *path, char hex[SHA256_HEX]);

#endif /* KSB_SHA256_H */
