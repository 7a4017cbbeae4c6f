// SPDX-License-Identifier: GPL-2.0
/*
 * test_outfile.c - the output-path rules of lib/subcmd/outfile.c: regular files
 * replaced through a temp file with their mode kept, symlinks (absolute,
 * relative, dangling, chains, loops) resolved to what they name, FIFOs,
 * character devices and /proc magic links written in place, "-" as
 * standard output, write errors kept with their errno, and never a temp
 * file left behind. Everything happens in a private temp directory.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "lib/subcmd/outfile.h"

static char dir[] = "/tmp/ksb-outfile.XXXXXX";

/* dir/NAME in static buffer SLOT: 0 and 1 for arguments, 2 kept by a test */
static const char *at(int slot, const char *name)
{
	static char buf[4][256];

	snprintf(buf[slot], sizeof(buf[slot]), "%s/%s", dir, name);
	return buf[slot];
}

static void put(const char *path, const char *text, mode_t mode)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(chmod(path, mode), 0);
}

/* the file's whole text (short files only) */
static const char *get(const char *path)
{
	static char buf[256];
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return "(missing)";
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* temp files left anywhere under dir (one level of subdirectories) */
static int temps(const char *sub)
{
	char path[256];
	struct dirent *d;
	DIR *dh;
	int n = 0;

	snprintf(path, sizeof(path), "%s%s%s", dir, sub ? "/" : "", sub ? sub : "");
	dh = opendir(path);
	assert_non_null(dh);
	while ((d = readdir(dh)))
		n += !strncmp(d->d_name, ".kstats-bench.", 14);
	closedir(dh);
	return n;
}

static mode_t mode_of(const char *path)
{
	struct stat st;

	assert_int_equal(lstat(path, &st), 0);
	return st.st_mode;
}

/* open, write @text, commit; returns commit's result */
static int write_to(const char *path, const char *text, enum outfile_how how)
{
	struct outfile o;

	assert_int_equal(outfile_open(&o, path), 0);
	assert_int_equal(o.how, how);
	fputs(text, o.f);
	return outfile_commit(&o);
}

static void test_new_and_replaced_files(void **state)
{
	struct outfile o;

	(void)state;
	umask(077);
	assert_int_equal(write_to(at(0, "new"), "one\n", OUTFILE_REPLACE), 0);
	assert_string_equal(get(at(0, "new")), "one\n");
	assert_int_equal(mode_of(at(0, "new")) & 07777, 0644);
	umask(022);
	put(at(0, "private"), "old\n", 0600);
	assert_int_equal(write_to(at(0, "private"), "new\n", OUTFILE_REPLACE), 0);
	assert_string_equal(get(at(0, "private")), "new\n");
	assert_int_equal(mode_of(at(0, "private")), S_IFREG | 0600);
	/* as root, the owner is kept too */
	if (!geteuid()) {
		struct stat st;

		assert_int_equal(chown(at(0, "private"), 1, 2), 0);
		assert_int_equal(write_to(at(0, "private"), "new\n", OUTFILE_REPLACE), 0);
		assert_int_equal(lstat(at(0, "private"), &st), 0);
		assert_true(st.st_uid == 1 && st.st_gid == 2);
		assert_int_equal(st.st_mode, S_IFREG | 0600);
	}
	/* abort: the target untouched, the temp file gone */
	assert_int_equal(outfile_open(&o, at(0, "private")), 0);
	fputs("never\n", o.f);
	assert_int_equal(temps(NULL), 1);
	outfile_abort(&o);
	outfile_abort(&o);
	assert_string_equal(get(at(0, "private")), "new\n");
	assert_int_equal(temps(NULL), 0);
}

static void test_symlinks(void **state)
{
	(void)state;
	assert_int_equal(mkdir(at(0, "a"), 0755), 0);
	assert_int_equal(mkdir(at(0, "b"), 0755), 0);
	put(at(0, "b/target"), "old\n", 0640);
	/* relative, from the link's directory, not ours */
	assert_int_equal(symlink("../b/target", at(0, "a/rel")), 0);
	assert_int_equal(write_to(at(0, "a/rel"), "via rel\n", OUTFILE_REPLACE), 0);
	assert_true(S_ISLNK(mode_of(at(0, "a/rel"))));
	assert_string_equal(get(at(0, "b/target")), "via rel\n");
	assert_int_equal(mode_of(at(0, "b/target")), S_IFREG | 0640);
	/* absolute, and a chain of two */
	assert_int_equal(symlink(at(1, "b/target"), at(0, "abs")), 0);
	assert_int_equal(symlink("abs", at(0, "chain")), 0);
	assert_int_equal(write_to(at(0, "chain"), "via chain\n", OUTFILE_REPLACE), 0);
	assert_true(S_ISLNK(mode_of(at(0, "chain"))) && S_ISLNK(mode_of(at(0, "abs"))));
	assert_string_equal(get(at(0, "b/target")), "via chain\n");
	/* dangling: creates its target, 0644 */
	assert_int_equal(symlink("../b/created", at(0, "a/dangling")), 0);
	assert_int_equal(write_to(at(0, "a/dangling"), "made\n", OUTFILE_REPLACE), 0);
	assert_true(S_ISLNK(mode_of(at(0, "a/dangling"))));
	assert_string_equal(get(at(0, "b/created")), "made\n");
	assert_int_equal(mode_of(at(0, "b/created")), S_IFREG | 0644);
	assert_int_equal(temps("a") + temps("b") + temps(NULL), 0);
}

static void test_refused_paths(void **state)
{
	struct outfile o;

	(void)state;
	assert_int_equal(symlink("loop2", at(0, "loop1")), 0);
	assert_int_equal(symlink("loop1", at(0, "loop2")), 0);
	assert_int_equal(outfile_open(&o, at(0, "loop1")), -ELOOP);
	assert_int_equal(outfile_open(&o, dir), -EISDIR);
	assert_int_equal(outfile_open(&o, ""), -EISDIR);
	assert_int_equal(outfile_open(&o, at(0, "nodir/")), -EISDIR);
	assert_int_equal(outfile_open(&o, at(0, "nodir/x")), -ENOENT);
	assert_int_equal(symlink("nodir/x", at(0, "deep-dangling")), 0);
	assert_int_equal(outfile_open(&o, at(0, "deep-dangling")), -ENOENT);
	assert_int_equal(symlink(".", at(0, "dirlink")), 0);
	assert_int_equal(outfile_open(&o, at(0, "dirlink")), -EISDIR);
	assert_null(o.f);
	assert_int_equal(temps(NULL), 0);
}

/* a child that reads the FIFO whole into dir/got, or (@leave) opens and leaves */
static pid_t fifo_reader(const char *fifo, bool leave)
{
	pid_t pid = fork();
	char buf[4096];
	ssize_t n;
	int in, out;

	assert_true(pid >= 0);
	if (pid)
		return pid;
	in = open(fifo, O_RDONLY);
	if (in < 0 || leave)
		_exit(in < 0);
	out = open(at(1, "got"), O_WRONLY | O_CREAT | O_TRUNC, 0644);
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n)
			_exit(1);
	_exit(n < 0 || close(out));
}

