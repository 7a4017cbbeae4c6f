// SPDX-License-Identifier: GPL-2.0
/*
 * test_spawn.c - the process runner (lib/subcmd/spawn.h): exit codes and
 * signals as a shell's $?, an exec that fails, the timeout that kills
 * (the child's whole process group), stdout and stderr redirected, the
 * PATH lookup, a function child (.fn), the tree removed without rm, an
 * argv as a shell line that sh -c reads back as the same words and split
 * back into them, and a child's output read.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "lib/subcmd/spawn.h"

static char *tmpdir(void)
{
	char *d = strdup("/tmp/ksb-test-spawn.XXXXXX");

	assert_non_null(mkdtemp(d));
	return d;
}

static void test_spawn_exit_codes(void **state)
{
	char *ok[] = { "sh", "-c", "exit 0", NULL };
	char *seven[] = { "sh", "-c", "exit 7", NULL };
	char *killed[] = { "sh", "-c", "kill -TERM $$", NULL };

	(void)state;
	assert_int_equal(spawn_run(ok, -1, -1, 0), 0);
	assert_int_equal(spawn_run(seven, -1, -1, 0), 7);
	assert_int_equal(spawn_run(killed, -1, -1, 0), 128 + SIGTERM);
}

/* a function child: its mask and group as asked; 7 when they are */
static int fn_child(void *arg)
{
	sigset_t now;

	sigprocmask(SIG_SETMASK, NULL, &now);
	if (!sigismember(&now, SIGUSR1))
		return 1;	/* a function child keeps the parent's mask */
	if (getpgrp() != getpid())
		return 2;	/* SPAWN_GROUP: it leads its group */
	return *(int *)arg;
}

static int fn_killed(void *arg)
{
	(void)arg;
	raise(SIGKILL);
	return 0;
}

/* .fn instead of argv (perf's no_exec_cmd): its return is its exit code */
static void test_spawn_fn_child(void **state)
{
	int seven = 7;
	struct spawn s = { .fn = fn_child, .fn_arg = &seven, .out_fd = -1, .err_fd = -1,
			   .flags = SPAWN_GROUP | SPAWN_PDEATHSIG };
	sigset_t usr1, old;

	(void)state;
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	sigprocmask(SIG_BLOCK, &usr1, &old);
	assert_int_equal(spawn_start(&s), 0);
	assert_true(s.pid > 0);
	assert_int_equal(spawn_wait(&s, 0), 0);
	sigprocmask(SIG_SETMASK, &old, NULL);
	assert_int_equal(spawn_exit_code(s.status), 7);
	assert_int_equal(spawn_killed_by(s.status), 0);
	assert_true(s.ru.ru_utime.tv_sec >= 0);
	s = (struct spawn){ .fn = fn_killed, .out_fd = -1, .err_fd = -1 };
	assert_int_equal(spawn_start(&s), 0);
	assert_int_equal(spawn_wait(&s, 0), 0);
	assert_int_equal(spawn_killed_by(s.status), SIGKILL);
	assert_int_equal(spawn_exit_code(s.status), 128 + SIGKILL);
	/* neither argv nor fn */
	s = (struct spawn){ .out_fd = -1, .err_fd = -1 };
	assert_int_equal(spawn_start(&s), -EINVAL);
}

static void test_spawn_exec_fails(void **state)
{
	char *dir = tmpdir(), plain[256];
	char *none[] = { "ksb-no-such-program", NULL };
	char *notexec[] = { plain, NULL };
	struct spawn s = { .argv = none, .out_fd = -1, .err_fd = -1 };
	int fd;

	(void)state;
	assert_int_equal(spawn_start(&s), -ENOENT);
	assert_int_equal(s.pid, 0);
	assert_int_equal(spawn_run(none, -1, -1, 0), -ENOENT);
	/* a file without an x bit: not even root may exec it */
	snprintf(plain, sizeof(plain), "%s/plain", dir);
	fd = open(plain, O_WRONLY | O_CREAT, 0644);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(spawn_run(notexec, -1, -1, 0), -EACCES);
	assert_int_equal(spawn_remove_tree(dir), 0);
	free(dir);
}

