// SPDX-License-Identifier: GPL-2.0
/*
 * builtin-bisect.c - bench bisect: the commit of a kernel git tree
 * between GOOD and BAD that made bench compare fail. GOOD is built once
 * and its kernel kept; BAD is checked first; then `git bisect run` runs
 * bench bisect --step at each commit (builtin-bisect-step.c). Every
 * child goes through the one process runner (lib/subcmd/spawn.h); the
 * report is a writer's (lib/report/bisectfmt.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench.h"
#include "builtin-bisect.h"
#include "lib/kernel/bisect.h"
#include "lib/kernel/kmod.h"
#include "lib/kernel/vm.h"
#include "lib/measure/topo.h"

/*
 * The defaults, said by --help and by the report. Counted boots repeat
 * to a few parts in 10^4: 2 a side show it (docs/measurements.md, "The
 * counted clock"). The threshold is bench compare's own, passed only
 * when -t is given.
 */
#define BISECT_BOOTS	2
#define BISECT_POSSIBLE	480
#define BISECT_CMD	"kernel", "-w", "kernel-irq-alloc", "-n", "512"

static char *bisect_default_cmd[] = { BISECT_CMD, NULL };

/*
 * The one state, whose address cmd_bisect() passes down; bisect_opts[]
 * names it, a table's values being addresses.
 */
static struct bisect_global bisect_global;

/* TREE GOOD BAD as given */
static const char *bisect_operand[3];

static void bisect_defaults(struct bisect_global *g)
{
	g->boots = BISECT_BOOTS;
	g->possible = BISECT_POSSIBLE;
	g->cmd = bisect_default_cmd;
}

/* -t PCT: a number > 0, kept as given for bench compare */
static int bisect_opt_threshold(const struct opt *o, const char *arg, char *why, size_t len)
{
	char *end;
	double v = strtod(arg, &end);

	if (end == arg || *end || !(v > 0) || v > 1e6) {
		snprintf(why, len, "--%s: '%s' is not a percentage > 0", o->long_name, arg);
		return -EINVAL;
	}
	*(const char **)o->value = arg;
	return 0;
}

/* --vm 'OPTIONS': one shell line, split here into its words (nothing run) */
static int bisect_opt_vm(const struct opt *o, const char *arg, char *why, size_t len)
{
	struct bisect_global *g = o->value;
	int n = spawn_sh_split(arg, g->vm_words, sizeof(g->vm_words), g->vm_argv,
			       BISECT_MAX_WORDS);

	if (n < 0) {
		snprintf(why, len, "--%s: '%s': %s", o->long_name, arg,
			 n == -EINVAL ? "a quote that does not close" : "too many words");
		return -EINVAL;
	}
	g->vm = arg;
	return 0;
}

static const char bisect_head[] =
	"Usage: bench bisect [OPTIONS] TREE GOOD BAD [-- COMMAND...]\n"
	"       bench bisect --step DIR [OPTIONS] [-- COMMAND...]\n"
	"Find the commit of the kernel git TREE between GOOD and BAD that made bench\n"
	"compare fail. GOOD is built once and its kernel kept; BAD is checked first;\n"
	"then git bisect run runs bench bisect --step at each commit, which builds\n"
	"the tree with its own .config (make olddefconfig, make bzImage modules),\n"
	"boots it --boots times with bench vm beside GOOD's kernel, interleaved, and\n"
	"compares the two: a regression is bad, '~' good, a change below the\n"
	"threshold good (said so), a build or boot failure, or counted figures that\n"
	"do not repeat, skipped. It writes results/<UTC stamp>/ ($KSB_RESULTS, else\n"
	"./results): good/ (GOOD's kernel and module), REV.csv and good-REV.csv,\n"
	"REV.compare.txt (.csv, .lkp), each step's logs and consoles, bisect-run.txt,\n"
	"bisect.log (git bisect log) and bisect.txt, and prints bisect.txt: a\n"
	"regression report shaped as 0-day's mails (docs/formats.md), then the first\n"
	"bad commit, the compare line that condemned it, and a BISECT line.\n";

