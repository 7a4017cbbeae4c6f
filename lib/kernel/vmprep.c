// SPDX-License-Identifier: GPL-2.0
/*
 * vmprep.c - bench vm's checks before a boot (vmprep.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "lib/kernel/kimage.h"
#include "lib/subcmd/spawn.h"
#include "lib/kernel/vmprep.h"

/* the bench commands a guest may run: each writes a CSV with -o */
static const char *const vmprep_guest_cmds[] = { "kernel", "run", "trace", "audit", "sh", NULL };

int vmprep_counts(const char *arg, unsigned int *out, unsigned int max, unsigned int limit,
		  unsigned int *n, char *why, size_t len)
{
	const char *p = arg;
	unsigned long v;
	unsigned int i;
	char *end;

	*n = 0;
	do {
		errno = 0;
		v = *p >= '0' && *p <= '9' ? strtoul(p, &end, 10) : 0;
		if (!v || errno || v > limit || (*end && *end != ',') || *n == max) {
			snprintf(why, len, "--possible-cpus: '%s' is not a list of at most %u counts, each in 1..%u (e.g. 64,128,255)",
				 arg, max, limit);
			return -EINVAL;
		}
		for (i = 0; i < *n; i++)
			if (out[i] == v) {
				snprintf(why, len, "--possible-cpus: '%s' asks %lu twice", arg, v);
				return -EINVAL;
			}
		out[(*n)++] = (unsigned int)v;
		p = end + 1;
	} while (*end);
	return 0;
}

/* a name for file names: [A-Za-z0-9._-], not starting with '.' */
static bool vmprep_name_ok(const char *s)
{
	return *s && *s != '.' && strlen(s) <= VMPREP_NAME_MAX &&
	       strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-") ==
	       strlen(s);
}

int vmprep_kernel(char *arg, const char **path, bool *tree, char *name, char *why, size_t len)
{
	char *eq = strchr(arg, '='), dir[PATH_MAX], *base;
	struct stat st;

	*path = eq ? eq + 1 : arg;
	if (stat(*path, &st)) {
		snprintf(why, len, "%s: %s", *path, strerror(errno));
		return -EINVAL;
	}
	*tree = S_ISDIR(st.st_mode);
	/* an image is named after its directory, a tree after itself */
	snprintf(dir, sizeof(dir), "%s", *path);
	if (!*tree && (base = strrchr(dir, '/')))
		*base = 0;
	base = strrchr(dir, '/');
	base = base && base[1] ? base + 1 : dir;
	if (eq)
		*eq = 0;
	snprintf(name, VMPREP_NAME_MAX + 1, "%.63s", eq ? arg : base);
	if (!vmprep_name_ok(eq ? arg : name)) {
		snprintf(why, len, "'%s': a kernel's NAME is [A-Za-z0-9._-], at most %d (NAME=%s)",
			 eq ? arg : name, VMPREP_NAME_MAX, *path);
		return -EINVAL;
	}
	return 0;
}

/* is @c a trace command whose "--" (its PROG follows) is still to come? */
static bool vmprep_trace_open(const struct vm_cmd *c)
{
	unsigned int j;

	if (!c->argc || strcmp(c->argv[0], "trace"))
		return false;
	for (j = 1; j < c->argc; j++)
		if (!strcmp(c->argv[j], "--"))
			return false;
	return true;
}

/* is word @j of @c in trace's PROG, after its "--"? */
static bool vmprep_trace_prog(const struct vm_cmd *c, unsigned int j)
{
	unsigned int i;

	for (i = 1; i < j; i++)
		if (!strcmp(c->argv[i], "--"))
			return true;
	return false;
}

/* @c's words as a shell line into c->what, for titles and metadata */
static void vmprep_what(struct vm_cmd *c)
{
	spawn_sh_line(c->what, sizeof(c->what), (int)c->argc, c->argv);
}