static void test_fifo_in_place(void **state)
{
	const char *fifo = at(2, "fifo");
	struct outfile o;
	int status, i;
	pid_t pid;

	(void)state;
	assert_int_equal(mkfifo(fifo, 0600), 0);
	pid = fifo_reader(fifo, false);
	assert_int_equal(write_to(fifo, "through the fifo\n", OUTFILE_IN_PLACE), 0);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_int_equal(status, 0);
	assert_string_equal(get(at(0, "got")), "through the fifo\n");
	assert_true(S_ISFIFO(mode_of(fifo)));
	/* the reader leaves: EPIPE, kept until commit */
	pid = fifo_reader(fifo, true);
	assert_int_equal(outfile_open(&o, fifo), 0);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	for (i = 0; i < 20000; i++)
		fputs("a line nobody reads\n", o.f);
	assert_int_equal(outfile_commit(&o), -EPIPE);
	assert_true(S_ISFIFO(mode_of(fifo)));
	assert_int_equal(temps(NULL), 0);
}

static void test_full_device(void **state)
{
	const char *full = at(2, "full");
	struct outfile o;

	(void)state;
	if (mknod(full, S_IFCHR | 0600, makedev(1, 7))) {
		print_message("skipped: mknod needs root (%s)\n", strerror(errno));
		skip();
	}
	assert_int_equal(outfile_open(&o, full), 0);
	assert_int_equal(o.how, OUTFILE_IN_PLACE);
	fputs("nowhere to go\n", o.f);
	assert_int_equal(outfile_commit(&o), -ENOSPC);
	assert_true(S_ISCHR(mode_of(full)));
	assert_int_equal(temps(NULL), 0);
}

static void test_stdout_and_magic_links(void **state)
{
	char magic[64];
	int saved, fd;

	(void)state;
	/* "-": descriptor 1, which stays open */
	fd = open(at(0, "stdout"), O_WRONLY | O_CREAT | O_TRUNC, 0644);
	saved = dup(STDOUT_FILENO);
	assert_true(fd >= 0 && saved >= 0);
	assert_int_equal(dup2(fd, STDOUT_FILENO), STDOUT_FILENO);
	assert_int_equal(write_to("-", "to stdout\n", OUTFILE_STDOUT), 0);
	assert_int_equal(write(STDOUT_FILENO, "still open\n", 11), 11);
	assert_int_equal(dup2(saved, STDOUT_FILENO), STDOUT_FILENO);
	close(saved);
	assert_string_equal(get(at(0, "stdout")), "to stdout\nstill open\n");
	/* /proc/self/fd/N onto a regular file: into that file, not a rename */
	snprintf(magic, sizeof(magic), "/proc/self/fd/%d", fd);
	assert_int_equal(write_to(magic, "by magic\n", OUTFILE_IN_PLACE), 0);
	assert_string_equal(get(at(0, "stdout")), "by magic\n");
	close(fd);
	assert_int_equal(temps(NULL), 0);
}

static int setup(void **state)
{
	(void)state;
	signal(SIGPIPE, SIG_IGN);
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[64];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd) ? -1 : 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_new_and_replaced_files),
		cmocka_unit_test(test_symlinks),
		cmocka_unit_test(test_refused_paths),
		cmocka_unit_test(test_fifo_in_place),
		cmocka_unit_test(test_full_device),
		cmocka_unit_test(test_stdout_and_magic_links),
	};

	return cmocka_run_group_tests_name("outfile", tests, setup, teardown);
}
