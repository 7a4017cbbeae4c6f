/* SPDX-License-Identifier: GPL-2.0 */
/*
 * options.h - one declaration per option. A command (or a workload)
 * declares its options once, in a table; the table yields getopt_long's
 * optstring and longopts, checks and stores the values, and prints the
 * option lines of --help, as perf's parse-options does:
 *
 *	static const struct opt hist_opts[] = {
 *		OPT_U64('b', "frac-bits", &o.frac_bits, 0, 12, "B",
 *			"sub-buckets per power of two = 2^B, 0..12 (default 2)"),
 *		OPT_ENUM('f', "format", &o.format, hist_formats, "FMT",
 *			 "table (default), kstats, csv, bars, json"),
 *		OPT_END()
 *	};
 *	const struct opt *tabs[] = { hist_opts, NULL };
 *	struct opt_parser p = { .tab = tabs };
 *
 *	ret = opt_parse(&p, argc, argv);	0: argv[optind..] are operands
 *	opt_help(stdout, tabs);			1: --help was asked
 *						-EINVAL: p.why says what
 *
 * opt_help() prints, for every entry, "  -b, --frac-bits B" and the help
 * text in a column after the longest option (at most OPT_HELP_COL), each
 * '\n' of the help continuing in that column; a group entry prints its
 * heading, after a blank line unless it opens its table; "-h, --help"
 * closes the first table, and a blank line opens each further one; an
 * OPT_FORMAT lists its writers under its help, one "name  help" line
 * each. Every parser takes -h/--help.
 *
 * Values are checked as they come, with one-line messages naming the
 * option and the range or the valid names, e.g.
 *	--samples: '0' is not an integer in 1..4294967296
 *	--mode: 'x' is not one of serial, parallel
 *
 * Not thread-safe: getopt_long's state (optind, optarg) is global. The
 * library prints nothing; the caller prints p.why.
 */
#ifndef KSB_OPTIONS_H
#define KSB_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/subcmd/writer.h"

enum opt_type {
	OPT_T_END,		/* closes a table */
	OPT_T_GROUP,		/* a heading in --help, no option */
	OPT_T_FLAG,		/* bool *: set to true */
	OPT_T_U64,		/* uint64_t *: a decimal in [min, max] */
	OPT_T_DOUBLE,		/* double *: a finite number in (dlo, dhi), din */
	OPT_T_ENUM,		/* int *: the index of the value in names[] */
	OPT_T_STRING,		/* const char **: the argument as given */
	OPT_T_CALL,		/* call(): the option checks and stores itself */
};

struct opt {
	enum opt_type type;		/* what value it takes, and where */
	int short_name;			/* 'n' for -n, or 0: long only */
	const char *long_name;		/* "samples" for --samples */
	void *value;			/* where the value goes, by type */
	const char *argh;		/* "N" in --help; NULL: no argument */
	const char *help;		/* lines separated by '\n' */
	uint64_t min;			/* OPT_T_U64: smallest value */
	uint64_t max;			/* OPT_T_U64: largest value */
	double dlo;			/* OPT_T_DOUBLE: values must exceed it */
	double dhi;			/* OPT_T_DOUBLE: and stay below it; 0: no bound */
	unsigned int din;		/* OPT_T_DOUBLE: OPT_IN_*, the bounds it may equal */
	const char *range;		/* OPT_T_DOUBLE: the range in words, "> 0" */
	const char *const *names;	/* OPT_T_ENUM: NULL-terminated, or */
	const struct report_writer *rows; /* OPT_T_ENUM: the writers' names */
	/*
	 * OPT_T_CALL: parse @arg (NULL for an option without argument)
	 * into o->value; 0, or -EINVAL with one line in @why (@len bytes)
	 */
	int (*call)(const struct opt *o, const char *arg, char *why, size_t len);
	/*
	 * set on the copy of an OPT_T_CALL entry that call() gets in an
	 * OPT_CHECK_ONLY parse: check @arg by its words alone, and keep
	 * nothing outside o->value (no list of labels, nothing of this host)
	 */
	bool check_only;
};