/* sh SCRIPT [ARGS]: SCRIPT a readable file here; ARGS are the script's */
static int vmprep_sh(struct vm_cmd *c, char *why, size_t len)
{
	struct stat st;

	if (c->argc < 2) {
		snprintf(why, len, "'sh': no SCRIPT (-- sh SCRIPT [ARGS])");
		return -EINVAL;
	}
	if (access(c->argv[1], R_OK) || stat(c->argv[1], &st)) {
		snprintf(why, len, "sh %.3000s: %s", c->argv[1], strerror(errno));
		return -EINVAL;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(why, len, "sh %.3000s: not a regular file", c->argv[1]);
		return -EINVAL;
	}
	vmprep_what(c);
	return 0;
}

/* @c's words: a known command, no -o before a PROG; c->what */
static int vmprep_cmd_check(struct vm_cmd *c, char *why, size_t len)
{
	unsigned int j;

	for (j = 0; vmprep_guest_cmds[j] && strcmp(vmprep_guest_cmds[j], c->argv[0]); j++)
		;
	if (!vmprep_guest_cmds[j]) {
		snprintf(why, len, "'%s': the guests run bench kernel, bench run, bench trace, bench audit or sh SCRIPT",
			 c->argv[0]);
		return -EINVAL;
	}
	if (!strcmp(c->argv[0], "sh"))
		return vmprep_sh(c, why, len);
	if (!strcmp(c->argv[0], "trace") && c->argc > 1 && !strcmp(c->argv[c->argc - 1], "--")) {
		snprintf(why, len, "'trace ... --': no program after '--' (e.g. -- trace show_stat -- cat /proc/stat)");
		return -EINVAL;
	}
	for (j = 0; j < c->argc; j++) {
		if (!vmprep_trace_prog(c, j) && (!strncmp(c->argv[j], "--output", 8) ||
						 !strncmp(c->argv[j], "-o", 2))) {
			snprintf(why, len, "'%s %.64s': bench vm writes the command's CSV itself (-o DIR)",
				 c->argv[0], c->argv[j]);
			return -EINVAL;
		}
	}
	vmprep_what(c);
	return 0;
}

/* paths bench vm puts in every initramfs itself */
static bool vmprep_own_path(const char *dst)
{
	static const char *const own[] = { "init", "bench", "bin/busybox", "kmod/kstats_bench.ko",
					   NULL };
	unsigned int i;

	for (i = 0; own[i]; i++)
		if (!strcmp(dst, own[i]))
			return true;
	return !strncmp(dst, "sh/", 3) || !strcmp(dst, "sh");
}

/*
 * @dst as the guest resolves it, into @out: no leading '/', no "." and
 * no empty components (./bench is bench, bin/./busybox bin/busybox); a
 * trailing '/' is kept, for the caller to refuse.
 */
static void vmprep_norm(char *out, size_t len, const char *dst)
{
	size_t n = 0, c;

	while (*dst && n + 1 < len) {
		c = strcspn(dst, "/");
		if (c && !(c == 1 && *dst == '.')) {
			n += (size_t)snprintf(out + n, len - n, "%s%.*s", n ? "/" : "", (int)c, dst);
			if (n >= len)
				n = len - 1;
		}
		dst += c;
		if (*dst == '/' && !dst[1] && n + 1 < len)
			out[n++] = '/';
		while (*dst == '/')
			dst++;
	}
	out[n] = '\0';
}

int vmprep_file(const char *arg, struct vmprep_file *out, char *why, size_t len)
{
	const char *eq = strchr(arg, '='), *dst, *p;
	struct stat st;

	snprintf(out->src, sizeof(out->src), "%.*s", eq ? (int)(eq - arg) : (int)strlen(arg), arg);
	if (!out->src[0] || access(out->src, R_OK) || stat(out->src, &st)) {
		snprintf(why, len, "--file %.3000s: %s", arg, out->src[0] ? strerror(errno) :
			 "no SRC (--file SRC[=DST])");
		return -EINVAL;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(why, len, "--file %.3000s: not a regular file", arg);
		return -EINVAL;
	}
	dst = eq ? eq + 1 : ((p = strrchr(out->src, '/')) ? p + 1 : out->src);
	vmprep_norm(out->dst, sizeof(out->dst), dst);
	if (!out->dst[0] || out->dst[strlen(out->dst) - 1] == '/' || strstr(out->dst, "//") ||
	    !strcmp(out->dst, "..") || !strncmp(out->dst, "../", 3) || strstr(out->dst, "/../") ||
	    (strlen(out->dst) >= 3 && !strcmp(out->dst + strlen(out->dst) - 3, "/..")) ||
	    strlen(dst) >= sizeof(out->dst)) {
		snprintf(why, len, "--file %.3000s: '%.256s' is no path in the guest (DST: a/b, no '..')",
			 arg, dst);
		return -EINVAL;
	}
	if (vmprep_own_path(out->dst)) {
		snprintf(why, len, "--file %.3000s: /%s is bench vm's own", arg, out->dst);
		return -EINVAL;
	}
	return 0;
}

