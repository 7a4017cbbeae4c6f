/* SPDX-License-Identifier: GPL-2.0 */
/*
 * spawn.h - the one process runner of bench, as perf's
 * tools/lib/subcmd/run-command.c and exec-cmd.c are perf's: a program
 * looked up on $PATH, the directory bench runs from, a child started with
 * its output redirected (and in a process group of its own), waited for
 * with a timeout that kills it, `make` run in a directory, and a
 * directory tree removed without forking rm, and an argv written as one
 * line that a POSIX shell reads back as the same words.
 *
 *	struct spawn s = { .argv = argv, .out_fd = fd, .err_fd = fd,
 *			   .flags = SPAWN_GROUP | SPAWN_NULL_STDIN };
 *	spawn_start(&s);			-ENOENT: no such program
 *	spawn_wait(&s, 300000);			-ETIMEDOUT: killed at 300 s
 *	spawn_exit_code(s.status);		0..255, or 128 + signal
 *
 * The child's signal mask is emptied and SIGPIPE reset to its default
 * (bench blocks SIGINT/SIGTERM/SIGCHLD and ignores SIGPIPE: what the
 * child inherits must be what a shell would give it), except in a
 * function child (.fn), which goes on as the parent's copy. An exec that fails
 * is reported to the parent through a close-on-exec pipe, so
 * spawn_start() says -ENOENT instead of a child that exits 127.
 *
 * Nothing here prints; every call returns 0 or -errno.
 */
#ifndef KSB_SPAWN_H
#define KSB_SPAWN_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/resource.h>
#include <sys/types.h>

#define SPAWN_GROUP		(1U << 0)	/* the child leads a process group */
#define SPAWN_NULL_STDIN	(1U << 1)	/* its stdin is /dev/null */
#define SPAWN_PDEATHSIG		(1U << 2)	/* SIGKILLed when the parent dies */

/* one child */
struct spawn {
	char *const *argv;		/* NULL-terminated; argv[0] looked up on $PATH */
	/*
	 * or, argv NULL, a function child (perf's no_exec_cmd): fn(fn_arg)
	 * runs in the forked child, its return the child's exit code. It
	 * keeps the parent's signal mask and dispositions (bench run's
	 * --runs children take SIGINT in their own sigtimedwait()).
	 */
	int (*fn)(void *arg);
	void *fn_arg;			/* fn's argument */
	int out_fd;			/* its stdout, or -1: ours */
	int err_fd;			/* its stderr, or -1: ours */
	unsigned int flags;		/* SPAWN_* */
	pid_t pid;			/* set by spawn_start(); 0 once reaped */
	int status;			/* its wait status, once reaped */
	struct rusage ru;		/* its resource usage, once reaped by spawn_poll() */
	bool timed_out;			/* killed by spawn_poll()/spawn_wait() at the timeout */
	double t0;			/* CLOCK_MONOTONIC s at its start */
};

/**
 * spawn_which - @prog on $PATH (default "/usr/bin:/bin"), or @prog itself
 * when it holds a '/', into @buf (@len bytes). Returns 0 when that file
 * is executable, -ENOENT otherwise.
 */
int spawn_which(const char *prog, char *buf, size_t len);

/**
 * spawn_exe_dir - the directory of the running executable
 * (/proc/self/exe without its last component) into @dir. Returns 0, or
 * -errno of readlink().
 */
int spawn_exe_dir(char *dir, size_t len);

/**
 * spawn_now - CLOCK_MONOTONIC in seconds: the clock of the timeouts.
 */
double spawn_now(void);

/**
 * spawn_start - fork and exec @s->argv (or run @s->fn) with the
 * redirections and flags of @s. Returns 0 with @s->pid set; -errno of
 * the exec (-ENOENT, -EACCES: the child is reaped already, @s->pid is
 * 0), of fork(), or of pipe2(); -EINVAL: neither argv nor fn.
 */
int spawn_start(struct spawn *s);

/**
 * spawn_kill - send @sig to @s's child: its process group with
 * SPAWN_GROUP. Returns 0, or -errno of kill() (-ESRCH: gone). Nothing is
 * sent once the child is reaped.
 */
int spawn_kill(struct spawn *s, int sig);

/**
 * spawn_poll - without blocking: reap @s's child if it ended; else, when
 * @timeout_ms (0: none) has passed since its start, SIGKILL it and set
 * @s->timed_out (it is reaped at a later call). Returns 1 reaped
 * (@s->status), 0 still running, or -errno of waitpid().
 */
