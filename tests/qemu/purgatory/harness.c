/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Purgatory test harness: a multiboot "kernel" for qemu-system-i386.
 *
 * It plays both the kexec tool and the kernels around purgatory: copies
 * the embedded blob to an odd page, fills the params block (hash regions,
 * backup, command line, registers), enters it the way relocate_kernel
 * does, and at the landing pad checks what purgatory did.  The scenario
 * comes from the multiboot command line ("scenario=NAME").  Results go to
 * COM1 as "PASS: purgatory-qemu/<scenario>/<check>" / "FAIL: ..." lines;
 * the exit code through isa-debug-exit says whether all passed.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "purgatory-blob.h"
#include "purgatory-params.h"
#include "sha256.h"

#define COM1		0x3f8
#define EXIT_PORT	0xf4		/* -device isa-debug-exit,iobase=0xf4 */
#define EXIT_PASS	0x10		/* qemu exits with (v << 1) | 1 = 33 */
#define EXIT_FAIL	0x11		/* 35 */

/* Physical layout (the harness itself lives at 1 MiB). */
#define PURG_BASE	0x00345000u	/* an odd page on purpose */
#define DATA_A		0x00400000u	/* "kernel": pattern */
#define DATA_A_LEN	0x3001u
#define BACKUP_DST	0x00500000u	/* "crash region" backup area */
#define BACKUP_LEN	0x1000u
#define BACKUP_AREA	0x2000u		/* hashed, and a sentinel after the copy */
#define CMDLINE_PAGE	0x00510000u
#define CMDLINE_ADDR	(CMDLINE_PAGE + 0x100)
#define ENTRY_ESP	0x00520ffcu	/* 0(%esp) at entry: jump-back word */
#define NEXT_ESP	0x00530ff0u	/* regs.esp we ask for */

#define BASE_CMDLINE	"console=ttyS0"
#define JUMP_KEY	" kexec_jump_back_entry=0x"
#define SENTINEL	0xaa
#define BACKUP_FILL	0x5a		/* backup area before purgatory runs */
/* Free low memory we scribble on, so the backup's last bytes are not 0. */
#define LOW_PATTERN	0x800u

struct scenario {
	const char *name;
	uint32_t flags;
	uint32_t jump_word;	/* 0(%esp) at entry */
	uint32_t room;		/* cmdline_room */
	bool corrupt;		/* digest off by one bit: must halt */
	bool default_esp;	/* regs.esp = 0: purgatory's own stack */
};

static const struct scenario scenarios[] = {
	{ "ok", PGF_VERIFY | PGF_BACKUP | PGF_JUMP_BACK_ENTRY | PGF_SERIAL,
	  0xcafef00d, 34, false, false },
	{ "quiet", PGF_VERIFY | PGF_BACKUP | PGF_JUMP_BACK_ENTRY,
	  0x0badc0de, 64, false, false },
	{ "noroom", PGF_VERIFY | PGF_JUMP_BACK_ENTRY | PGF_SERIAL,
	  0xcafef00d, 33, false, false },
	{ "nojump", PGF_VERIFY | PGF_JUMP_BACK_ENTRY | PGF_SERIAL,
	  0, 64, false, true },
	{ "mismatch", PGF_VERIFY | PGF_BACKUP | PGF_JUMP_BACK_ENTRY,
	  0xcafef00d, 64, true, false },
};

/* Filled by the landing pad in harness-entry.S; offsets are fixed there. */
struct landed_state {
	uint32_t eax, ebx, ecx, edx, esi, edi, esp, ebp;
	uint32_t cs, ds, es, fs, gs, ss;
	uint32_t eflags;
	uint16_t gdt_limit;
	uint32_t gdt_base;
} __attribute__((packed));

struct landed_state landed;
extern char landing[];
void enter_purgatory(uint32_t entry, uint32_t esp) __attribute__((noreturn));
void harness_main(uint32_t mbi);
void harness_check(void);

static const struct scenario *sc;
static struct purgatory_regs want_regs;
static int failures;

/* ---- freestanding odds and ends ---- */

void *memcpy(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);

void *memcpy(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	while (n--)
		*d++ = *s++;
	return dst;
}

void *memset(void *dst, int c, size_t n)
{
	unsigned char *d = dst;

	while (n--)
		*d++ = (unsigned char)c;
	return dst;
}