static const struct opt bisect_opts[] = {
	OPT_U64('B', "boots", &bisect_global.boots, 1, 1000, "N",
		"boots of each kernel a step, 1..1000 (default "
		BENCH_STR(BISECT_BOOTS) ":\ncounted boots repeat to a few parts in 10^4)"),
	OPT_U64('p', "possible-cpus", &bisect_global.possible, 1, NR_CPUS_MAX, "N",
		"the guests' possible CPUs, 1.." BENCH_STR(NR_CPUS_MAX) " (default "
		BENCH_STR(BISECT_POSSIBLE) ")"),
	OPT_U64('c', "cpus", &bisect_global.cpus, 1, VM_FW_MAX_CPUS, "N",
		"online vCPUs, 1..255 (default bench vm's: 1 counted)"),
	OPT_CALL('t', "threshold", &bisect_global.threshold, bisect_opt_threshold, "PCT",
		 "bench compare's, passed only when given (default\n"
		 "compare's own: 0.5 counted, 5 timed)"),
	OPT_CALL(0, "vm", &bisect_global, bisect_opt_vm, "'OPTIONS'",
		 "more bench vm options, one shell line: its words\n"
		 "split as a shell splits them, nothing run"),
	OPT_FLAG(0, "no-check-bad", &bisect_global.no_check_bad,
		 "bisect at once, without checking that BAD regresses"),
	OPT_STRING(0, "step", &bisect_global.step, "DIR",
		   "one step, in the tree it runs in: what git bisect\n"
		   "run runs, DIR the bisect's results (GOOD's kernel\n"
		   "in DIR/good); exit 0 good, 1 bad, 125 skip, 128 abort"),
	OPT_END()
};

/* the tail of --help: the default command, from the one list of it */
static const char *bisect_tail(void)
{
	static char tail[1024];
	char cmd[256];

	spawn_sh_line(cmd, sizeof(cmd), (int)(sizeof(bisect_default_cmd) /
					      sizeof(bisect_default_cmd[0])) - 1,
		      bisect_default_cmd);
	snprintf(tail, sizeof(tail),
		 "COMMAND: what the guests run (default %s).\n"
		 "A dirty tree, revisions that do not exist, GOOD not an ancestor of BAD:\n"
		 "exit 2 before anything is built. SIGINT runs git bisect reset: the tree\n"
		 "is left as it was found.\n"
		 "Exit: 0 found, 1 BAD does not regress against GOOD, 2 bad usage, 3 GOOD or\n"
		 "BAD does not build or boot, 130/143 interrupted; --step: 0 good, 1 bad,\n"
		 "125 skip, 128 abort (git bisect run's).\n"
		 "Environment: KSB_RESULTS (the results' root), KSB_BENCH (the bench its\n"
		 "children run), KSB_BISECT_JOBS (make -j, default: the online CPUs).\n", cmd);
	return tail;
}

/* COMMAND: argv[@i..@argc), after one "--"; 0 or -1 after a message */
static int bisect_command(struct bisect_global *g, int argc, char **argv, int i)
{
	if (i < argc && !strcmp(argv[i], "--")) {
		if (++i == argc) {
			bench_err("an empty COMMAND after '--'");
			return -1;
		}
	}
	if (i == argc)
		return 0;
	if (argc - i >= BISECT_MAX_WORDS) {
		bench_err("COMMAND: %d words, at most %d", argc - i, BISECT_MAX_WORDS - 1);
		return -1;
	}
	g->cmd = argv + i;
	return 0;
}

/* Returns 0 to run, 1 after --help, -1 after a usage error. */
static int bisect_parse(struct bisect_global *g, int argc, char **argv)
{
	const struct opt *tab[] = { bisect_opts, NULL };
	struct opt_parser p = { .tab = tab, .flags = OPT_STOP_AT_OPERAND };
	int ret = bench_options(&p, bisect_head, bisect_tail(), argc, argv), i;

	if (ret)
		return ret;
	if (g->step)
		return bisect_command(g, argc, argv, optind);
	for (i = optind; i < argc && i < optind + 3 && strcmp(argv[i], "--"); i++)
		bisect_operand[i - optind] = argv[i];
	if (i - optind < 3) {
		bench_err("TREE GOOD BAD expected");
		return -1;
	}
	return bisect_command(g, argc, argv, i);
}

/* ---- before anything is built ---- */

/* make -j: $KSB_BISECT_JOBS, else the online CPUs */
static int bisect_jobs(struct bisect_global *g)
{
	const char *env = getenv("KSB_BISECT_JOBS");
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	char *end;

	if (env && *env) {
		n = strtol(env, &end, 10);
		if (*end || n < 1 || n > 4096) {
			pr_err("KSB_BISECT_JOBS: '%s' is not a count 1..4096", env);
			return EXIT_USAGE;
		}
	}
	g->jobs = n > 0 ? (unsigned int)n : 1;
	return 0;
}

