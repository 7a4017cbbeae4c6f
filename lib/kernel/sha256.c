// SPDX-License-Identifier: GPL-2.0
/*
 * sha256.c - SHA-256 of the image bench vm boots, by libmd (Debian's
 * libmd-dev, the BSD message-digest library): a digest is no place for
 * code of our own.
 */
#include <errno.h>
#include <sys/types.h>

#include <sha2.h>

#include "lib/kernel/sha256.h"

_Static_assert(SHA256_HEX == SHA256_DIGEST_STRING_LENGTH, "64 hex digits and the NUL");

void sha256_buf(const void *buf, size_t len, char hex[SHA256_HEX])
{
	SHA256Data(buf, len, hex);
}

int sha256_file(const char *path, char hex[SHA256_HEX])
{
	errno = 0;
	if (!SHA256File(path, hex))
		return errno ? -errno : -EIO;
	return 0;
}