/* Physical 0 is RAM here: keep the compiler from seeing a NULL. */
static void *phys(uint32_t addr)
{
	uintptr_t v = addr;

	__asm__("" : "+r"(v));
	return (void *)v;
}

static inline void outb(uint16_t port, uint8_t v)
{
	__asm__ volatile("outb %0, %1" : : "a"(v), "Nd"(port));
}

static inline uint8_t inb(uint16_t port)
{
	uint8_t v;

	__asm__ volatile("inb %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

static void putc_(char c)
{
	if (c == '\n')
		putc_('\r');
	while (!(inb(COM1 + 5) & 0x20))
		;
	outb(COM1, (uint8_t)c);
}

static void puts_(const char *s)
{
	while (*s)
		putc_(*s++);
}

static void hex8(char *out, uint32_t v)
{
	int i;

	for (i = 7; i >= 0; i--, v >>= 4)
		out[i] = "0123456789abcdef"[v & 15];
}

static void put_hex(uint32_t v)
{
	char buf[9];

	hex8(buf, v);
	buf[8] = '\0';
	puts_("0x");
	puts_(buf);
}

static bool bytes_equal(const void *a, const void *b, size_t n)
{
	const unsigned char *x = a, *y = b;

	while (n--)
		if (*x++ != *y++)
			return false;
	return true;
}

static size_t str_len(const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n;
}

static __attribute__((noreturn)) void finish(void)
{
	puts_(failures ? "harness: FAILED\n" : "harness: all passed\n");
	__asm__ volatile("outl %0, %1" : :
			 "a"((uint32_t)(failures ? EXIT_FAIL : EXIT_PASS)),
			 "Nd"((uint16_t)EXIT_PORT));
	for (;;)
		__asm__ volatile("cli; hlt");
}

static void result(const char *check, bool ok, const char *why, uint32_t got,
		   uint32_t want)
{
	puts_(ok ? "PASS: purgatory-qemu/" : "FAIL: purgatory-qemu/");
	puts_(sc->name);
	putc_('/');
	puts_(check);
	if (!ok) {
		puts_(": ");
		puts_(why);
		puts_(" got ");
		put_hex(got);
		puts_(" want ");
		put_hex(want);
		failures++;
	}
	putc_('\n');
}

/* ---- playing the kexec tool ---- */

static const struct scenario *pick_scenario(uint32_t mbi)
{
	const uint32_t *info = phys(mbi);
	const char *cmd, *p;
	size_t i, n;

	if (!(info[0] & (1u << 2)))
		return NULL;
	cmd = phys(info[4]);
	for (p = cmd; *p; p++) {
		if (!bytes_equal(p, "scenario=", 9))
			continue;
		p += 9;
		for (n = 0; p[n] && p[n] != ' '; n++)
			;
		for (i = 0; i < sizeof(scenarios) / sizeof(scenarios[0]); i++)
			if (str_len(scenarios[i].name) == n &&
			    bytes_equal(scenarios[i].name, p, n))
				return &scenarios[i];
		return NULL;
	}
	return NULL;
}

static void add_region(struct purgatory_params *p, uint32_t start, uint32_t len)
{
	p->regions[p->nr_regions].start = start;
	p->regions[p->nr_regions].len = len;
	p->nr_regions++;
}

static void fill_pattern(uint32_t addr, size_t len, uint32_t seed)
{
	unsigned char *a = phys(addr);
	size_t i;

	for (i = 0; i < len; i++) {
		seed = seed * 1664525u + 1013904223u;
		a[i] = (unsigned char)((seed >> 24) | 1);
	}
}

static void prepare_memory(void)
{
	fill_pattern(DATA_A, DATA_A_LEN, 1);
	fill_pattern(LOW_PATTERN, BACKUP_LEN - LOW_PATTERN, 2);
	memset(phys(BACKUP_DST), BACKUP_FILL, BACKUP_AREA);
	memset(phys(CMDLINE_PAGE), SENTINEL, 0x1000);
	memcpy(phys(CMDLINE_ADDR), BASE_CMDLINE, sizeof(BASE_CMDLINE));
}

/*
 * Hash every region the way the tool does, over memory as it is now,
 * i.e. before purgatory edits the command line or fills the backup.
 */
static void set_digest(struct purgatory_params *p)
{
	struct sha256_ctx ctx;
	uint32_t i;

	sha256_init(&ctx);
	for (i = 0; i < p->nr_regions; i++)
		sha256_update(&ctx, phys((uint32_t)p->regions[i].start),
			      (size_t)p->regions[i].len);
	sha256_final(&ctx, p->sha256);
	if (sc->corrupt)
		p->sha256[17] ^= 0x01;
}

static struct purgatory_params *params_of(const struct purgatory_header *h)
{
	return phys(PURG_BASE + h->params_offset);
}

void harness_main(uint32_t mbi)
{
	struct purgatory_header h;
	struct purgatory_params *p;

	puts_("harness: start\n");
	sc = pick_scenario(mbi);
	if (!sc) {
		puts_("harness: no or unknown scenario= on the command line\n");
		failures++;
		finish();
	}

	memcpy(&h, purgatory_blob, sizeof(h));
	memcpy(phys(PURG_BASE), purgatory_blob, purgatory_blob_size);
	prepare_memory();

	p = params_of(&h);
	p->flags = sc->flags;
	p->serial_port = COM1;
	want_regs.eax = 0x0a0a0a0a;
	want_regs.ebx = 0x0b0b0b0b;
	want_regs.ecx = 0x0c0c0c0c;
	want_regs.edx = 0x0d0d0d0d;
	want_regs.esi = 0x00090000;
	want_regs.edi = 0x0e0e0e0e;
	want_regs.ebp = 0x0f0f0f0f;
	want_regs.esp = sc->default_esp ? 0 : NEXT_ESP;
	want_regs.eip = (uint32_t)(uintptr_t)landing;
	p->regs = want_regs;

	add_region(p, 0, 0x1000);		/* low memory: address 0 */
	add_region(p, DATA_A, DATA_A_LEN);
	add_region(p, BACKUP_DST, BACKUP_AREA);
	add_region(p, CMDLINE_PAGE, 0x1000);
	add_region(p, DATA_A, 0);		/* empty regions are legal */
	set_digest(p);

	p->backup_src = 0;
	p->backup_dst = BACKUP_DST;
	p->backup_len = BACKUP_LEN;
	p->cmdline_end = CMDLINE_ADDR + (uint32_t)str_len(BASE_CMDLINE);
	p->cmdline_room = sc->room;

	*(volatile uint32_t *)phys(ENTRY_ESP) = sc->jump_word;
	puts_("harness: entering purgatory at ");
	put_hex(PURG_BASE);
	putc_('\n');
	enter_purgatory(PURG_BASE, ENTRY_ESP);
}

/* ---- playing the next kernel ---- */

static void check_regs(const struct purgatory_header *h)
{
	uint32_t esp = sc->default_esp ? PURG_BASE + h->stack_top_offset
				       : want_regs.esp;

	result("eax", landed.eax == want_regs.eax, "eax", landed.eax, want_regs.eax);
	result("ebx", landed.ebx == want_regs.ebx, "ebx", landed.ebx, want_regs.ebx);
	result("ecx", landed.ecx == want_regs.ecx, "ecx", landed.ecx, want_regs.ecx);
	result("edx", landed.edx == want_regs.edx, "edx", landed.edx, want_regs.edx);
	result("esi", landed.esi == want_regs.esi, "esi", landed.esi, want_regs.esi);
	result("edi", landed.edi == want_regs.edi, "edi", landed.edi, want_regs.edi);
	result("ebp", landed.ebp == want_regs.ebp, "ebp", landed.ebp, want_regs.ebp);
	result("esp", landed.esp == esp, "esp", landed.esp, esp);
	/* IF and DF clear (we entered with DF set). */
	result("eflags", !(landed.eflags & 0x600), "IF/DF", landed.eflags, 0);
}

/*
 * Flat: base 0, limit 0xfffff with G=1, D=1, present, DPL 0, S=1, and
 * the wanted type (the accessed bit, 0x100 in the high word, masked off).
 */
static bool flat_descriptor(uint32_t lo, uint32_t hi, uint32_t type)
{
	return lo == 0x0000ffff && (hi & ~0x100u) == (0x00cf9000u | type << 8);
}

static void check_segments(const struct purgatory_header *h)
{
	const uint32_t *gdt = phys(landed.gdt_base);
	bool inside = landed.gdt_base >= PURG_BASE &&
		      landed.gdt_base < PURG_BASE + h->memsz;

	result("cs", landed.cs == 0x10, "cs", landed.cs, 0x10);
	result("ds", landed.ds == 0x18, "ds", landed.ds, 0x18);
	result("es", landed.es == 0x18, "es", landed.es, 0x18);
	result("fs", landed.fs == 0x18, "fs", landed.fs, 0x18);
	result("gs", landed.gs == 0x18, "gs", landed.gs, 0x18);
	result("ss", landed.ss == 0x18, "ss", landed.ss, 0x18);
	result("gdt-base", inside, "GDT base not in purgatory", landed.gdt_base,
	       PURG_BASE);
	result("gdt-limit", landed.gdt_limit >= 0x1f, "GDT limit", landed.gdt_limit,
	       0x1f);
	if (!inside || landed.gdt_limit < 0x1f)
		return;
	/* Type: code exec/read (0xa) at 0x10, data read/write (0x2) at 0x18. */
	result("gdt-code", flat_descriptor(gdt[4], gdt[5], 0xa),
	       "descriptor 0x10 hi", gdt[5], 0x00cf9a00);
	result("gdt-data", flat_descriptor(gdt[6], gdt[7], 0x2),
	       "descriptor 0x18 hi", gdt[7], 0x00cf9200);
}

static void check_cmdline(void)
{
	const char *line = phys(CMDLINE_ADDR);
	const unsigned char *page = phys(CMDLINE_PAGE);
	char want[sizeof(BASE_CMDLINE) + sizeof(JUMP_KEY) + 8];
	size_t base = sizeof(BASE_CMDLINE) - 1, key = sizeof(JUMP_KEY) - 1;
	size_t n = base, i, used;
	bool appended = (sc->flags & PGF_JUMP_BACK_ENTRY) && sc->jump_word &&
			sc->room >= key + 8 + 1;

	memcpy(want, BASE_CMDLINE, base);
	if (appended) {
		memcpy(want + n, JUMP_KEY, key);
		n += key;
		hex8(want + n, sc->jump_word);
		n += 8;
	}
	want[n] = '\0';
	result("cmdline", bytes_equal(line, want, n + 1), "cmdline differs",
	       (uint32_t)str_len(line), (uint32_t)n);

	/* Nothing written past the new NUL, or outside the line at all. */
	used = 0x100 + n + 1;
	for (i = 0; i < 0x1000; i++) {
		if (i >= 0x100 && i < used)
			continue;
		if (page[i] != SENTINEL)
			break;
	}
	result("cmdline-bounds", i == 0x1000,
	       "stray write at page offset (got), line ends before (want)",
	       (uint32_t)i, (uint32_t)used);
}

static void check_backup(void)
{
	const unsigned char *dst = phys(BACKUP_DST);
	const unsigned char *low = phys(0);
	size_t i;

	if (sc->flags & PGF_BACKUP) {
		for (i = 0; i < BACKUP_LEN && dst[i] == low[i]; i++)
			;
		result("backup", i == BACKUP_LEN,
		       "copy differs from low memory at offset", (uint32_t)i,
		       BACKUP_LEN);
	} else {
		for (i = 0; i < BACKUP_LEN && dst[i] == BACKUP_FILL; i++)
			;
		result("no-backup", i == BACKUP_LEN, "backup area written at",
		       (uint32_t)i, BACKUP_LEN);
	}
	for (i = BACKUP_LEN; i < BACKUP_AREA && dst[i] == BACKUP_FILL; i++)
		;
	result("backup-bounds", i == BACKUP_AREA, "written past backup_len at",
	       (uint32_t)i, BACKUP_AREA);
}

void harness_check(void)
{
	struct purgatory_header h;
	const struct purgatory_params *p;

	puts_("harness: landed\n");
	memcpy(&h, purgatory_blob, sizeof(h));
	p = params_of(&h);

	check_regs(&h);
	check_segments(&h);
	result("jump-back-entry", p->jump_back_entry == sc->jump_word,
	       "params.jump_back_entry", p->jump_back_entry, sc->jump_word);
	check_cmdline();
	check_backup();
	finish();
}
