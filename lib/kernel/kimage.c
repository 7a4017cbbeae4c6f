// SPDX-License-Identifier: GPL-2.0
/*
 * kimage.c - the checks of kimage.h, on the files' own bytes.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/kernel/kimage.h"

#define KIMAGE_MAX_KO	(64 << 20)	/* a module larger than this is not one */

/* @len bytes at @off of @fd into @buf: 0, -EINVAL when short, -errno */
static int kimage_pread(int fd, void *buf, size_t len, off_t off)
{
	ssize_t n = pread(fd, buf, len, off);

	if (n < 0)
		return -errno;
	return (size_t)n == len ? 0 : -EINVAL;
}

/* the first word of @s (at most @n bytes) into @rel; -EINVAL if none */
static int kimage_word(const char *s, size_t n, char *rel, size_t len)
{
	size_t w = 0;

	while (w < n && s[w] > ' ' && s[w] < 0x7f)
		w++;
	if (!w || w >= len)
		return -EINVAL;
	memcpy(rel, s, w);
	rel[w] = 0;
	return 0;
}

int kimage_bzimage_release(const char *path, char *rel, size_t len)
{
	unsigned char hdr[0x210];
	char ver[128];
	uint16_t proto, off;
	int fd, ret;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = kimage_pread(fd, hdr, sizeof(hdr), 0);
	if (ret)
		goto out_close;
	memcpy(&proto, hdr + 0x206, 2);
	memcpy(&off, hdr + 0x20e, 2);
	ret = -EINVAL;
	if (memcmp(hdr + 0x202, "HdrS", 4) || proto < 0x200 || !off)
		goto out_close;
	memset(ver, 0, sizeof(ver));
	if (pread(fd, ver, sizeof(ver) - 1, (off_t)off + 0x200) > 0)
		ret = kimage_word(ver, sizeof(ver), rel, len);
out_close:
	close(fd);
	return ret;
}

int kimage_ko_release(const char *path, char *rel, size_t len)
{
	static const char key[] = "vermagic=";
	struct stat st;
	char *buf, *p;
	int fd, ret;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = fstat(fd, &st) ? -errno : 0;
	if (!ret && (st.st_size <= 0 || st.st_size > KIMAGE_MAX_KO))
		ret = -EINVAL;
	buf = ret ? NULL : malloc((size_t)st.st_size);
	if (!ret && !buf)
		ret = -ENOMEM;
	if (!ret)
		ret = kimage_pread(fd, buf, (size_t)st.st_size, 0);
	close(fd);
	if (!ret) {
		/* .modinfo strings are NUL-separated: "vermagic=" starts one */
		p = memmem(buf, (size_t)st.st_size, key, sizeof(key) - 1);
		while (p && p > buf && p[-1])
			p = memmem(p + 1, (size_t)(buf + st.st_size - p - 1), key, sizeof(key) - 1);
		ret = p ? kimage_word(p + sizeof(key) - 1,
				      (size_t)(buf + st.st_size - p) - (sizeof(key) - 1), rel, len)
			: -EINVAL;
	}
	free(buf);
	return ret;
}

int kimage_tree_release(const char *dir, char *rel, size_t len)
{
	char path[4096], line[KIMAGE_RELEASE_MAX + 2];
	FILE *f;
	int ret;

	snprintf(path, sizeof(path), "%s/include/config/kernel.release", dir);
	f = fopen(path, "re");
	if (!f)
		return errno == ENOTDIR ? -ENOENT : -errno;
	ret = fgets(line, sizeof(line), f) ? kimage_word(line, strlen(line), rel, len) : -ENOENT;
	fclose(f);
	return ret == -EINVAL ? -ENOENT : ret;
}

int kimage_elf_static(const char *path)
{
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	int fd, ret;
	unsigned int i;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = kimage_pread(fd, &eh, sizeof(eh), 0);
	if (!ret && (memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
		     eh.e_phentsize != sizeof(ph)))
		ret = -EINVAL;
	for (i = 0; !ret && i < eh.e_phnum; i++) {
		ret = kimage_pread(fd, &ph, sizeof(ph), (off_t)(eh.e_phoff + i * sizeof(ph)));
		if (!ret && ph.p_type == PT_INTERP)
			break;
	}
	close(fd);
	if (ret)
		return ret;
	return i == eh.e_phnum;
}
