// SPDX-License-Identifier: GPL-2.0
/*
 * options.c - option tables: getopt_long's optstring and longopts, the
 * value checks and the option lines of --help, from one declaration per
 * option (options.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/subcmd/options.h"
#include "lib/subcmd/samples.h"

/* getopt value of a long-only option: this plus its index */
#define OPT_LONG_BASE	256

static const struct opt opt_help_entry = {
	.type = OPT_T_FLAG, .short_name = 'h', .long_name = "help", .help = "this text",
};

/* ---- parsing ---- */

/* every option of every table, -h last: in @all, with its table in @tab_of */
static int opt_flatten(const struct opt *const *tab, const struct opt **all,
		       unsigned int *tab_of)
{
	const struct opt *o;
	unsigned int t;
	int n = 0;

	for (t = 0; tab[t]; t++) {
		if (t >= OPT_MAX_TABLES)
			return -E2BIG;
		for (o = tab[t]; o->type != OPT_T_END; o++) {
			if (o->type == OPT_T_GROUP)
				continue;
			if (n >= OPT_MAX - 1)
				return -E2BIG;
			tab_of[n] = t;
			all[n++] = o;
		}
	}
	tab_of[n] = 0;
	all[n++] = &opt_help_entry;
	return n;
}

/* getopt_long's arguments: ':' first, so that a missing value is told apart */
static void opt_getopt_args(const struct opt **all, int n, unsigned int flags,
			    struct option *lo, char *optstring)
{
	char *s = optstring;
	int i;

	if (flags & OPT_STOP_AT_OPERAND)
		*s++ = '+';
	*s++ = ':';
	for (i = 0; i < n; i++) {
		lo[i] = (struct option){
			.name = all[i]->long_name,
			.has_arg = all[i]->argh ? required_argument : no_argument,
			.val = all[i]->short_name ? all[i]->short_name : OPT_LONG_BASE + i,
		};
		if (!all[i]->short_name)
			continue;
		*s++ = (char)all[i]->short_name;
		if (all[i]->argh)
			*s++ = ':';
	}
	lo[n] = (struct option){ 0 };
	*s = 0;
}

static int opt_index(const struct opt **all, int n, int c)
{
	int i;

	if (c >= OPT_LONG_BASE)
		return c - OPT_LONG_BASE;
	for (i = 0; i < n && all[i]->short_name != c; i++)
		;
	return i;
}

int opt_parse_u64(const struct opt *o, const char *arg, uint64_t min,
		  uint64_t max, uint64_t *out, char *why, size_t len)
{
	uint64_t v;

	if (!samples_parse_line(arg, strlen(arg), &v) && v >= min && v <= max) {
		*out = v;
		return 0;
	}
	snprintf(why, len, "--%s: '%s' is not an integer in %" PRIu64 "..%" PRIu64,
		 o->long_name, arg, min, max);
	return -EINVAL;
}

static int opt_parse_double(const struct opt *o, const char *arg, char *why, size_t len)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (!errno && end != arg && !*end && isfinite(v) &&
	    (v > o->dlo || (o->din & OPT_IN_LO && v == o->dlo)) &&
	    (o->dhi == 0 || v < o->dhi || (o->din & OPT_IN_HI && v == o->dhi))) {
		*(double *)o->value = v;
		return 0;
	}
	snprintf(why, len, "--%s: '%s' is not a number %s", o->long_name, arg, o->range);
	return -EINVAL;
}

/* name @i of an enum option, or NULL past the last */
static const char *opt_name(const struct opt *o, int i)
{
	return o->rows ? o->rows[i].name : o->names[i];
}

static int opt_parse_enum(const struct opt *o, const char *arg, char *why, size_t len)
{
	size_t used;
	int i;

	for (i = 0; opt_name(o, i); i++) {
		if (!strcmp(arg, opt_name(o, i))) {
			*(int *)o->value = i;
			return 0;
		}
	}
	used = (size_t)snprintf(why, len, "--%s: '%s' is not one of ", o->long_name, arg);
	for (i = 0; opt_name(o, i) && used < len; i++)
		used += (size_t)snprintf(why + used, len - used, "%s%s", i ? ", " : "",
					 opt_name(o, i));
	return -EINVAL;
}

