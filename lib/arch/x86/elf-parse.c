// SPDX-License-Identifier: GPL-2.0-only
/*
 * elf_exec_parse(): an i386 or x86_64 executable as the ELF loader takes
 * it, from the headers elf-read.c reads (System V ABI and its i386 and
 * x86-64 supplements).
 * Every read is bounds-checked against len; sums are done in 64 bits.
 */
#include <string.h>

#include "elf-exec.h"
#include "elf-read.h"

#define ET_EXEC		2
#define EM_386		3
#define EM_486		6
#define EM_X86_64	62
#define PT_LOAD		1
#define PT_DYNAMIC	2
#define PT_INTERP	3
#define PT_TLS		7
#define PT_GNU_RELRO	0x6474e552

/* Where purgatory reaches, whatever the word size. */
#define PHYS_LIMIT	0x100000000ull

const struct elf_exec_want elf_exec_i386 = { "i386", 32, EM_386 };
const struct elf_exec_want elf_exec_x86_64 = { "x86_64", 64, EM_X86_64 };

static int check_ehdr(const struct elf_hdr *eh,
		      const struct elf_exec_want *want, char *why,
		      size_t whylen)
{
	if (eh->elf_class != want->elf_class)
		return elf_reject(why, whylen, "not ELF%d (class %d)",
				  want->elf_class, eh->elf_class == 64 ? 2 :
				  eh->elf_class == 32 ? 1 : 0);
	if (eh->type != ET_EXEC)
		return elf_reject(why, whylen, "not an executable (e_type %u)",
				  eh->type);
	if (eh->machine != want->machine &&
	    !(want->machine == EM_386 && eh->machine == EM_486))
		return elf_reject(why, whylen, "not an %s image (e_machine %u)",
				  want->name, eh->machine);
	return 0;
}

static int add_load(const char *buf, size_t len, const struct elf_phdr *ph,
		    struct elf_exec_info *info, unsigned int idx, char *why,
		    size_t whylen)
{
	struct elf_exec_load *l;

	if (ph->filesz > ph->memsz)
		return elf_reject(why, whylen, "PT_LOAD %u: filesz 0x%llx > memsz 0x%llx",
				  idx, (unsigned long long)ph->filesz,
				  (unsigned long long)ph->memsz);
	if (!ph->memsz)
		return 0;
	if (ph->filesz && (ph->offset > len || ph->filesz > len - ph->offset))
		return elf_reject(why, whylen, "PT_LOAD %u: bytes 0x%llx+0x%llx lie outside the file",
				  idx, (unsigned long long)ph->offset,
				  (unsigned long long)ph->filesz);
	/* ELF64 fields are 64 bits wide: no sum that can wrap */
	if (ph->paddr > PHYS_LIMIT || ph->memsz > PHYS_LIMIT - ph->paddr)
		return elf_reject(why, whylen, "PT_LOAD %u: 0x%llx+0x%llx runs past 4 GiB",
				  idx, (unsigned long long)ph->paddr,
				  (unsigned long long)ph->memsz);
	if (info->nr_loads == ELF_EXEC_MAX_LOADS)
		return elf_reject(why, whylen, "more than %d PT_LOAD segments",
				  ELF_EXEC_MAX_LOADS);
	l = &info->load[info->nr_loads++];
	l->paddr = ph->paddr;
	l->memsz = ph->memsz;
	l->data = ph->filesz ? buf + ph->offset : NULL;
	l->filesz = (size_t)ph->filesz;
	return 0;
}

static int check_loads(const struct elf_exec_info *info, char *why,
		       size_t whylen)
{
	unsigned int i, j;

	if (!info->nr_loads)
		return elf_reject(why, whylen, "no PT_LOAD segments");
	for (i = 0; i < info->nr_loads; i++) {
		const struct elf_exec_load *a = &info->load[i];

		for (j = 0; j < i; j++) {
			const struct elf_exec_load *b = &info->load[j];

			if (a->paddr < b->paddr + b->memsz &&
			    b->paddr < a->paddr + a->memsz)
				return elf_reject(why, whylen, "PT_LOADs at 0x%llx and 0x%llx overlap",
					      (unsigned long long)b->paddr,
					      (unsigned long long)a->paddr);
		}
	}
	for (i = 0; i < info->nr_loads; i++)
		if (info->entry >= info->load[i].paddr &&
		    info->entry - info->load[i].paddr < info->load[i].memsz)
			return 0;
	return elf_reject(why, whylen, "entry point 0x%llx is outside every PT_LOAD",
		      (unsigned long long)info->entry);
}

/*
 * A program for user space, not for bare metal: nothing at boot runs a
 * dynamic linker, sets up TLS or write-protects relocations.
 */
static int check_user_space(uint32_t type, char *why, size_t whylen)
{
	const char *what = type == PT_INTERP ? "PT_INTERP" :
			   type == PT_DYNAMIC ? "PT_DYNAMIC" :
			   type == PT_TLS ? "PT_TLS" :
			   type == PT_GNU_RELRO ? "PT_GNU_RELRO" : NULL;

	if (!what)
		return 0;
	return elf_reject(why, whylen, "a user-space program (has %s), not a kernel",
		      what);
}

int elf_exec_parse(const char *buf, size_t len,
		   const struct elf_exec_want *want,
		   struct elf_exec_info *info, char *why, size_t whylen)
{
	struct elf_hdr eh;
	struct elf_phdr ph;
	unsigned int i;
	int ret;

	memset(info, 0, sizeof(*info));
	ret = elf_read_ehdr(buf, len, &eh, why, whylen);
	if (!ret)
		ret = check_ehdr(&eh, want, why, whylen);
	if (!ret)
		ret = elf_check_phdrs(&eh, len, why, whylen);
	if (ret)
		return ret;
	info->entry = eh.entry;
	info->machine = eh.machine;
	for (i = 0; i < eh.phnum; i++) {
		elf_read_phdr(&eh, buf + eh.phoff, i, &ph);
		ret = check_user_space(ph.type, why, whylen);
		if (ret)
			return ret;
		if (ph.type != PT_LOAD)
			continue;
		ret = add_load(buf, len, &ph, info, i, why, whylen);
		if (ret)
			return ret;
	}
	return check_loads(info, why, whylen);
}
