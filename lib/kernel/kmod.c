// SPDX-License-Identifier: GPL-2.0
/*
 * kmod.c - the module's control and results files (see kmod.h).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kstats_hist.h"
#include "lib/kernel/kmod.h"
#include "lib/results/meta.h"
#include "lib/results/results.h"
#include "lib/subcmd/spawn.h"

int kmod_control(const char *cmd)
{
	int fd = open(KMOD_DIR "/control", O_WRONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, cmd, strlen(cmd));
	if (n < 0)
		n = -errno;
	close(fd);
	return n < 0 ? (int)n : 0;
}

int kmod_read_results(char **text)
{
	size_t cap = 1 << 16, len = 0;
	int fd = open(KMOD_DIR "/results", O_RDONLY | O_CLOEXEC);
	ssize_t n;
	char *p;

	if (fd < 0)
		return -errno;
	free(*text);
	*text = NULL;
	for (;;) {
		p = realloc(*text, cap + 1);
		if (!p) {
			close(fd);
			return -ENOMEM;
		}
		*text = p;
		n = read(fd, *text + len, cap - len);
		if (n <= 0)
			break;
		len += (size_t)n;
		if (len == cap)
			cap *= 2;
	}
	close(fd);
	if (n < 0)
		return -errno;
	(*text)[len] = 0;
	return 0;
}

/* parse state: the series being filled and what its hist line said */
struct kmod_parse {
	struct results *r;		/* being built */
	struct meta *hdr;		/* the "key value" lines */
	struct kmod_error *err;		/* where, what */
	struct results_series *cur;	/* the last hist line's series */
	unsigned long long n, min, max;	/* its n, min, max */
	unsigned long long seen;	/* the counts of its slot lines so far */
};

static int kmod_bad(struct kmod_parse *p, const char *why)
{
	snprintf(p->err->why, sizeof(p->err->why), "%s", why);
	return -EINVAL;
}

/* the end of a hist's slot lines: n, min and max as the module said */
static int kmod_close_hist(struct kmod_parse *p)
{
	if (!p->cur)
		return 0;
	if (p->seen != p->n)
		return kmod_bad(p, "n is not the sum of its slots' counts");
	if (p->n && kstats_hist_set_range(p->cur->h, p->min, p->max))
		return kmod_bad(p, "min and max not in the first and last slot");
	p->cur = NULL;
	return 0;
}

static int kmod_hist_line(struct kmod_parse *p, const char *l)
{
	struct results_label lb = { .run = RESULTS_RUN_ALL };
	char v[32];
	int used = 0, ret = kmod_close_hist(p);

	if (ret)
		return ret;
	if (sscanf(l, "hist %31s %d %d %llu %llu %llu%n", v, &lb.cpu, &lb.node, &p->n, &p->min,
		   &p->max, &used) != 6 || l[used])
		return kmod_bad(p, "a hist line that does not fit");
	lb.workload = meta_get(p->hdr, "workload");
	lb.variant = v;
	if (!lb.workload)
		return kmod_bad(p, "a hist line before the workload line");
	if (lb.cpu < 0)
		lb.cpu = RESULTS_CPU_ALL;
	p->cur = results_series(p->r, &lb);
	if (!p->cur)
		return errno == ENOMEM ? -ENOMEM : kmod_bad(p, "a hist line out of range");
	p->seen = 0;
	return 0;
}

static int kmod_slot_line(struct kmod_parse *p, const char *l)
{
	unsigned long long slot, count, hi, lo;
	int used = 0;

	if (sscanf(l, "%llu %llu %llu %llu%n", &slot, &count, &hi, &lo, &used) != 4 || l[used] ||
	    !p->cur || count > UINT64_MAX - p->seen ||
	    kstats_hist_add_slot(p->cur->h, (unsigned int)slot, count, hi, lo))
		return kmod_bad(p, "a slot line that does not fit");
	p->seen += count;
	return 0;
}

static int kmod_line(struct kmod_parse *p, char *l, unsigned long line)
{
	char *sp = strchr(l, ' ');

	if (line == 1)
		return strcmp(l, KMOD_MAGIC) ? kmod_bad(p, "not '" KMOD_MAGIC "'") : 0;
	if (!strcmp(l, "end"))
		return kmod_close_hist(p);
	if (!strncmp(l, "hist ", 5))
		return kmod_hist_line(p, l);
	if (*l >= '0' && *l <= '9')
		return kmod_slot_line(p, l);
	if (p->cur || !sp || sp == l || sp - l >= META_KEY)
		return kmod_bad(p, "unexpected line");
	*sp = 0;
	meta_set(p->hdr, l, "%s", sp + 1);
	return 0;
}

int kmod_parse(char *text, unsigned int fb, struct meta *hdr, struct results **out,
	       struct kmod_error *err)
{
	struct kmod_parse p = { .hdr = hdr, .err = err };
	char *save = NULL, *l;
	int ret = 0;

