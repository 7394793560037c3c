// SPDX-License-Identifier: GPL-2.0-only
/*
 * elf_exec_parse(): the ELF32 header and program headers of an i386
 * executable, from the System V ABI and its i386 supplement.  Every read
 * is bounds-checked against len; sums are done in 64 bits, where 32-bit
 * file fields cannot overflow.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "elf-exec.h"

/* Elf32_Ehdr */
#define EH_CLASS	4	/* e_ident[EI_CLASS] */
#define EH_DATA		5	/* e_ident[EI_DATA] */
#define EH_IDVERSION	6	/* e_ident[EI_VERSION] */
#define EH_TYPE		16
#define EH_MACHINE	18
#define EH_VERSION	20
#define EH_ENTRY	24
#define EH_PHOFF	28
#define EH_PHENTSIZE	42
#define EH_PHNUM	44
#define EH_SIZE		52

/* Elf32_Phdr */
#define PH_TYPE		0
#define PH_OFFSET	4
#define PH_PADDR	12
#define PH_FILESZ	16
#define PH_MEMSZ	20
#define PH_SIZE		32

#define ELFCLASS32	1
#define ELFDATA2LSB	1
#define EV_CURRENT	1
#define ET_EXEC		2
#define EM_386		3
#define EM_486		6
#define PT_LOAD		1
#define PT_DYNAMIC	2
#define PT_INTERP	3
#define PT_TLS		7
#define PT_GNU_RELRO	0x6474e552
#define PN_XNUM		0xffff

#define PHYS_LIMIT	0x100000000ull	/* ELF32: 32-bit physical addresses */

static uint16_t rd16(const char *p)
{
	const unsigned char *b = (const unsigned char *)p;

	return (uint16_t)(b[0] | b[1] << 8);
}

static uint32_t rd32(const char *p)
{
	const unsigned char *b = (const unsigned char *)p;

	return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
	       (uint32_t)b[3] << 24;
}

__attribute__((format(printf, 3, 4)))
static int reject(char *why, size_t whylen, const char *fmt, ...)
{
	va_list ap;

	if (why && whylen) {
		va_start(ap, fmt);
		vsnprintf(why, whylen, fmt, ap);
		va_end(ap);
	}
	return -1;
}

static int check_ehdr(const char *buf, size_t len, char *why, size_t whylen)
{
	uint16_t machine;

	if (len < 4 || memcmp(buf, "\177ELF", 4))
		return reject(why, whylen, "no ELF magic");
	if (len < EH_SIZE)
		return reject(why, whylen, "truncated: %zu bytes, the ELF header needs %d",
			      len, EH_SIZE);
	if (buf[EH_CLASS] != ELFCLASS32)
		return reject(why, whylen, "not ELF32 (class %u)",
			      (unsigned char)buf[EH_CLASS]);
	if (buf[EH_DATA] != ELFDATA2LSB)
		return reject(why, whylen, "not little-endian (data %u)",
			      (unsigned char)buf[EH_DATA]);
	if (buf[EH_IDVERSION] != EV_CURRENT ||
	    rd32(buf + EH_VERSION) != EV_CURRENT)
		return reject(why, whylen, "unknown ELF version");
	if (rd16(buf + EH_TYPE) != ET_EXEC)
		return reject(why, whylen, "not an executable (e_type %u)",
			      rd16(buf + EH_TYPE));
	machine = rd16(buf + EH_MACHINE);
	if (machine != EM_386 && machine != EM_486)
		return reject(why, whylen, "not an i386 image (e_machine %u)",
			      machine);
	return 0;
}

/* The program header table: inside the file, of usable entries. */
static int check_phdrs(const char *buf, size_t len, char *why, size_t whylen)
{
	uint64_t phoff = rd32(buf + EH_PHOFF);
	uint16_t entsize = rd16(buf + EH_PHENTSIZE);
	uint16_t num = rd16(buf + EH_PHNUM);

	if (!num)
		return reject(why, whylen, "no program headers");
	if (num == PN_XNUM)
		return reject(why, whylen, "extended program header numbering is not supported");
	if (entsize < PH_SIZE)
		return reject(why, whylen, "program header size %u, want %d",
			      entsize, PH_SIZE);
	if (phoff > len || (uint64_t)num * entsize > len - phoff)
		return reject(why, whylen, "program headers (%u at 0x%llx) lie outside the file",
			      num, (unsigned long long)phoff);
	return 0;
}

