/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Append " kexec_jump_back_entry=0x%08x" (0x%016x when the address is
 * above 4 GiB) to the next kernel's command line, so user space there can find the way back (it is only text: no
 * kernel parses it).  This runs after the hash check, which covered the
 * command line as the tool wrote it.
 */
#include "hw.h"
#include "purgatory.h"

#define JUMP_BACK_KEY	" kexec_jump_back_entry="
#define KEY_LEN		(sizeof(JUMP_BACK_KEY) - 1)

/*
 * cmdline_room is taken as the number of bytes we may write starting at
 * cmdline_end, i.e. the new terminating NUL must fit inside it too.
 */
enum cmdline_result append_jump_back_entry(const struct purgatory_params *p)
{
	char text[KEY_LEN + HEX32_LEN + HEX32_LEN - 2 + 1];
	size_t len = KEY_LEN + HEX32_LEN;
	char *end;

	/* Physical 0 is valid RAM, but never the end of a command line. */
	if (!p->cmdline_end)
		return CMDLINE_NO_ADDR;
	if (p->jump_back_entry_hi)
		len += HEX32_LEN - 2;
	if (p->cmdline_room < len + 1)
		return CMDLINE_NO_ROOM;

	end = phys_ptr(p->cmdline_end);
	/* Not at the NUL: the tool and we disagree; leave the line alone. */
	if (*end != '\0')
		return CMDLINE_NOT_NUL;

	memcpy(text, JUMP_BACK_KEY, KEY_LEN);
	if (p->jump_back_entry_hi) {
		char lo[HEX32_LEN];

		/* "0x" and the high digits, then the low digits */
		fmt_hex32(text + KEY_LEN, p->jump_back_entry_hi);
		fmt_hex32(lo, p->jump_back_entry);
		memcpy(text + KEY_LEN + HEX32_LEN, lo + 2, HEX32_LEN - 2);
	} else {
		fmt_hex32(text + KEY_LEN, p->jump_back_entry);
	}
	text[len] = '\0';
	memcpy(end, text, len + 1);
	return CMDLINE_OK;
}
