// SPDX-License-Identifier: GPL-2.0
/*
 * nsjoin.c - a thread's fresh namespace and its way back (see nsjoin.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "nsjoin.h"

int nsjoin_open(struct nsjoin *j, int nstype)
{
	const char *p = nstype == CLONE_NEWNET ? "/proc/thread-self/ns/net" :
						  "/proc/thread-self/ns/mnt";

	j->nstype = nstype;
	j->err = 0;
	j->fd = open(p, O_RDONLY | O_CLOEXEC);
	return j->fd < 0 ? -errno : 0;
}

int nsjoin_cycle(struct nsjoin *j)
{
	if (unshare(j->nstype))
		return -errno;
	return setns(j->fd, j->nstype) ? -errno : 0;
}

void nsjoin_close(struct nsjoin *j)
{
	if (j->fd < 0)
		return;
	setns(j->fd, j->nstype);
	close(j->fd);
	j->fd = -1;
}

int nsjoin_check(int nstype, const char *what, char *why, size_t len)
{
	pid_t pid = fork();
	int st;

	if (pid < 0)
		return -errno;
	if (!pid)
		_exit(unshare(nstype) ? (errno & 0x7f) : 0);
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (WIFEXITED(st) && !WEXITSTATUS(st))
		return 0;
	st = WIFEXITED(st) ? WEXITSTATUS(st) : EINTR;
	if (st == EPERM)
		snprintf(why, len, "unshare %s: %s: run as root (CAP_SYS_ADMIN)", what, strerror(st));
	else
		snprintf(why, len, "unshare %s: %s", what, strerror(st));
	return -st;
}