int spawn_poll(struct spawn *s, unsigned long timeout_ms);

/**
 * spawn_wait - wait for @s's child, at most @timeout_ms after its start
 * (0: no limit); at the limit it is killed with SIGKILL and reaped.
 * Returns 0 (@s->status is its wait status), -ETIMEDOUT when it was
 * killed at the limit (@s->status too), or -errno of waitpid().
 */
int spawn_wait(struct spawn *s, unsigned long timeout_ms);

/**
 * spawn_exit_code - a wait status as a shell's $?: the exit code 0..255,
 * or 128 + the signal that killed it.
 * spawn_killed_by - the signal that killed it, or 0 when it exited
 * (an exit 130 is no SIGINT: the child stopped itself).
 */
int spawn_exit_code(int status);
int spawn_killed_by(int status);

/**
 * spawn_run - spawn_start() then spawn_wait(): @argv with stdout to
 * @out_fd and stderr to @err_fd (-1: ours), stdin from /dev/null.
 * Returns its exit code (spawn_exit_code()), -ETIMEDOUT, or -errno of
 * starting it (-ENOENT: no such program).
 */
int spawn_run(char *const *argv, int out_fd, int err_fd, unsigned long timeout_ms);

/**
 * spawn_make - `make -s -C @dir ARGS...` (@args NULL-terminated, NULL:
 * none, at most 16) with its stdout and stderr onto @out_fd (-1: ours).
 * A parent make's jobserver in MAKEFLAGS is not passed on (through
 * env(1)): under `make -j` its descriptors are not ours. Returns make's
 * exit code (0: built), or -errno of starting it.
 */
int spawn_make(const char *dir, char *const *args, int out_fd);

/**
 * spawn_sh_append - @word quoted for a POSIX shell and appended to the
 * string in @buf (@len bytes), after a space unless @buf is empty. A word
 * of only letters, digits and @%+=:,./_- goes as it is; any other word
 * (also "") is single-quoted, each ' in it written '\''. `sh -c` reads
 * the line back as the same words. Returns 0, or -ENOSPC when the quoted
 * word does not fit: @buf is then left as it was, never cut mid-word.
 */
int spawn_sh_append(char *buf, size_t len, const char *word);

/**
 * spawn_sh_line - @argv[0..@argc) as one shell line into @buf (@len
 * bytes, at least 1), each word through spawn_sh_append(): the "command"
 * metadata of a file and the qemu line. Returns 0, or -ENOSPC when the
 * words did not all fit (@buf holds the ones before the first that did
 * not).
 */
int spawn_sh_line(char *buf, size_t len, int argc, char *const *argv);

/**
 * spawn_sh_split - the words of the shell line @line as a POSIX shell
 * splits it, and nothing more: blanks (space, tab, newline) separate
 * words; '...' keeps what is up to the next '; "..." keeps what is up to
 * the next unescaped ", a \ dropped before $ ` " \ or a newline; a \
 * outside quotes keeps the next character. Nothing is expanded or run.
 * The words go into @buf (@len bytes), each NUL-ended, a pointer to each
 * into @argv (@max entries, the one after the last NULL), so that
 * spawn_sh_line()'s output reads back as the words it was given. Returns
 * the number of words, -EINVAL for a quote that does not close or a \
 * that ends @line, -E2BIG for more than @max - 1 words, or -ENOSPC when
 * they do not fit in @buf.
 */
int spawn_sh_split(const char *line, char *buf, size_t len, char **argv, unsigned int max);

/**
 * spawn_capture - spawn_run() of @argv with its stdout into @buf (@len
 * bytes at least 1, NUL-ended; what does not fit is read and dropped)
 * without the newlines it ends with, and its stderr onto @err_fd (-1:
 * ours): what a command prints for its caller to read, git rev-parse's
 * commit. Returns the exit code, or -errno of starting it (@buf "").
 */
int spawn_capture(char *const *argv, char *buf, size_t len, int err_fd);

/**
 * spawn_remove_tree - remove @path and, when it is a directory,
 * everything under it (nftw, depth first, symbolic links removed, never
 * followed). Returns 0 (also when @path does not exist), or the first
 * -errno met (what could be removed is removed).
 */
int spawn_remove_tree(const char *path);

#endif /* KSB_SPAWN_H */
