// SPDX-License-Identifier: GPL-2.0
/*
 * spawn.c - the process runner (see spawn.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/subcmd/spawn.h"

#define SPAWN_MAKE_ARGS	16		/* words after make -s -C DIR */

int spawn_which(const char *prog, char *buf, size_t len)
{
	const char *path = getenv("PATH"), *p, *e;

	if (strchr(prog, '/')) {
		snprintf(buf, len, "%s", prog);
		return access(buf, X_OK) ? -ENOENT : 0;
	}
	for (p = path && *path ? path : "/usr/bin:/bin"; *p; p = *e ? e + 1 : e) {
		e = strchrnul(p, ':');
		/* an empty entry is the current directory, as execvp() takes it */
		if (e == p)
			snprintf(buf, len, "./%s", prog);
		else
			snprintf(buf, len, "%.*s/%s", (int)(e - p), p, prog);
		if (!access(buf, X_OK))
			return 0;
	}
	return -ENOENT;
}

int spawn_exe_dir(char *dir, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", dir, len - 1);
	char *slash;

	if (n <= 0)
		return n ? -errno : -ENOENT;
	dir[n] = 0;
	slash = strrchr(dir, '/');
	if (slash == dir)
		slash[1] = 0;		/* "/bench": the root */
	else if (slash)
		*slash = 0;
	return 0;
}

double spawn_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/*
 * in a function child: the pipe is the exec's, closed (the parent reads
 * its end to EOF); killed with a parent that dies, or gone already
 */
static void spawn_fn_child(const struct spawn *s, int pipefd[2], pid_t parent)
{
	close(pipefd[0]);
	close(pipefd[1]);
	if (s->flags & SPAWN_PDEATHSIG) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(1);	/* the parent died before prctl(): nobody waits */
	}
	_exit(s->fn(s->fn_arg));
}