const struct vmprep_file *vmprep_guest_file(const struct vmprep_file *file, unsigned int n,
					    const char *path)
{
	char dst[sizeof(file->dst)];
	unsigned int i;

	vmprep_norm(dst, sizeof(dst), path);
	for (i = 0; i < n; i++)
		if (!strcmp(file[i].dst, dst))
			return &file[i];
	return NULL;
}

int vmprep_cmd(struct vm_cmd *c, int argc, char **argv, int i, char *why, size_t len)
{
	memset(c, 0, sizeof(*c));
	for (; i < argc && (strcmp(argv[i], "--") || vmprep_trace_open(c)); i++) {
		if (c->argc == VMPREP_MAX_ARGS) {
			snprintf(why, len, "a command of more than %d words", VMPREP_MAX_ARGS);
			return -EINVAL;
		}
		c->argv[c->argc++] = argv[i];
	}
	if (!c->argc) {
		snprintf(why, len, "an empty command after '--' (e.g. -- kernel -w kernel-irq-alloc)");
		return -EINVAL;
	}
	return vmprep_cmd_check(c, why, len) ?: i;
}

int vmprep_image(const char *name, const char *tree, const char *image, char *rel, size_t rlen,
		 char *why, size_t len)
{
	char trel[KIMAGE_RELEASE_MAX];
	int ret;

	if (tree && kimage_tree_release(tree, trel, sizeof(trel))) {
		snprintf(why, len, "%s: %s is not a configured kernel tree (no include/config/kernel.release: make olddefconfig prepare)",
			 name, tree);
		return -EINVAL;
	}
	ret = kimage_bzimage_release(image, rel, rlen);
	if (ret == -EINVAL)
		snprintf(why, len, "%s: %s is not a bzImage (no \"HdrS\" boot header)", name, image);
	else if (ret)
		snprintf(why, len, "%s: %s: %s%s", name, image, strerror(-ret),
			 tree ? " (is the tree built? make bzImage)" : "");
	else if (tree && strcmp(trel, rel))
		snprintf(why, len, "%s: %s is %s, its bzImage %s: rebuild it (make bzImage)",
			 name, tree, trel, rel);
	else
		return 0;
	return -EINVAL;
}

int vmprep_ko(const char *ko, const char *opt, const char *name, const char *release,
	      char *why, size_t len)
{
	char rel[KIMAGE_RELEASE_MAX];
	int ret = kimage_ko_release(ko, rel, sizeof(rel));

	if (ret)
		snprintf(why, len, "%s%s: %s", opt, ko,
			 ret == -EINVAL ? "not a kernel module (no vermagic)" : strerror(-ret));
	else if (strcmp(rel, release))
		snprintf(why, len, "%s%s is built for %s, kernel %s is %s", opt, ko, rel, name,
			 release);
	else
		return 0;
	return -EINVAL;
}

