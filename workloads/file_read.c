// SPDX-License-Identifier: GPL-2.0
/*
 * file_read.c - open, read to EOF and close one file per sample,
 * --path FILE (default /proc/stat): a kernel read path as user space
 * sees it. /proc/stat is the default because show_stat() and
 * nr_iowait() loop over every possible CPU, and its text grows with
 * them: the intr line holds a count per interrupt, and nr_irqs grows
 * with nr_cpu_ids. So the bytes read per call go into the metadata
 * (read_bytes), to read a sweep's slope against.
 *
 * The buffer is sized at check() from one read of the file (twice its
 * size, 64 KiB to 1 MiB), so that a sample is one read() that fills and
 * one that meets EOF; read_calls says how many it took.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/subcmd/options.h"
#include "kentry.h"

#define FILE_READ_BUF_MIN	(64u << 10)
#define FILE_READ_BUF_MAX	(1u << 20)
/* the bytes one sample may read: a file that grows without end stops here */
#define FILE_READ_LIMIT		(64u << 20)
/* never wait for data: a file with none yet (/proc/kmsg) fails, EAGAIN */
#define FILE_READ_FLAGS		(O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)

static const char *file_read_path = "/proc/stat";	/* --path */
/* what the one variant times, with the path: the results' variant_read */
static char file_read_what[192] = "open(/proc/stat), read(2) to EOF, close";
static size_t file_read_len = FILE_READ_BUF_MIN;	/* each worker's buffer */

/* every worker's figures, folded at teardown for stats() */
static struct {
	pthread_mutex_t lock;
	uint64_t bytes_min, bytes_max;	/* bytes read per sample */
	unsigned int calls_max;		/* read() calls per sample, EOF's included */
	int err;			/* first sample's -errno */
} file_read_sum = { .lock = PTHREAD_MUTEX_INITIALIZER, .bytes_min = UINT64_MAX };

struct file_read {
	char *buf;			/* read into, file_read_len bytes */
	uint64_t bytes;			/* the last sample's bytes */
	unsigned int calls;		/* its read() calls */
	int err;			/* -errno of a failed sample, sticky */
	uint64_t bytes_min, bytes_max;	/* over this worker's samples */
	unsigned int calls_max;
};

static const struct opt file_read_opts[] = {
	OPT_GROUP("file-read:"),
	OPT_STRING(0, "path", &file_read_path, "FILE",
		   "the file each sample opens, reads to EOF and\n"
		   "closes (default /proc/stat)"),
	OPT_END()
};

static const struct opt *const file_read_tables[] = { file_read_opts, NULL };

/*
 * The file's bytes, read to EOF in @chunk-byte reads; -errno on failure:
 * -EINVAL for anything not regular, checked before open() (a FIFO would
 * wait there for a writer, a socket cannot be opened), -EAGAIN for a file
 * that would block, -EFBIG past FILE_READ_LIMIT.
 */
static int64_t file_read_size(const char *path, char *chunk, size_t len)
{
	int64_t total = 0;
	struct stat st;
	ssize_t n;
	int fd;

	if (stat(path, &st))
		return -errno;
	if (!S_ISREG(st.st_mode))
		return S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
	fd = open(path, FILE_READ_FLAGS);
	if (fd < 0)
		return -errno;
	/* replaced since stat(): the same rule */
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
	}
	while (total <= FILE_READ_LIMIT && (n = read(fd, chunk, len)) > 0)
		total += n;
	if (total > FILE_READ_LIMIT)
		total = -EFBIG;
	else if (n < 0)
		total = -errno;
	close(fd);
	return total;
}

/* why --path cannot be a sample's file */
static const char *file_read_why(int64_t n)
{
	switch (n) {
	case -EINVAL:
		return "not a regular file (a sample must reach EOF)";
	case -EAGAIN:
		return "a read would block (a sample must reach EOF without waiting)";
	case -EFBIG:
		return "no EOF within 64 MiB (a sample reads at most that)";
	default:
		return strerror((int)-n);
	}
}

/*
 * Before anything is set up: the path must open and read to EOF, which
 * also sizes the buffer; the folded figures start afresh.
 */
static int file_read_check(unsigned int nr_possible, char *why, size_t len)
{
	const char *p = file_read_path;
	char *chunk = malloc(FILE_READ_BUF_MIN);
	int64_t n;

	(void)nr_possible;
	if (!chunk)
		return -ENOMEM;
	n = strchr(p, '\n') ? -EINVAL : file_read_size(p, chunk, FILE_READ_BUF_MIN);
	free(chunk);
	if (n < 0) {
		snprintf(why, len, "--path: %s: %s", p, file_read_why(n));
		return -EINVAL;
	}
	file_read_len = FILE_READ_BUF_MIN;
	while (file_read_len < 2 * (uint64_t)n && file_read_len < FILE_READ_BUF_MAX)
		file_read_len *= 2;
	snprintf(file_read_what, sizeof(file_read_what), "open(%s), read(2) to EOF, close", p);
	file_read_sum.bytes_min = UINT64_MAX;
	file_read_sum.bytes_max = 0;
	file_read_sum.calls_max = 0;
	file_read_sum.err = 0;
	return 0;
}

