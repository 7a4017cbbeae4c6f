// SPDX-License-Identifier: GPL-2.0
/*
 * test_vm.c - what bench vm builds before a boot and reads after it:
 * the newc archive byte for byte (lib/kernel/cpio.h), the releases of a bzImage,
 * a module and a tree and the static-ELF check (lib/kernel/kimage.h), and the
 * qemu command, /init and the guest's results (lib/kernel/vm.h).
 */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "lib/kernel/cpio.h"
#include "lib/kernel/kimage.h"
#include "lib/kernel/sha256.h"
#include "lib/subcmd/spawn.h"
#include "lib/kernel/vm.h"
#include "lib/kernel/vmprep.h"

/* a fresh directory for one test's files */
static char *tmpdir(void)
{
	char *d = strdup("/tmp/ksb-test-vm.XXXXXX");

	assert_non_null(mkdtemp(d));
	return d;
}

static void rmtree(char *d)
{
	assert_int_equal(spawn_remove_tree(d), 0);
	free(d);
}

static void write_file(const char *path, const void *buf, size_t len)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_int_equal(fwrite(buf, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

/* ---- cpio ---- */

/* one entry, then the trailer: every byte where the format puts it */
static void test_cpio_layout(void **state)
{
	/* ino mode uid gid nlink mtime filesize devmaj devmin rdevmaj rdevmin namesize check */
	static const char want[] =
		"070701" "00000001" "000081ED" "00000000" "00000000" "00000001" "00000000"
		"00000003" "00000000" "00000000" "00000000" "00000000" "00000005" "00000000"
		"init\0" "\0"				/* 110 + 5: padded to 116 */
		"abc\0"					/* 3 bytes of data: to 4 */
		"070701" "00000000" "00000000" "00000000" "00000000" "00000001" "00000000"
		"00000000" "00000000" "00000000" "00000000" "00000000" "0000000B" "00000000"
		"TRAILER!!!\0" "\0\0";			/* 110 + 11: to 124 */
	char *buf = NULL;
	size_t len = 0;
	struct cpio c;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	cpio_begin(&c, f);
	assert_int_equal(cpio_data(&c, "init", 0755, "abc", 3), 0);
	assert_int_equal(cpio_end(&c), 0);
	fclose(f);
	assert_int_equal(len, sizeof(want));	/* the literal's own NUL is the last pad byte */
	assert_int_equal(len, 116 + 4 + 124);
	assert_memory_equal(buf, want, len);
	free(buf);
}

/* what busybox cpio (or GNU cpio) lists of an archive we wrote */
static void test_cpio_list(void **state)
{
	char *d = tmpdir(), path[256], src[256], cmd[512], out[1024] = "";
	struct cpio c;
	FILE *f, *p;
	size_t n;

	(void)state;
	snprintf(src, sizeof(src), "%s/src", d);
	write_file(src, "hello\n", 6);
	snprintf(path, sizeof(path), "%s/a.cpio", d);
	f = fopen(path, "w");
	cpio_begin(&c, f);
	cpio_dir(&c, "bin", 0755);
	cpio_node(&c, "dev/console", 0600, 5, 1);
	cpio_file(&c, "bin/hello", 0644, src);
	assert_int_equal(cpio_end(&c), 0);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "cpio -t --quiet <'%s' 2>&1", path);
	p = popen(cmd, "r");
	n = fread(out, 1, sizeof(out) - 1, p);
	pclose(p);
	out[n] = 0;
	assert_string_equal(out, "bin\ndev/console\nbin/hello\n");
	rmtree(d);
}

static void test_cpio_errors(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	struct cpio c;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	cpio_begin(&c, f);
	assert_int_equal(cpio_data(&c, "/abs", 0644, "", 0), -EINVAL);
	/* sticky: nothing more is written */
	assert_int_equal(cpio_dir(&c, "bin", 0755), -EINVAL);
	assert_int_equal(cpio_end(&c), -EINVAL);
	fflush(f);
	assert_int_equal(len, 0);
	cpio_begin(&c, f);
	assert_int_equal(cpio_file(&c, "x", 0644, "/nonexistent/file"), -ENOENT);
	cpio_begin(&c, f);
	assert_int_equal(cpio_file(&c, "x", 0644, "/tmp"), -EINVAL);
	fclose(f);
	free(buf);
}

/* ---- kimage ---- */

/* a file with the setup header of a bzImage: "HdrS", protocol, version string */
static void fake_bzimage(const char *path, const char *magic, uint16_t proto, const char *ver)
{
	unsigned char img[0x1000] = { 0 };
	uint16_t off = 0x400;

	memcpy(img + 0x202, magic, 4);
	memcpy(img + 0x206, &proto, 2);
	memcpy(img + 0x20e, &off, 2);
	memcpy(img + 0x200 + off, ver, strlen(ver) + 1);
	write_file(path, img, sizeof(img));
}

static void test_kimage_bzimage(void **state)
{
	char *d = tmpdir(), path[256], rel[KIMAGE_RELEASE_MAX];

	(void)state;
	snprintf(path, sizeof(path), "%s/bzImage", d);
	fake_bzimage(path, "HdrS", 0x20f, "6.12.117 (root@ci) #1 SMP Tue Dec  1 19:00:00 UTC 2026");
	assert_int_equal(kimage_bzimage_release(path, rel, sizeof(rel)), 0);
	assert_string_equal(rel, "6.12.117");
	fake_bzimage(path, "HdrX", 0x20f, "6.12.117 (root@ci)");
	assert_int_equal(kimage_bzimage_release(path, rel, sizeof(rel)), -EINVAL);
	fake_bzimage(path, "HdrS", 0x1ff, "6.12.117 (root@ci)");
	assert_int_equal(kimage_bzimage_release(path, rel, sizeof(rel)), -EINVAL);
	write_file(path, "short", 5);
	assert_int_equal(kimage_bzimage_release(path, rel, sizeof(rel)), -EINVAL);
	assert_int_equal(kimage_bzimage_release("/nonexistent", rel, sizeof(rel)), -ENOENT);
	rmtree(d);
}

static void test_kimage_ko(void **state)
{
	static const char ko[] = "\x7f" "ELF junk\0license=GPL\0xvermagic=no\0"
				 "vermagic=6.12.117 SMP mod_unload \0name=kstats_bench\0";
	char *d = tmpdir(), path[256], rel[KIMAGE_RELEASE_MAX];

	(void)state;
	snprintf(path, sizeof(path), "%s/m.ko", d);
	write_file(path, ko, sizeof(ko));
	assert_int_equal(kimage_ko_release(path, rel, sizeof(rel)), 0);
	/* "xvermagic=" is not the key: the one that starts a string is */
	assert_string_equal(rel, "6.12.117");
	write_file(path, "no modinfo here", 15);
	assert_int_equal(kimage_ko_release(path, rel, sizeof(rel)), -EINVAL);
	rmtree(d);
}

static void test_kimage_tree(void **state)
{
	char *d = tmpdir(), path[256], rel[KIMAGE_RELEASE_MAX];

	(void)state;
	assert_int_equal(kimage_tree_release(d, rel, sizeof(rel)), -ENOENT);
	snprintf(path, sizeof(path), "%s/include", d);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/include/config", d);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/include/config/kernel.release", d);
	write_file(path, "6.12.117-ksb\n", 13);
	assert_int_equal(kimage_tree_release(d, rel, sizeof(rel)), 0);
	assert_string_equal(rel, "6.12.117-ksb");
	rmtree(d);
}

