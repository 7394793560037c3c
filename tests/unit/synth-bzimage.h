/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Synthetic bzImages for tests: a real-mode setup area carrying the
 * setup header of Documentation/x86/boot.rst, followed by a payload of
 * deterministic pseudo-random bytes.  Written with explicit offsets (not
 * with the tool's bzimage-header.h) so a wrong offset in the tool shows
 * up as a failing test instead of agreeing with itself.
 */
#ifndef KJUMP_SYNTH_BZIMAGE_H
#define KJUMP_SYNTH_BZIMAGE_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct synth_bzimage {
	uint8_t setup_sects;		/* 0 means 4, as in the protocol */
	uint16_t version;		/* boot protocol */
	uint8_t loadflags;
	uint8_t relocatable;
	uint8_t header_jump;		/* byte 0x201: header end - 0x202 */
	uint16_t boot_flag;		/* 0xaa55 */
	uint32_t magic;			/* "HdrS" */
	uint32_t kernel_alignment;
	uint64_t pref_address;
	uint32_t init_size;
	uint32_t initrd_addr_max;
	uint32_t cmdline_size;
	uint64_t setup_data;
	uint32_t syssize;		/* 0: from payload_len */
	size_t payload_len;		/* payload bytes written */
	uint32_t seed;			/* payload pattern */
	uint16_t xloadflags;		/* bit 0: 64-bit entry, bit 1: above 4G */
	uint8_t pe_signed;		/* a PE/COFF header with a certificate table */
};

/* Offsets written below, from boot.rst. */
#define SB_SETUP_SECTS		0x1f1
#define SB_SYSSIZE		0x1f4
#define SB_BOOT_FLAG		0x1fe
#define SB_JUMP			0x200
#define SB_HEADER		0x202
#define SB_VERSION		0x206
#define SB_LOADFLAGS		0x211
#define SB_CODE32_START		0x214
#define SB_INITRD_ADDR_MAX	0x22c
#define SB_KERNEL_ALIGNMENT	0x230
#define SB_RELOCATABLE		0x234
#define SB_XLOADFLAGS		0x236
#define SB_CMDLINE_SIZE		0x238
#define SB_SETUP_DATA		0x250
#define SB_PREF_ADDRESS		0x258
#define SB_INIT_SIZE		0x260

/*
 * The PE/COFF stub an EFI-stub kernel carries (the PE format
 * specification): "MZ", e_lfanew at 0x3c, "PE\0\0", the COFF header and
 * a PE32+ optional header whose data directory 4, the certificate table,
 * covers the last 16 bytes of the file: a signature, as far as the
 * tool's check goes.
 */
#define SB_PE_AT		0x80
#define SB_PE_OPT		(SB_PE_AT + 24)

static inline void synth_pe(uint8_t *b, size_t len);

/* Looks like a 6.x i386 kernel, scaled down. */
static inline void synth_defaults(struct synth_bzimage *s)
{
	memset(s, 0, sizeof(*s));
	s->setup_sects = 6;
	s->version = 0x020f;
	s->loadflags = 0x81;		/* LOADED_HIGH | CAN_USE_HEAP */
	s->relocatable = 1;
	s->header_jump = 0x66;		/* 0x202 + 0x66 = 0x268 */
	s->boot_flag = 0xaa55;
	s->magic = 0x53726448;
	s->kernel_alignment = 0x200000;
	s->pref_address = 0x1000000;
	s->init_size = 0x40000;
	s->initrd_addr_max = 0x7fffffff;
	s->cmdline_size = 2047;
	s->payload_len = 0x10000;
	s->seed = 0x6b6a756d;
}

static inline size_t synth_setup_size(const struct synth_bzimage *s)
{
	return ((s->setup_sects ? s->setup_sects : 4) + 1) * 512u;
}

static inline void synth_le(uint8_t *p, size_t off, uint64_t v, int bytes)
{
	int i;

	for (i = 0; i < bytes; i++)
		p[off + i] = (uint8_t)(v >> (8 * i));
}

/* A malloc'd image; *len receives its size.  NULL when out of memory. */
static inline uint8_t *synth_build(const struct synth_bzimage *s, size_t *len)
{
	size_t setup = synth_setup_size(s), i;
	uint32_t x = s->seed ? s->seed : 1;
	uint32_t syssize = s->syssize ? s->syssize :
				(uint32_t)((s->payload_len + 15) / 16);
	uint8_t *b;

	*len = setup + s->payload_len;
	b = calloc(1, *len < 0x268 ? 0x268 : *len);
	if (!b)
		return NULL;
	b[SB_SETUP_SECTS] = s->setup_sects;
	synth_le(b, SB_SYSSIZE, syssize, 4);
	synth_le(b, SB_BOOT_FLAG, s->boot_flag, 2);
	b[SB_JUMP] = 0xeb;
	b[SB_JUMP + 1] = s->header_jump;
	synth_le(b, SB_HEADER, s->magic, 4);
	synth_le(b, SB_VERSION, s->version, 2);
	b[SB_LOADFLAGS] = s->loadflags;
	synth_le(b, SB_CODE32_START, 0x100000, 4);
	synth_le(b, SB_INITRD_ADDR_MAX, s->initrd_addr_max, 4);
	synth_le(b, SB_KERNEL_ALIGNMENT, s->kernel_alignment, 4);
	b[SB_RELOCATABLE] = s->relocatable;
	synth_le(b, SB_CMDLINE_SIZE, s->cmdline_size, 4);
	synth_le(b, SB_SETUP_DATA, s->setup_data, 8);
	synth_le(b, SB_PREF_ADDRESS, s->pref_address, 8);
	synth_le(b, SB_INIT_SIZE, s->init_size, 4);
	synth_le(b, SB_XLOADFLAGS, s->xloadflags, 2);
	/* xorshift32: no runs of zeros for a hash to hide in */
	for (i = setup; i < *len; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		b[i] = (uint8_t)x;
	}
	if (s->pe_signed && *len > 0x400)
		synth_pe(b, *len);
	return b;
}

static inline void synth_pe(uint8_t *b, size_t len)
{
	b[0] = 'M';
	b[1] = 'Z';
	synth_le(b, 0x3c, SB_PE_AT, 4);
	memcpy(b + SB_PE_AT, "PE\0\0", 4);
	synth_le(b, SB_PE_AT + 4, 0x8664, 2);		/* Machine: x86-64 */
	synth_le(b, SB_PE_AT + 20, 240, 2);		/* SizeOfOptionalHeader */
	synth_le(b, SB_PE_OPT, 0x20b, 2);		/* PE32+ */
	synth_le(b, SB_PE_OPT + 108, 16, 4);		/* NumberOfRvaAndSizes */
	synth_le(b, SB_PE_OPT + 112 + 4 * 8, len - 16, 4);
	synth_le(b, SB_PE_OPT + 112 + 4 * 8 + 4, 16, 4);
}

#endif
