/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Purgatory: the code that runs between the old kernel and the new one.
 * entry.S gives us a flat GDT and a stack; here we check the loaded image,
 * save low memory for a crash kernel and tell the next kernel where to
 * jump back to.  Returning means "go": entry.S then loads params->regs.
 */
#include "asm-offsets.h"	/* its _Static_asserts are checked here */
#include "hw.h"
#include "purgatory.h"
#include "purgatory-arch.h"

/*
 * Filled in by the tool in its copy of the blob before kexec_load; the
 * header's params_offset points here.  Must be in the file image (.data),
 * never in .bss, so it is initialised rather than left zero.
 */
struct purgatory_params purgatory_params
	__attribute__((section(".data.params"), aligned(16), used)) = {
	.magic = PURGATORY_MAGIC,
};

static void check_image(const struct purgatory_params *p,
			const struct console *con)
{
	switch (verify_regions(p)) {
	case VERIFY_OK:
		con_say(con, "purgatory: sha256 ok (%u regions)\n", p->nr_regions);
		return;
	case VERIFY_BAD_REGIONS:
		con_err(con, "purgatory: bad hash regions, halting\n");
		break;
	case VERIFY_MISMATCH:
		con_err(con, "purgatory: sha256 mismatch, halting\n");
		break;
	}
	halt_forever();
}

static void copy_backup(const struct purgatory_params *p,
			const struct console *con)
{
	con_say(con, "purgatory: backup 0x%x -> 0x%x, 0x%x bytes\n",
		p->backup_src, p->backup_dst, p->backup_len);
	memmove(phys_ptr(p->backup_dst), phys_ptr(p->backup_src),
		p->backup_len);
}

static void add_jump_back_entry(const struct purgatory_params *p,
				const struct console *con)
{
	switch (append_jump_back_entry(p)) {
	case CMDLINE_OK:
		con_say(con, "purgatory: kexec_jump_back_entry=0x%x\n",
			p->jump_back_entry);
		break;
	case CMDLINE_NO_ROOM:
		con_say(con, "purgatory: no room for kexec_jump_back_entry\n");
		break;
	case CMDLINE_NO_ADDR:
		con_say(con, "purgatory: no cmdline_end, jump back entry not passed\n");
		break;
	case CMDLINE_NOT_NUL:
		con_say(con, "purgatory: cmdline_end is not a NUL, cmdline untouched\n");
		break;
	}
}

void purgatory_main(struct purgatory_params *p)
{
	struct console con = {
		.port = p->serial_port,
		.verbose = (p->flags & PGF_SERIAL) != 0,
	};

	con_say(&con, "purgatory: entered, flags 0x%x, jump back 0x%x\n",
		p->flags, p->jump_back_entry);

	if (p->flags & PGF_VERIFY)
		check_image(p, &con);
	if (p->flags & PGF_BACKUP)
		copy_backup(p, &con);
	if ((p->flags & PGF_JUMP_BACK_ENTRY) && p->jump_back_entry)
		add_jump_back_entry(p, &con);

	arch_say_start(&con, &p->regs);
}