/* an ELF header and one program header of type @type */
static void fake_elf(const char *path, uint32_t type)
{
	struct {
		Elf64_Ehdr eh;
		Elf64_Phdr ph;
	} f = { 0 };

	memcpy(f.eh.e_ident, ELFMAG, SELFMAG);
	f.eh.e_ident[EI_CLASS] = ELFCLASS64;
	f.eh.e_phoff = sizeof(f.eh);
	f.eh.e_phentsize = sizeof(f.ph);
	f.eh.e_phnum = 1;
	f.ph.p_type = type;
	write_file(path, &f, sizeof(f));
}

static void test_kimage_static(void **state)
{
	char *d = tmpdir(), path[256];

	(void)state;
	snprintf(path, sizeof(path), "%s/prog", d);
	fake_elf(path, PT_LOAD);
	assert_int_equal(kimage_elf_static(path), 1);
	fake_elf(path, PT_INTERP);
	assert_int_equal(kimage_elf_static(path), 0);
	write_file(path, "#!/bin/sh\n", 10);
	assert_int_equal(kimage_elf_static(path), -EINVAL);
	/* the test program itself is linked against libcmocka.so */
	assert_int_equal(kimage_elf_static("/proc/self/exe"), 0);
	rmtree(d);
}

/* ---- vm: the qemu command ---- */

