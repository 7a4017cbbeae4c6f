/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bench.h - what the subcommands of bench share: exit codes, messages
 * and option parsing. Only bench*.c and builtin-*.c print to stdout or
 * decide the exit code; the library (kstats_hist.c, lib/, workloads/)
 * returns 0 or -errno.
 */
#ifndef KSB_BENCH_H
#define KSB_BENCH_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/subcmd/options.h"
#include "lib/host/testbed.h"

struct meta;

/* exit codes, for every command */
enum {
	EXIT_DONE = 0,		/* done */
	EXIT_REGRESSION = 1,	/* compare or trend found a regression */
	EXIT_USAGE = 2,		/* bad usage or input: one line names it */
	EXIT_ENV = 3,		/* the environment refused */
};				/* 130/143: interrupted, partial results kept */

/* a macro's value as a string, for --help texts: BENCH_STR(CMP_MIN_RUNS) */
#define BENCH_STR_(x)	#x
#define BENCH_STR(x)	BENCH_STR_(x)

/* "bench" or "bench CMD": the prefix of every message */
extern const char *bench_prog;

/**
 * bench_err - "bench CMD: <fmt> (see 'bench CMD --help')" on stderr.
 */
void bench_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/**
 * pr_err - "bench CMD: <fmt>" and a newline on stderr: a message that
 * needs no --help hint (a file that cannot be read, a warning, a note),
 * the one way the commands print one (as perf's pr_err).
 */
void pr_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/**
 * bench_refused - "bench CMD: <fmt>" on stderr, one line naming why the
 * environment refused (not root, no module, no BPF). Returns EXIT_ENV.
 */