/* in the child: redirections, group, signals, exec (or fn); its errno to @fd */
static void spawn_child(const struct spawn *s, int pipefd[2], pid_t parent)
{
	sigset_t none;
	int err, in, fd = pipefd[1];

	if (s->flags & SPAWN_GROUP)
		setpgid(0, 0);
	if (s->out_fd >= 0 && s->out_fd != STDOUT_FILENO)
		dup2(s->out_fd, STDOUT_FILENO);
	if (s->err_fd >= 0 && s->err_fd != STDERR_FILENO)
		dup2(s->err_fd, STDERR_FILENO);
	if (!s->argv)
		spawn_fn_child(s, pipefd, parent);
	if (s->flags & SPAWN_PDEATHSIG)
		prctl(PR_SET_PDEATHSIG, SIGKILL);
	signal(SIGPIPE, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	if (s->flags & SPAWN_NULL_STDIN) {
		in = open("/dev/null", O_RDONLY);
		if (in >= 0 && in != STDIN_FILENO) {
			dup2(in, STDIN_FILENO);
			close(in);
		}
	}
	execvp(s->argv[0], s->argv);
	err = errno;
	if (write(fd, &err, sizeof(err)) < 0)
		_exit(127);
	_exit(127);
}

int spawn_start(struct spawn *s)
{
	pid_t parent = getpid();
	int pipefd[2], err = 0;

	s->pid = 0;
	s->status = 0;
	s->timed_out = false;
	if (s->argv ? !s->argv[0] : !s->fn)
		return -EINVAL;
	/* the exec's failure comes back through a close-on-exec pipe */
	if (pipe2(pipefd, O_CLOEXEC))
		return -errno;
	fflush(NULL);
	s->t0 = spawn_now();
	s->pid = fork();
	if (s->pid < 0) {
		err = -errno;
		s->pid = 0;
		close(pipefd[0]);
		close(pipefd[1]);
		return err;
	}
	if (!s->pid)
		spawn_child(s, pipefd, parent);
	/* as the child does: no window in which the tty's SIGINT reaches it */
	if (s->flags & SPAWN_GROUP)
		setpgid(s->pid, s->pid);
	close(pipefd[1]);
	if (read(pipefd[0], &err, sizeof(err)) != sizeof(err))
		err = 0;
	close(pipefd[0]);
	if (!err)
		return 0;
	waitpid(s->pid, &s->status, 0);
	s->pid = 0;
	return -err;
}

int spawn_kill(struct spawn *s, int sig)
{
	if (s->pid <= 0)
		return 0;
	if (kill((s->flags & SPAWN_GROUP) ? -s->pid : s->pid, sig))
		return -errno;
	return 0;
}

int spawn_poll(struct spawn *s, unsigned long timeout_ms)
{
	pid_t w;

	if (s->pid <= 0)
		return 1;
	w = wait4(s->pid, &s->status, WNOHANG, &s->ru);
	if (w == s->pid) {
		/* the group's leader is gone: what it left behind goes with it */
		if (s->timed_out && (s->flags & SPAWN_GROUP))
			kill(-s->pid, SIGKILL);
		s->pid = 0;
		return 1;
	}
	if (w < 0)
		return -errno;
	if (timeout_ms && !s->timed_out &&
	    (spawn_now() - s->t0) * 1000.0 >= (double)timeout_ms) {
		s->timed_out = true;
		spawn_kill(s, SIGKILL);
	}
	return 0;
}

int spawn_wait(struct spawn *s, unsigned long timeout_ms)
{
	struct timespec nap = { 0, 1000000 };	/* 1 ms, doubling to 32 ms */
	int ret;

	while (!(ret = spawn_poll(s, timeout_ms))) {
		nanosleep(&nap, NULL);
		if (nap.tv_nsec < 32000000)
			nap.tv_nsec *= 2;
	}
	if (ret < 0)
		return ret;
	return s->timed_out ? -ETIMEDOUT : 0;
}

int spawn_killed_by(int status)
{
	return WIFSIGNALED(status) ? WTERMSIG(status) : 0;
}

int spawn_exit_code(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return 255;
}

int spawn_run(char *const *argv, int out_fd, int err_fd, unsigned long timeout_ms)
{
	struct spawn s = { .argv = argv, .out_fd = out_fd, .err_fd = err_fd,
			   .flags = SPAWN_NULL_STDIN };
	int ret = spawn_start(&s);

	if (ret)
		return ret;
	ret = spawn_wait(&s, timeout_ms);
	return ret ? ret : spawn_exit_code(s.status);
}

/*
 * MAKEFLAGS less a parent make's jobserver: under `make -j`, a recipe
 * without '+' gets --jobserver-auth=R,W for descriptors it does not
 * hold, and the make we start would warn "jobserver unavailable" into
 * the output it builds with. Its other words (-k, VAR=VALUE) stay.
 * Returns false when MAKEFLAGS names no jobserver: the environment as
 * it is.
 */
static bool spawn_make_flags(char *buf, size_t len)
{
	const char *flags = getenv("MAKEFLAGS"), *w, *end;
	size_t used;

	if (!flags || !strstr(flags, "--jobserver-"))
		return false;
	used = (size_t)snprintf(buf, len, "MAKEFLAGS=");
	for (w = flags; *w; w = end) {
		w += strspn(w, " ");
		end = w + strcspn(w, " ");
		if (end == w || !strncmp(w, "--jobserver-", 12))
			continue;
		if (used + (size_t)(end - w) + 2 > len)
			return false;
		used += (size_t)snprintf(buf + used, len - used, "%s%.*s",
					 used > 10 ? " " : "", (int)(end - w), w);
	}
	return true;
}

int spawn_make(const char *dir, char *const *args, int out_fd)
{
	char *argv[SPAWN_MAKE_ARGS + 7] = { "env" }, flags[4096];
	unsigned int n = 0, i;

	if (spawn_make_flags(flags, sizeof(flags))) {
		argv[1] = flags;
		n = 2;
	}
	argv[n++] = "make";
	argv[n++] = "-s";
	argv[n++] = "-C";
	argv[n++] = (char *)dir;
	for (i = 0; args && args[i]; i++) {
		if (i == SPAWN_MAKE_ARGS)
			return -E2BIG;
		argv[n++] = args[i];
	}
	argv[n] = NULL;
	return spawn_run(argv, out_fd, out_fd, 0);
}

/* a word the shell takes as it is: no quoting, globbing or expansion */
static bool spawn_sh_plain(const char *w)
{
	return *w && w[strspn(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			      "0123456789@%+=:,./_-")] == 0;
}

int spawn_sh_append(char *buf, size_t len, const char *word)
{
	size_t used = strlen(buf), need = used + (used ? 1 : 0) + strlen(word);
	bool plain = spawn_sh_plain(word);
	const char *s;
	char *p;

	if (!plain)
		for (need += 2, s = word; *s; s++)
			need += *s == '\'' ? 3 : 0;
	if (need >= len)
		return -ENOSPC;
	p = buf + used;
	if (used)
		*p++ = ' ';
	if (plain) {
		strcpy(p, word);
		return 0;
	}
	*p++ = '\'';
	for (s = word; *s; s++)
		if (*s == '\'') {
			memcpy(p, "'\\''", 4);
			p += 4;
		} else {
			*p++ = *s;
		}
	strcpy(p, "'");
	return 0;
}

int spawn_sh_line(char *buf, size_t len, int argc, char *const *argv)
{
	int i, ret = 0;

	buf[0] = 0;
	for (i = 0; i < argc && !ret; i++)
		ret = spawn_sh_append(buf, len, argv[i]);
	return ret;
}

/* where spawn_sh_split() writes the bytes of its words */
struct spawn_sh_out {
	char *p;			/* the next byte */
	char *end;			/* one past the buffer */
};

static int spawn_sh_put(struct spawn_sh_out *o, char c)
{
	if (o->p == o->end)
		return -ENOSPC;
	*o->p++ = c;
	return 0;
}

/* "..." from *@s at its opening quote into @o; *@s past its closing one */
static int spawn_sh_dquote(const char **s, struct spawn_sh_out *o)
{
	const char *p = *s + 1;
	int ret = 0;

	while (*p && *p != '"' && !ret) {
		if (*p != '\\' || !p[1] || !strchr("$`\"\\\n", p[1])) {
			ret = spawn_sh_put(o, *p++);
			continue;
		}
		/* an escaped character; an escaped newline joins the lines */
		if (p[1] != '\n')
			ret = spawn_sh_put(o, p[1]);
		p += 2;
	}
	if (ret)
		return ret;
	if (*p != '"')
		return -EINVAL;
	*s = p + 1;
	return 0;
}

/* '...' from *@s at its opening quote into @o; *@s past its closing one */
static int spawn_sh_squote(const char **s, struct spawn_sh_out *o)
{
	const char *p = *s + 1, *q = strchr(p, '\'');
	int ret = 0;

	if (!q)
		return -EINVAL;
	for (; p < q && !ret; p++)
		ret = spawn_sh_put(o, *p);
	*s = q + 1;
	return ret;
}

/* the word at *@s (no blank) into @o, NUL-ended; *@s past it */
static int spawn_sh_word(const char **s, struct spawn_sh_out *o)
{
	const char *p = *s;
	int ret = 0;

	while (*p && !strchr(" \t\n", *p) && !ret) {
		if (*p == '\'') {
			ret = spawn_sh_squote(&p, o);
		} else if (*p == '"') {
			ret = spawn_sh_dquote(&p, o);
		} else if (*p == '\\') {
			if (!p[1])
				return -EINVAL;
			/* a \ before a newline joins the lines */
			if (p[1] != '\n')
				ret = spawn_sh_put(o, p[1]);
			p += 2;
		} else {
			ret = spawn_sh_put(o, *p++);
		}
	}
	*s = p;
	return ret ?: spawn_sh_put(o, 0);
}

int spawn_sh_split(const char *line, char *buf, size_t len, char **argv, unsigned int max)
{
	struct spawn_sh_out o = { buf, buf + len };
	unsigned int n = 0;
	int ret;

	if (!max)
		return -E2BIG;
	for (;;) {
		line += strspn(line, " \t\n");
		if (!*line)
			break;
		if (n + 1 == max)
			return -E2BIG;
		argv[n] = o.p;
		ret = spawn_sh_word(&line, &o);
		if (ret)
			return ret;
		n++;
	}
	argv[n] = NULL;
	return (int)n;
}

int spawn_capture(char *const *argv, char *buf, size_t len, int err_fd)
{
	struct spawn s = { .argv = argv, .err_fd = err_fd, .flags = SPAWN_NULL_STDIN };
	size_t used = 0;
	char drop[512];
	ssize_t n;
	int fd[2], ret;

	buf[0] = 0;
	if (pipe2(fd, O_CLOEXEC))
		return -errno;
	s.out_fd = fd[1];
	ret = spawn_start(&s);
	close(fd[1]);
	if (ret) {
		close(fd[0]);
		return ret;
	}
	/* to its end, or the child would block on a full pipe */
	while ((n = read(fd[0], used + 1 < len ? buf + used : drop,
			 used + 1 < len ? len - 1 - used : sizeof(drop))) > 0 ||
	       (n < 0 && errno == EINTR))
		if (n > 0 && used + 1 < len)
			used += (size_t)n;
	close(fd[0]);
	while (used && buf[used - 1] == '\n')
		used--;
	buf[used] = 0;
	ret = spawn_wait(&s, 0);
	return ret ?: spawn_exit_code(s.status);
}

/* nftw() has no argument for its callback: the first error of this thread */
static __thread int spawn_rm_err;

static int spawn_rm_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	int r;

	(void)st;
	(void)ftw;
	if (type == FTW_DNR || type == FTW_NS) {
		if (!spawn_rm_err)
			spawn_rm_err = -EACCES;
		return 0;
	}
	r = type == FTW_DP ? rmdir(path) : unlink(path);
	if (r && errno != ENOENT && !spawn_rm_err)
		spawn_rm_err = -errno;
	return 0;
}

int spawn_remove_tree(const char *path)
{
	struct stat st;

	if (lstat(path, &st))
		return errno == ENOENT ? 0 : -errno;
	spawn_rm_err = 0;
	if (nftw(path, spawn_rm_one, 16, FTW_DEPTH | FTW_PHYS))
		return -errno;
	return spawn_rm_err;
}