static int opt_store(const struct opt *o, const char *arg, unsigned int flags,
		     char *why, size_t len)
{
	struct opt told;

	switch (o->type) {
	case OPT_T_FLAG:
		*(bool *)o->value = true;
		return 0;
	case OPT_T_STRING:
		*(const char **)o->value = arg;
		return 0;
	case OPT_T_U64:
		return opt_parse_u64(o, arg, o->min, o->max, o->value, why, len);
	case OPT_T_DOUBLE:
		return opt_parse_double(o, arg, why, len);
	case OPT_T_ENUM:
		return opt_parse_enum(o, arg, why, len);
	case OPT_T_CALL:
		if (!(flags & OPT_CHECK_ONLY))
			return o->call(o, arg, why, len);
		told = *o;
		told.check_only = true;
		return told.call(&told, arg, why, len);
	default:
		return -EINVAL;
	}
}

/*
 * what getopt_long refused: @c is '?' (unknown, ambiguous, or a value
 * given to an option that takes none) or ':' (value missing). optopt
 * names a short option only below OPT_LONG_BASE and for a "-x" word.
 */
static int opt_refused(struct opt_parser *p, int c, char **argv, const struct option *lo)
{
	const char *word = argv[optind - 1];
	size_t len = strcspn(word, "=");
	unsigned int i, prefix = 0;

	for (i = 0; !strncmp(word, "--", 2) && lo[i].name; i++)
		prefix += !strncmp(lo[i].name, word + 2, len - 2);
	if (c == ':')
		snprintf(p->why, sizeof(p->why), "option '%s' needs a value", word);
	else if (optopt > 0 && optopt < OPT_LONG_BASE && strncmp(word, "--", 2))
		snprintf(p->why, sizeof(p->why), "unknown option '-%c'", optopt);
	else if (optopt && word[len])
		snprintf(p->why, sizeof(p->why), "option '%.*s' takes no value", (int)len, word);
	else if (prefix > 1)
		snprintf(p->why, sizeof(p->why), "option '%.*s' is ambiguous: %u options start so",
			 (int)len, word, prefix);
	else
		snprintf(p->why, sizeof(p->why), "unknown option '%.*s'", (int)len, word);
	return -EINVAL;
}

int opt_parse(struct opt_parser *p, int argc, char **argv)
{
	const struct opt *all[OPT_MAX];
	unsigned int tab_of[OPT_MAX];
	struct option lo[OPT_MAX + 1];
	char optstring[3 * OPT_MAX + 3];
	int n, c, i, ret;

	memset(p->given, 0, sizeof(p->given));
	p->why[0] = 0;
	n = opt_flatten(p->tab, all, tab_of);
	if (n < 0)
		return n;
	opt_getopt_args(all, n, p->flags, lo, optstring);
	opterr = 0;
	optind = 0;	/* glibc: a fresh scan, the '+' of this optstring included */
	while ((c = getopt_long(argc, argv, optstring, lo, NULL)) != -1) {
		if (c == '?' || c == ':')
			return opt_refused(p, c, argv, lo);
		i = opt_index(all, n, c);
		if (all[i] == &opt_help_entry)
			return 1;
		ret = opt_store(all[i], optarg, p->flags, p->why, sizeof(p->why));
		if (ret)
			return ret;
		if (!p->given[tab_of[i]])
			p->given[tab_of[i]] = all[i];
	}
	if ((p->flags & OPT_NO_OPERANDS) && optind < argc) {
		snprintf(p->why, sizeof(p->why), "unexpected argument '%s'", argv[optind]);
		return -EINVAL;
	}
	return 0;
}

/* ---- what was chosen, for the metadata ---- */