static int file_read_setup(const struct wl_env *env, void **priv)
{
	struct file_read *f = calloc(1, sizeof(*f));

	(void)env;
	if (!f)
		return -ENOMEM;
	f->buf = malloc(file_read_len);	/* pinned: on our node */
	if (!f->buf) {
		free(f);
		return -ENOMEM;
	}
	memset(f->buf, 0, file_read_len);	/* faulted in now, not in a sample */
	f->bytes_min = UINT64_MAX;
	*priv = f;
	return 0;
}

/* a sample that failed ends the worker's run here, with its errno */
static int file_read_prepare(void *priv, enum wl_variant v, void **obj)
{
	struct file_read *f = priv;

	(void)v;
	*obj = NULL;
	return f->err;
}

static void file_read_sample(void *priv)
{
	struct file_read *f = priv;
	int fd = open(file_read_path, FILE_READ_FLAGS);
	ssize_t n;

	f->bytes = 0;
	f->calls = 0;
	if (fd < 0) {
		f->err = -errno;
		return;
	}
	do {
		n = read(fd, f->buf, file_read_len);
		f->calls++;
		if (n > 0)
			f->bytes += (uint64_t)n;
	} while (n > 0 && f->bytes <= FILE_READ_LIMIT);
	if (n < 0)
		f->err = -errno;
	else if (f->bytes > FILE_READ_LIMIT)
		f->err = -EFBIG;
	close(fd);
}

static void file_read_finish(void *priv, enum wl_variant v)
{
	struct file_read *f = priv;

	(void)v;
	if (f->err)
		return;
	if (f->bytes < f->bytes_min)
		f->bytes_min = f->bytes;
	if (f->bytes > f->bytes_max)
		f->bytes_max = f->bytes;
	if (f->calls > f->calls_max)
		f->calls_max = f->calls;
}

static void file_read_teardown(void *priv)
{
	struct file_read *f = priv;

	pthread_mutex_lock(&file_read_sum.lock);
	if (f->bytes_min < file_read_sum.bytes_min)
		file_read_sum.bytes_min = f->bytes_min;
	if (f->bytes_max > file_read_sum.bytes_max)
		file_read_sum.bytes_max = f->bytes_max;
	if (f->calls_max > file_read_sum.calls_max)
		file_read_sum.calls_max = f->calls_max;
	if (!file_read_sum.err)
		file_read_sum.err = f->err;
	pthread_mutex_unlock(&file_read_sum.lock);
	free(f->buf);
	free(f);
}

/* read_path, read_bytes (the largest per call), read_bytes_min, read_calls, read_buffer */
static unsigned int file_read_stats(struct wl_stat *st, unsigned int max, int *err)
{
	uint64_t lo = file_read_sum.bytes_min;
	unsigned int n = 0;

	*err = file_read_sum.err ? -EIO : 0;
	if (max < 6)
		return 0;
	st[n].key = "read_path";
	snprintf(st[n++].val, sizeof(st[0].val), "%s", file_read_path);
	st[n].key = "read_bytes";
	snprintf(st[n++].val, sizeof(st[0].val), "%lu", (unsigned long)file_read_sum.bytes_max);
	st[n].key = "read_bytes_min";
	snprintf(st[n++].val, sizeof(st[0].val), "%lu", lo == UINT64_MAX ? 0ul : (unsigned long)lo);
	st[n].key = "read_calls";
	snprintf(st[n++].val, sizeof(st[0].val), "%u", file_read_sum.calls_max);
	st[n].key = "read_buffer";
	snprintf(st[n++].val, sizeof(st[0].val), "%lu", (unsigned long)file_read_len);
	if (file_read_sum.err) {
		st[n].key = "read_error";
		snprintf(st[n++].val, sizeof(st[0].val), "%s", strerror(-file_read_sum.err));
	}
	return n;
}

static const char *file_read_input(void)
{
	return file_read_path;
}

const struct workload wl_file_read = {
	.name = "file-read",
	.summary = "open, read to EOF, close --path (default /proc/stat) per sample",
	.label = { "read" },
	.variant = { file_read_what },
	.nr_variants = 1,
	.real_kernel = true,
	.setup = file_read_setup,
	.prepare = file_read_prepare,
	.sample = { file_read_sample },
	.finish = file_read_finish,
	.teardown = file_read_teardown,
	.stats = file_read_stats,
	.options = file_read_tables,
	.check = file_read_check,
	.input = file_read_input,
};