/* the timeout kills the child and what it started in its group */
static void test_spawn_timeout_kills(void **state)
{
	char *dir = tmpdir(), pidf[256], script[512];
	char *argv[] = { "sh", "-c", script, NULL };
	struct spawn s = { .argv = argv, .out_fd = -1, .err_fd = -1, .flags = SPAWN_GROUP };
	FILE *f;
	int grandchild = 0, i;

	(void)state;
	snprintf(pidf, sizeof(pidf), "%s/pid", dir);
	snprintf(script, sizeof(script), "sleep 60 & echo $! >%s; wait", pidf);
	assert_int_equal(spawn_start(&s), 0);
	assert_int_equal(spawn_wait(&s, 300), -ETIMEDOUT);
	assert_true(s.timed_out);
	assert_true(WIFSIGNALED(s.status));
	assert_int_equal(WTERMSIG(s.status), SIGKILL);
	assert_int_equal(s.pid, 0);
	f = fopen(pidf, "r");
	assert_non_null(f);
	assert_int_equal(fscanf(f, "%d", &grandchild), 1);
	fclose(f);
	/* the sleep went with its group (a zombie of init's for a moment at most) */
	for (i = 0; i < 1000 && !kill(grandchild, 0); i++) {
		char st[64], line[256];
		bool zombie = false;

		snprintf(st, sizeof(st), "/proc/%d/stat", grandchild);
		f = fopen(st, "r");
		if (f && fgets(line, sizeof(line), f))
			zombie = strstr(line, ") Z ") != NULL;
		if (f)
			fclose(f);
		if (zombie)
			break;
		usleep(10000);
	}
	assert_true(i < 1000);
	assert_int_equal(spawn_remove_tree(dir), 0);
	free(dir);
}

static void test_spawn_poll(void **state)
{
	char *argv[] = { "sh", "-c", "exit 3", NULL };
	struct spawn s = { .argv = argv, .out_fd = -1, .err_fd = -1 };
	int ret;

	(void)state;
	assert_int_equal(spawn_start(&s), 0);
	while (!(ret = spawn_poll(&s, 0)))
		usleep(1000);
	assert_int_equal(ret, 1);
	assert_false(s.timed_out);
	assert_int_equal(spawn_exit_code(s.status), 3);
	assert_int_equal(spawn_poll(&s, 0), 1);		/* reaped: stays so */
	assert_int_equal(spawn_kill(&s, SIGKILL), 0);	/* and nothing is sent */
}

static char *slurp(const char *path)
{
	static char buf[256];
	FILE *f = fopen(path, "r");
	size_t n;

	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = 0;
	fclose(f);
	return buf;
}

static void test_spawn_redirect(void **state)
{
	char *dir = tmpdir(), out[256], err[256];
	char *argv[] = { "sh", "-c", "echo to-out; echo to-err >&2; read x || echo no-stdin", NULL };
	int ofd, efd;

	(void)state;
	snprintf(out, sizeof(out), "%s/out", dir);
	snprintf(err, sizeof(err), "%s/err", dir);
	ofd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	efd = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	assert_true(ofd >= 0 && efd >= 0);
	assert_int_equal(spawn_run(argv, ofd, efd, 0), 0);
	close(ofd);
	close(efd);
	assert_string_equal(slurp(out), "to-out\nno-stdin\n");
	assert_string_equal(slurp(err), "to-err\n");
	assert_int_equal(spawn_remove_tree(dir), 0);
	free(dir);
}

/*
 * @dir/Makefile holding @makefile, and @dir/out (its path into @out)
 * opened for make's output: the descriptor
 */
static int make_dir(const char *dir, const char *makefile, char *out, size_t len)
{
	char mk[256];
	FILE *f;
	int fd;

	snprintf(mk, sizeof(mk), "%s/Makefile", dir);
	snprintf(out, len, "%s/out", dir);
	f = fopen(mk, "w");
	assert_non_null(f);
	fputs(makefile, f);
	fclose(f);
	fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	assert_true(fd >= 0);
	return fd;
}

/* make -s -C DIR ARGS, both its streams onto the one fd */
static void test_spawn_make(void **state)
{
	char *dir = tmpdir(), out[256];
	char *args[] = { "V=42", NULL };
	int fd;

	(void)state;
	fd = make_dir(dir, "all:\n\t@echo v=$(V)\n\t@echo oops >&2\nbad:\n\t@false\n", out,
		      sizeof(out));
	assert_int_equal(spawn_make(dir, args, fd), 0);
	close(fd);
	assert_string_equal(slurp(out), "v=42\noops\n");
	fd = open(out, O_WRONLY | O_TRUNC);
	args[0] = "bad";
	assert_int_equal(spawn_make(dir, args, fd), 2);
	close(fd);
	assert_int_equal(spawn_remove_tree(dir), 0);
	free(dir);
}

/*
 * Under a parent `make -j`, MAKEFLAGS names a jobserver on descriptors
 * this process does not hold: the make started must not inherit it (it
 * would warn into the output), and keeps the flags' other words.
 */
