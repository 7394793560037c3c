// SPDX-License-Identifier: GPL-2.0-only
/*
 * kexec_test: a tiny image that checks how it was entered.
 *
 * It runs with paging off at its link address, right after kexec, and
 * reports on the serial port 0x3f8 (115200 8N1): the registers at entry,
 * one line per check, then exactly one "kexec_test: PASS" or
 * "kexec_test: FAIL: <reason>".
 *
 * Two ways in, told apart by %esi at entry:
 *  - linux: loaded with --args-linux and entered through purgatory, as a
 *    Linux kernel would be (32-bit boot protocol, %esi = boot_params);
 *  - none:  loaded with --args-none and entered straight from the
 *    kernel's relocate_kernel.  %esi is 0 there, or 1 for a
 *    preserve-context call (relocate_kernel's preserve_context argument):
 *    any %esi below 4 KiB cannot be a boot_params address.
 *
 * Loaded with --load-preserve-context, it then returns to the kernel that
 * ran it (see entry.S) and, each time that kernel runs kexec -e again,
 * says "kexec_test: resumed n=N" and returns again.
 */
#include <stddef.h>
#include <stdint.h>

/* Filled in by entry.S before anything is touched; offsets are ABI. */
struct kt_entry_state {
	uint32_t eax, ebx, ecx, edx, esi, edi, ebp, esp;	/* 0 */
	uint32_t eflags;					/* 32 */
	uint32_t stack0;					/* 36 */
	uint32_t cr0;						/* 40 */
	uint16_t cs, ds, es, ss, fs, gs;			/* 44 */
	uint16_t gdt_limit;					/* 56 */
	uint32_t gdt_base;					/* 58 */
	uint16_t idt_limit;					/* 62 */
	uint32_t idt_base;					/* 64 */
} __attribute__((packed));

_Static_assert(offsetof(struct kt_entry_state, eflags) == 32, "eflags");
_Static_assert(offsetof(struct kt_entry_state, cs) == 44, "cs");
_Static_assert(offsetof(struct kt_entry_state, gdt_limit) == 56, "gdtr");
_Static_assert(offsetof(struct kt_entry_state, idt_limit) == 62, "idtr");

struct kt_entry_state kt_entry;

extern char __image_start[], __image_end[];
void kt_main(void) __attribute__((noreturn));
void kt_load_gdt(void);
uint32_t kt_jump_back(uint32_t entry);

#define CR0_PE		(1u << 0)
#define CR0_PG		(1u << 31)
#define EFLAGS_IF	(1u << 9)

/* Access-rights bits as lar returns them (descriptor bits 40..55 in 8..23). */
#define AR_ACCESSED	(1u << 8)
#define AR_RW		(1u << 9)	/* readable code / writable data */
#define AR_CODE		(1u << 11)
#define AR_S		(1u << 12)	/* code or data, not system */
#define AR_P		(1u << 15)
#define AR_DB		(1u << 22)	/* 32-bit default size */
#define AR_G		(1u << 23)

/* boot_params (linux:Documentation/x86/zero-page.rst, boot.rst) */
#define BP_E820_ENTRIES	0x1e8
#define BP_BOOT_FLAG	0x1fe
#define BP_HEADER	0x202
#define BP_CMDLINE_PTR	0x228
#define BP_E820_TABLE	0x2d0
#define E820_MAX	128
#define E820_RAM	1
#define CMDLINE_MAX	4096

/* ------------------------------------------------------------ serial */

#define COM1		0x3f8
#define UART_THR	0
#define UART_IER	1
#define UART_DLL	0
#define UART_DLM	1
#define UART_FCR	2
#define UART_LCR	3
#define UART_MCR	4
#define UART_LSR	5
#define LSR_THRE	0x20

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

static void serial_init(void)
{
	outb(COM1 + UART_IER, 0);		/* no interrupts */
	outb(COM1 + UART_LCR, 0x80);		/* DLAB */
	outb(COM1 + UART_DLL, 1);		/* 115200 / 1 */
	outb(COM1 + UART_DLM, 0);
	outb(COM1 + UART_LCR, 0x03);		/* 8N1 */
	outb(COM1 + UART_FCR, 0x07);		/* FIFO on, both cleared */
	outb(COM1 + UART_MCR, 0x03);		/* DTR, RTS */
}

static void serial_putc(char c)
{
	unsigned int spin;

	/* Bounded: a missing UART must not hang the test. */
	for (spin = 0; spin < 1000000; spin++)
		if (inb(COM1 + UART_LSR) & LSR_THRE)
			break;
	outb(COM1 + UART_THR, (uint8_t)c);
}

static void puts_raw(const char *s)
{
	for (; *s; s++) {
		if (*s == '\n')
			serial_putc('\r');
		serial_putc(*s);
	}
}

static void put_hex(uint32_t v)
{
	static const char digits[] = "0123456789abcdef";
	int shift;

	puts_raw("0x");
	for (shift = 28; shift >= 0; shift -= 4)
		serial_putc(digits[(v >> shift) & 0xf]);
}

