/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ksb_mark.h - the markers by which a guest tells the project's QEMU
 * plugin (plugin/ksbplugin.c) where a measured window begins and ends:
 * a sample of bench run or of an audit entry (lib/measure/engine.c), or
 * the module's timed region (ksb_core.c). Shared by the module, bench
 * and the plugin, as ksb_hist.h is.
 *
 * WHY AN INSTRUCTION'S BYTES
 *
 * QEMU 7.2's plugin API (QEMU_PLUGIN_VERSION 1) reads no guest register
 * and no value loaded or stored: a callback gets an instruction's
 * address and bytes at translation, and a memory access's virtual
 * address (and its physical one) when it runs. A marker function at a
 * known address would not do either: bench-static and busybox-static
 * are both non-PIE executables at 0x401000 (an address names no
 * process), and the module's addresses are unknown on the host. So a
 * marker is one instruction that no compiler emits, found by its bytes
 * wherever it runs, user or kernel, whose load's address carries a
 * 12-bit argument in its page offset:
 *
 *	ds movzbl DISP(%rax), %eax	3e 0f b6 80 | DISP, 4 bytes LE
 *	DISP = KSB_MARK_MAGIC | code << 12	(code: op and kind, below)
 *	%rax = page + arg - DISP		so the load reads page[arg]
 *
 * page is a page-aligned, readable page of the caller's (never
 * written: it stays the zero page), so the load's address modulo 4096
 * is arg whatever the mapping. The redundant DS prefix and the
 * magic displacement make the bytes unique. Without the plugin a marker
 * costs one load that hits L1 and clobbers %rax: put markers outside
 * the stamps, never inside a timed region.
 *
 *	static char page[4096] __attribute__((aligned(4096)));
 *
 *	KSB_MARK(page, KSB_MARK_BEGIN, KSB_MARK_KMOD, KSB_MARK_ARG(wl, 0));
 *	t0 = stamp(); region(); t1 = stamp();
 *	KSB_MARK(page, KSB_MARK_END, KSB_MARK_KMOD, KSB_MARK_ARG(wl, 0));
 *
 * The window the plugin counts runs from the instruction after the
 * begin marker through the end marker, on the vCPU that ran the begin.
 */
#ifndef KSB_MARK_H
#define KSB_MARK_H

#define KSB_MARK_MAGIC		0x6b730000u	/* displacement bits 16..31 ("sk") */
#define KSB_MARK_ARG_MAX	4095u		/* an argument is a page offset */
#define KSB_MARK_BYTES		8		/* the instruction's length */

/* code bits 12..15 of the displacement: bit 3 the op, bits 0..2 the kind */
#define KSB_MARK_BEGIN		0u		/* a window opens after it */
#define KSB_MARK_END		8u		/* the window closes with it */
#define KSB_MARK_RUN		1u		/* bench's engine: run and audit */
#define KSB_MARK_KMOD		2u		/* the module kstats_bench */

/*
 * The argument: TAG << 2 | VARIANT. bench run: tag 0; bench audit: the
 * entry's place in this boot's order, 1-based (the word of that number
 * in its file's audit_order); the module: its workload (enum
 * ksb_workload). VARIANT: 0 and 1 the workload's two (old, new; alloc,
 * free: the order of the variant_LABEL keys bench run and bench kernel
 * write), 2 the reference loop. bench vm --plugin names each window so.
 */
#define KSB_MARK_REF		2u
#define KSB_MARK_ARG(tag, variant) ((((tag) & 1023u) << 2) | ((variant) & 3u))

#define KSB_MARK_DISP(op, kind)	(KSB_MARK_MAGIC | ((op) | (kind)) << 12)

#if defined(__x86_64__)
#define KSB_MARK(page, op, kind, arg)						\
	do {									\
		unsigned long __ksb_ax = (unsigned long)(page) +		\
					 ((arg) & KSB_MARK_ARG_MAX) -		\
					 KSB_MARK_DISP(op, kind);		\
		asm volatile(".byte 0x3e, 0x0f, 0xb6, 0x80\n\t.long %c1"	\
			     : "+a"(__ksb_ax) : "i"(KSB_MARK_DISP(op, kind))	\
			     : "memory");					\
	} while (0)
#else
/* no plugin reads another architecture's markers: nothing at all */
#define KSB_MARK(page, op, kind, arg) do { (void)(page); } while (0)
#endif

#endif /* KSB_MARK_H */