int vmprep_bench(const char *given, char *path, size_t plen, char *why, size_t len)
{
	static const char *const names[] = { "bench-static", "kstats-bench-static", NULL };
	char dir[PATH_MAX];
	unsigned int i;
	int ret;

	if (given) {
		snprintf(path, plen, "%s", given);
	} else {
		snprintf(path, plen, "/proc/self/exe");
		for (i = 0; !spawn_exe_dir(dir, sizeof(dir)) && names[i]; i++) {
			snprintf(path, plen, "%.4000s/%s", dir, names[i]);
			if (!access(path, X_OK))
				break;
			snprintf(path, plen, "/proc/self/exe");
		}
	}
	ret = kimage_elf_static(path);
	if (ret == 1)
		return 0;
	if (given) {
		snprintf(why, len, "--bench %s: %s", given,
			 ret == -EINVAL ? "not a 64-bit ELF program (make static builds bench-static)" :
			 ret < 0 ? strerror(-ret) :
			 "dynamically linked; the guests have no shared libraries (make static)");
		return -EINVAL;
	}
	snprintf(why, len, "no static bench for the guests: make static builds bench-static beside bench (or --bench FILE)");
	return -ENOENT;
}

/*
 * does @path carry busybox's banner, "BusyBox v" and a digit (1.35.0)? 1
 * yes, 0 no, -errno. The digit: bench itself holds the words of this
 * check, and must not pass it.
 */
static int vmprep_is_busybox(const char *path)
{
	static const char banner[] = "BusyBox v";
	const size_t tail = sizeof(banner);	/* the banner and its digit */
	char buf[1 << 16], *p;
	size_t n, have, keep = 0;
	int ret = 0;
	FILE *f = fopen(path, "re");

	if (!f)
		return -errno;
	/* keep the last bytes of each block for the next: one cut in two is found */
	while (!ret && (n = fread(buf + keep, 1, sizeof(buf) - keep, f)) > 0) {
		have = keep + n;
		for (p = buf; !ret && (p = memmem(p, have - (size_t)(p - buf), banner, tail - 1));
		     p++)
			ret = (size_t)(p - buf) + tail <= have && p[tail - 1] >= '0' &&
			      p[tail - 1] <= '9';
		keep = have > tail ? tail : have;
		memmove(buf, buf + have - keep, keep);
	}
	if (ferror(f))
		ret = -EIO;
	fclose(f);
	return ret;
}

int vmprep_busybox(const char *path, bool given, char *why, size_t len)
{
	int ret = access(path, R_OK) ? -errno : kimage_elf_static(path);

	if (given && ret < 0 && ret != -EINVAL) {
		snprintf(why, len, "--busybox %s: %s", path, strerror(-ret));
		return -EINVAL;
	}
	if (ret == 0) {
		snprintf(why, len, "%s is dynamically linked: the guests need a static one (apt-get install busybox-static, or --busybox FILE)",
			 path);
		return given ? -EINVAL : -ENOEXEC;
	}
	if (ret == 1)
		ret = vmprep_is_busybox(path);
	if (ret == 1)
		return 0;
	if (ret == 0 || ret == -EINVAL)
		snprintf(why, len, "%s is not a busybox (no BusyBox version banner in it): the guests need a static busybox (apt-get install busybox-static, or --busybox FILE)",
			 path);
	else
		snprintf(why, len, "%s: %s (apt-get install busybox-static, or --busybox FILE)",
			 path, strerror(-ret));
	/* a file named on the command line that is not one: bad input */
	if (given)
		return -EINVAL;
	return ret < 0 && ret != -EINVAL ? ret : -ENOEXEC;
}

int vmprep_memory(const char *arg, unsigned long min, unsigned long max, unsigned long *mib,
		  char *why, size_t len)
{
	unsigned long long v, kib;
	char *end;

	errno = 0;
	v = *arg >= '0' && *arg <= '9' ? strtoull(arg, &end, 10) : 0;
	if (!errno && v && (!*end || ((*end == 'M' || *end == 'm') && !end[1])))
		kib = v * 1024;
	else if (!errno && v && (*end == 'G' || *end == 'g') && !end[1])
		kib = v * 1024 * 1024;
	else if (!errno && v && (*end == 'K' || *end == 'k') && !end[1] && !(v % 1024))
		kib = v;
	else
		kib = 0;
	if (!kib || v > (1ULL << 40) || kib / 1024 < min || kib / 1024 > max) {
		snprintf(why, len, "--memory: '%s' is not a size in %luM..%luG (e.g. 512M, 2G; a number is MiB)",
			 arg, min, max / 1024);
		return -EINVAL;
	}
	*mib = (unsigned long)(kib / 1024);
	return 0;
}

