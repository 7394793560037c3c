// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the x86_64 kernel's kexec_file_load loader (kexec-bzimage64.c in
 * 6.1) takes, checked here first: the kernel refuses with a bare ENOEXEC
 * or EINVAL, and for a crash load only after it has dropped the loaded
 * crash kernel.  It takes a bzImage of boot protocol 2.12 or later with
 * the 64-bit entry that may be loaded above 4 GiB, and a command line
 * that leaves room for the "elfcorehdr=0x..." it appends (30 bytes).
 * Whether the image is signed is read from its PE/COFF header: the
 * certificate table of the optional header's data directory.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

#include "arch.h"
#include "bzimage-header.h"
#include "bzimage.h"

#define FILE_LOAD_MIN_VERSION	0x020c
#define ELFCOREHDR_ROOM		30	/* the kernel's MAX_ELFCOREHDR_STR_LEN */

/* PE/COFF (Microsoft PE format specification) */
#define MZ_MAGIC		0x5a4du		/* "MZ" */
#define MZ_LFANEW		0x3c		/* u32: the PE header */
#define PE_MAGIC		0x00004550u	/* "PE\0\0" */
#define COFF_OPT_SIZE		(4 + 16)	/* u16 SizeOfOptionalHeader */
#define COFF_HEADER_LEN		(4 + 20)	/* signature + COFF header */
#define OPT_MAGIC_PE32		0x10bu
#define OPT_MAGIC_PE32PLUS	0x20bu
#define OPT_NR_DIRS_PE32	92		/* u32 NumberOfRvaAndSizes */
#define OPT_NR_DIRS_PE32PLUS	108
#define DIR_SECURITY		4		/* the certificate table */
#define DIR_ENTRY_LEN		8		/* u32 offset, u32 size */

__attribute__((format(printf, 3, 4)))
static int refuse(char *why, size_t whylen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, whylen, fmt, ap);
	va_end(ap);
	return -ENOEXEC;
}

/* The certificate table of a PE/COFF image: present and inside the file. */
static bool pe_signed(const char *buf, size_t len)
{
	uint32_t pe, nr_dirs, cert_off, cert_len;
	size_t opt, dirs, nr_at;
	uint16_t magic;

	if (len < MZ_LFANEW + 4 || get16(buf, 0) != MZ_MAGIC)
		return false;
	pe = get32(buf, MZ_LFANEW);
	if (pe > len || len - pe < COFF_HEADER_LEN + 2 ||
	    get32(buf, pe) != PE_MAGIC)
		return false;
	opt = (size_t)pe + COFF_HEADER_LEN;
	magic = get16(buf, opt);
	if (magic != OPT_MAGIC_PE32 && magic != OPT_MAGIC_PE32PLUS)
		return false;
	nr_at = opt + (magic == OPT_MAGIC_PE32 ? OPT_NR_DIRS_PE32 :
						 OPT_NR_DIRS_PE32PLUS);
	dirs = nr_at + 4 + DIR_SECURITY * DIR_ENTRY_LEN;
	if (dirs + DIR_ENTRY_LEN > len ||
	    get16(buf, (size_t)pe + COFF_OPT_SIZE) < dirs + DIR_ENTRY_LEN - opt)
		return false;
	nr_dirs = get32(buf, nr_at);
	if (nr_dirs <= DIR_SECURITY)
		return false;
	cert_off = get32(buf, dirs);
	cert_len = get32(buf, dirs + 4);
	return cert_len && cert_off < len && cert_len <= len - cert_off;
}

int arch_file_check(const char *kernel, size_t len, size_t cmdline_len,
		    bool *is_signed, char *why, size_t whylen)
{
	struct bzimage_info bi;

	if (bzimage_parse(kernel, len, &bi, why, whylen))
		return -ENOEXEC;
	if (bi.version < FILE_LOAD_MIN_VERSION)
		return refuse(why, whylen,
			      "boot protocol %u.%02u; the kernel's file loader needs 2.12 or later",
			      bi.version >> 8, bi.version & 0xff);
	if (!(bi.xloadflags & XLF_KERNEL_64))
		return refuse(why, whylen,
			      "no 64-bit entry (a 32-bit kernel); the kernel's file loader takes 64-bit bzImages only");
	if (!(bi.xloadflags & XLF_CAN_BE_LOADED_ABOVE_4G))
		return refuse(why, whylen,
			      "it may not be loaded above 4 GiB, which the kernel's file loader requires");
	if (cmdline_len + ELFCOREHDR_ROOM > bi.cmdline_size) {
		snprintf(why, whylen,
			 "%zu bytes; through kexec_file_load this kernel takes %zu at most (its limit, %u, less %d kept for elfcorehdr= and the NUL)",
			 cmdline_len - 1,
			 bi.cmdline_size > ELFCOREHDR_ROOM ?
			 (size_t)bi.cmdline_size - ELFCOREHDR_ROOM - 1 : 0,
			 bi.cmdline_size, ELFCOREHDR_ROOM + 1);
		return -E2BIG;
	}
	*is_signed = pe_signed(kernel, len);
	return 0;
}