/*
 * Each macro checks at compile time that its value has the type the
 * option stores (perf's check_vtype): OPT_U64 on an `unsigned int`
 * field, OPT_FLAG on an int, OPT_STRING on a char * do not compile
 * ("negative width in bit-field"). OPT_ENUM stores an int: its value
 * may be an enum, and must have an int's size.
 */
#define OPT_BUILD_BUG_ON_ZERO(e)	((int)sizeof(struct { int:(-!!(e)); }))
#define opt_vtype(v, type) \
	((type)(v) + OPT_BUILD_BUG_ON_ZERO(!__builtin_types_compatible_p(__typeof__(v), type)))
#define opt_vsize(v, type) \
	((type *)(v) + OPT_BUILD_BUG_ON_ZERO(sizeof(*(v)) != sizeof(type)))

#define OPT_END()	{ .type = OPT_T_END }
#define OPT_GROUP(h)	{ .type = OPT_T_GROUP, .help = (h) }
#define OPT_FLAG(s, l, v, h) \
	{ .type = OPT_T_FLAG, .short_name = (s), .long_name = (l), \
	  .value = opt_vtype(v, bool *), .help = (h) }
#define OPT_U64(s, l, v, lo, hi, a, h) \
	{ .type = OPT_T_U64, .short_name = (s), .long_name = (l), \
	  .value = opt_vtype(v, uint64_t *), .min = (lo), .max = (hi), .argh = (a), \
	  .help = (h) }
#define OPT_DOUBLE(s, l, v, lo, hi, r, a, h) OPT_DOUBLE_IN(s, l, v, lo, hi, 0, r, a, h)
/* struct opt.din: a value may equal dlo, dhi */
#define OPT_IN_LO	0x1
#define OPT_IN_HI	0x2
/* OPT_DOUBLE whose range holds the bounds @in says (OPT_IN_*): [lo, hi) */
#define OPT_DOUBLE_IN(s, l, v, lo, hi, in, r, a, h) \
	{ .type = OPT_T_DOUBLE, .short_name = (s), .long_name = (l), \
	  .value = opt_vtype(v, double *), .dlo = (lo), .dhi = (hi), .din = (in), \
	  .range = (r), .argh = (a), .help = (h) }
#define OPT_ENUM(s, l, v, n, a, h) \
	{ .type = OPT_T_ENUM, .short_name = (s), .long_name = (l), \
	  .value = opt_vsize(v, int), .names = (n), .argh = (a), .help = (h) }
/**
 * OPT_FORMAT - an enum whose names are the rows of the report writer
 * table @t (lib/subcmd/writer.h, e.g. lib/report/format.h's formats[]):
 * the value is the row's index, and --help lists every row's name and
 * help under @h, so that a row added to the table is an option value
 * and a --help line at once.
 */
#define OPT_FORMAT(s, l, v, t, a, h) \
	{ .type = OPT_T_ENUM, .short_name = (s), .long_name = (l), \
	  .value = opt_vsize(v, int), .rows = (t), .argh = (a), .help = (h) }
#define OPT_STRING(s, l, v, a, h) \
	{ .type = OPT_T_STRING, .short_name = (s), .long_name = (l), \
	  .value = opt_vtype(v, const char **), .argh = (a), .help = (h) }
#define OPT_CALL(s, l, v, fn, a, h) \
	{ .type = OPT_T_CALL, .short_name = (s), .long_name = (l), \
	  .value = (v), .call = (fn), .argh = (a), .help = (h) }

/* help text starts here at most; a longer option gets a line of its own */
#define OPT_HELP_COL	28
/*
 * an OPT_FORMAT row's help starts this far after its name's column;
 * a name as long or longer gets a line of its own, its help below
 */
#define OPT_ROW_NAME	8
/* options in all the tables of one parse, -h included; tables */
#define OPT_MAX		64
#define OPT_MAX_TABLES	8

/* opt_parse() flags */
#define OPT_STOP_AT_OPERAND	0x1	/* options first: stop at the first operand */
#define OPT_NO_OPERANDS		0x2	/* a command of options only: refuse any operand */
/*
 * check a command that this process will not run (bench vm checks its
 * guests' commands on the host): the values still go to the tables'
 * variables, the command's own, but each OPT_T_CALL is called with
 * check_only set, so that nothing else keeps them
 */
#define OPT_CHECK_ONLY		0x4

