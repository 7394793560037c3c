/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Unit test for purgatory/cmdline.c: the " kexec_jump_back_entry=" that
 * purgatory appends to the next kernel's command line, built for the host
 * with purgatory's own string helpers (renamed, see Makefile.inc) and a
 * hw.h whose physical memory is test_phys_mem.  The case above 4 GiB
 * (16 hex digits, the x86_64 purgatory's jump_back_entry_hi) cannot
 * happen in the 512 MiB QEMU guests, so it is proved here.
 *
 * Prints "PASS: purgatory-cmdline/<case>" or "FAIL: ...: <why>" per case
 * and exits non-zero if anything failed.
 */
#include <stdio.h>
#include <string.h>

#include "purgatory.h"

#define LINE_AT	0x100		/* where the command line starts */
#define MEM_SIZE	0x400

unsigned char test_phys_mem[MEM_SIZE];

static int failures;

static void report(const char *name, int ok, const char *why)
{
	if (ok) {
		printf("PASS: purgatory-cmdline/%s\n", name);
	} else {
		printf("FAIL: purgatory-cmdline/%s: %s\n", name, why);
		failures++;
	}
}

/* A command line "console=ttyS0" at LINE_AT, and params pointing at its NUL. */
static void setup(struct purgatory_params *p, uint32_t room)
{
	static const char line[] = "console=ttyS0";

	memset(test_phys_mem, 0x5a, sizeof(test_phys_mem));
	memcpy(test_phys_mem + LINE_AT, line, sizeof(line));
	memset(p, 0, sizeof(*p));
	p->cmdline_end = LINE_AT + sizeof(line) - 1;
	p->cmdline_room = room;
}

static const char *line_now(void)
{
	return (const char *)test_phys_mem + LINE_AT;
}

static void check(const char *name, struct purgatory_params *p,
		  enum cmdline_result want_rc, const char *want_line)
{
	enum cmdline_result rc = append_jump_back_entry(p);
	char why[256];

	snprintf(why, sizeof(why), "rc %d (want %d), line \"%s\" (want \"%s\")",
		 rc, want_rc, line_now(), want_line);
	report(name, rc == want_rc && !strcmp(line_now(), want_line), why);
}

int main(void)
{
	struct purgatory_params p;
	size_t len16 = strlen(" kexec_jump_back_entry=0x0000000123456000");

	setup(&p, 64);
	p.jump_back_entry = 0x0009f000;
	check("below-4g", &p, CMDLINE_OK,
	      "console=ttyS0 kexec_jump_back_entry=0x0009f000");

	setup(&p, 64);
	p.jump_back_entry = 0x23456000;
	p.jump_back_entry_hi = 0x1;
	check("above-4g", &p, CMDLINE_OK,
	      "console=ttyS0 kexec_jump_back_entry=0x0000000123456000");

	setup(&p, 64);
	p.jump_back_entry = 0xfffff000;
	p.jump_back_entry_hi = 0xabcdef01;
	check("above-4g-all-digits", &p, CMDLINE_OK,
	      "console=ttyS0 kexec_jump_back_entry=0xabcdef01fffff000");

	/* exactly enough room for 16 digits and the NUL */
	setup(&p, len16 + 1);
	p.jump_back_entry = 0x23456000;
	p.jump_back_entry_hi = 0x1;
	check("above-4g-exact-room", &p, CMDLINE_OK,
	      "console=ttyS0 kexec_jump_back_entry=0x0000000123456000");

	/* room for 8 digits is not room for 16: the line stays as it was */
	setup(&p, len16);
	p.jump_back_entry = 0x23456000;
	p.jump_back_entry_hi = 0x1;
	check("above-4g-no-room", &p, CMDLINE_NO_ROOM, "console=ttyS0");
	report("above-4g-no-room-untouched",
	       test_phys_mem[p.cmdline_end + 1] == 0x5a,
	       "wrote past the command line's NUL");

	setup(&p, 64);
	p.cmdline_end = 0;
	check("no-address", &p, CMDLINE_NO_ADDR, "console=ttyS0");

	setup(&p, 64);
	p.cmdline_end -= 1;		/* at the '0', not the NUL */
	check("not-at-nul", &p, CMDLINE_NOT_NUL, "console=ttyS0");

	return failures ? 1 : 0;
}