static void test_vm_config(void **state)
{
	struct vm_config c = { .qemu = "q", .cpus = 2, .possible = 480, .nodes = 4,
			       .memory = 1024 };
	char why[256];

	(void)state;
	assert_int_equal(vm_check_config(&c, why, sizeof(why)), 0);
	/* 255 over 4 nodes: the firmware declares 252, the kernel adds the rest */
	assert_int_equal(vm_fw_cpus(&c), 252);
	c.possible = 255;
	assert_int_equal(vm_check_config(&c, why, sizeof(why)), -EINVAL);
	assert_string_equal(why, "--possible-cpus 255 over 4 nodes: the firmware's CPUs must split evenly into one socket per node");
	c.possible = 1;
	assert_int_equal(vm_check_config(&c, why, sizeof(why)), -EINVAL);
	assert_string_equal(why, "--possible-cpus 1 is below --cpus 2");
	c.possible = 8;
	c.cpus = 9;
	assert_int_equal(vm_check_config(&c, why, sizeof(why)), -EINVAL);
	c.cpus = 2;
	c.memory = 255;
	assert_int_equal(vm_check_config(&c, why, sizeof(why)), -EINVAL);
	assert_string_equal(why, "--memory 255 over 4 nodes: at least 64 MiB a node");
	/* the counted clock: TCG's alone, and one online vCPU */
	c = (struct vm_config){ .cpus = 2, .possible = 8, .nodes = 1, .memory = 1024,
				.clock = VM_COUNTED };
	assert_int_equal(vm_check_config(&c, why, sizeof(why)), -EINVAL);
	assert_string_equal(why, "--cpus 2 under --clock counted: qemu counts the instructions of every vCPU on one counter, so a figure would hold the other vCPUs' too (-c 1, or --clock timed)");
	c.cpus = 1;
	assert_int_equal(vm_check_config(&c, why, sizeof(why)), 0);
	c.accel = VM_KVM;
	assert_int_equal(vm_check_config(&c, why, sizeof(why)), -EINVAL);
	assert_string_equal(why, "--clock counted needs --accel tcg: KVM runs the guest on this host's cores, whose clock qemu cannot count (--clock timed)");
	/* the plugin: the counted clock's alone */
	c.accel = VM_TCG;
	c.plugin = "ksbplugin.so";
	assert_int_equal(vm_check_config(&c, why, sizeof(why)), 0);
	c.clock = VM_TIMED;
	assert_int_equal(vm_check_config(&c, why, sizeof(why)), -EINVAL);
	assert_string_equal(why, "--plugin under --clock timed: the plugin's counts are exact only where the guest's clock counts its instructions, and a timed file cannot hold them (--clock counted)");
}

static void test_vm_qemu_argv(void **state)
{
	struct vm_config c = { .qemu = "qemu-system-x86_64", .cpus = 2, .possible = 480,
			       .nodes = 2, .memory = 1024, .append = "irq_plant_ns=0" };
	struct vm_argv a;
	char line[2048];

	(void)state;
	vm_qemu_argv(&a, &c, "img/bzImage", "k.cpio", "con", "data");
	spawn_sh_line(line, sizeof(line), (int)a.n, a.argv);
	assert_string_equal(line,
		"qemu-system-x86_64 -machine q35,accel=tcg,vmport=on -cpu max,-hypervisor"
		" -smbios type=1,serial=VMware-kstats-bench -smp 2,maxcpus=254,sockets=2,cores=127,threads=1 -m 1024"
		" -object memory-backend-ram,id=m0,size=512M -numa node,nodeid=0,cpus=0-126,memdev=m0"
		" -object memory-backend-ram,id=m1,size=512M -numa node,nodeid=1,cpus=127-253,memdev=m1"
		" -kernel img/bzImage -initrd k.cpio"
		" -append 'console=ttyS0 panic=-1 possible_cpus=480 irq_plant_ns=0'"
		" -nodefaults -display none -no-reboot -serial file:con -serial file:data");
	assert_null(a.argv[a.n]);
	/* at or under the firmware's count, no possible_cpus=; kvm takes the host CPU */
	c = (struct vm_config) { .qemu = "q", .accel = VM_KVM, .cpus = 1, .possible = 16,
				 .nodes = 1, .memory = 512 };
	vm_qemu_argv(&a, &c, "i", "r", "c", "d");
	spawn_sh_line(line, sizeof(line), (int)a.n, a.argv);
	assert_string_equal(line,
		"q -machine q35,accel=kvm -cpu host -smp 1,maxcpus=16,sockets=1,cores=16,threads=1"
		" -m 512 -kernel i -initrd r -append 'console=ttyS0 panic=-1' -nodefaults"
		" -display none -no-reboot -serial file:c -serial file:d");
	/* counted: TCG's single thread, one virtual ns per instruction */
	c = (struct vm_config) { .qemu = "q", .clock = VM_COUNTED, .cpus = 1, .possible = 64,
				 .nodes = 1, .memory = 512 };
	vm_qemu_argv(&a, &c, "i", "r", "c", "d");
	spawn_sh_line(line, sizeof(line), (int)a.n, a.argv);
	assert_string_equal(line,
		"q -machine q35,vmport=on -cpu max,-hypervisor -smbios type=1,serial=VMware-kstats-bench"
		" -accel tcg,thread=single -icount shift=0,sleep=off -rtc clock=vm"
		" -smp 1,maxcpus=64,sockets=1,cores=64,threads=1 -m 512 -kernel i -initrd r"
		" -append 'console=ttyS0 panic=-1' -nodefaults -display none -no-reboot"
		" -serial file:c -serial file:d");
	assert_null(a.argv[a.n]);
	/* the plugin after the clock, its files beside the results' */
	c.plugin = "p.so,cache=off,syms=k.syms";
	vm_qemu_argv(&a, &c, "i", "r", "c", "w/data");
	spawn_sh_line(line, sizeof(line), (int)a.n, a.argv);
	assert_non_null(strstr(line, " -rtc clock=vm -plugin p.so,cache=off,syms=k.syms,out=w/data.win.csv,funcs=w/data.fn.csv -smp 1,"));
	vm_plugin_paths("w/data", line, line + 1024, 1024);
	assert_string_equal(line, "w/data.win.csv");
	assert_string_equal(line + 1024, "w/data.fn.csv");
}

