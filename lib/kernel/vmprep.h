/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vmprep.h - what bench vm checks before anything boots: its -p list,
 * its kernel operands and their names, the guest commands after "--",
 * the bzImages, modules, busybox and static bench the guests get.
 *
 * Every call returns 0, -EINVAL when the user's input is at fault (bench
 * vm exits 2), or another -errno when this host lacks something (exit
 * 3); either way with one line in @why (@len bytes) naming the option or
 * file. Nothing here prints.
 */
#ifndef KSB_VMPREP_H
#define KSB_VMPREP_H

#include <stdbool.h>
#include <stddef.h>

#define VMPREP_MAX_ARGS	64		/* words of one guest command */
#define VMPREP_NAME_MAX	63		/* a kernel's NAME */

/* one guest command, run inside every boot */
struct vm_cmd {
	char *argv[VMPREP_MAX_ARGS + 1]; /* bench's words: "kernel", "-w", ... */
	unsigned int argc;		/* used */
	char what[256];			/* argv as a shell line, for titles and metadata */
};

/**
 * vmprep_counts - -p's list "N[,N...]" into @out (at most @max counts,
 * *@n set), each 1..@limit and none twice.
 */
int vmprep_counts(const char *arg, unsigned int *out, unsigned int max, unsigned int limit,
		  unsigned int *n, char *why, size_t len);

/**
 * vmprep_kernel - the operand [NAME=]PATH (@arg, cut at its '='): *@path
 * the file or directory (it must exist), *@tree whether it is a
 * directory (a build tree), @name (VMPREP_NAME_MAX + 1 bytes) NAME or
 * else the directory's name (stock/bzImage: stock; a tree: its own
 * name), [A-Za-z0-9._-] and not starting with '.'.
 */
int vmprep_kernel(char *arg, const char **path, bool *tree, char *name, char *why, size_t len);

/**
 * vmprep_cmd - one guest command, from @argv[@i] up to the next "--" or
 * the end, into @c: kernel, run or trace, without -o (bench vm writes the
 * CSV), or sh SCRIPT [ARGS] (SCRIPT a readable regular file here). Inside a trace command the first "--" is its own: it starts the
 * traced PROG, which runs to the next "--" or the end (PROG's words are
 * not checked: they are PROG's). Returns the index after the command
 * (argc or a "--"), or -EINVAL.
 */
int vmprep_cmd(struct vm_cmd *c, int argc, char **argv, int i, char *why, size_t len);

/* one --file: a file on this host and its path in the guest */
struct vmprep_file {
	char src[4096];			/* SRC */
	char dst[256];			/* DST, or SRC's base name; no leading '/' */
};

/**
 * vmprep_file - --file SRC[=DST] (@arg) into @out: SRC a readable regular
 * file, DST a relative path in the guest (leading '/', "." and empty
 * parts dropped, so ./bench is bench; no '..') that is none of bench
 * vm's own (/init, /bench, /bin/busybox, /kmod/kstats_bench.ko, /sh/).
 */
int vmprep_file(const char *arg, struct vmprep_file *out, char *why, size_t len);

/**
 * vmprep_guest_file - the one of the @n files @file that puts @path (a
 * path in the guest, whose commands run in /: "/b.bat", "b.bat" and
 * "./b.bat" are one) into every initramfs, or NULL when none does.
 */
const struct vmprep_file *vmprep_guest_file(const struct vmprep_file *file, unsigned int n,
					    const char *path);

/**
 * vmprep_image - kernel @name's bzImage @image (built in the tree @tree,
 * NULL: given as an image): its release into @rel (@rlen bytes), and for
 * a tree the tree's release, which must be the image's.
 */
int vmprep_image(const char *name, const char *tree, const char *image, char *rel, size_t rlen,
		 char *why, size_t len);

/**
 * vmprep_ko - the module @ko, given by option @opt ("--module ", or ""),
 * is built for @release (kernel @name's).
 */
int vmprep_ko(const char *ko, const char *opt, const char *name, const char *release,
	      char *why, size_t len);

/**
 * vmprep_bench - the static bench the guests run into @path (@plen
 * bytes): @given (--bench, -EINVAL when it is not a static ELF), else
 * bench-static or kstats-bench-static beside this bench, else this bench
 * when it is static; -ENOENT when there is none.
 */
int vmprep_bench(const char *given, char *path, size_t plen, char *why, size_t len);

/**
 * vmprep_busybox - @path is a static busybox (its "BusyBox v" banner).
 * @given (--busybox FILE): a file that cannot be read, or that is no
 * static busybox, is bad input: -EINVAL; the default missing, or no
 * static busybox, is this host's lack: -ENOENT, -ENOEXEC.
 */
int vmprep_busybox(const char *path, bool given, char *why, size_t len);

/**
 * vmprep_memory - -m's size: N (MiB), NM, NG (also lower-case, and K
 * for KiB that make whole MiB), into *@mib, in @min..@max MiB.
 */
int vmprep_memory(const char *arg, unsigned long min, unsigned long max, unsigned long *mib,
		  char *why, size_t len);

/**
 * vmprep_tuxmake - the tuxmake output directory @dir: its bzImage into
 * @image (@ilen bytes), and from its metadata.json the build's
 * reproducer_cmdline (a list of strings) as a shell line
 * (spawn_sh_append()) into @cmd (@clen bytes; the words before the
 * first that does not fit). metadata.json is read with json-c.
 * -EINVAL with @why naming the file (and the line
 * where it is not JSON): no bzImage, metadata.json unreadable, not JSON,
 * or without build.reproducer_cmdline as a list of strings.
 */
int vmprep_tuxmake(const char *dir, char *image, size_t ilen, char *cmd, size_t clen,
		   char *why, size_t len);

#endif /* KSB_VMPREP_H */