	memset(err, 0, sizeof(*err));
	*out = NULL;
	p.r = results_create(fb);
	if (!p.r)
		return errno == EINVAL ? kmod_bad(&p, "frac_bits out of range") : -ENOMEM;
	for (l = strtok_r(text, "\n", &save); l && !ret; l = strtok_r(NULL, "\n", &save)) {
		err->line++;
		ret = kmod_line(&p, l, err->line);
	}
	if (!ret)
		ret = kmod_close_hist(&p);
	if (ret) {
		results_free(p.r);
		return ret;
	}
	*out = p.r;
	return 0;
}

/* ---- the module's sources ---- */

/* the first module directory beside bench that holds the file @name */
static int kmod_find(char *dir, size_t len, const char *name)
{
	static const char *const where[] = { "kmod", "../share/kstats-bench/kmod", NULL };
	char exe[PATH_MAX], probe[PATH_MAX + 64];
	unsigned int i;

	if (spawn_exe_dir(exe, sizeof(exe)))
		return -ENOENT;
	for (i = 0; where[i]; i++) {
		snprintf(probe, sizeof(probe), "%s/%s/%s", exe, where[i], name);
		if (!access(probe, R_OK)) {
			snprintf(dir, len, "%s/%s", exe, where[i]);
			return 0;
		}
	}
	return -ENOENT;
}

int kmod_src_dir(char *dir, size_t len)
{
	return kmod_find(dir, len, KMOD_SRC_MARK);
}

int kmod_dir(char *dir, size_t len)
{
	return kmod_src_dir(dir, len) ? kmod_find(dir, len, KMOD_NAME ".ko") : 0;
}

/* one of the module's sources: Kbuild, Makefile, ksb*.c, ksb*.h */
static bool kmod_is_src(const char *name)
{
	size_t n = strlen(name);

	if (!strcmp(name, "Kbuild") || !strcmp(name, "Makefile"))
		return true;
	return !strncmp(name, "ksb", 3) && n >= 5 && name[n - 2] == '.' &&
	       (name[n - 1] == 'c' || name[n - 1] == 'h');
}

/* copy the file @name from @src into @dst */
static int kmod_copy_one(const char *src, const char *dst, const char *name)
{
	char from[PATH_MAX + 256], to[PATH_MAX + 256], buf[1 << 16];
	ssize_t n = 0;
	int in, out, ret;

	snprintf(from, sizeof(from), "%s/%s", src, name);
	snprintf(to, sizeof(to), "%s/%s", dst, name);
	errno = 0;
	in = open(from, O_RDONLY | O_CLOEXEC);
	out = in < 0 ? -1 : open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	while (out >= 0 && (n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n)
			break;
	ret = in < 0 || out < 0 || n ? (errno ? -errno : -EIO) : 0;
	if (in >= 0)
		close(in);
	if (out >= 0)
		close(out);
	return ret;
}

/* copy the module's sources (kmod_is_src()) from @src into the directory @dst */
static int kmod_copy_src(const char *src, const char *dst)
{
	struct dirent *de;
	DIR *d;
	int ret = 0;

	d = opendir(src);
	if (!d)
		return -errno;
	while (!ret && (de = readdir(d)))
		if (kmod_is_src(de->d_name))
			ret = kmod_copy_one(src, dst, de->d_name);
	closedir(d);
	return ret;
}

int kmod_build(const char *tree, const char *dst, int log_fd)
{
	char src[PATH_MAX], at[PATH_MAX], mflag[PATH_MAX + 4];
	char *args[] = { mflag, "modules", NULL };
	int ret = kmod_src_dir(src, sizeof(src));

	if (ret)
		return ret;
	if (!dst) {
		snprintf(mflag, sizeof(mflag), "M=%s", src);
		return spawn_make(tree, args, log_fd);
	}
	if (mkdir(dst, 0755))
		return -errno;
	ret = kmod_copy_src(src, dst);
	/* kbuild runs in @tree: M= must not be relative to here */
	if (!ret && !realpath(dst, at))
		ret = -errno;
	if (!ret) {
		snprintf(mflag, sizeof(mflag), "M=%s", at);
		ret = spawn_make(tree, args, log_fd);
	}
	/* a failed build leaves no directory: the same command can run again */
	if (ret)
		spawn_remove_tree(dst);
	return ret;
}

void kmod_build_why(char *why, size_t len, int ret, const char *tree, const char *dir)
{
	if (ret == -ENOENT)
		snprintf(why, len, "%s", KMOD_NO_SRC);
	else if (ret < 0)
		snprintf(why, len, "copying the module's sources to %s: %s", dir, strerror(-ret));
	else
		snprintf(why, len, "building the module against %s failed (make -C %s M=%s modules)",
			 tree, tree, dir);
}