/* ---- vm: /init and the guest's results ---- */

static void test_vm_init(void **state)
{
	char *k[] = { "kernel", "-w", "kernel-irq-alloc", NULL };
	char *r[] = { "run", "--label", "it's", NULL };
	char *const *cmds[] = { k, r };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_int_equal(vm_write_init(f, cmds, 2), 0);
	fclose(f);
	assert_true(!strncmp(buf, "#!/bin/busybox sh\n", 18));
	/* what bench trace and the workloads need, where the kernel has it */
	assert_non_null(strstr(buf, "\nmount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null\n"));
	assert_non_null(strstr(buf, "\nmount -t cgroup2 cgroup2 /sys/fs/cgroup 2>/dev/null\n"));
	assert_non_null(strstr(buf, "\nmount -t bpf bpf /sys/fs/bpf 2>/dev/null\n"));
	assert_non_null(strstr(buf, "\nmount -t debugfs debugfs /sys/kernel/debug 2>/dev/null\n"));
	/* -q -o before the command's own words: trace's after "--" are COMMAND's */
	assert_non_null(strstr(buf, "\t/bench \"$cmd\" -q -o /tmp/$n.csv \"$@\" "));
	assert_non_null(strstr(buf, "\nrun 1 kernel -w kernel-irq-alloc\n"
				    "run 2 run --label 'it'\\''s'\n"
				    "echo '@ksb done' >&3\npoweroff -f\n"));
	free(buf);
}

/* @g from the transcript @text (@len bytes) of @nr_cmds commands, read whole */
static void guest_read(struct vm_guest *g, const char *text, size_t len, unsigned int nr_cmds)
{
	FILE *f = fmemopen((void *)text, len, "r");

	assert_non_null(f);
	assert_int_equal(vm_guest_read(g, f, nr_cmds), 0);
	fclose(f);
}

/* the next line of @f is @want; NULL: @f is at its end */
static void next_line(FILE *f, const char *want)
{
	char line[64];

	if (!want) {
		assert_null(fgets(line, sizeof(line), f));
		return;
	}
	assert_non_null(fgets(line, sizeof(line), f));
	assert_string_equal(line, want);
}

/* a transcript as the guest sends it: CRs, a CSV, a stderr, unknown lines */
static const char transcript[] =
	"garbage before /init\r\n"
	"@ksb vm 1\r\n"
	"@ksb boot release=6.12.117 possible=0-479 online=0-1 kernel_max=511\r\n"
	"@ksb begin 1\r\n"
	"# kstats-bench-csv 2\r\n"
	"a,b\r\n"
	"@ksb stderr 1\r\n"
	"@ksb end 1 rc=0\r\n"
	"@ksb begin 2\r\n"
	"@ksb stderr 2\r\n"
	"bench run: --samples: '0' is not an integer in 1..4294967296\r\n"
	"second line\r\n"
	"@ksb end 2 rc=2\r\n"
	"@ksb begin 7\r\n"
	"ignored: no command 7\r\n"
	"@ksb future thing\r\n"
	"@ksb done\r\n";

static void test_vm_guest_read(void **state)
{
	struct vm_guest g;

	(void)state;
	guest_read(&g, transcript, sizeof(transcript) - 1, 2);
	assert_true(g.started && g.done);
	assert_string_equal(g.release, "6.12.117");
	assert_int_equal(g.possible, 480);
	assert_int_equal(g.online, 2);
	assert_int_equal(g.kernel_max, 511);
	assert_int_equal(g.rc[0], 0);
	assert_int_equal(g.rc[1], 2);
	assert_int_equal(g.rc[2], -1);
	assert_non_null(g.csv[0]);
	next_line(g.csv[0], "# kstats-bench-csv 2\n");
	next_line(g.csv[0], "a,b\n");
	next_line(g.csv[0], NULL);
	assert_null(g.csv[1]);
	assert_string_equal(g.err[0], "");
	assert_string_equal(g.err[1], "bench run: --samples: '0' is not an integer in 1..4294967296");
	vm_guest_free(&g);
	vm_guest_free(&g);
}