static void put_dec(uint32_t v)
{
	char buf[11];
	int i = 10;

	buf[i] = '\0';
	do {
		buf[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	puts_raw(&buf[i]);
}

/* " name=0x........" */
static void put_field(const char *name, uint32_t v)
{
	serial_putc(' ');
	puts_raw(name);
	serial_putc('=');
	put_hex(v);
}

/* ------------------------------------------------------------ checks */

struct kt_result {
	const char *first_failure;
	unsigned int checks;
};

/*
 * One line: "kexec_test: check NAME: ok|FAIL (DETAIL[, found VALUE])";
 * has_value says whether VALUE is worth showing.
 */
static int check_found(struct kt_result *r, int ok, const char *name,
		       const char *detail, int has_value, uint32_t value)
{
	r->checks++;
	puts_raw("kexec_test: check ");
	puts_raw(name);
	puts_raw(ok ? ": ok (" : ": FAIL (");
	puts_raw(detail);
	if (has_value) {
		puts_raw(", found ");
		put_hex(value);
	}
	puts_raw(")\n");
	if (!ok && !r->first_failure)
		r->first_failure = name;
	return ok;
}

static int check(struct kt_result *r, int ok, const char *name, const char *detail)
{
	return check_found(r, ok, name, detail, 0, 0);
}

static int lar(uint16_t sel, uint32_t *ar)
{
	uint8_t ok;

	__asm__ volatile("larl %2, %0; setz %1"
			 : "=r"(*ar), "=q"(ok) : "r"((uint32_t)sel) : "cc");
	return ok;
}

static int lsl(uint16_t sel, uint32_t *limit)
{
	uint8_t ok;

	__asm__ volatile("lsll %2, %0; setz %1"
			 : "=r"(*limit), "=q"(ok) : "r"((uint32_t)sel) : "cc");
	return ok;
}

static uint8_t rd8(uint32_t addr)
{
	return *(const volatile uint8_t *)addr;
}

static uint16_t rd16(uint32_t addr)
{
	return *(const volatile uint16_t *)addr;
}

static uint32_t rd32(uint32_t addr)
{
	return *(const volatile uint32_t *)addr;
}

static void print_entry_state(const char *mode)
{
	const struct kt_entry_state *e = &kt_entry;

	puts_raw("\nkexec_test: start mode=");
	puts_raw(mode);
	puts_raw(" image=");
	put_hex((uint32_t)__image_start);
	serial_putc('-');
	put_hex((uint32_t)__image_end);
	puts_raw("\nkexec_test: regs");
	put_field("eax", e->eax);
	put_field("ebx", e->ebx);
	put_field("ecx", e->ecx);
	put_field("edx", e->edx);
	put_field("esi", e->esi);
	put_field("edi", e->edi);
	put_field("ebp", e->ebp);
	put_field("esp", e->esp);
	put_field("eflags", e->eflags);
	put_field("0(%esp)", e->stack0);
	puts_raw("\nkexec_test: cpu");
	put_field("cr0", e->cr0);
	put_field("cs", e->cs);
	put_field("ds", e->ds);
	put_field("es", e->es);
	put_field("ss", e->ss);
	put_field("fs", e->fs);
	put_field("gs", e->gs);
	puts_raw(" gdtr=");
	put_hex(e->gdt_base);
	serial_putc('/');
	put_hex(e->gdt_limit);
	puts_raw(" idtr=");
	put_hex(e->idt_base);
	serial_putc('/');
	put_hex(e->idt_limit);
	puts_raw("\n");
}

static void check_cpu(struct kt_result *r)
{
	const struct kt_entry_state *e = &kt_entry;

	check(r, (e->cr0 & CR0_PE) && !(e->cr0 & CR0_PG), "cr0",
	      "protected mode, paging off");
	check(r, !(e->eflags & EFLAGS_IF), "eflags", "interrupts off");
}

/* A flat 4 GiB segment of the given kind, 32-bit, present. */
static int flat_segment(uint16_t sel, int code)
{
	uint32_t ar, limit;
	uint32_t want = AR_S | AR_P | AR_DB | AR_RW | (code ? AR_CODE : 0);

	if (!lar(sel, &ar) || !lsl(sel, &limit))
		return 0;
	return (ar & (want | AR_CODE)) == want && limit == 0xffffffffu;
}

static void check_segments(struct kt_result *r)
{
	const struct kt_entry_state *e = &kt_entry;

	check(r, flat_segment(e->cs, 1), "cs",
	      "flat 32-bit code, limit 0xffffffff");
	check(r, flat_segment(e->ds, 0), "ds",
	      "flat 32-bit data, limit 0xffffffff");
	check(r, e->es == e->ds && e->ss == e->ds, "es-ss", "same selector as ds");
}

static int e820_covers_image(uint32_t bp, uint32_t n)
{
	uint64_t lo = (uint32_t)__image_start, hi = (uint32_t)__image_end;
	uint32_t i, ent;

	for (i = 0; i < n; i++) {
		ent = bp + BP_E820_TABLE + i * 20;
		uint64_t addr = rd32(ent) | (uint64_t)rd32(ent + 4) << 32;
		uint64_t size = rd32(ent + 8) | (uint64_t)rd32(ent + 12) << 32;

		if (rd32(ent + 16) == E820_RAM && addr <= lo && hi <= addr + size)
			return 1;
	}
	return 0;
}

/* Length of the string at addr, or -1 if no NUL within max bytes. */
static int bounded_len(uint32_t addr, int max)
{
	int i;

	for (i = 0; i < max; i++)
		if (!rd8(addr + i))
			return i;
	return -1;
}

static uint32_t check_boot_params(struct kt_result *r)
{
	const struct kt_entry_state *e = &kt_entry;
	uint32_t bp = e->esi, n, cl;
	int len;

	check(r, !e->ebx && !e->ebp && !e->edi, "regs",
	      "ebx=ebp=edi=0, boot protocol");
	check_found(r, rd16(bp + BP_BOOT_FLAG) == 0xaa55, "boot_flag",
		    "esi: boot_params, 0xaa55 at 0x1fe", 1,
		    rd16(bp + BP_BOOT_FLAG));
	/* The rest is read only from what looks like a setup header. */
	if (!check_found(r, rd32(bp + BP_HEADER) == 0x53726448, "header",
			 "\"HdrS\" at 0x202", 1, rd32(bp + BP_HEADER)))
		return 0;
	n = rd8(bp + BP_E820_ENTRIES);
	if (check_found(r, n >= 1 && n <= E820_MAX, "e820-entries",
			"1..128 at 0x1e8", 1, n))
		check(r, e820_covers_image(bp, n), "e820-image",
		      "a RAM entry covers the image");
	cl = rd32(bp + BP_CMDLINE_PTR);
	len = cl ? bounded_len(cl, CMDLINE_MAX) : -1;
	if (!check_found(r, len >= 0, "cmdline",
			 "cmdline_ptr at 0x228: NUL within 4 KiB", 1, cl))
		return 0;
	puts_raw("kexec_test: cmdline: ");
	puts_raw((const char *)cl);
	puts_raw("\n");
	return cl;
}

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n';
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* "0x" and 1..8 hex digits up to the end of the word, else 0. */
static uint32_t parse_hex_word(const char *s)
{
	uint32_t v = 0;
	int d, n;

	if (s[0] != '0' || (s[1] | 0x20) != 'x')
		return 0;
	for (s += 2, n = 0; *s && !is_space(*s); s++, n++) {
		d = hex_digit(*s);
		if (d < 0 || n == 8)
			return 0;
		v = v << 4 | (uint32_t)d;
	}
	return v;
}

/* The value of the word "kexec_jump_back_entry=0x..." in cmdline, or 0. */
static uint32_t jump_back_from_cmdline(const char *s)
{
	static const char key[] = "kexec_jump_back_entry=";
	size_t i;

	while (*s) {
		while (is_space(*s))
			s++;
		for (i = 0; key[i] && s[i] == key[i]; i++)
			;
		if (!key[i])
			return parse_hex_word(s + i);
		while (*s && !is_space(*s))
			s++;
	}
	return 0;
}

static void __attribute__((noreturn)) halt(void)
{
	for (;;)
		__asm__ volatile("cli; hlt");
}

void kt_main(void)
{
	const struct kt_entry_state *e = &kt_entry;
	struct kt_result r = { 0, 0 };
	uint32_t back = 0, cl, n;
	int none = e->esi < 0x1000;

	serial_init();
	print_entry_state(none ? "none" : "linux");
	if (none) {
		/*
		 * relocate_kernel zeroes every register but esp before its
		 * ret; for a preserve-context call it uses call instead and
		 * 0(%esp) is its return address.
		 */
		if (!e->stack0)
			check(&r, !e->eax && !e->ebx &&
			      !e->ecx && !e->edx && !e->esi && !e->edi &&
			      !e->ebp, "regs", "all zero but esp");
		back = e->stack0;
		check_cpu(&r);
	} else {
		check_cpu(&r);
		check_segments(&r);
		cl = check_boot_params(&r);
		if (cl)
			back = jump_back_from_cmdline((const char *)cl);
	}
	kt_load_gdt();
	if (back) {
		puts_raw("kexec_test: jump back to ");
		put_hex(back);
		puts_raw(none ? " (0(%esp) at entry)\n" : " (kexec_jump_back_entry)\n");
	}
	if (r.first_failure) {
		puts_raw("kexec_test: FAIL: ");
		puts_raw(r.first_failure);
		puts_raw("\n");
	} else {
		puts_raw("kexec_test: PASS\n");
	}
	if (!back)
		halt();
	puts_raw("kexec_test: jump back with CS=0x10 DS=0x18\n");
	for (n = 1;; n++) {
		back = kt_jump_back(back);
		puts_raw("kexec_test: resumed n=");
		put_dec(n);
		puts_raw("\n");
	}
}
