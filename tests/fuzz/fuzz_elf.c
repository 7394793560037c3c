// SPDX-License-Identifier: GPL-2.0-only
/*
 * elf_exec_parse() on arbitrary bytes, for either word size.
 *
 * On success it promises 1..ELF_EXEC_MAX_LOADS loads, each with memsz > 0,
 * filesz <= memsz, data NULL exactly when filesz is 0 and otherwise
 * data + filesz inside the buffer, below 4 GiB, no two overlapping, and
 * the entry inside one of them; the machine asked for (EM_486 too for
 * EM_386).  On failure: a
 * reason.
 */
#include "elf-exec.h"
#include "fuzz.h"

#define PHYS_LIMIT	0x100000000ull

static void check_load(const char *buf, size_t len,
		       const struct elf_exec_load *l)
{
	FUZZ_ASSERT(l->memsz > 0);
	FUZZ_ASSERT(l->filesz <= l->memsz);
	FUZZ_ASSERT(l->paddr < PHYS_LIMIT);
	FUZZ_ASSERT(l->memsz <= PHYS_LIMIT - l->paddr);
	if (!l->filesz) {
		FUZZ_ASSERT(l->data == NULL);
		return;
	}
	FUZZ_ASSERT(fuzz_inside(buf, len, l->data, l->filesz));
	/* Touch both ends so ASan sees any lie about the data. */
	FUZZ_ASSERT(l->data[0] == buf[l->data - buf]);
	FUZZ_ASSERT(l->data[l->filesz - 1] ==
		    buf[l->data - buf + l->filesz - 1]);
}

static void check_info(const struct elf_exec_want *want, const char *buf, size_t len,
		       const struct elf_exec_info *info)
{
	unsigned int i, j;
	int entry_inside = 0;

	FUZZ_ASSERT(info->machine == want->machine ||
		    (want->machine == 3 && info->machine == 6));
	FUZZ_ASSERT(info->nr_loads >= 1);
	FUZZ_ASSERT(info->nr_loads <= ELF_EXEC_MAX_LOADS);
	for (i = 0; i < info->nr_loads; i++) {
		const struct elf_exec_load *a = &info->load[i];

		check_load(buf, len, a);
		for (j = 0; j < i; j++) {
			const struct elf_exec_load *b = &info->load[j];

			FUZZ_ASSERT(a->paddr >= b->paddr + b->memsz ||
				    b->paddr >= a->paddr + a->memsz);
		}
		entry_inside |= info->entry >= a->paddr &&
				info->entry - a->paddr < a->memsz;
	}
	FUZZ_ASSERT(entry_inside);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *buf = (const char *)data;
	struct elf_exec_info info;
	char why[128] = "";

	const struct elf_exec_want *const wants[] = {
		&elf_exec_i386, &elf_exec_x86_64,
	};
	size_t i;

	for (i = 0; i < sizeof(wants) / sizeof(wants[0]); i++) {
		memset(&info, 0xa5, sizeof(info));
		if (elf_exec_parse(buf, size, wants[i], &info, why,
				   sizeof(why))) {
			fuzz_check_why(why, sizeof(why));
			/* A tiny reason buffer must still be terminated. */
			FUZZ_ASSERT(elf_exec_parse(buf, size, wants[i], &info,
						   why, 1) != 0);
			FUZZ_ASSERT(why[0] == '\0');
			continue;
		}
		check_info(wants[i], buf, size, &info);
	}
	return 0;
}
