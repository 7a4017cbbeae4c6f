// SPDX-License-Identifier: GPL-2.0
/*
 * json.c - the JSON writer and the kstats-bench document (see json.h).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kstats_hist.h"
#include "lib/results/json.h"
#include "lib/results/meta.h"
#include "lib/results/results.h"

void json_init(struct json *j, FILE *f)
{
	memset(j, 0, sizeof(*j));
	j->f = f;
}

static void json_indent(struct json *j)
{
	unsigned int i;

	fputc('\n', j->f);
	for (i = 0; i < j->depth; i++)
		fputs("  ", j->f);
}

/* length of the valid UTF-8 sequence at @s (at most @n bytes), or 0 */
static size_t json_utf8_len(const unsigned char *s, size_t n)
{
	unsigned char lo = 0x80, hi = 0xbf;
	size_t len, i;

	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4;
	else
		return 0;
	/* no overlong forms, no surrogates, nothing above U+10FFFF */
	if (s[0] == 0xe0)
		lo = 0xa0;
	else if (s[0] == 0xed)
		hi = 0x9f;
	else if (s[0] == 0xf0)
		lo = 0x90;
	else if (s[0] == 0xf4)
		hi = 0x8f;
	if (len > n || s[1] < lo || s[1] > hi)
		return 0;
	for (i = 2; i < len; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return len;
}

/* "...": quotes, backslashes and control characters escaped; a byte
 * that is not valid UTF-8 becomes U+FFFD, so the output always is */
static void json_quote(struct json *j, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n = strlen(str), len;

	fputc('"', j->f);
	while (n) {
		if (*s == '"' || *s == '\\') {
			fprintf(j->f, "\\%c", *s);
		} else if (*s == '\n') {
			fputs("\\n", j->f);
		} else if (*s == '\t') {
			fputs("\\t", j->f);
		} else if (*s < 0x20 || *s == 0x7f) {
			fprintf(j->f, "\\u%04x", *s);
		} else if (*s < 0x80) {
			fputc(*s, j->f);
		} else if ((len = json_utf8_len(s, n))) {
			fwrite(s, 1, len, j->f);
			s += len - 1;
			n -= len - 1;
		} else {
			fputs("\\ufffd", j->f);
		}
		s++;
		n--;
	}
	fputc('"', j->f);
}

/* the separator, newline and indent before a member, and its key */
static void json_member(struct json *j, const char *key)
{
	unsigned int d = j->depth;
	bool object = d && j->in_object[d - 1];

	if ((key != NULL) != object || (!d && j->has_items[0]))
		j->misuse = true;
	if (!d) {
		j->has_items[0] = true;
		if (key) {
			json_quote(j, key);
			fputs(": ", j->f);
		}
		return;
	}
	if (j->has_items[d])
		fputc(',', j->f);
	j->has_items[d] = true;
	json_indent(j);
	if (key) {
		json_quote(j, key);
		fputs(": ", j->f);
	}
}

/*
 * Level 0 is the top; a container opened at depth d keeps its state in
 * slot d + 1 (has_items[0] says the top value was written).
 */
static void json_open(struct json *j, const char *key, bool object)
{
	json_member(j, key);
	fputc(object ? '{' : '[', j->f);
	if (j->depth + 1 >= JSON_MAX_DEPTH) {
		j->misuse = true;
		return;
	}
	j->depth++;
	j->in_object[j->depth - 1] = object;
	j->has_items[j->depth] = false;
}

static void json_close(struct json *j, bool object)
{
	bool items;

	if (!j->depth || j->in_object[j->depth - 1] != object) {
		j->misuse = true;
		return;
	}
	items = j->has_items[j->depth];
	j->depth--;
	if (items)
		json_indent(j);
	fputc(object ? '}' : ']', j->f);
}

void json_object_begin(struct json *j, const char *key)
{
	json_open(j, key, true);
}

void json_object_end(struct json *j)
{
	json_close(j, true);
}

void json_array_begin(struct json *j, const char *key)
{
	json_open(j, key, false);
}

void json_array_end(struct json *j)
{
	json_close(j, false);
}

void json_string(struct json *j, const char *key, const char *s)
{
	json_member(j, key);
	if (s)
		json_quote(j, s);
	else
		fputs("null", j->f);
}

void json_u64(struct json *j, const char *key, uint64_t v)
{
	json_member(j, key);
	fprintf(j->f, "%lu", (unsigned long)v);
}

void json_int(struct json *j, const char *key, long v)
{
	json_member(j, key);
	fprintf(j->f, "%ld", v);
}

void json_double(struct json *j, const char *key, double v, int decimals)
{
	json_member(j, key);
	if (isfinite(v))
		fprintf(j->f, "%.*f", decimals < 0 ? 0 : decimals > 17 ? 17 : decimals, v);
	else
		fputs("null", j->f);
}

void json_bool(struct json *j, const char *key, bool v)
{
	json_member(j, key);
	fputs(v ? "true" : "false", j->f);
}

/* a number the caller has already formatted */
static void json_raw(struct json *j, const char *key, const char *text)
{
	json_member(j, key);
	fputs(text, j->f);
}

int json_finish(struct json *j)
{
	fputc('\n', j->f);
	if (j->misuse || j->depth || !j->has_items[0])
		return -EINVAL;
	return ferror(j->f) ? -EIO : 0;
}

/* ---- the kstats-bench document ---- */

void json_doc_begin(struct json *j, const struct meta *m)
{
	unsigned int i;

	json_object_begin(j, NULL);
	json_string(j, "format", JSON_FORMAT);
	json_int(j, "version", JSON_VERSION);
	json_object_begin(j, "metadata");
	for (i = 0; i < m->n; i++)
		json_string(j, m->kv[i].key, m->kv[i].val);
	json_object_end(j);
}

int json_doc_end(struct json *j)
{
	json_object_end(j);
	return json_finish(j);
}

static void json_hist_summary(struct json *j, const struct kstats_hist *h)
{
	static const struct {
		const char *key;	/* member name */
		double pct;		/* percentile, 0..100 */
	} pcts[] = { { "p50", 50 }, { "p90", 90 }, { "p99", 99 }, { "p99_9", 99.9 } };
	unsigned int i;

	json_object_begin(j, "summary");
	json_u64(j, "samples", kstats_hist_total(h));
	json_u64(j, "min", kstats_hist_min(h));
	for (i = 0; i < sizeof(pcts) / sizeof(pcts[0]); i++)
		json_u64(j, pcts[i].key, kstats_hist_value_at_percentile(h, pcts[i].pct));
	json_u64(j, "max", kstats_hist_max(h));
	json_double(j, "mean", kstats_hist_mean(h), 1);
	json_object_end(j);
}

static void json_hist_bucket(struct json *j, const struct kstats_hist *h,
			     unsigned int slot, uint64_t cum, uint64_t total)
{
	uint64_t lo, last;
	char text[32];

	kstats_hist_slot_bounds(kstats_hist_frac_bits(h), slot, &lo, &last);
	json_object_begin(j, NULL);
	json_u64(j, "bucket", slot);
	json_u64(j, "lo", lo);
	if (last == UINT64_MAX)
		json_raw(j, "hi", "18446744073709551616");
	else
		json_u64(j, "hi", last + 1);
	json_u64(j, "samples", kstats_hist_slot_count(h, slot));
	json_u64(j, "avg", kstats_hist_slot_avg(h, slot));
	/* the table's percentile: cum / total truncated to 6 decimals */
	snprintf(text, sizeof(text), "%c.%06lu", cum == total ? '1' : '0',
		 cum == total ? 0 : (unsigned long)((unsigned __int128)cum * 1000000 / total));
	json_raw(j, "percentile", text);
	json_object_end(j);
}

void json_write_series(struct json *j, const struct results_series *s, const char *unit)
{
	const struct kstats_hist *h = s->h;
	uint64_t total = kstats_hist_total(h), cum = 0, n;
	unsigned int i, nr = kstats_hist_nr_slots(h);

	json_object_begin(j, NULL);
	json_string(j, "workload", s->workload);
	json_string(j, "variant", s->variant);
	if (s->run == RESULTS_RUN_ALL)
		json_string(j, "run", "all");
	else
		json_u64(j, "run", s->run);
	if (s->cpu < 0)
		json_string(j, "cpu", "all");
	else
		json_int(j, "cpu", s->cpu);
	json_int(j, "node", s->node);
	json_string(j, "unit", unit);
	json_hist_summary(j, h);
	json_array_begin(j, "buckets");
	for (i = 0; i < nr; i++) {
		n = kstats_hist_slot_count(h, i);
		if (!n)
			continue;
		cum += n;
		json_hist_bucket(j, h, i, cum, total);
	}
	json_array_end(j);
	json_object_end(j);
}