/* TREE, GOOD and BAD checked, GOOD and BAD as short commits: 0 or an exit code */
static int bisect_check_input(struct bisect_global *g)
{
	char why[PATH_MAX + 256], spec[128];
	struct stat st;
	int ret;

	if (!realpath(bisect_operand[0], g->tree) || stat(g->tree, &st) || !S_ISDIR(st.st_mode)) {
		pr_err("%s: no such directory", bisect_operand[0]);
		return EXIT_USAGE;
	}
	ret = bisect_check(g->tree, bisect_operand[1], bisect_operand[2], why, sizeof(why));
	if (ret == -EINVAL)
		pr_err("%s", why);
	if (ret)
		return ret == -EINVAL ? EXIT_USAGE : bench_refused("%s", why);
	/* commits, not names: "HEAD" would follow the checkouts */
	snprintf(spec, sizeof(spec), "%s^{commit}", bisect_operand[1]);
	ret = bisect_git(g->tree, g->good, sizeof(g->good), "rev-parse", "--short", spec,
			 NULL);
	snprintf(spec, sizeof(spec), "%s^{commit}", bisect_operand[2]);
	ret = ret ?: bisect_git(g->tree, g->bad, sizeof(g->bad), "rev-parse", "--short",
				spec, NULL);
	/* the branch the tree is on, else its commit */
	if (!ret && bisect_git(g->tree, g->orig, sizeof(g->orig), "symbolic-ref", "-q",
			       "--short", "HEAD", NULL))
		ret = bisect_git(g->tree, g->orig, sizeof(g->orig), "rev-parse", "HEAD", NULL);
	return ret ? bench_refused("%s: git rev-parse failed", g->tree) : 0;
}

/* results/<stamp>/ under $KSB_RESULTS, else ./results: 0 or EXIT_ENV */
static int bisect_results(struct bisect_global *g)
{
	const char *root = getenv("KSB_RESULTS");
	char abs[PATH_MAX], cwd[PATH_MAX];
	int ret;

	if (!root || !*root)
		root = "results";
	if (*root != '/') {
		if (!getcwd(cwd, sizeof(cwd)))
			return bench_refused("getcwd: %s", strerror(errno));
		if (snprintf(abs, sizeof(abs), "%s/%s", cwd, root) >= (int)sizeof(abs))
			return bench_refused("%s/%s: a path too long", cwd, root);
		root = abs;
	}
	ret = bisect_new_dir(root, g->dir, sizeof(g->dir));
	return ret ? bench_refused("%s: cannot create a directory under it: %s", root,
				   strerror(-ret)) : 0;
}

/* ---- the tree as it was found, whatever happened ---- */

/* git -C TREE WORD... quietly, through the runner: its exit code */
static int bisect_git_run(struct bisect_global *g, char *const *words)
{
	char *argv[12] = { "git", "-C", g->tree };
	unsigned int n = 3;
	int null = open("/dev/null", O_WRONLY | O_CLOEXEC), ret;

	while (*words && n < 11)
		argv[n++] = *words++;
	argv[n] = NULL;
	ret = bisect_spawn(g, argv, null, null);
	if (null >= 0)
		close(null);
	return ret;
}

static int bisect_checkout(struct bisect_global *g, const char *rev)
{
	char *words[] = { "checkout", "-q", (char *)rev, NULL };

	return bisect_git_run(g, words);
}

/* no bisect going, and the tree back on its branch or commit */
static void bisect_restore(struct bisect_global *g)
{
	if (bisect_going(g->tree))
		bisect_git(g->tree, NULL, 0, "bisect", "reset", NULL);
	bisect_git(g->tree, NULL, 0, "checkout", "-q", g->orig, NULL);
}

/* a signal: the tree restored, said so (then bench exits 128 + it) */
static void bisect_leave_tree(struct bisect_global *g)
{
	bisect_restore(g);
	pr_err("interrupted; %s is back at %s", g->tree, g->orig);
}

/* ---- GOOD, BAD, and git bisect run ---- */

