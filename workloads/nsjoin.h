/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nsjoin.h - what the namespace workloads share (netns, mntns,
 * mount-tmpfs): a worker thread that leaves its namespace for a fresh
 * one and comes back. unshare(2) and setns(2) act on the calling thread
 * alone, so each pinned worker does it to itself, and comes back to the
 * namespace it started in through an fd opened at setup.
 */
#ifndef KSB_NSJOIN_H
#define KSB_NSJOIN_H

#include <stddef.h>

/* a worker's way back to its namespace of type @nstype (CLONE_NEWNET, ...) */
struct nsjoin {
	int fd;				/* /proc/thread-self/ns/{net,mnt}, -1: none */
	int nstype;			/* CLONE_NEWNET or CLONE_NEWNS */
	int err;			/* -errno of a failed sample, sticky */
};

/*
 * nsjoin_open - open the calling thread's namespace of @nstype into @j.
 * Returns 0 or -errno.
 */
int nsjoin_open(struct nsjoin *j, int nstype);

/*
 * nsjoin_cycle - unshare(@j->nstype), then setns() back: a fresh
 * namespace made and, its last reference gone, dismantled. Returns 0 or
 * -errno (-EPERM without CAP_SYS_ADMIN).
 */
int nsjoin_cycle(struct nsjoin *j);

/* nsjoin_close - back to the namespace @j was opened in, fd closed. */
void nsjoin_close(struct nsjoin *j);

/*
 * nsjoin_check - may this process unshare @nstype (@what: "a network
 * namespace")? In a child, so that nothing here changes. 0, or -errno
 * with one line in @why naming the fix.
 */
int nsjoin_check(int nstype, const char *what, char *why, size_t len);

#endif /* KSB_NSJOIN_H */