/*
 * build.reproducer_cmdline of tuxmake's metadata @root, a list of
 * strings, joined into @cmd (the words before the first that does not
 * fit). 0, or -EINVAL when it is missing or not a list of strings.
 */
static int vmprep_reproducer(struct json_object *root, char *cmd, size_t clen)
{
	struct json_object *build, *list = NULL, *word;
	size_t i, n;
	int full = 0;

	cmd[0] = 0;
	if (json_object_object_get_ex(root, "build", &build))
		json_object_object_get_ex(build, "reproducer_cmdline", &list);
	if (!json_object_is_type(list, json_type_array))
		return -EINVAL;
	n = json_object_array_length(list);
	for (i = 0; i < n; i++) {
		word = json_object_array_get_idx(list, i);
		if (!json_object_is_type(word, json_type_string))
			return -EINVAL;
		if (!full)
			full = spawn_sh_append(cmd, clen, json_object_get_string(word));
	}
	return n ? 0 : -EINVAL;
}

/* the line of byte @off of @s, from 1 */
static unsigned int vmprep_line_of(const char *s, size_t off)
{
	unsigned int line = 1;
	size_t i;

	for (i = 0; i < off && s[i]; i++)
		line += s[i] == '\n';
	return line;
}

/*
 * @meta's text @json parsed by json-c into *@root: 0, or -EINVAL with
 * @why naming the file and the line where it stops being JSON
 */
static int vmprep_json(const char *dir, const char *meta, const char *json, size_t n,
		       struct json_object **root, char *why, size_t len)
{
	struct json_tokener *tok = json_tokener_new();
	enum json_tokener_error e;

	if (!tok)
		return -ENOMEM;
	*root = json_tokener_parse_ex(tok, json, (int)n);
	e = json_tokener_get_error(tok);
	/* a whole value, and nothing but blanks after it */
	if (*root && e == json_tokener_success &&
	    json[tok->char_offset + strspn(json + tok->char_offset, " \t\r\n")] == 0) {
		json_tokener_free(tok);
		return 0;
	}
	snprintf(why, len, "--tuxmake %s: %s:%u: not JSON (%s)", dir, meta,
		 vmprep_line_of(json, tok->char_offset),
		 e == json_tokener_success ? (*root ? "text after the value" : "no value") :
		 e == json_tokener_continue ? "ends inside a value" : json_tokener_error_desc(e));
	json_object_put(*root);
	json_tokener_free(tok);
	return -EINVAL;
}

int vmprep_tuxmake(const char *dir, char *image, size_t ilen, char *cmd, size_t clen,
		   char *why, size_t len)
{
	char meta[PATH_MAX + 32], *json = NULL;
	struct json_object *root;
	size_t cap = 0;
	ssize_t n;
	FILE *f;
	int ret;

	snprintf(image, ilen, "%s/bzImage", dir);
	if (access(image, R_OK)) {
		snprintf(why, len, "--tuxmake %s: no bzImage in it (%s)", dir, strerror(errno));
		return -EINVAL;
	}
	snprintf(meta, sizeof(meta), "%s/metadata.json", dir);
	f = fopen(meta, "re");
	if (!f) {
		snprintf(why, len, "--tuxmake %s: %s: %s", dir, meta, strerror(errno));
		return -EINVAL;
	}
	n = getdelim(&json, &cap, 0, f);
	fclose(f);
	if (n < 0 || (size_t)n != strlen(json) || n > INT_MAX) {
		snprintf(why, len, "--tuxmake %s: %s: not JSON (%s)", dir, meta,
			 n <= 0 ? "empty" : "a NUL byte");
		free(json);
		return -EINVAL;
	}
	ret = vmprep_json(dir, meta, json, (size_t)n, &root, why, len);
	free(json);
	if (ret)
		return ret;
	ret = vmprep_reproducer(root, cmd, clen);
	json_object_put(root);
	if (ret)
		snprintf(why, len, "--tuxmake %s: %s: not tuxmake's metadata (no build.reproducer_cmdline, a list of strings)",
			 dir, meta);
	return ret;
}