/* GOOD's kernel and the module built against it, kept in DIR/good: 0 or EXIT_ENV */
static int bisect_baseline(struct bisect_global *g)
{
	char rev[64], good[BISECT_DIR_MAX + 64], path[PATH_MAX + 64], kmod[PATH_MAX], last[512];
	int fd, ret;

	if (bisect_git(g->tree, rev, sizeof(rev), "rev-parse", "--short", "HEAD", NULL) ||
	    bisect_build_tree(g, rev, false))
		return EXIT_ENV;
	snprintf(good, sizeof(good), "%s/good", g->dir);
	snprintf(path, sizeof(path), "%s/" BISECT_IMAGE, g->tree);
	if (mkdir(good, 0755) || bisect_copy(path, strcat(good, "/bzImage"))) {
		return bench_refused("%s: keeping %s: %s", rev, path, strerror(errno));
	}
	/* the one build of the module, bench's (lib/kernel/kmod.h) */
	snprintf(path, sizeof(path), "%s/%s.kmod.log", g->dir, rev);
	snprintf(kmod, sizeof(kmod), "%s/good/kmod", g->dir);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	ret = fd < 0 ? -errno : kmod_build(g->tree, kmod, fd);
	if (fd >= 0)
		close(fd);
	bisect_check_signal(g);
	if (ret) {
		bisect_last_line(path, last, sizeof(last));
		return bench_refused("%s: the module does not build against it (%s)", rev,
				     ret < 0 ? strerror(-ret) : last);
	}
	snprintf(path, sizeof(path), "%s/good/kmod/" KMOD_NAME ".ko", g->dir);
	snprintf(good, sizeof(good), "%s/good/" KMOD_NAME ".ko", g->dir);
	if (rename(path, good))
		return bench_refused("%s: %s", path, strerror(errno));
	pr_err("%s: kept as the good kernel in %s/good", rev, g->dir);
	return 0;
}

/* GOOD kept, BAD regressing against it (unless --no-check-bad): 0 or an exit code */
static int bisect_ends(struct bisect_global *g)
{
	int ret = bisect_checkout(g, g->good) ? EXIT_ENV : bisect_baseline(g);

	if (!ret && !g->no_check_bad) {
		ret = bisect_checkout(g, g->bad) ? EXIT_ENV : bisect_step(g);
		if (!ret) {
			pr_err("%s does not regress against %s (see %s): nothing to bisect",
			       g->bad, g->good, g->dir);
			ret = EXIT_REGRESSION;
		} else {
			ret = ret == 1 ? 0 : EXIT_ENV;
		}
	}
	bisect_checkout(g, g->orig);
	if (ret == EXIT_ENV)
		pr_err("%s or %s does not build or boot (see %s)", g->good, g->bad, g->dir);
	return ret;
}

/* git bisect run's argv, and the numbers it holds */
struct bisect_run_argv {
	char *argv[BISECT_MAX_WORDS + 24];
	char boots[24], possible[24], cpus[24];
};

/* git -C TREE bisect run BENCH bisect --step DIR, our options and command */
static void bisect_run_argv(struct bisect_global *g, struct bisect_run_argv *a)
{
	char **argv = a->argv, *const *w;
	unsigned int n = 0;

	snprintf(a->boots, sizeof(a->boots), "%lu", (unsigned long)g->boots);
	snprintf(a->possible, sizeof(a->possible), "%lu", (unsigned long)g->possible);
	snprintf(a->cpus, sizeof(a->cpus), "%lu", (unsigned long)g->cpus);
	argv[n++] = "git";
	argv[n++] = "-C";
	argv[n++] = g->tree;
	argv[n++] = "bisect";
	argv[n++] = "run";
	argv[n++] = g->bench;
	argv[n++] = "bisect";
	argv[n++] = "--step";
	argv[n++] = g->dir;
	argv[n++] = "-B";
	argv[n++] = a->boots;
	argv[n++] = "-p";
	argv[n++] = a->possible;
	if (g->cpus) {
		argv[n++] = "-c";
		argv[n++] = a->cpus;
	}
	if (g->threshold) {
		argv[n++] = "-t";
		argv[n++] = (char *)g->threshold;
	}
	if (g->vm) {
		argv[n++] = "--vm";
		argv[n++] = (char *)g->vm;
	}
	argv[n++] = "--";
	for (w = g->cmd; *w; w++)
		argv[n++] = *w;
	argv[n] = NULL;
}

