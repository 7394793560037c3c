// SPDX-License-Identifier: GPL-2.0-only
#include <elf.h>
#include <string.h>

#include "elf-core.h"

/* One program header in class-neutral form. */
struct phdr {
	uint32_t type;
	uint64_t offset, vaddr, paddr, size;
};

static size_t ehdr_size(int cls)
{
	return cls == 64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr);
}

static size_t phdr_size(int cls)
{
	return cls == 64 ? sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr);
}

size_t elfcore_size(const struct elfcore_spec *s)
{
	return ehdr_size(s->elf_class) +
	       (s->nr_notes + 2 * s->nr_loads) * phdr_size(s->elf_class);
}

static void put_ehdr(const struct elfcore_spec *s, uint8_t *buf, size_t nph)
{
	unsigned char ident[EI_NIDENT] = { ELFMAG0, ELFMAG1, ELFMAG2, ELFMAG3,
		s->elf_class == 64 ? ELFCLASS64 : ELFCLASS32, ELFDATA2LSB,
		EV_CURRENT, ELFOSABI_NONE };

	if (s->elf_class == 64) {
		Elf64_Ehdr e = { .e_type = ET_CORE, .e_machine = s->machine,
			.e_version = EV_CURRENT, .e_phoff = sizeof(e),
			.e_ehsize = sizeof(e), .e_phentsize = sizeof(Elf64_Phdr),
			.e_phnum = (Elf64_Half)nph };

		memcpy(e.e_ident, ident, EI_NIDENT);
		memcpy(buf, &e, sizeof(e));
	} else {
		Elf32_Ehdr e = { .e_type = ET_CORE, .e_machine = s->machine,
			.e_version = EV_CURRENT, .e_phoff = sizeof(e),
			.e_ehsize = sizeof(e), .e_phentsize = sizeof(Elf32_Phdr),
			.e_phnum = (Elf32_Half)nph };

		memcpy(e.e_ident, ident, EI_NIDENT);
		memcpy(buf, &e, sizeof(e));
	}
}

static void put_phdr(int cls, uint8_t *at, const struct phdr *p)
{
	uint32_t flags = p->type == PT_LOAD ? PF_R | PF_W | PF_X : 0;

	if (cls == 64) {
		Elf64_Phdr h = { .p_type = p->type, .p_flags = flags,
			.p_offset = p->offset, .p_vaddr = p->vaddr,
			.p_paddr = p->paddr, .p_filesz = p->size,
			.p_memsz = p->size };

		memcpy(at, &h, sizeof(h));
	} else {
		Elf32_Phdr h = { .p_type = p->type, .p_flags = flags,
			.p_offset = (Elf32_Off)p->offset,
			.p_vaddr = (Elf32_Addr)p->vaddr,
			.p_paddr = (Elf32_Addr)p->paddr,
			.p_filesz = (Elf32_Word)p->size,
			.p_memsz = (Elf32_Word)p->size };

		memcpy(at, &h, sizeof(h));
	}
}

/*
 * A load that straddles the end of the kernel's linear map is split there:
 * only the part below has a kernel virtual address.
 */
static size_t add_load(const struct elfcore_spec *s,
		       const struct elfcore_load *l, struct phdr *out)
{
	uint64_t end = l->paddr + l->size, lim = s->lowmem_limit;
	uint64_t none = s->elf_class == 64 ? UINT64_MAX : UINT32_MAX;

	if (l->paddr < lim && end > lim) {
		struct elfcore_load lo = { l->paddr, lim - l->paddr, l->offset };
		struct elfcore_load hi = { lim, end - lim,
					   l->offset + (lim - l->paddr) };

		return add_load(s, &lo, out) + add_load(s, &hi, out + 1);
	}
	*out = (struct phdr){
		.type = PT_LOAD, .offset = l->offset, .paddr = l->paddr,
		.size = l->size,
		.vaddr = l->paddr < lim ? s->page_offset + l->paddr : none,
	};
	return 1;
}

size_t elfcore_build(const struct elfcore_spec *s, uint8_t *buf)
{
	size_t i, n = 0, psz = phdr_size(s->elf_class);
	uint8_t *ph = buf + ehdr_size(s->elf_class);
	struct phdr p[2];

	memset(buf, 0, elfcore_size(s));
	for (i = 0; i < s->nr_notes; i++) {
		p[0] = (struct phdr){ .type = PT_NOTE, .offset = s->notes[i].addr,
				      .paddr = s->notes[i].addr,
				      .size = s->notes[i].size };
		put_phdr(s->elf_class, ph + n++ * psz, &p[0]);
	}
	for (i = 0; i < s->nr_loads; i++) {
		size_t k, got = add_load(s, &s->loads[i], p);

		for (k = 0; k < got; k++)
			put_phdr(s->elf_class, ph + n++ * psz, &p[k]);
	}
	put_ehdr(s, buf, n);
	return ehdr_size(s->elf_class) + n * psz;
}