struct opt_parser {
	const struct opt *const *tab;	/* in: NULL-terminated list of tables */
	unsigned int flags;		/* in: OPT_STOP_AT_OPERAND, OPT_NO_OPERANDS */
	const struct opt *given[OPT_MAX_TABLES]; /* out: tab[t]'s first option given, or NULL */
	char why[256];			/* out: what was wrong, one line */
};

/**
 * opt_parse - parse @argv's options against @p->tab, storing each value
 * as its entry says, from argv[1] whatever optind was (it sets optind
 * to 0, glibc's fresh start). Afterwards optind indexes the first operand (getopt
 * permutes them to the end unless OPT_STOP_AT_OPERAND; "--" ends the
 * options and is skipped).
 * Returns 0, 1 when -h/--help was given (nothing after it is parsed), or
 * -EINVAL with @p->why naming the option: unknown or ambiguous, missing
 * its value, given a value it does not take, or a value out of range;
 * with OPT_NO_OPERANDS, naming the first operand ("unexpected argument
 * 'x'"). -E2BIG: more than OPT_MAX options or OPT_MAX_TABLES tables, a bug.
 */
int opt_parse(struct opt_parser *p, int argc, char **argv);

/**
 * opt_parse_u64 - for an OPT_T_CALL that takes a number among other
 * words ("N|all"): @arg as a decimal in [@min, @max] into *@out.
 * Returns 0, or -EINVAL with @why naming @o and the range.
 */
int opt_parse_u64(const struct opt *o, const char *arg, uint64_t min,
		  uint64_t max, uint64_t *out, char *why, size_t len);

/**
 * opt_values - the current value of every option of the tables @tab (a
 * NULL-terminated list, as a workload's .options) as "--name VALUE"
 * words, space-separated, into @buf (@len bytes): flags when set,
 * strings when given, OPT_T_CALL never (it keeps its own form). "none"
 * when nothing is told; NULL @tab is none.
 */
void opt_values(const struct opt *const *tab, char *buf, size_t len);

/**
 * opt_help - the option lines of --help for every table of @tab, then
 * "-h, --help". Returns 0 or -EIO when writing @f failed.
 */
int opt_help(FILE *f, const struct opt *const *tab);

/**
 * opt_list - every long option of @tab's tables, "--samples", in table
 * order and then "--help", separated by spaces on one line onto @f: what
 * `bench --list-opts CMD` prints for completion (perf's --list-opts).
 * Returns 0 or -EIO when writing @f failed.
 */
int opt_list(FILE *f, const struct opt *const *tab);

/* an integer option of at most this many values has them listed */
#define OPT_VALUES_MAX	16

/**
 * opt_list_values - the values that the option @word ("-f" or
 * "--format") of @tab's tables takes, separated by spaces on one line
 * onto @f: an enum's names (an OPT_FORMAT's rows), every integer of an
 * OPT_U64 of at most OPT_VALUES_MAX, the lower-case words of an
 * argument such as "CPU|all" ("all"); an empty line for any other value.
 * What `bench --list-values CMD OPT` prints for completion. Returns 0,
 * -ENOENT when @word names no option of @tab that takes a value, or
 * -EIO when writing @f failed.
 */
int opt_list_values(FILE *f, const struct opt *const *tab, const char *word);

/**
 * opt_list_arg - the option @word ("-w" or "--workload") of @tab's
 * tables as its long name and its argument's name in --help, one line
 * onto @f ("--workload NAME"): what a completion needs to tell a file
 * from a directory or a workload where the option takes no fixed set.
 * What `bench --list-arg CMD OPT` prints. Returns 0, -ENOENT when @word
 * names no option of @tab that takes a value, or -EIO when writing @f
 * failed.
 */
int opt_list_arg(FILE *f, const struct opt *const *tab, const char *word);

/**
 * opt_value - the value that the option @word ("-c" or "--cpus") of
 * @tab's tables holds after a parse, as opt_values() writes it ("0-3",
 * "cold"), into @buf (@len bytes): "" when a string option was not
 * given. Returns 0, or -ENOENT (@buf "") when @word names no option of
 * @tab that takes a value.
 */
int opt_value(const struct opt *const *tab, const char *word, char *buf, size_t len);

#endif /* KSB_OPTIONS_H */