/* an sh command's files: counted lines, frames among them kept, bad names dropped */
static const char files[] =
	"@ksb vm 1\r\n"
	"@ksb file 1 3 kernel.csv\r\n"
	"a,b\r\n"
	"@ksb end 1 rc=9\r\n"
	"\r\n"
	"@ksb file 1 0 empty\n"
	"@ksb file 1 1 ../escape\n"
	"dropped\n"
	"@ksb file 1 1 .hidden\n"
	"dropped\n"
	"@ksb file 3 1 nocmd\n"
	"dropped too\n"
	"@ksb file 1 1 .stdout\n"
	"hello\n"
	"@ksb stderr 1\n"
	"oops\n"
	"@ksb end 1 rc=0\n"
	"@ksb done\n";

static void test_vm_guest_files(void **state)
{
	struct vm_guest g;

	(void)state;
	guest_read(&g, files, sizeof(files) - 1, 1);
	assert_true(g.done);
	assert_int_equal(g.rc[0], 0);
	assert_string_equal(g.err[0], "oops");
	assert_null(g.csv[0]);
	assert_int_equal(g.nr_files, 3);
	assert_int_equal(g.bad_files, 2);
	assert_string_equal(g.file[0].name, "kernel.csv");
	assert_int_equal(g.file[0].cmd, 0);
	next_line(g.file[0].f, "a,b\n");
	next_line(g.file[0].f, "@ksb end 1 rc=9\n");
	next_line(g.file[0].f, "\n");
	next_line(g.file[0].f, NULL);
	assert_string_equal(g.file[1].name, "empty");
	next_line(g.file[1].f, NULL);
	assert_string_equal(g.file[2].name, ".stdout");
	next_line(g.file[2].f, "hello\n");
	vm_guest_free(&g);
	assert_int_equal(g.nr_files, 0);
	vm_guest_free(&g);
}

static void test_vm_file_names(void **state)
{
	(void)state;
	assert_true(vm_file_name_ok("kernel.csv"));
	assert_true(vm_file_name_ok("irq-fentry_1+x.txt"));
	assert_true(vm_file_name_ok(".stderr"));
	assert_false(vm_file_name_ok(""));
	assert_false(vm_file_name_ok(".x"));
	assert_false(vm_file_name_ok("a/b"));
	assert_false(vm_file_name_ok("a b"));
	assert_false(vm_file_name_ok(".."));
}

/* /init runs an sh command's script from /sh/N.sh with its ARGS, not SCRIPT */
static void test_vm_init_sh(void **state)
{
	char *sh[] = { "sh", "tests/vm/plans.sh", "numa", "none", NULL };
	char *const *cmds[] = { sh };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_int_equal(vm_write_init(f, cmds, 1), 0);
	fclose(f);
	assert_non_null(strstr(buf, "\trc=$?\n"));
	assert_non_null(strstr(buf, "KSB_OUT=/tmp/ksb-out.$n sh /sh/$n.sh \"$@\""));
	assert_non_null(strstr(buf, "\nrunsh 1 numa none\necho '@ksb done' >&3\n"));
	free(buf);
}

/* a guest that died in its first command: started, not done */
static void test_vm_guest_cut(void **state)
{
	static const char cut[] = "@ksb vm 1\n@ksb boot possible=0-254 online=0\n@ksb begin 1\n# kst";
	struct vm_guest g;

	(void)state;
	guest_read(&g, cut, sizeof(cut) - 1, 1);
	assert_true(g.started);
	assert_false(g.done);
	assert_int_equal(g.possible, 255);
	assert_int_equal(g.online, 1);
	assert_int_equal(g.rc[0], -1);
	vm_guest_free(&g);
}

/*
 * the sweep's order: each round boots every (kernel, count) once, and over
 * lcm(nk, np) rounds every kernel and every count has the same mean slot
 */