/* "--name VALUE" of @o into @buf, "" when it has none to tell */
static int opt_value_of(const struct opt *o, char *buf, size_t len)
{
	switch (o->type) {
	case OPT_T_FLAG:
		return *(bool *)o->value ? snprintf(buf, len, "--%s", o->long_name) : 0;
	case OPT_T_U64:
		return snprintf(buf, len, "--%s %lu", o->long_name,
				(unsigned long)*(uint64_t *)o->value);
	case OPT_T_DOUBLE:
		return snprintf(buf, len, "--%s %g", o->long_name, *(double *)o->value);
	case OPT_T_ENUM:
		return snprintf(buf, len, "--%s %s", o->long_name, opt_name(o, *(int *)o->value));
	case OPT_T_STRING:
		return *(const char **)o->value ?
		       snprintf(buf, len, "--%s %s", o->long_name, *(const char **)o->value) : 0;
	default:
		return 0;
	}
}

void opt_values(const struct opt *const *tab, char *buf, size_t len)
{
	const struct opt *o;
	size_t used = 0;
	char one[256];

	buf[0] = 0;
	for (; tab && *tab; tab++)
		for (o = *tab; o->type != OPT_T_END && used < len; o++) {
			if (o->type == OPT_T_GROUP || opt_value_of(o, one, sizeof(one)) <= 0)
				continue;
			used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? " " : "",
						 one);
		}
	if (!buf[0])
		snprintf(buf, len, "none");
}

/* ---- --help ---- */

/* "  -n, --samples N" or "      --hugepages" into @buf; its length */
static int opt_left(const struct opt *o, char *buf, size_t len)
{
	char s[5] = "    ";

	if (o->short_name)
		snprintf(s, sizeof(s), "-%c, ", o->short_name);
	return snprintf(buf, len, "  %s--%s%s%s", s, o->long_name, o->argh ? " " : "",
			o->argh ? o->argh : "");
}

/* the help column: two spaces after the longest option, OPT_HELP_COL at most */
static int opt_help_col(const struct opt *const *tab)
{
	const struct opt *o;
	char buf[128];
	int col = opt_left(&opt_help_entry, buf, sizeof(buf)) + 2;
	unsigned int t;

	for (t = 0; tab[t]; t++)
		for (o = tab[t]; o->type != OPT_T_END; o++)
			if (o->type != OPT_T_GROUP && opt_left(o, buf, sizeof(buf)) + 2 > col)
				col = opt_left(o, buf, sizeof(buf)) + 2;
	return col < OPT_HELP_COL ? col : OPT_HELP_COL;
}

static void opt_help_one(FILE *f, const struct opt *o, int col)
{
	const char *h = o->help, *nl;
	char buf[128];
	int w, i;

	if (o->type == OPT_T_GROUP) {
		fprintf(f, "  %s\n", h);
		return;
	}
	w = opt_left(o, buf, sizeof(buf));
	fputs(buf, f);
	if (w + 2 > col) {
		fputc('\n', f);
		w = 0;
	}
	for (;;) {
		nl = strchr(h, '\n');
		fprintf(f, "%*s%.*s\n", col - w, "", nl ? (int)(nl - h) : (int)strlen(h), h);
		if (!nl)
			break;
		h = nl + 1;
		w = 0;
	}
	/* OPT_FORMAT: a line per row, "  name  its help"; a long name's below it */
	for (i = 0; o->type == OPT_T_ENUM && o->rows && opt_name(o, i); i++) {
		if (strlen(opt_name(o, i)) >= OPT_ROW_NAME)
			fprintf(f, "%*s  %s\n%*s  %-*s", col, "", opt_name(o, i), col, "",
				OPT_ROW_NAME, "");
		else
			fprintf(f, "%*s  %-*s", col, "", OPT_ROW_NAME, opt_name(o, i));
		fprintf(f, "%s\n", o->rows[i].help);
	}
}