static int add_load(const char *buf, size_t len, const char *ph,
		    struct elf_exec_info *info, unsigned int idx, char *why,
		    size_t whylen)
{
	uint64_t off = rd32(ph + PH_OFFSET);
	uint64_t paddr = rd32(ph + PH_PADDR);
	uint64_t filesz = rd32(ph + PH_FILESZ);
	uint64_t memsz = rd32(ph + PH_MEMSZ);
	struct elf_exec_load *l;

	if (filesz > memsz)
		return reject(why, whylen, "PT_LOAD %u: filesz 0x%llx > memsz 0x%llx",
			      idx, (unsigned long long)filesz,
			      (unsigned long long)memsz);
	if (!memsz)
		return 0;
	if (filesz && (off > len || filesz > len - off))
		return reject(why, whylen, "PT_LOAD %u: bytes 0x%llx+0x%llx lie outside the file",
			      idx, (unsigned long long)off,
			      (unsigned long long)filesz);
	if (paddr + memsz > PHYS_LIMIT)
		return reject(why, whylen, "PT_LOAD %u: 0x%llx+0x%llx runs past 4 GiB",
			      idx, (unsigned long long)paddr,
			      (unsigned long long)memsz);
	if (info->nr_loads == ELF_EXEC_MAX_LOADS)
		return reject(why, whylen, "more than %d PT_LOAD segments",
			      ELF_EXEC_MAX_LOADS);
	l = &info->load[info->nr_loads++];
	l->paddr = paddr;
	l->memsz = memsz;
	l->data = filesz ? buf + off : NULL;
	l->filesz = (size_t)filesz;
	return 0;
}

static int check_loads(const struct elf_exec_info *info, char *why,
		       size_t whylen)
{
	unsigned int i, j;

	if (!info->nr_loads)
		return reject(why, whylen, "no PT_LOAD segments");
	for (i = 0; i < info->nr_loads; i++) {
		const struct elf_exec_load *a = &info->load[i];

		for (j = 0; j < i; j++) {
			const struct elf_exec_load *b = &info->load[j];

			if (a->paddr < b->paddr + b->memsz &&
			    b->paddr < a->paddr + a->memsz)
				return reject(why, whylen, "PT_LOADs at 0x%llx and 0x%llx overlap",
					      (unsigned long long)b->paddr,
					      (unsigned long long)a->paddr);
		}
	}
	for (i = 0; i < info->nr_loads; i++)
		if (info->entry >= info->load[i].paddr &&
		    info->entry - info->load[i].paddr < info->load[i].memsz)
			return 0;
	return reject(why, whylen, "entry point 0x%llx is outside every PT_LOAD",
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
	return reject(why, whylen, "a user-space program (has %s), not a kernel",
		      what);
}

int elf_exec_parse(const char *buf, size_t len, struct elf_exec_info *info,
		   char *why, size_t whylen)
{
	uint64_t phoff;
	uint16_t entsize, num, i;
	int ret;

	memset(info, 0, sizeof(*info));
	if (!buf)
		return reject(why, whylen, "no data");
	ret = check_ehdr(buf, len, why, whylen);
	if (!ret)
		ret = check_phdrs(buf, len, why, whylen);
	if (ret)
		return ret;
	info->entry = rd32(buf + EH_ENTRY);
	info->machine = rd16(buf + EH_MACHINE);
	phoff = rd32(buf + EH_PHOFF);
	entsize = rd16(buf + EH_PHENTSIZE);
	num = rd16(buf + EH_PHNUM);
	for (i = 0; i < num; i++) {
		const char *ph = buf + phoff + (size_t)i * entsize;

		ret = check_user_space(rd32(ph + PH_TYPE), why, whylen);
		if (ret)
			return ret;
		if (rd32(ph + PH_TYPE) != PT_LOAD)
			continue;
		ret = add_load(buf, len, ph, info, i, why, whylen);
		if (ret)
			return ret;
	}
	return check_loads(info, why, whylen);
}