static void test_spawn_make_jobserver(void **state)
{
	char *dir = tmpdir(), out[256], *old = getenv("MAKEFLAGS");
	char *args[] = { NULL };
	int fd;

	(void)state;
	old = old ? strdup(old) : NULL;
	fd = make_dir(dir, "all:\n\t@echo v=$(V)\n", out, sizeof(out));
	setenv("MAKEFLAGS", " -j2 --jobserver-auth=98,99 -- V=7", 1);
	assert_int_equal(spawn_make(dir, args, fd), 0);
	close(fd);
	if (old)
		setenv("MAKEFLAGS", old, 1);
	else
		unsetenv("MAKEFLAGS");
	free(old);
	/* no "jobserver unavailable" warning, and V=7 still passed */
	assert_string_equal(slurp(out), "v=7\n");
	assert_int_equal(spawn_remove_tree(dir), 0);
	free(dir);
}

static void test_spawn_which(void **state)
{
	char buf[4096], *old = getenv("PATH") ? strdup(getenv("PATH")) : NULL;
	char *dir = tmpdir(), prog[256];
	int fd;

	(void)state;
	snprintf(prog, sizeof(prog), "%s/ksb-prog", dir);
	fd = open(prog, O_WRONLY | O_CREAT, 0755);
	assert_true(fd >= 0);
	close(fd);
	setenv("PATH", "/nonexistent:", 1);
	assert_int_equal(spawn_which("ksb-prog", buf, sizeof(buf)), -ENOENT);
	snprintf(buf, sizeof(buf), "/nonexistent:%s", dir);
	setenv("PATH", buf, 1);
	assert_int_equal(spawn_which("ksb-prog", buf, sizeof(buf)), 0);
	assert_string_equal(buf, prog);
	assert_int_equal(spawn_which(prog, buf, sizeof(buf)), 0);
	assert_int_equal(spawn_which("/nonexistent/x", buf, sizeof(buf)), -ENOENT);
	if (old)
		setenv("PATH", old, 1);
	free(old);
	assert_int_equal(spawn_exe_dir(buf, sizeof(buf)), 0);
	assert_non_null(strstr(buf, "/build/tests"));
	assert_int_equal(spawn_remove_tree(dir), 0);
	free(dir);
}

/* a tree with a link out of it: the tree goes, what the link names stays */
/* sh -c "printf '%s\\0' LINE": the words sh read back from LINE, NUL-ended */
static size_t sh_words(const char *line, char *out, size_t len)
{
	char cmd[4096], *argv[] = { "sh", "-c", cmd, NULL };
	FILE *f = tmpfile();
	size_t n;

	assert_non_null(f);
	snprintf(cmd, sizeof(cmd), "printf '%%s\\0' %s", line);
	assert_int_equal(spawn_run(argv, fileno(f), -1, 0), 0);
	rewind(f);
	n = fread(out, 1, len, f);
	fclose(f);
	return n;
}

static void test_spawn_sh_line(void **state)
{
	char *words[] = { "bench", "run", "-t", "2", "--label", "it's", "", "a b",
			  "$HOME", "*", "~", "x\\y", "tab\there", "new\nline", "''",
			  "\"q\"", "a;b|c&d", "`id`", "!", "#", "-o=r/x.csv", "caf\xc3\xa9" };
	int nr = (int)(sizeof(words) / sizeof(words[0])), i;
	char line[1024], back[1024], want[1024], small[17];
	size_t n = 0;

	(void)state;
	assert_int_equal(spawn_sh_line(line, sizeof(line), nr, words), 0);
	for (i = 0; i < nr; i++) {
		memcpy(want + n, words[i], strlen(words[i]) + 1);
		n += strlen(words[i]) + 1;
	}
	assert_int_equal(sh_words(line, back, sizeof(back)), n);
	assert_memory_equal(back, want, n);
	/* plain words stay as they are; the rest in single quotes */
	assert_int_equal(spawn_sh_line(line, sizeof(line), 6, words), 0);
	assert_string_equal(line, "bench run -t 2 --label 'it'\\''s'");
	/* a word that does not fit is left out whole, never cut mid-quote */
	assert_int_equal(spawn_sh_line(small, sizeof(small), 6, words), -ENOSPC);
	assert_string_equal(small, "bench run -t 2");
	assert_int_equal(spawn_sh_append(small, sizeof(small), "x"), 0);
	assert_string_equal(small, "bench run -t 2 x");
	assert_int_equal(spawn_sh_append(small, sizeof(small), ""), -ENOSPC);
	small[0] = 0;
	assert_int_equal(spawn_sh_append(small, sizeof(small), ""), 0);
	assert_string_equal(small, "''");
}

/* split LINE: its words joined by '|', or the error */
static const char *split(const char *line, char *out, size_t len)
{
	char buf[256], *argv[8];
	int n = spawn_sh_split(line, buf, sizeof(buf), argv, 8), i;

	if (n < 0) {
		snprintf(out, len, "%d", n);
		return out;
	}
	out[0] = 0;
	for (i = 0; i < n; i++)
		snprintf(out + strlen(out), len - strlen(out), "%s%s", i ? "|" : "", argv[i]);
	assert_null(argv[n]);
	return out;
}

