/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Offsets into the x86 real-mode header and zero page (boot_params), from
 * Documentation/x86/boot.rst and zero-page.rst.  Accessed by offset with
 * explicit little-endian helpers so the tool needs no kernel headers and
 * works the same in 32- and 64-bit builds.
 */
#ifndef KJUMP_BZIMAGE_HEADER_H
#define KJUMP_BZIMAGE_HEADER_H

#include <stdint.h>
#include <string.h>

/* setup header, in the file and at the same offsets in boot_params */
#define HDR_SETUP_SECTS		0x1f1	/* u8, 0 means 4 */
#define HDR_SYSSIZE		0x1f4	/* u32, payload in 16-byte units */
#define HDR_BOOT_FLAG		0x1fe	/* u16, 0xaa55 */
#define HDR_JUMP		0x200	/* u16, byte 0x201 = header length - 0x202 */
#define HDR_HEADER		0x202	/* "HdrS" */
#define HDR_VERSION		0x206	/* u16 */
#define HDR_TYPE_OF_LOADER	0x210	/* u8 */
#define HDR_LOADFLAGS		0x211	/* u8 */
#define HDR_CODE32_START	0x214	/* u32 */
#define HDR_RAMDISK_IMAGE	0x218	/* u32 */
#define HDR_RAMDISK_SIZE	0x21c	/* u32 */
#define HDR_CMD_LINE_PTR	0x228	/* u32, protocol >= 2.02 */
#define HDR_INITRD_ADDR_MAX	0x22c	/* u32, protocol >= 2.03 */
#define HDR_KERNEL_ALIGNMENT	0x230	/* u32, protocol >= 2.05 */
#define HDR_RELOCATABLE		0x234	/* u8, protocol >= 2.05 */
#define HDR_XLOADFLAGS		0x236	/* u16, protocol >= 2.12 */
#define HDR_CMDLINE_SIZE	0x238	/* u32, protocol >= 2.06 */
#define HDR_HARDWARE_SUBARCH	0x23c	/* u32 + u64 data, >= 2.07 */
#define HDR_PAYLOAD_OFFSET	0x248	/* u32, protocol >= 2.08 */
#define HDR_PAYLOAD_LENGTH	0x24c	/* u32 */
#define HDR_SETUP_DATA		0x250	/* u64, protocol >= 2.09 */
#define HDR_PREF_ADDRESS	0x258	/* u64, protocol >= 2.10 */
#define HDR_INIT_SIZE		0x260	/* u32, protocol >= 2.10 */
#define HDR_END			0x268	/* all fields above end here */

#define HDR_MAGIC		0x53726448u	/* "HdrS" */
#define BOOT_FLAG_MAGIC		0xaa55u
#define LOADFLAG_LOADED_HIGH	0x01u
/* xloadflags (protocol 2.12) */
#define XLF_KERNEL_64			(1u << 0)	/* 64-bit entry at +0x200 */
#define XLF_CAN_BE_LOADED_ABOVE_4G	(1u << 1)
#define LOADER_TYPE_KEXEC	0xd0u	/* boot.rst: ID 0xD, kexec-tools */
/* initrd_addr_max of a header older than protocol 2.03 (boot.rst) */
#define BOOT_INITRD_ADDR_MAX_DEFAULT	0x37ffffffu

/* zero page (struct boot_params) fields outside the setup header */
#define BP_SCREEN_INFO		0x000	/* 0x40 bytes */
#define BP_EXT_MEM_K		0x002	/* u16, in screen_info */
#define BP_CL_MAGIC		0x020	/* u16, old command line protocol */
#define BP_CL_OFFSET		0x022	/* u16 */
#define BP_APM_BIOS_INFO	0x040	/* 0x14 bytes */
#define BP_IST_INFO		0x060	/* 0x10 bytes */
#define BP_ACPI_RSDP_ADDR	0x070	/* u64 */
#define BP_ALT_MEM_K		0x1e0	/* u32 */
#define BP_E820_ENTRIES		0x1e8	/* u8 */
#define BP_E820_TABLE		0x2d0	/* 128 x 20 bytes */
#define BP_SIZE			0x1000

#define CL_MAGIC_VALUE		0xa33fu
#define E820_MAX_ZEROPAGE	128
#define E820_ENTRY_SIZE		20

static inline uint16_t get16(const void *p, size_t off)
{
	const uint8_t *b = (const uint8_t *)p + off;

	return (uint16_t)(b[0] | b[1] << 8);
}

static inline uint32_t get32(const void *p, size_t off)
{
	const uint8_t *b = (const uint8_t *)p + off;

	return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
	       (uint32_t)b[3] << 24;
}

static inline uint64_t get64(const void *p, size_t off)
{
	return get32(p, off) | (uint64_t)get32(p, off + 4) << 32;
}

static inline void put8(void *p, size_t off, uint8_t v)
{
	((uint8_t *)p)[off] = v;
}

static inline void put16(void *p, size_t off, uint16_t v)
{
	put8(p, off, v & 0xff);
	put8(p, off + 1, v >> 8);
}

static inline void put32(void *p, size_t off, uint32_t v)
{
	put16(p, off, v & 0xffff);
	put16(p, off + 2, v >> 16);
}

static inline void put64(void *p, size_t off, uint64_t v)
{
	put32(p, off, (uint32_t)v);
	put32(p, off + 4, (uint32_t)(v >> 32));
}

#endif
