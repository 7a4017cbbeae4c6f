/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cpio.h - write an initramfs: the "newc" cpio archive the kernel
 * unpacks into its rootfs before it runs /init
 * (Documentation/driver-api/early-userspace/buffer-format.rst).
 *
 *	struct cpio c;
 *	cpio_begin(&c, f);
 *	cpio_dir(&c, "bin", 0755);
 *	cpio_node(&c, "dev/console", 0600, 5, 1);	a char device, no root
 *	cpio_file(&c, "bin/busybox", 0755, "/bin/busybox");
 *	cpio_data(&c, "init", 0755, script, strlen(script));
 *	ret = cpio_end(&c);				the trailer; first error
 *
 * Each entry is a 110-byte header of 13 eight-digit hex fields, the
 * name and its NUL padded to 4 bytes, then the data padded to 4 bytes.
 * Uncompressed: every kernel unpacks that, whatever its RD_* options.
 * Device nodes are written as entries, so nobody needs root to make
 * them. Why not libarchive: bench-static links everything statically,
 * and libarchive.a pulls in a dozen compression and ACL libraries for
 * what is 13 hex fields here.
 *
 * A struct cpio belongs to one thread; nothing else is shared.
 */
#ifndef KSB_CPIO_H
#define KSB_CPIO_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct cpio {
	FILE *f;			/* where the archive goes */
	uint32_t ino;			/* next inode number, from 1 */
	int err;			/* first error (-errno), 0 = none */
};

/**
 * cpio_begin - start an archive on @f.
 */
void cpio_begin(struct cpio *c, FILE *f);

/**
 * cpio_dir, cpio_node, cpio_data, cpio_file - add a directory, a
 * character device @major:@minor, a regular file holding @len bytes of
 * @buf, or one holding the contents of the file @src. @name is relative
 * ("bin/busybox"); @mode holds the permission bits only. Return 0, or
 * -EINVAL for an empty or absolute name, -EFBIG for a file of 4 GiB or
 * more, -errno reading @src or writing; an error sticks (later calls
 * return it and write nothing).
 */
int cpio_dir(struct cpio *c, const char *name, unsigned int mode);
int cpio_node(struct cpio *c, const char *name, unsigned int mode,
	      unsigned int major, unsigned int minor);
int cpio_data(struct cpio *c, const char *name, unsigned int mode,
	      const void *buf, size_t len);
int cpio_file(struct cpio *c, const char *name, unsigned int mode,
	      const char *src);

/**
 * cpio_end - the "TRAILER!!!" entry and a flush. Returns 0 or the
 * first error of the archive. @c's FILE stays open: the caller's.
 */
int cpio_end(struct cpio *c);

#endif /* KSB_CPIO_H */