static void test_spawn_sh_split(void **state)
{
	char *words[] = { "bench", "it's", "", "a b", "$HOME", "x\\y", "tab\there",
			  "new\nline", "\"q\"", "`id`", "caf\xc3\xa9" };
	int nr = (int)(sizeof(words) / sizeof(words[0])), i;
	char line[512], buf[512], *argv[16], out[256], tiny[4];

	(void)state;
	/* spawn_sh_line()'s words come back whole */
	assert_int_equal(spawn_sh_line(line, sizeof(line), nr, words), 0);
	assert_int_equal(spawn_sh_split(line, buf, sizeof(buf), argv, 16), nr);
	for (i = 0; i < nr; i++)
		assert_string_equal(argv[i], words[i]);
	/* a shell's quoting, nothing expanded */
	assert_string_equal(split("  -B 2\t--vm '--append x=1'\n", out, sizeof(out)),
			    "-B|2|--vm|--append x=1");
	assert_string_equal(split("a\\ b \"c \\\"d\\\" \\x $e\" f'g'\"h\"", out, sizeof(out)),
			    "a b|c \"d\" \\x $e|fgh");
	assert_string_equal(split("'' \"\" x\\\ny", out, sizeof(out)), "||xy");
	assert_string_equal(split("", out, sizeof(out)), "");
	/* refused: a quote left open, a \ at the end, too many words, no room */
	assert_string_equal(split("kernel 'x", out, sizeof(out)), "-22");
	assert_string_equal(split("a \"b", out, sizeof(out)), "-22");
	assert_string_equal(split("a\\", out, sizeof(out)), "-22");
	assert_string_equal(split("1 2 3 4 5 6 7 8", out, sizeof(out)), "-7");
	assert_int_equal(spawn_sh_split("abcd", tiny, sizeof(tiny), argv, 16), -ENOSPC);
}

static void test_spawn_capture(void **state)
{
	char *argv[] = { "sh", "-c", "printf 'abc\\ndef\\n\\n'; exit 3", NULL };
	char *big[] = { "sh", "-c", "seq 100000", NULL };
	char *none[] = { "/nonexistent/x", NULL };
	char buf[64], small[4];

	(void)state;
	assert_int_equal(spawn_capture(argv, buf, sizeof(buf), -1), 3);
	assert_string_equal(buf, "abc\ndef");
	/* more than the pipe holds: read to the end, the first bytes kept */
	assert_int_equal(spawn_capture(big, small, sizeof(small), -1), 0);
	assert_string_equal(small, "1\n2");
	assert_int_equal(spawn_capture(none, buf, sizeof(buf), -1), -ENOENT);
	assert_string_equal(buf, "");
}

static void test_spawn_remove_tree(void **state)
{
	char *dir = tmpdir(), *keep = tmpdir(), p[512];
	struct stat st;
	int fd;

	(void)state;
	snprintf(p, sizeof(p), "%s/kept", keep);
	fd = open(p, O_WRONLY | O_CREAT, 0644);
	assert_true(fd >= 0);
	close(fd);
	snprintf(p, sizeof(p), "%s/a", dir);
	assert_int_equal(mkdir(p, 0755), 0);
	snprintf(p, sizeof(p), "%s/a/b", dir);
	assert_int_equal(mkdir(p, 0700), 0);
	snprintf(p, sizeof(p), "%s/a/b/f", dir);
	fd = open(p, O_WRONLY | O_CREAT, 0);
	assert_true(fd >= 0);
	close(fd);
	snprintf(p, sizeof(p), "%s/a/link", dir);
	assert_int_equal(symlink(keep, p), 0);
	assert_int_equal(spawn_remove_tree(dir), 0);
	assert_int_equal(lstat(dir, &st), -1);
	assert_int_equal(errno, ENOENT);
	snprintf(p, sizeof(p), "%s/kept", keep);
	assert_int_equal(stat(p, &st), 0);
	assert_int_equal(spawn_remove_tree(dir), 0);	/* gone already: fine */
	assert_int_equal(spawn_remove_tree(keep), 0);
	assert_int_equal(stat(keep, &st), -1);
	free(dir);
	free(keep);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spawn_exit_codes),
		cmocka_unit_test(test_spawn_fn_child),
		cmocka_unit_test(test_spawn_exec_fails),
		cmocka_unit_test(test_spawn_timeout_kills),
		cmocka_unit_test(test_spawn_poll),
		cmocka_unit_test(test_spawn_redirect),
		cmocka_unit_test(test_spawn_make),
		cmocka_unit_test(test_spawn_make_jobserver),
		cmocka_unit_test(test_spawn_which),
		cmocka_unit_test(test_spawn_sh_line),
		cmocka_unit_test(test_spawn_sh_split),
		cmocka_unit_test(test_spawn_capture),
		cmocka_unit_test(test_spawn_remove_tree),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