static void test_vm_sweep_order(void **state)
{
	static const unsigned int sizes[][2] = { { 1, 1 }, { 2, 1 }, { 1, 3 }, { 2, 3 }, { 3, 3 },
						 { 4, 2 } };
	unsigned int t, r, s, k, c, nk, np, rounds;

	(void)state;
	for (t = 0; t < sizeof(sizes) / sizeof(sizes[0]); t++) {
		unsigned int ksum[4] = { 0 }, csum[4] = { 0 };

		nk = sizes[t][0];
		np = sizes[t][1];
		for (rounds = nk; rounds % np; rounds += nk)
			;
		for (r = 0; r < rounds; r++) {
			bool seen[4][4] = { { false } };

			for (s = 0; s < nk * np; s++) {
				vm_sweep_slot(nk, np, r, s, &k, &c);
				assert_true(k < nk && c < np);
				assert_false(seen[k][c]);
				seen[k][c] = true;
				ksum[k] += s;
				csum[c] += s;
			}
		}
		for (k = 1; k < nk; k++)
			assert_int_equal(ksum[k], ksum[0]);
		for (c = 1; c < np; c++)
			assert_int_equal(csum[c], csum[0]);
	}
	/* two kernels, three counts: round 0 and round 1, slot by slot */
	{
		static const unsigned int want[2][6][2] = {
			{ { 0, 0 }, { 1, 0 }, { 0, 1 }, { 1, 1 }, { 0, 2 }, { 1, 2 } },
			{ { 1, 1 }, { 0, 1 }, { 1, 2 }, { 0, 2 }, { 1, 0 }, { 0, 0 } },
		};

		for (r = 0; r < 2; r++)
			for (s = 0; s < 6; s++) {
				vm_sweep_slot(2, 3, r, s, &k, &c);
				assert_int_equal(k, want[r][s][0]);
				assert_int_equal(c, want[r][s][1]);
			}
	}
}

/*
 * shards: whole rounds while they go round, the extra rounds in the last
 * shards; past the rounds, the boots cut; together they cover the plan
 * once, in order
 */
static void test_vm_shard_range(void **state)
{
	static const unsigned int cases[][3] = { { 6, 4, 3 }, { 5, 4, 3 }, { 2, 6, 3 },
						 { 3, 1, 3 }, { 1, 2, 2 }, { 7, 2, 7 } };
	unsigned int t, i, f, e, next;

	(void)state;
	for (t = 0; t < sizeof(cases) / sizeof(cases[0]); t++) {
		next = 0;
		for (i = 1; i <= cases[t][2]; i++) {
			assert_int_equal(vm_shard_range(cases[t][0], cases[t][1], i, cases[t][2],
							&f, &e), 0);
			assert_int_equal(f, next);
			assert_true(e > f);
			if (cases[t][2] <= cases[t][0])
				assert_int_equal(f % cases[t][1], 0);
			next = e;
		}
		assert_int_equal(next, cases[t][0] * cases[t][1]);
	}
	/* 5 rounds in 3 shards: 1, 2, 2 rounds of 4 boots */
	vm_shard_range(5, 4, 1, 3, &f, &e);
	assert_int_equal(e, 4);
	vm_shard_range(5, 4, 2, 3, &f, &e);
	assert_int_equal(f, 4);
	assert_int_equal(e, 12);
	/* 2 rounds of 6 in 3 shards: 4 boots each, one round cut */
	vm_shard_range(2, 6, 2, 3, &f, &e);
	assert_int_equal(f, 4);
	assert_int_equal(e, 8);
	assert_int_equal(vm_shard_range(2, 6, 0, 3, &f, &e), -EINVAL);
	assert_int_equal(vm_shard_range(2, 6, 4, 3, &f, &e), -EINVAL);
	assert_int_equal(vm_shard_range(2, 6, 1, 13, &f, &e), -EINVAL);
	assert_int_equal(vm_shard_range(2, 6, 1, 0, &f, &e), -EINVAL);
}

/* "I/N": digits alone, never wrapped; N in 1..max, I in 1..N */
static void test_vm_shard_parse(void **state)
{
	static const char *const bad[] = {
		"1/4294967297", "4294967297/3", "1/+3", "+1/3", "-1/3", " 1/3", "1/3 ", "1/ 3",
		"1/3x", "1//3", "1/3/", "/3", "1/", "0/3", "4/3", "1/1001", "0x1/3", "",
		"18446744073709551617/1", NULL
	};
	unsigned int i = 7, n = 7, k;

	(void)state;
	for (k = 0; bad[k]; k++) {
		assert_int_equal(vm_shard_parse(bad[k], 1000, &i, &n), -EINVAL);
		assert_int_equal(i, 7);
		assert_int_equal(n, 7);
	}
	assert_int_equal(vm_shard_parse("2/3", 1000, &i, &n), 0);
	assert_int_equal(i, 2);
	assert_int_equal(n, 3);
	assert_int_equal(vm_shard_parse("1000/1000", 1000, &i, &n), 0);
	assert_int_equal(i, 1000);
}

