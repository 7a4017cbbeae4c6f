/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kimage.h - what bench vm checks in the files it boots, before it
 * boots anything: the release a bzImage was built as, the release a
 * module was built for, whether a program is statically linked (the
 * initramfs has no shared libraries), the release of a kernel build
 * tree.
 *
 *	kimage_bzimage_release("arch/x86/boot/bzImage", rel, sizeof(rel));
 *		"6.12.117": the first word of the setup header's
 *		kernel_version string (Documentation/arch/x86/boot.rst:
 *		"HdrS" at 0x202, the string at 0x200 + the u16 at 0x20e)
 *	kimage_ko_release("kstats_bench.ko", rel, sizeof(rel));
 *		the first word of its "vermagic=" .modinfo string
 *	kimage_tree_release("/usr/src/linux", rel, sizeof(rel));
 *		include/config/kernel.release of a configured tree
 *
 * Stateless and thread-safe; each call opens and closes its file.
 */
#ifndef KSB_KIMAGE_H
#define KSB_KIMAGE_H

#include <stddef.h>

/* releases are at most this long, as uname's */
#define KIMAGE_RELEASE_MAX	65

/**
 * kimage_bzimage_release - the release of the bzImage @path into @rel
 * (@len bytes). Returns 0; -EINVAL when @path is not a bzImage (no
 * "HdrS" signature, a boot protocol before 2.00, no version string);
 * -errno when it cannot be read.
 */
int kimage_bzimage_release(const char *path, char *rel, size_t len);

/**
 * kimage_ko_release - the release module @path was built for (its
 * vermagic). Returns 0; -EINVAL when it has no vermagic (not a module);
 * -errno when it cannot be read.
 */
int kimage_ko_release(const char *path, char *rel, size_t len);

/**
 * kimage_tree_release - the release of the kernel build tree @dir, from
 * include/config/kernel.release (written by make prepare). Returns 0;
 * -ENOENT when @dir is not a configured, prepared tree; -errno.
 */
int kimage_tree_release(const char *dir, char *rel, size_t len);

/**
 * kimage_elf_static - is the ELF program @path statically linked (no
 * PT_INTERP)? Returns 1 static, 0 dynamic, -EINVAL not a 64-bit ELF
 * file, -errno.
 */
int kimage_elf_static(const char *path);

#endif /* KSB_KIMAGE_H */