/*
 * git bisect start BAD GOOD, git bisect run (its transcript to
 * bisect-run.txt, each step's lines to stderr as they come: a step is a
 * build and 2B boots, minutes each), git bisect log to bisect.log; the
 * tree restored. 0, or EXIT_ENV after a message.
 */
static int bisect_run(struct bisect_global *g)
{
	static struct bisect_run_argv a;
	char *start[] = { "bisect", "start", g->bad, g->good, NULL };
	char path[PATH_MAX];
	struct spawn s = { .flags = SPAWN_GROUP | SPAWN_NULL_STDIN };
	char *log[] = { "git", "-C", g->tree, "bisect", "log", NULL };
	int fd[2] = { -1, -1 }, copy, ret;

	if (bisect_git_run(g, start))
		return bench_refused("%s: git bisect start %s %s failed", g->tree, g->bad,
				     g->good);
	bisect_run_argv(g, &a);
	snprintf(path, sizeof(path), "%s/bisect-run.txt", g->dir);
	copy = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	ret = copy < 0 || pipe2(fd, O_CLOEXEC) ? -errno : 0;
	s.argv = a.argv;
	s.out_fd = s.err_fd = fd[1];
	ret = ret ?: spawn_start(&s);
	if (fd[1] >= 0)
		close(fd[1]);
	if (!ret)
		bisect_wait(g, &s, fd[0], copy);
	if (fd[0] >= 0)
		close(fd[0]);
	if (copy >= 0)
		close(copy);
	if (ret)
		return bench_refused("git bisect run: %s", strerror(-ret));
	snprintf(path, sizeof(path), "%s/bisect.log", g->dir);
	copy = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	ret = copy < 0 ? -errno : bisect_spawn(g, log, copy, -1);
	if (copy >= 0)
		close(copy);
	return ret ? bench_refused("%s: git bisect log: %s", path,
				   ret < 0 ? strerror(-ret) : "failed") : 0;
}

/* ---- bench bisect ---- */

/* --step DIR: one step in the current directory's tree */
static int bisect_step_main(struct bisect_global *g)
{
	char dir[PATH_MAX];

	if (!getcwd(g->tree, sizeof(g->tree))) {
		pr_err("getcwd: %s", strerror(errno));
		return BISECT_ABORT;
	}
	if (!realpath(g->step, dir))
		snprintf(dir, sizeof(dir), "%s", g->step);
	if (strlen(dir) >= sizeof(g->dir)) {
		pr_err("%s: a path too long", dir);
		return BISECT_ABORT;
	}
	strcpy(g->dir, dir);
	return bisect_step(g);
}

static int bisect_main(struct bisect_global *g)
{
	double t0 = spawn_now();
	int ret = bisect_check_input(g) ?: bisect_results(g);

	if (ret)
		return ret;
	/* every path is absolute: the steps run in the tree, as git bisect run's do */
	if (chdir(g->tree))
		return bench_refused("%s: %s", g->tree, strerror(errno));
	g->leave = bisect_leave_tree;
	pr_err("%s (good) .. %s (bad) in %s; %lu boots a step at %lu possible CPUs; results: %s",
	       g->good, g->bad, g->tree, (unsigned long)g->boots,
	       (unsigned long)g->possible, g->dir);
	ret = bisect_ends(g) ?: bisect_run(g);
	bisect_restore(g);
	bisect_check_signal(g);
	g->leave = NULL;
	return ret ?: bisect_report(g, t0);
}

int cmd_bisect(int argc, char **argv)
{
	struct bisect_global *g = &bisect_global;
	bool step = argc > 1 && !strcmp(argv[1], "--step");
	int ret;

	bench_wait_signals();
	/*
	 * The kernel's build is its own: a make above us (make bisectcheck)
	 * would hand it its jobserver and level, and make's messages change.
	 */
	unsetenv("MAKEFLAGS");
	unsetenv("MFLAGS");
	unsetenv("MAKELEVEL");
	bisect_defaults(g);
	ret = bisect_parse(g, argc, argv);
	if (ret)
		return ret > 0 ? bench_finish_stdout() : step ? BISECT_ABORT : EXIT_USAGE;
	ret = bench_child_exe(g->bench, sizeof(g->bench)) ?: bisect_jobs(g);
	if (ret)
		return g->step ? BISECT_ABORT : ret;
	return g->step ? bisect_step_main(g) : bisect_main(g);
}
