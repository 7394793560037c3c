// SPDX-License-Identifier: GPL-2.0-only
#include <stdarg.h>
#include <stdio.h>

#include "bzimage-header.h"
#include "bzimage.h"

__attribute__((format(printf, 3, 4)))
static int fail(char *why, size_t whylen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, whylen, fmt, ap);
	va_end(ap);
	return -1;
}

static void read_limits(const char *buf, struct bzimage_info *bi)
{
	uint16_t v = bi->version;

	bi->relocatable = v >= 0x205 && buf[HDR_RELOCATABLE];
	bi->kernel_alignment = v >= 0x205 ? get32(buf, HDR_KERNEL_ALIGNMENT) :
					    0x100000;
	if (!bi->kernel_alignment ||
	    (bi->kernel_alignment & (bi->kernel_alignment - 1)))
		bi->kernel_alignment = 0x100000;
	bi->initrd_addr_max = v >= 0x203 ? get32(buf, HDR_INITRD_ADDR_MAX) :
					   BOOT_INITRD_ADDR_MAX_DEFAULT;
	bi->cmdline_size = v >= 0x206 ? get32(buf, HDR_CMDLINE_SIZE) : 255;
	bi->xloadflags = v >= 0x20c ? get16(buf, HDR_XLOADFLAGS) : 0;
	bi->pref_address = v >= 0x20a ? get64(buf, HDR_PREF_ADDRESS) : 0x100000;
	/*
	 * Before 2.10 the header does not say how much memory the kernel
	 * needs while decompressing; four times the payload is generous.
	 */
	bi->init_size = v >= 0x20a ? get32(buf, HDR_INIT_SIZE) :
				     (uint32_t)(bi->payload_len * 4);
	if (bi->init_size < bi->payload_len)
		bi->init_size = (uint32_t)bi->payload_len;
}

int bzimage_parse(const char *buf, size_t len, struct bzimage_info *bi,
		  char *why, size_t whylen)
{
	uint64_t need;
	size_t sects;

	if (len < HDR_END)
		return fail(why, whylen,
			    "too short for a kernel (%zu bytes, a boot header needs %d)",
			    len, HDR_END);
	if (get32(buf, HDR_HEADER) != HDR_MAGIC)
		return fail(why, whylen, "no \"HdrS\" boot header");
	if (get16(buf, HDR_BOOT_FLAG) != BOOT_FLAG_MAGIC)
		return fail(why, whylen, "boot flag is 0x%x, not 0xaa55",
			    get16(buf, HDR_BOOT_FLAG));
	bi->version = get16(buf, HDR_VERSION);
	if (bi->version < 0x200)
		return fail(why, whylen, "boot protocol %x.%02x is too old",
			    bi->version >> 8, bi->version & 0xff);
	if (!(buf[HDR_LOADFLAGS] & LOADFLAG_LOADED_HIGH))
		return fail(why, whylen, "zImage (loads low), not a bzImage");
	sects = (uint8_t)buf[HDR_SETUP_SECTS];
	bi->setup_size = ((sects ? sects : 4) + 1) * 512;
	/*
	 * syssize counts the protected-mode part in 16-byte paragraphs;
	 * times 16 it can exceed a 32-bit size_t.
	 */
	need = bi->setup_size + (uint64_t)get32(buf, HDR_SYSSIZE) * 16;
	if (len < need || len <= bi->setup_size)
		return fail(why, whylen,
			    "truncated (%zu bytes, the header says %llu)", len,
			    (unsigned long long)need);
	bi->payload = buf + bi->setup_size;
	bi->payload_len = len - bi->setup_size;
	bi->header_len = 0x202 + (uint8_t)buf[HDR_JUMP + 1] - HDR_SETUP_SECTS;
	if (bi->header_len > HDR_END - HDR_SETUP_SECTS)
		bi->header_len = HDR_END - HDR_SETUP_SECTS;
	read_limits(buf, bi);
	return 0;
}