int bench_refused(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/**
 * bench_nomem - bench_refused() of ENOMEM, out of memory. Returns EXIT_ENV.
 */
int bench_nomem(void);

/**
 * bench_operand_sep - where the operands argv[optind..argc) split in two:
 * the index of their one "--" (optind - 1 when getopt took a leading one
 * as the end of the options), or -1 when there is none. Returns -2 after
 * bench_err() when an option follows a file or "--" comes twice; @sides
 * names what "--" separates in that message ("BEFORE files from AFTER
 * files"). bench compare and bench scale take their sides so.
 */
int bench_operand_sep(int argc, char **argv, const char *sides);

/**
 * bench_cmdline - the command line for the "command" metadata into @buf
 * (@len bytes): @argv[0] ("bench CMD") as it is, then each further word
 * through spawn_sh_append(), so that a shell runs it again; the words
 * before the first that does not fit.
 */
void bench_cmdline(char *buf, size_t len, int argc, char **argv);

/* a word of completion's (--list-values) and the words it takes */
struct bench_list {
	const char *opt;		/* "--list-values"; NULL closes a table */
	const char *words;		/* what follows it: "COMMAND OPTION", "" none */
};

/**
 * bench_list_words - when @argv[1] is one of the words of @l (a table),
 * are the words after it the ones it takes? 0 when they are or it is
 * none of them; -1 after bench_err() naming the word missing ("--list-values
 * scale: no OPTION") or the one too many.
 */
int bench_list_words(const struct bench_list *l, int argc, char **argv);

/**
 * bench_options - parse @argv against the option tables of @p
 * (lib/subcmd/options.h). Returns 0 to go on, the operands from optind; 1 after
 * --help printed on stdout: @head ("Usage: ..." and what the command
 * does), the option lines, then @tail (NULL: none), or after
 * `CMD --list-opts` (@argv's only word) printed its long options on one
 * line (opt_list(), for completion), or `CMD --list-values OPT` the
 * values OPT takes (opt_list_values()); -1 after one line on stderr
 * naming the option and what was wrong with it.
 */
int bench_options(struct opt_parser *p, const char *head, const char *tail,
		  int argc, char **argv);

/* the release ("0.1.0") and `git describe` at build time ("unknown": none) */
extern const char bench_release[];
extern const char bench_git[];

/*
 * who wrote a command's results: its --label and --origin, in the
 * command's state, which both options name as their value
 */
struct bench_origin {
	struct tb_labels labels;	/* --label KEY=VALUE, in the order given */
	const char *origin;		/* --origin NAME, or NULL (-f kcidb: KCIDB_ORIGIN) */
};

/**
 * bench_opt_label - the OPT_CALL of --label KEY=VALUE (run, audit, kernel,
 * trace, vm) into the struct bench_origin o->value names, for
 * bench_meta_origin() (nowhere with o->check_only). 0, or -EINVAL with
 * @why.
 */
int bench_opt_label(const struct opt *o, const char *arg, char *why, size_t len);

/**
 * bench_opt_origin - the OPT_CALL of --origin NAME (run, audit, kernel,
 * trace, vm): KCIDB's origin for -f kcidb, checked by kcidb_opt_origin()
 * and kept in the struct bench_origin o->value names (nowhere with
 * o->check_only). 0, or -EINVAL with @why.
 */
int bench_opt_origin(const struct opt *o, const char *arg, char *why, size_t len);

/**
 * bench_meta_origin - bench_release, bench_git and every label of @who
 * into @m (lib/host/testbed.h), and its origin as KCIDB_META_ORIGIN
 * when one was given: the file keeps it, so that bench show -f kcidb of
 * it later names the same CI system.
 */
void bench_meta_origin(struct meta *m, const struct bench_origin *who);

/**
 * bench_testbed - testbed_read() of this host, or of the fixture tree
 * named by KSB_TESTBED_ROOT (tests). EXIT_DONE, or EXIT_USAGE after a
 * message when that is not a directory.
 */
int bench_testbed(struct testbed *tb);

/**
 * bench_finish_stdout - flush stdout: EXIT_DONE, or EXIT_ENV after a
 * message on a failed write. A closed pipe (bench run | head) is done.
 */
int bench_finish_stdout(void);

/**
 * bench_input_err - what a command exits with once a library call that
 * reads its input returned @ret, with its one-line message in @why
 * unless @ret is 0 or -ENOMEM: EXIT_DONE for 0, bench_nomem()'s for
 * -ENOMEM, else EXIT_USAGE after @why on stderr.
 */
int bench_input_err(int ret, const char *why);

/**
 * bench_also_err - what a command exits with once outset_write() returned
 * @ret, with @why its message: EXIT_DONE for 0, bench_nomem()'s for
 * -ENOMEM, else EXIT_ENV after "--also WHY".
 */
int bench_also_err(int ret, const char *why);

/**
 * bench_stdout_failed - a report on stdout returned @err (-errno): EXIT_ENV
 * after one line, the stream's error if it has one, else @err's;
 * EXIT_DONE when the reader went away (bench_finish_stdout()); -ENOMEM
 * is bench_nomem()'s.
 */
int bench_stdout_failed(int err);

struct fileset;
struct outfile;
struct outset;
struct results;

/**
 * bench_outputs - before anything is read: refuse (lib/subcmd/iopath.h)
 * an output, -o @output (NULL: none) or one of @also's (NULL: none),
 * that would replace one of the @nin inputs @in, and two outputs that
 * name one file. EXIT_DONE, or EXIT_USAGE after one line naming both.
 */
int bench_outputs(char *const *in, unsigned int nin, const char *output,
		  const struct outset *also);

/**
 * bench_open_also - outset_open() @also, before anything is measured or
 * read: EXIT_DONE, or EXIT_USAGE after "--also FILE: why" (then none is
 * open).
 */
int bench_open_also(struct outset *also);

/**
 * bench_open_outputs - what a measuring command opens before it measures:
 * bench_outputs() of the @nin inputs @in, -o @path and @also, then -o's
 * file into @out (when @path) and every file of @also. EXIT_DONE, or
 * EXIT_USAGE after one line (then none is open).
 */
int bench_open_outputs(char *const *in, unsigned int nin, struct outfile *out,
		       const char *path, struct outset *also);

/**
 * bench_commit_also - outset_commit() @also once its reports are written:
 * EXIT_DONE, or EXIT_ENV after "--also FILE: why".
 */
int bench_commit_also(struct outset *also);

/**
 * bench_one_document - of -f @fmt and @also's formats (indices of
 * lib/report/format.h's formats[]), the first that is one document (csv,
 * json) and so cannot hold a stream of reports: its index, with *@opt
 * "-f" or "--also"; -1 when none is.
 */
int bench_one_document(int fmt, const struct outset *also, const char **opt);

/**
 * bench_inputs_once - refuse two of the @nin inputs @in that are one
 * file, whose runs would count twice. EXIT_DONE, or EXIT_USAGE after one
 * line naming both.
 */
int bench_inputs_once(char *const *in, unsigned int nin);

/**
 * bench_report - what every command that writes a results set does with
 * it: with @path (-o) the CSV into @out (opened by outfile_open() before
 * measuring) and committed, then @r in format @fmt (an index of
 * lib/report/format.h's formats[]) on stdout, or on stderr when the CSV has
 * stdout (-o -), then every report of @also (NULL: none; opened by
 * outset_open() before measuring; FMT:VARIANT: that variant's series of
 * the first workload alone, as bench show -v VARIANT prints it),
 * committed once every report is written. EXIT_DONE; EXIT_USAGE after
 * a message naming an --also variant the set lacks (then no file is
 * changed); EXIT_ENV after a message naming the path or stdout when a
 * write failed (then no --also file is changed).
 */
int bench_report(struct outfile *out, const char *path, unsigned int fmt, struct outset *also,
		 const struct results *r);

/**
 * bench_load_file - fileset_read() the results file @path ("-": stdin)
 * into a new set *@r, checked by @fs's rules and counted in its group
 * @group (lib/results/fileset.h; NULL: no rule, bench_check_file() later),
 * with the one warning of a partial file on stderr. EXIT_DONE;
 * EXIT_USAGE after one line naming the file and line, or the two files a
 * rule sets apart; EXIT_ENV (no memory).
 */
int bench_load_file(struct fileset *fs, const char *path, unsigned int group,
		    struct results **r);

/**
 * bench_check_file - fileset_check() the set @r read from @path by @fs's
 * rules, counted in its group @group: EXIT_DONE, or EXIT_USAGE after the
 * rule's line naming the two files.
 */
int bench_check_file(struct fileset *fs, const char *path, unsigned int group,
		     const struct results *r);

/**
 * bench_load_files - bench_load_file() of the @n files @path, in order,
 * into a new array *@set of @n sets, each counted in group @group of @fs:
 * what compare's sides and scale's groups read. EXIT_DONE, or the first
 * failure's exit code (EXIT_ENV when the array cannot be had). *@set is
 * the caller's either way, a set not read NULL: results_free() each, then
 * free() it.
 */
int bench_load_files(struct fileset *fs, char *const *path, unsigned int n, unsigned int group,
		     struct results ***set);

/**
 * bench_one_class - the runs of every file of the @nsides sides (@set[k],
 * named @path[k], @n[k] files each) are of one runner class
 * (lib/results/strata.h), or @pool (--pool) says to pool them. EXIT_DONE,
 * or EXIT_USAGE after one line naming the two classes.
 */
int bench_one_class(struct results *const *const *set, char *const *const *path,
		    const unsigned int *n, unsigned int nsides, bool pool);

/*
 * What a command waits on while it measures (the engine's workers, a
 * --runs child, the module's run), for bench_wait(): SIGINT and SIGTERM
 * are blocked in every thread, so only its sigtimedwait() sees them.
 */
struct bench_wait {
	/* each tick: 1 done, 0 not yet, or -errno (the wait ends with it) */
	int (*poll)(void *priv);
	/* the first SIGINT/SIGTERM: stop at the next sample, keep what was measured */
	void (*stop)(void *priv, int sig);
	/* the second: undo what must not outlive us, before _exit(128 + sig) */
	void (*leave)(void *priv);
	/* each tick, stderr a terminal and not quiet: the progress text after "bench CMD: ", no newline */
	void (*progress)(void *priv);
	void *priv;			/* the callbacks' argument */
	long tick_ms;			/* how often poll() and progress() run */
	int wake;			/* a signal that ends a tick early (SIGCHLD), or 0 */
	bool quiet;			/* -q: no progress */
	int *signo;			/* the first SIGINT/SIGTERM is stored here */
};

/**
 * bench_block_signals - block every signal in the calling thread, and so
 * in every thread and worker it starts after: SIGINT and SIGTERM then
 * reach bench_wait()'s sigtimedwait() alone, even during setup, so that
 * no exit path leaves a temporary file behind. The mask before goes to
 * @old when not NULL.
 */
void bench_block_signals(sigset_t *old);

/**
 * bench_wait_signals - what a command that waits on its children (bench
 * vm, bisect, sweep) opens with, rather than bench_block_signals():
 * SIGINT and SIGTERM blocked, so that only bench_wait()'s sigtimedwait()
 * takes them, SIGCHLD blocked too (it ends that wait's tick) and back to
 * its default (an inherited SIG_IGN would reap the children before
 * waitpid()). The children get an empty mask (lib/subcmd/spawn.h).
 */
void bench_wait_signals(void);

/**
 * bench_wait - wait until @w->poll() says done: the first SIGINT or
 * SIGTERM calls @w->stop() and the wait goes on (what was measured is
 * still written), a second one calls @w->leave() and exits 128 + sig at
 * once. The progress line is cleared at the end. With KSB_PROGRESS set
 * in the environment, each tick's progress is a line of its own, even
 * when stderr is no terminal: tests wait on it. Returns 0 or poll()'s
 * -errno.
 */
int bench_wait(const struct bench_wait *w);

struct spawn;

/**
 * bench_child_exe - the bench a command's children run (bench bisect's,
 * bench sweep's) into @path (@len bytes): $KSB_BENCH (a wrapper, a
 * pinned build), made absolute, else this one (/proc/self/exe).
 * EXIT_DONE; EXIT_USAGE after a message when KSB_BENCH names no
 * executable file; EXIT_ENV after one when /proc/self/exe cannot be read.
 */
int bench_child_exe(char *path, size_t len);

/**
 * bench_wait_child - bench_wait() on the child @s started (with
 * SPAWN_GROUP, lib/subcmd/spawn.h): the first SIGINT or SIGTERM is
 * stored in *@signo and passed on to the child's group, and the wait
 * goes on until it is gone; a second one kills it and exits 128 + sig.
 * @more(@priv) (NULL: none) runs each tick (50 ms, or when a SIGCHLD
 * comes, which the caller blocks with SIGINT and SIGTERM) and returns 1
 * while the child's output is still to come: the wait ends with its
 * end too. Returns the child's exit code (spawn_exit_code()), or -errno
 * of waiting.
 */
int bench_wait_child(struct spawn *s, int *signo, int (*more)(void *priv), void *priv);

struct engine;

/*
 * What a command that times on the engine's workers waits on (bench run,
 * bench audit), for bench_wait_engine().
 */
struct bench_engine_wait {
	struct engine *e;		/* started: its workers run */
	struct outfile *out;		/* -o, its temp file removed by a second signal; or NULL */
	struct outset *also;		/* --also's files, the same; or NULL */
	/* each tick, as bench_wait()'s progress: the text for @done samples; NULL: none */
	void (*progress)(void *priv, uint64_t done);
	void *priv;			/* progress()'s argument */
	long tick_ms;			/* how often the workers are polled */
	bool quiet;			/* -q: no progress */
	int *signo;			/* the first SIGINT/SIGTERM is stored here */
};

/**
 * bench_wait_engine - bench_wait() until every worker of @w->e is done:
 * the first SIGINT or SIGTERM stops them at the next sample boundary
 * (what was measured is still reported), a second one removes @w->out's
 * and @w->also's temp files and exits 128 + sig.
 */
void bench_wait_engine(const struct bench_engine_wait *w);

/**
 * bench_check_cmd - check @argv (argv[0] a command's name, "run") as that
 * command parses it, without running it: the check it registers (each
 * cmd_X_check below) parses with OPT_CHECK_ONLY against the command's own
 * option tables and checks the words together, reading nothing of this
 * host. bench vm checks its guests' commands so before it boots. 0 (a
 * command without a check passes), or -EINVAL with one line in @why.
 */
int bench_check_cmd(int argc, char **argv, char *why, size_t len);

/**
 * bench_check_value - bench_check_cmd(), and the value that the option
 * @word ("--cpus") of that command took, as opt_value() gives it, into
 * @val (@vlen bytes; "" when not given or on a failed check): what bench
 * doctor learns of the run it is asked about. 0, or -EINVAL with @why.
 * Not thread-safe.
 */
int bench_check_value(int argc, char **argv, const char *word, char *val, size_t vlen,
		      char *why, size_t len);

/* the subcommands, each returning its exit code */
int cmd_run(int argc, char **argv);		/* builtin-run.c */
int cmd_list(int argc, char **argv);		/* builtin-list.c */
int cmd_audit(int argc, char **argv);		/* builtin-audit.c */
int cmd_calibrate(int argc, char **argv);	/* builtin-calibrate.c */
int cmd_compare(int argc, char **argv);		/* builtin-compare.c */
int cmd_show(int argc, char **argv);		/* builtin-show.c */
int cmd_trend(int argc, char **argv);		/* builtin-trend.c */
int cmd_scale(int argc, char **argv);		/* builtin-scale.c */
int cmd_hist(int argc, char **argv);		/* builtin-hist.c */
int cmd_kernel(int argc, char **argv);		/* builtin-kernel.c */
int cmd_trace(int argc, char **argv);		/* builtin-trace.c */
int cmd_vm(int argc, char **argv);		/* builtin-vm.c */
int cmd_merge(int argc, char **argv);		/* builtin-merge.c */
int cmd_doctor(int argc, char **argv);		/* builtin-doctor.c */
int cmd_bisect(int argc, char **argv);		/* builtin-bisect.c */
int cmd_sweep(int argc, char **argv);		/* builtin-sweep.c */

/**
 * bench_check_parse - what each cmd_X_check parses with: opt_parse() of
 * @p with OPT_CHECK_ONLY added. 0 (--help too: the guest prints it), or
 * -EINVAL with @p->why copied into @why.
 */
int bench_check_parse(struct opt_parser *p, int argc, char **argv, char *why, size_t len);

/**
 * bench_check_peek - have the next bench_check_parse() copy the value of
 * option @word into @buf (@len bytes); @word NULL: no longer. For
 * bench_check_value().
 */
void bench_check_peek(const char *word, char *buf, size_t len);

/* the parse-only checks of bench_check_cmd(): 0, or -EINVAL with @why */
int cmd_run_check(int argc, char **argv, char *why, size_t len);
int cmd_kernel_check(int argc, char **argv, char *why, size_t len);
int cmd_trace_check(int argc, char **argv, char *why, size_t len);
int cmd_audit_check(int argc, char **argv, char *why, size_t len);

struct vmprep_file;

/**
 * cmd_audit_vm_check - what bench vm checks of a guest's audit (@argc,
 * @argv) before the first boot, beyond cmd_audit_check(), so that no
 * boot refuses it: no --dry-run (a guest would send no CSV), and its
 * --battery one of the @nr files @file puts in every guest
 * (lib/kernel/vmprep.h), read from that file's SRC with the built-in
 * entries as the guest's audit reads it. 0, -EINVAL with one line in
 * @why, or -ENOMEM.
 */
int cmd_audit_vm_check(int argc, char **argv, const struct vmprep_file *file, unsigned int nr,
		       char *why, size_t len);

#endif /* KSB_BENCH_H */
