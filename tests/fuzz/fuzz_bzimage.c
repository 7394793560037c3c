// SPDX-License-Identifier: GPL-2.0-only
/*
 * bzimage_parse() on arbitrary bytes, then, for what it accepts, the zero
 * page boot_params_build() makes from that header (which copies
 * header_len bytes of it).
 *
 * On success the parser promises: protocol >= 2.00, a setup area of
 * (setup_sects or 4) + 1 sectors inside the file, the payload being the
 * rest of the file, header_len within the fields we know, a power-of-two
 * kernel_alignment and an init_size no smaller than the payload.  On
 * failure: a reason.
 *
 * arch_file_check(), the kexec_file_load check (which reads xloadflags
 * and the PE/COFF header's certificate table), on the same bytes: it
 * accepts only what bzimage_parse() accepts, and always says why not.
 */
#include <errno.h>

#include "arch.h"
#include "boot-params.h"
#include "bzimage-header.h"
#include "bzimage.h"
#include "fuzz.h"
#include "ctx.h"
#include "memory-map.h"

static void check_info(const char *buf, size_t len,
		       const struct bzimage_info *bi)
{
	uint8_t sects = (uint8_t)buf[HDR_SETUP_SECTS];

	FUZZ_ASSERT(len >= HDR_END);
	FUZZ_ASSERT(bi->version >= 0x200);
	FUZZ_ASSERT(bi->setup_size == ((sects ? sects : 4) + 1) * 512u);
	FUZZ_ASSERT(bi->setup_size < len);
	FUZZ_ASSERT(bi->payload == buf + bi->setup_size);
	FUZZ_ASSERT(bi->payload_len == len - bi->setup_size);
	FUZZ_ASSERT(fuzz_inside(buf, len, bi->payload, bi->payload_len));
	FUZZ_ASSERT(bi->payload_len > 0);
	FUZZ_ASSERT(bi->header_len >= 0x11);
	FUZZ_ASSERT(HDR_SETUP_SECTS + bi->header_len <= HDR_END);
	FUZZ_ASSERT(bi->kernel_alignment != 0);
	FUZZ_ASSERT(!(bi->kernel_alignment & (bi->kernel_alignment - 1)));
	FUZZ_ASSERT(bi->init_size >= bi->payload_len);
	/* Touch both ends so ASan sees any lie about the payload. */
	FUZZ_ASSERT(bi->payload[0] == buf[bi->setup_size]);
	FUZZ_ASSERT(bi->payload[bi->payload_len - 1] == buf[len - 1]);
}

static void check_boot_params(const char *buf, const struct bzimage_info *bi)
{
	static const char cmdline[] = "console=ttyS0";
	struct boot_params_spec spec = {
		.kernel = buf,
		.bi = bi,
		.cmdline = cmdline,
		.addr = 0x90000,
	};
	struct mem_map e820;
	size_t size = boot_params_size(sizeof(cmdline) - 1, 0, 2);
	size_t copied = bi->header_len < HDR_TYPE_OF_LOADER - HDR_SETUP_SECTS ?
				bi->header_len :
				HDR_TYPE_OF_LOADER - HDR_SETUP_SECTS;
	uint8_t *bp = calloc(1, size);

	FUZZ_ASSERT(bp);
	memmap_init(&e820);
	FUZZ_ASSERT(!memmap_add(&e820, 0, 0x9fc00, MEM_RAM));
	FUZZ_ASSERT(!memmap_add(&e820, 0x100000, 0x20000000, MEM_RAM));
	spec.e820 = &e820;
	/* A context without a log callback: errors are the return value. */
	struct kj_ctx quiet = { .root = (char *)"" };

	FUZZ_ASSERT(boot_params_build(&quiet, &spec, bp) == 0);
	/* The header start is the file's; the loader's fields are ours. */
	FUZZ_ASSERT(!memcmp(bp + HDR_SETUP_SECTS, buf + HDR_SETUP_SECTS,
			    copied));
	FUZZ_ASSERT(bp[HDR_TYPE_OF_LOADER] == LOADER_TYPE_KEXEC);
	FUZZ_ASSERT(bp[HDR_LOADFLAGS] & LOADFLAG_LOADED_HIGH);
	FUZZ_ASSERT(get32((const char *)bp, HDR_CMD_LINE_PTR) ==
		    spec.addr + BP_SIZE);
	FUZZ_ASSERT(!strcmp((const char *)bp + BP_SIZE, cmdline));
	memmap_free(&e820);
	free(bp);
}

static void check_file_check(const char *buf, size_t size, bool parsed)
{
	char why[256] = "";
	bool is_signed = false;
	int ret;

	ret = arch_file_check(buf, size, 1 + size % 4096, &is_signed, why,
			      sizeof(why));
	FUZZ_ASSERT(ret == 0 || ret == -ENOEXEC || ret == -E2BIG);
	if (ret)
		fuzz_check_why(why, sizeof(why));
	else
		FUZZ_ASSERT(parsed);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *buf = (const char *)data;
	struct bzimage_info bi;
	char why[128] = "";

	memset(&bi, 0xa5, sizeof(bi));
	if (bzimage_parse(buf, size, &bi, why, sizeof(why))) {
		fuzz_check_why(why, sizeof(why));
		check_file_check(buf, size, false);
		return 0;
	}
	check_file_check(buf, size, true);
	check_info(buf, size, &bi);
	check_boot_params(buf, &bi);
	return 0;
}
