/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Append " kexec_jump_back_entry=0x%08x" to the next kernel's command
 * line, so user space there can find the way back (it is only text: no
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
	char text[KEY_LEN + HEX32_LEN + 1];
	char *end;

	/* Physical 0 is valid RAM, but never the end of a command line. */
	if (!p->cmdline_end)
		return CMDLINE_NO_ADDR;
	if (p->cmdline_room < sizeof(text))
		return CMDLINE_NO_ROOM;

	end = phys_ptr(p->cmdline_end);
	/* Not at the NUL: the tool and we disagree; leave the line alone. */
	if (*end != '\0')
		return CMDLINE_NOT_NUL;

	memcpy(text, JUMP_BACK_KEY, KEY_LEN);
	fmt_hex32(text + KEY_LEN, p->jump_back_entry);
	text[sizeof(text) - 1] = '\0';
	memcpy(end, text, sizeof(text));
	return CMDLINE_OK;
}
