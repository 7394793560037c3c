// SPDX-License-Identifier: GPL-2.0-only
/* The options only the x86 loaders know, and their --help lines. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "x86-arch.h"

const struct kj_arch_option arch_options[] = {
	{ NULL, false, "ELF images (-t elf-x86, elf-x86_64):" },
	{ "args-linux", false,
	  "boot a vmlinux: boot_params at %esi/%rsi (default)" },
	{ "args-none", false, "jump straight to the ELF entry, no boot data" },
	{ "args-elf", false, NULL },
	{ NULL, false, "Crash loading (-p):" },
	{ "pass-memmap-cmdline", false,
	  "give the crash kernel its memory map as\n"
	  "                        memmap= words instead of in its e820 table" },
	{ "elf32-core-headers", false,
	  " force ELF32 core headers (i386's default unless\n"
	  "                        RAM ends above 4 GiB; x86_64's is ELF64)" },
	{ "elf64-core-headers", false, " force ELF64 core headers" },
	{ NULL, false, NULL },
};

/* One word: later words win, as later options do on a command line. */
static int parse_word(struct arch_opts *ao, const char *w)
{
	if (!strcmp(w, "args-linux"))
		ao->elf_args = ELF_ARGS_LINUX;
	else if (!strcmp(w, "args-none"))
		ao->elf_args = ELF_ARGS_NONE;
	else if (!strcmp(w, "args-elf"))
		ao->elf_args = ELF_ARGS_ELF;
	else if (!strcmp(w, "pass-memmap-cmdline"))
		ao->pass_memmap_cmdline = true;
	else if (!strcmp(w, "elf32-core-headers"))
		ao->elf_class = 32;
	else if (!strcmp(w, "elf64-core-headers"))
		ao->elf_class = 64;
	else
		return -EINVAL;
	return 0;
}

int arch_parse_opts(const struct kj_ctx *ctx, const char *const *words,
		    struct arch_opts **out)
{
	struct arch_opts *ao = calloc(1, sizeof(*ao));

	*out = NULL;
	if (!ao) {
		kj_err(ctx, "options: out of memory");
		return -ENOMEM;
	}
	for (; words && *words; words++) {
		if (parse_word(ao, *words)) {
			kj_err(ctx, "--%s: not an option of the x86 loaders",
			       *words);
			free(ao);
			return -EINVAL;
		}
	}
	*out = ao;
	return 0;
}

void arch_opts_free(struct arch_opts *ao)
{
	free(ao);
}