/* -p's list: counts in order, each 1..limit, none twice, at most max */
static void test_vmprep_counts(void **state)
{
	unsigned int c[4], n;
	char why[256];

	(void)state;
	assert_int_equal(vmprep_counts("64,128,255", c, 4, 8192, &n, why, sizeof(why)), 0);
	assert_int_equal(n, 3);
	assert_int_equal(c[0], 64);
	assert_int_equal(c[2], 255);
	assert_int_equal(vmprep_counts("8192", c, 4, 8192, &n, why, sizeof(why)), 0);
	assert_int_equal(c[0], 8192);
	assert_int_equal(vmprep_counts("8193", c, 4, 8192, &n, why, sizeof(why)), -EINVAL);
	assert_string_equal(why, "--possible-cpus: '8193' is not a list of at most 4 counts, each in 1..8192 (e.g. 64,128,255)");
	assert_int_equal(vmprep_counts("1,2,3,4,5", c, 4, 8192, &n, why, sizeof(why)), -EINVAL);
	assert_int_equal(vmprep_counts("4,,8", c, 4, 8192, &n, why, sizeof(why)), -EINVAL);
	assert_int_equal(vmprep_counts("-4", c, 4, 8192, &n, why, sizeof(why)), -EINVAL);
	assert_int_equal(vmprep_counts("4,8,", c, 4, 8192, &n, why, sizeof(why)), -EINVAL);
	assert_int_equal(vmprep_counts("4, 8", c, 4, 8192, &n, why, sizeof(why)), -EINVAL);
	assert_int_equal(vmprep_counts("8,8", c, 4, 8192, &n, why, sizeof(why)), -EINVAL);
	assert_string_equal(why, "--possible-cpus: '8,8' asks 8 twice");
}

/* commands after "--": trace's first "--" is its own, its PROG runs to the next */
static void test_vmprep_cmd(void **state)
{
	char *argv[] = { "vm", "--", "trace", "-p", "fentry", "f", "--", "cat", "-o", "/x", "--",
			 "run", "-n", "4", "--", "trace", "g", "--", NULL };
	int argc = 18, i;
	struct vm_cmd c;
	char why[256];

	(void)state;
	i = vmprep_cmd(&c, argc, argv, 2, why, sizeof(why));
	assert_int_equal(i, 10);
	assert_int_equal(c.argc, 8);
	assert_string_equal(c.what, "trace -p fentry f -- cat -o /x");
	i = vmprep_cmd(&c, argc, argv, i + 1, why, sizeof(why));
	assert_int_equal(i, 14);
	assert_string_equal(c.what, "run -n 4");
	assert_int_equal(vmprep_cmd(&c, argc, argv, i + 1, why, sizeof(why)), -EINVAL);
	assert_string_equal(why, "'trace ... --': no program after '--' (e.g. -- trace show_stat -- cat /proc/stat)");
	/* a trace without PROG ends at the end; -o before PROG is refused */
	{
		char *a[] = { "trace", "f", NULL }, *b[] = { "trace", "-o", "x", "f", NULL };
		char *e[] = { "hist", NULL }, *d[] = { "--", NULL };

		assert_int_equal(vmprep_cmd(&c, 2, a, 0, why, sizeof(why)), 2);
		assert_int_equal(vmprep_cmd(&c, 4, b, 0, why, sizeof(why)), -EINVAL);
		assert_string_equal(why, "'trace -o': bench vm writes the command's CSV itself (-o DIR)");
		assert_int_equal(vmprep_cmd(&c, 1, e, 0, why, sizeof(why)), -EINVAL);
		assert_int_equal(vmprep_cmd(&c, 1, d, 0, why, sizeof(why)), -EINVAL);
		assert_string_equal(why, "an empty command after '--' (e.g. -- kernel -w kernel-irq-alloc)");
	}
}