int opt_help(FILE *f, const struct opt *const *tab)
{
	int col = opt_help_col(tab);
	const struct opt *o;
	unsigned int t;

	for (t = 0; tab[t]; t++) {
		if (t)
			fputc('\n', f);
		for (o = tab[t]; o->type != OPT_T_END; o++) {
			if (o->type == OPT_T_GROUP && o != tab[t])
				fputc('\n', f);	/* a heading opens a paragraph */
			opt_help_one(f, o, col);
		}
		if (!t)
			opt_help_one(f, &opt_help_entry, col);
	}
	return ferror(f) ? -EIO : 0;
}

/* the entry of @tab whose "-c" or "--name" is @word, or NULL */
static const struct opt *opt_find(const struct opt *const *tab, const char *word)
{
	const struct opt *o;
	unsigned int t;

	for (t = 0; tab[t]; t++)
		for (o = tab[t]; o->type != OPT_T_END; o++) {
			if (o->type == OPT_T_GROUP)
				continue;
			if (!strncmp(word, "--", 2) ? !strcmp(word + 2, o->long_name) :
			    word[0] == '-' && word[1] == o->short_name && !word[2])
				return o;
		}
	return NULL;
}

int opt_value(const struct opt *const *tab, const char *word, char *buf, size_t len)
{
	const struct opt *o = opt_find(tab, word);
	char one[256];
	int n;

	buf[0] = 0;
	if (!o || !o->argh)
		return -ENOENT;
	/* "--name VALUE", as the metadata has it: the value after the name */
	n = opt_value_of(o, one, sizeof(one));
	if (n > (int)strlen(o->long_name) + 3)
		snprintf(buf, len, "%s", one + strlen(o->long_name) + 3);
	return 0;
}

/* @o's argh alternatives in lower case, the words beside its number ("all" of "CPU|all") */
static void opt_list_words(FILE *f, const struct opt *o, int *n)
{
	const char *a = o->argh, *end;
	size_t k, len;

	for (; *a; a = *end ? end + 1 : end) {
		end = a + strcspn(a, "|");
		len = (size_t)(end - a);
		for (k = 0; k < len && a[k] >= 'a' && a[k] <= 'z'; k++)
			;
		if (len && k == len)
			fprintf(f, "%s%.*s", (*n)++ ? " " : "", (int)len, a);
	}
}

int opt_list_values(FILE *f, const struct opt *const *tab, const char *word)
{
	const struct opt *o = opt_find(tab, word);
	uint64_t v;
	int i, n = 0;

	if (!o || !o->argh)
		return -ENOENT;
	if (o->type == OPT_T_ENUM)
		for (i = 0; opt_name(o, i); i++)
			fprintf(f, "%s%s", i ? " " : "", opt_name(o, i));
	else if (o->type == OPT_T_U64 && o->max - o->min < OPT_VALUES_MAX)
		for (v = o->min; v <= o->max; v++)
			fprintf(f, "%s%" PRIu64, v > o->min ? " " : "", v);
	else if (o->type == OPT_T_CALL || o->type == OPT_T_STRING)
		opt_list_words(f, o, &n);
	fputc('\n', f);
	return ferror(f) ? -EIO : 0;
}

int opt_list_arg(FILE *f, const struct opt *const *tab, const char *word)
{
	const struct opt *o = opt_find(tab, word);

	if (!o || !o->argh)
		return -ENOENT;
	fprintf(f, "--%s %s\n", o->long_name, o->argh);
	return ferror(f) ? -EIO : 0;
}

int opt_list(FILE *f, const struct opt *const *tab)
{
	const struct opt *o;
	unsigned int t;

	for (t = 0; tab[t]; t++)
		for (o = tab[t]; o->type != OPT_T_END; o++)
			if (o->long_name && o->type != OPT_T_GROUP)
				fprintf(f, "--%s ", o->long_name);
	fputs("--help\n", f);
	return ferror(f) ? -EIO : 0;
}