/* FIPS 180-4's examples, and one over several blocks (sha256sum's figure) */
static void test_sha256(void **state)
{
	char hex[SHA256_HEX], *big = malloc(1000000);

	(void)state;
	sha256_buf("", 0, hex);
	assert_string_equal(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	sha256_buf("abc", 3, hex);
	assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	sha256_buf("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56, hex);
	assert_string_equal(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
	assert_non_null(big);
	memset(big, 'a', 1000000);
	sha256_buf(big, 1000000, hex);
	assert_string_equal(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
	free(big);
	assert_int_equal(sha256_file("/nonexistent", hex), -ENOENT);
}

/* -m: 512M, 2G, MiB; the range */
/* tuxmake's reproducer as a shell line; the words before one that does not fit */
static void test_vmprep_tuxmake(void **state)
{
	static const char tux_u[] = "{\"build\": {\"reproducer_cmdline\": [\"tuxmake\", \"A\\u0042\"]}}";
	static const char tux_text[] = "{\"log\": \"\\\"reproducer_cmdline\\\": [\\\"x\\\"]\"}";
	static const char json[] = "{\"build\": {\"reproducer_cmdline\": [\"tuxmake\", "
		"\"KCFLAGS=-O2 -g\", \"$x\", \"a-word-too-long-to-fit\", \"k\"]}}";
	char *d = tmpdir(), path[256], image[256], cmd[64], why[256];

	(void)state;
	snprintf(path, sizeof(path), "%s/bzImage", d);
	write_file(path, "x", 1);
	snprintf(path, sizeof(path), "%s/metadata.json", d);
	write_file(path, json, sizeof(json) - 1);
	assert_int_equal(vmprep_tuxmake(d, image, sizeof(image), cmd, sizeof(cmd),
					why, sizeof(why)), 0);
	assert_string_equal(cmd, "tuxmake 'KCFLAGS=-O2 -g' '$x' a-word-too-long-to-fit k");
	assert_int_equal(vmprep_tuxmake(d, image, sizeof(image), cmd, 32, why, sizeof(why)), 0);
	assert_string_equal(cmd, "tuxmake 'KCFLAGS=-O2 -g' '$x'");
	/* JSON's escapes are read; the key inside a string is no key */
	write_file(path, tux_u, sizeof(tux_u) - 1);
	assert_int_equal(vmprep_tuxmake(d, image, sizeof(image), cmd, sizeof(cmd),
					why, sizeof(why)), 0);
	assert_string_equal(cmd, "tuxmake AB");
	write_file(path, tux_text, sizeof(tux_text) - 1);
	assert_int_equal(vmprep_tuxmake(d, image, sizeof(image), cmd, sizeof(cmd),
					why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "metadata.json: not tuxmake's metadata (no build.reproducer_cmdline"));
	rmtree(d);
}

static void test_vmprep_memory(void **state)
{
	unsigned long m;
	char why[256];

	(void)state;
	assert_int_equal(vmprep_memory("512M", 128, 1 << 20, &m, why, sizeof(why)), 0);
	assert_int_equal(m, 512);
	assert_int_equal(vmprep_memory("2G", 128, 1 << 20, &m, why, sizeof(why)), 0);
	assert_int_equal(m, 2048);
	assert_int_equal(vmprep_memory("1024", 128, 1 << 20, &m, why, sizeof(why)), 0);
	assert_int_equal(m, 1024);
	assert_int_equal(vmprep_memory("262144k", 128, 1 << 20, &m, why, sizeof(why)), 0);
	assert_int_equal(m, 256);
	assert_int_equal(vmprep_memory("100M", 128, 1 << 20, &m, why, sizeof(why)), -EINVAL);
	assert_string_equal(why, "--memory: '100M' is not a size in 128M..1024G (e.g. 512M, 2G; a number is MiB)");
	assert_int_equal(vmprep_memory("2T", 128, 1 << 20, &m, why, sizeof(why)), -EINVAL);
	assert_int_equal(vmprep_memory("1025G", 128, 1 << 20, &m, why, sizeof(why)), -EINVAL);
	assert_int_equal(vmprep_memory("1000k", 128, 1 << 20, &m, why, sizeof(why)), -EINVAL);
	assert_int_equal(vmprep_memory("2GB", 128, 1 << 20, &m, why, sizeof(why)), -EINVAL);
}

static void test_vm_count_cpus(void **state)
{
	(void)state;
	assert_int_equal(vm_count_cpus("0-479"), 480);
	assert_int_equal(vm_count_cpus("0"), 1);
	assert_int_equal(vm_count_cpus("0,2-3,7"), 4);
	assert_int_equal(vm_count_cpus(""), 0);
	assert_int_equal(vm_count_cpus("x"), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpio_layout),
		cmocka_unit_test(test_cpio_list),
		cmocka_unit_test(test_cpio_errors),
		cmocka_unit_test(test_kimage_bzimage),
		cmocka_unit_test(test_kimage_ko),
		cmocka_unit_test(test_kimage_tree),
		cmocka_unit_test(test_kimage_static),
		cmocka_unit_test(test_vm_config),
		cmocka_unit_test(test_vm_qemu_argv),
		cmocka_unit_test(test_vm_init),
		cmocka_unit_test(test_vm_guest_read),
		cmocka_unit_test(test_vm_guest_files),
		cmocka_unit_test(test_vm_file_names),
		cmocka_unit_test(test_vm_init_sh),
		cmocka_unit_test(test_vm_guest_cut),
		cmocka_unit_test(test_vm_sweep_order),
		cmocka_unit_test(test_vm_shard_range),
		cmocka_unit_test(test_vm_shard_parse),
		cmocka_unit_test(test_vmprep_counts),
		cmocka_unit_test(test_vmprep_cmd),
		cmocka_unit_test(test_sha256),
		cmocka_unit_test(test_vmprep_tuxmake),
		cmocka_unit_test(test_vmprep_memory),
		cmocka_unit_test(test_vm_count_cpus),
	};

	return cmocka_run_group_tests_name("vm", tests, NULL, NULL);
}
