// SPDX-License-Identifier: GPL-2.0-only
#include <elf.h>
#include <errno.h>
#include <stdarg.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crash-sources.h"
#include "hand-over.h"
#include "ctx.h"
#include "elf-core.h"
#include "file-io.h"
#include "iomem.h"
#include "kexec-syscall.h"
#include "x86-arch.h"

#define MAX_LOADS		(MEMMAP_MAX_RANGES / 8)

void hand_over_init(struct arch_hand_over *cs)
{
	memset(cs, 0, sizeof(*cs));
	memmap_init(&cs->map);
	memmap_init(&cs->low);
	cmdline_init(&cs->extra);
}

void hand_over_free(struct arch_hand_over *cs)
{
	memmap_free(&cs->map);
	memmap_free(&cs->low);
	cmdline_free(&cs->extra);
}

/* The old kernel's RAM, from /proc/iomem, as the dump must describe it. */
static int old_ram(const struct kj_ctx *ctx, const char *iomem,
		   struct mem_map *ram)
{
	int ret = iomem_collect(iomem, "System RAM", MEM_RAM, ram);

	if (ret || !ram->n) {
		kj_err(ctx, "/proc/iomem: no System RAM ranges (%s)",
		       ret ? "malformed" : "not root?");
		return ret ? ret : -ENOENT;
	}
	memmap_normalize(ram);
	return 0;
}

/* Low memory the new kernel will use: the RAM range starting below 640K. */
static int find_backup_source(const struct kj_ctx *ctx,
			      const struct mem_map *ram, struct arch_hand_over *cs)
{
	size_t i;

	for (i = 0; i < ram->n; i++) {
		const struct mem_range *r = &ram->r[i];

		if (r->start >= X86_LOW_MEMORY_END)
			continue;
		cs->backup_src = (uint32_t)r->start;
		cs->backup_len = (uint32_t)((r->end < X86_LOW_MEMORY_END ?
					     r->end : X86_LOW_MEMORY_END) - r->start);
		return 0;
	}
	kj_err(ctx, "/proc/iomem: no RAM below 640K to back up");
	return -ENOENT;
}

/* The RAM of ram inside [start, end), into out. */
static int clip_ram(const struct mem_map *ram, uint64_t start, uint64_t end,
		    struct mem_map *out)
{
	size_t i;
	int ret = 0;

	for (i = 0; !ret && i < ram->n; i++) {
		uint64_t s = ram->r[i].start > start ? ram->r[i].start : start;
		uint64_t e = ram->r[i].end < end ? ram->r[i].end : end;

		if (s < e)
			ret = memmap_add(out, s, e, MEM_RAM);
	}
	return ret;
}

static int restrict_to_region(struct kexec_image *img,
			      const struct mem_map *ram,
			      const struct arch_hand_over *cs)
{
	struct mem_map region;
	int ret;

	memmap_init(&region);
	ret = clip_ram(ram, cs->region.start, cs->region.end, &region);
	if (!ret)
		ret = image_set_usable(img, &region);
	img->no_room_hint = cs->preserve ?
		"the window is too small; raise --mem-max" :
		"the crash kernel region is too small; reserve more with crashkernel=";
	memmap_free(&region);
	return ret;
}

/* Add a load for [start, end), pointing at the backup copy where needed. */
static int add_loads(const struct arch_hand_over *cs, uint64_t start,
		     uint64_t end, struct elfcore_load *loads, size_t *n)
{
	uint64_t bs = cs->backup_src, be = bs + cs->backup_len;

	if (start >= end)
		return 0;
	if (*n + 3 > MAX_LOADS)
		return -E2BIG;
	if (end <= bs || start >= be) {
		loads[(*n)++] = (struct elfcore_load){ start, end - start, start };
		return 0;
	}
	if (start < bs)
		loads[(*n)++] = (struct elfcore_load){ start, bs - start, start };
	/* Preserve: the kernel swapped low memory away, nothing to show. */
	if (!cs->preserve)
		loads[(*n)++] = (struct elfcore_load){ bs, cs->backup_len,
						       cs->backup_dst };
	if (end > be)
		loads[(*n)++] = (struct elfcore_load){ be, end - be, be };
	return 0;
}

/*
 * Every RAM range of the old kernel outside the crash region (and, without
 * a low-memory backup, above the first MiB the crash kernel uses).
 */
static int dump_loads(const struct mem_map *ram, const struct arch_hand_over *cs,
		      struct elfcore_load *loads, size_t *n)
{
	uint64_t cs_start = cs->region.start, cs_end = cs->region.end;
	uint64_t floor = x86_arch.low_backup ? 0 : X86_MIB;
	size_t i;
	int ret = 0;

	*n = 0;
	for (i = 0; !ret && i < ram->n; i++) {
		uint64_t s = ram->r[i].start, e = ram->r[i].end;

		if (e <= floor)
			continue;
		if (s < floor)
			s = floor;

		if (e <= cs_start || s >= cs_end) {
			ret = add_loads(cs, s, e, loads, n);
			continue;
		}
		ret = add_loads(cs, s, cs_start > s ? cs_start : s, loads, n);
		if (!ret)
			ret = add_loads(cs, cs_end < e ? cs_end : e, e, loads, n);
	}
	return ret;
}

static int elf_class_for(const struct arch_opts *ao, const struct mem_map *ram)
{
	if (ao->elf_class)
		return ao->elf_class;
	if (x86_arch.elf_machine == EM_X86_64)
		return 64;
	return ram->n && ram->r[ram->n - 1].end > (1ull << 32) ? 64 : 32;
}

static int read_notes(const struct kj_ctx *ctx, struct elfcore_note *notes,
		      size_t *n)
{
	int ret = read_cpu_crash_notes(ctx, notes, ELFCORE_MAX_NOTES - 1);

	if (ret < 0) {
		kj_err(ctx, "/sys/devices/system/cpu: cannot read crash notes (%s)",
		       strerror(-ret));
		return ret;
	}
	*n = (size_t)ret;
	ret = read_vmcoreinfo(ctx, &notes[*n]);
	if (!ret)
		(*n)++;
	else if (ret != -ENOENT)
		kj_warn(ctx, "/sys/kernel/vmcoreinfo: unreadable, dump has no vmcoreinfo");
	return 0;
}

static int add_elfcorehdr(const struct load_request *req,
			  const struct mem_map *ram, struct kexec_image *img,
			  struct arch_hand_over *cs)
{
	struct elfcore_note notes[ELFCORE_MAX_NOTES];
	struct elfcore_load *loads = calloc(MAX_LOADS, sizeof(*loads));
	struct elfcore_spec spec = {
		.machine = x86_arch.elf_machine,
		.page_offset = x86_arch.find_page_offset ?
			       x86_arch.find_page_offset(req->ctx) :
			       x86_arch.page_offset,
		.lowmem_limit = x86_arch.lowmem_end, .notes = notes,
		.loads = loads,
	};
	uint8_t *buf = NULL;
	size_t size;
	int ret = -ENOMEM;

	spec.elf_class = elf_class_for(req->aopts, ram);
	if (spec.elf_class == 32 && x86_arch.elf_machine == EM_X86_64) {
		free(loads);
		kj_err(req->ctx, "--elf32-core-headers: an x86_64 kernel's dump needs ELF64 headers (its virtual addresses do not fit ELF32)");
		return -EINVAL;
	}
	if (!loads)
		goto err;
	ret = read_notes(req->ctx, notes, &spec.nr_notes);
	if (ret)
		goto out;
	ret = dump_loads(ram, cs, loads, &spec.nr_loads);
	if (ret)
		goto err;
	size = elfcore_size(&spec);
	buf = calloc(1, size);
	ret = -ENOMEM;
	if (!buf || image_own(img, buf)) {
		free(buf);
		goto err;
	}
	size = elfcore_build(&spec, buf);
	/* Page-sized so that it can be cut out of the new kernel's map. */
	ret = image_add_buffer(img, "elfcorehdr", buf, size,
			       align_up(size, PAGE_SIZE_4K), PAGE_SIZE_4K, 0,
			       UINT64_MAX, true, &cs->elfcorehdr);
	goto out;
err:
	kj_err(req->ctx, "ELF core header: %s", strerror(-ret));
out:
	free(loads);
	return ret;
}

/* Add [start, end) minus the [cut, cut_end) ranges of segs as RAM. */
static int add_ram_minus(struct mem_map *map, uint64_t start, uint64_t end,
			 const struct image_segment *const *cuts, size_t ncut)
{
	size_t i;

	for (i = 0; i < ncut; i++) {
		uint64_t cs, ce;
		int ret;

		if (!cuts[i])
			continue;
		cs = cuts[i]->mem;
		ce = cs + cuts[i]->memsz;
		if (ce <= start || cs >= end)
			continue;
		ret = add_ram_minus(map, start, cs > start ? cs : start,
				    cuts, ncut);
		if (!ret)
			ret = add_ram_minus(map, ce < end ? ce : end, end,
					    cuts, ncut);
		return ret;
	}
	return start < end ? memmap_add(map, start, end, MEM_RAM) : 0;
}

/*
 * The new kernel's map: low memory (backed up, or the old kernel's RAM
 * below 1 MiB) and the crash region (minus the backup and ELF header it
 * must not overwrite) as RAM, plus every non-RAM range of the firmware
 * map, so ACPI tables stay reachable.
 */
static int build_crash_map(const struct load_request *req,
			   struct kexec_image *img, struct arch_hand_over *cs)
{
	const struct image_segment *cuts[2] = {
		image_find_segment(img, "backup"),
		image_find_segment(img, "elfcorehdr"),
	};
	const struct mem_map *fw = req->memmap;
	size_t i;
	int ret = 0;

	if (cs->backup_len)
		ret = memmap_add(&cs->map, cs->backup_src,
				 cs->backup_src + cs->backup_len, MEM_RAM);
	for (i = 0; !ret && i < cs->low.n; i++)
		ret = memmap_add(&cs->map, cs->low.r[i].start, cs->low.r[i].end,
				 MEM_RAM);
	for (i = 0; !ret && i < img->usable.n; i++)
		ret = add_ram_minus(&cs->map, img->usable.r[i].start,
				    img->usable.r[i].end, cuts, 2);
	for (i = 0; !ret && i < fw->n; i++)
		if (fw->r[i].type != MEM_RAM)
			ret = memmap_add(&cs->map, fw->r[i].start, fw->r[i].end,
					 fw->r[i].type);
	if (!ret)
		memmap_normalize(&cs->map);
	return ret;
}

static int append_word(struct cmdline *cl, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int append_word(struct cmdline *cl, const char *fmt, ...)
{
	char word[96];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(word, sizeof(word), fmt, ap);
	va_end(ap);
	return cmdline_append(cl, word);
}

/* memmap=exactmap and one memmap= word per range, as e820.c parses them. */
static int memmap_words(const struct mem_map *map, struct cmdline *cl)
{
	size_t i;
	int ret = cmdline_append(cl, "memmap=exactmap");

	for (i = 0; !ret && i < map->n; i++) {
		const struct mem_range *r = &map->r[i];
		char kind = r->type == MEM_RAM ? '@' :
			    r->type == MEM_ACPI || r->type == MEM_NVS ? '#' :
			    r->type == MEM_PRAM ? '!' : '$';

		/* memmap= takes KiB granularity: round inwards for RAM. */
		uint64_t s = r->type == MEM_RAM ? align_up(r->start, 1024) :
						  align_down(r->start, 1024);
		uint64_t e = r->type == MEM_RAM ? align_down(r->end, 1024) :
						  align_up(r->end, 1024);

		if (e > s)
			ret = append_word(cl, "memmap=%" PRIu64 "K%c%" PRIu64 "K",
					  (e - s) >> 10, kind, s >> 10);
	}
	return ret;
}

static int add_cmdline_words(const struct load_request *req,
			     struct arch_hand_over *cs)
{
	uint64_t pfn;
	int ret;

	if (cs->preserve)
		return req->aopts->pass_memmap_cmdline ?
			memmap_words(&cs->map, &cs->extra) : 0;
	ret = append_word(&cs->extra, "elfcorehdr=%" PRIu64 "K",
			  cs->elfcorehdr >> 10);
	if (ret)
		return ret;
	/* An explicit kexec_backup= in --append wins (testing the kernel). */
	if (cs->backup_len && !cmdline_has_key(req->cmdline, "kexec_backup="))
		ret = append_word(&cs->extra, "kexec_backup=0x%" PRIx32 "@0x%"
					  PRIx32 ":0x%" PRIx32, cs->backup_len,
					  cs->backup_src, cs->backup_dst);
	if (!ret && req->aopts->pass_memmap_cmdline)
		ret = memmap_words(&cs->map, &cs->extra);
	if (ret || req->spec->no_jump)
		return ret;
	/* An explicit kexec_jump_buf_pfn= in --append wins (testing, nesting). */
	if (cmdline_has_key(req->cmdline, "kexec_jump_buf_pfn=")) {
		cs->jump = true;
		return 0;
	}
	ret = read_jump_buf_pfn(req->ctx, &pfn);
	/*
	 * -ENOENT: a stock kernel.  -EPERM: hidden by lockdown's
	 * confidentiality level, which forbids jumps too.  -ENODEV: the
	 * kernel has no jump buffer (memory encryption).  B is an ordinary
	 * crash kernel in each case.
	 */
	if (ret == -ENOENT || ret == -EPERM || ret == -ENODEV)
		return 0;
	if (ret) {
		kj_err(req->ctx, "/sys/kernel/kexec_jump_buf_pfn: %s",
		       ret == -EINVAL ? "not a valid page frame number" :
					strerror(-ret));
		return ret;
	}
	cs->jump = true;
	return append_word(&cs->extra, "kexec_jump_buf_pfn=0x%" PRIx64, pfn);
}

/* B's map and command-line words, then the load's kexec flag. */
static int tell_next_kernel(const struct load_request *req,
			    struct kexec_image *img, struct arch_hand_over *cs,
			    unsigned long flag)
{
	int ret = build_crash_map(req, img, cs);

	if (!ret)
		ret = add_cmdline_words(req, cs);
	if (!ret)
		img->flags |= flag;
	/* A crash image that can be jumped into asks the kernel for it. */
	if (!ret && cs->jump)
		img->flags |= KEXEC_PRESERVE_CONTEXT;
	return ret;
}

int crash_prepare(const struct load_request *req, struct kexec_image *img,
		  struct arch_hand_over *cs)
{
	struct mem_map ram;
	char *iomem = NULL;
	uint64_t dst;
	int ret;

	memmap_init(&ram);
	ret = iomem_read(req->ctx, &iomem);
	if (ret)
		goto out;
	ret = iomem_crash_region_for_load(req->ctx, iomem, &cs->region);
	if (ret)
		goto out;
	/* Without CAP_SYS_ADMIN the kernel prints every address as 0. */
	if (!cs->region.start && cs->region.end == 1) {
		kj_err(req->ctx, "-p: /proc/iomem shows no addresses (not root?)");
		ret = -EPERM;
		goto out;
	}
	if (cs->region.start > x86_arch.place_max) {
		kj_err(req->ctx, "-p: the crash region 0x%" PRIx64 "-0x%" PRIx64 " lies above 0x%" PRIx64 ", where this kexec places no segment (crashkernel=...,high?); load with -s (kexec_file_load)",
		       cs->region.start, cs->region.end - 1, x86_arch.place_max);
		ret = -ERANGE;
		goto out;
	}
	ret = old_ram(req->ctx, iomem, &ram);
	if (!ret)
		ret = x86_arch.low_backup ?
		      find_backup_source(req->ctx, &ram, cs) :
		      clip_ram(&ram, 0, X86_MIB, &cs->low);
	if (!ret)
		ret = restrict_to_region(img, &ram, cs);
	if (ret)
		goto out;
	if (x86_arch.low_backup) {
		ret = image_add_buffer(img, "backup", NULL, 0,
				       align_up(cs->backup_len, PAGE_SIZE_4K),
				       PAGE_SIZE_4K, 0, UINT64_MAX, true, &dst);
		if (ret)
			goto out;
		cs->backup_dst = (uint32_t)dst;
	}
	ret = add_elfcorehdr(req, &ram, img, cs);
	if (!ret)
		ret = tell_next_kernel(req, img, cs, KEXEC_ON_CRASH);
out:
	memmap_free(&ram);
	free(iomem);
	return ret;
}

static uint64_t ram_bytes(const struct mem_map *map)
{
	uint64_t sum = 0;
	size_t i;

	for (i = 0; i < map->n; i++)
		sum += map->r[i].end - map->r[i].start;
	return sum;
}

/*
 * The kernel refuses an image whose pages add up to more than half of
 * RAM (sanity_check_segment_list): say so before it does.
 */
static int check_window(const struct kj_ctx *ctx, const struct mem_map *ram,
			const struct kexec_image *img,
			const struct arch_hand_over *cs)
{
	uint64_t want = ram_bytes(&img->usable) + cs->backup_len;

	if (!img->usable.n) {
		kj_err(ctx, "--mem-max: no RAM in the window 0x%" PRIx64 "-0x%" PRIx64,
		       cs->region.start, cs->region.end - 1);
		return -ERANGE;
	}
	if (want > ram_bytes(ram) / 2) {
		kj_err(ctx, "--mem-max: the window holds %" PRIu64 " MiB, more than half of RAM (%" PRIu64 " MiB), which the kernel refuses",
		       want >> 20, ram_bytes(ram) >> 20);
		return -E2BIG;
	}
	return 0;
}

int preserve_prepare(const struct load_request *req, struct kexec_image *img,
		     struct arch_hand_over *cs)
{
	const struct kj_load_spec *o = req->spec;
	struct mem_map ram;
	char *iomem = NULL;
	int ret;

	cs->preserve = true;
	cs->region.start = o->mem_min > X86_MIB ? o->mem_min : X86_MIB;
	cs->region.end = o->mem_max == UINT64_MAX ? o->mem_max : o->mem_max + 1;
	memmap_init(&ram);
	ret = iomem_read(req->ctx, &iomem);
	if (!ret)
		ret = old_ram(req->ctx, iomem, &ram);
	if (!ret)
		ret = find_backup_source(req->ctx, &ram, cs);
	if (!ret) {
		ret = restrict_to_region(img, &ram, cs);
		if (ret == -ENOENT)
			ret = 0;	/* no RAM in the window: said below */
	}
	if (!ret)
		ret = check_window(req->ctx, &ram, img, cs);
	/*
	 * No ELF core header: the notes it would point at (per-CPU crash
	 * notes, vmcoreinfo) are in this kernel's memory, which the window
	 * swaps away, and 6.1 WARNs and gives up on a header without notes.
	 */
	if (!ret)
		ret = tell_next_kernel(req, img, cs, KEXEC_PRESERVE_CONTEXT);
	memmap_free(&ram);
	free(iomem);
	return ret;
}

int preserve_fill(struct kexec_image *img, const struct arch_hand_over *cs)
{
	size_t i;
	int ret;

	ret = image_fill_range(img, cs->backup_src,
			       cs->backup_src + cs->backup_len);
	for (i = 0; !ret && i < img->usable.n; i++)
		ret = image_fill_range(img, img->usable.r[i].start,
				       img->usable.r[i].end);
	return ret;
}

int arch_hand_over_prepare(const struct load_request *req,
			   struct kexec_image *img, struct arch_hand_over **ho,
			   const char **words, const struct mem_map **e820)
{
	struct arch_hand_over *cs;
	int ret;

	cs = calloc(1, sizeof(*cs));
	*ho = cs;
	if (!cs) {
		kj_err(req->ctx, "hand-over: out of memory");
		return -ENOMEM;
	}
	hand_over_init(cs);
	if (req->spec->mode == KJ_LOAD_CRASH)
		ret = crash_prepare(req, img, cs);
	else
		ret = preserve_prepare(req, img, cs);
	if (ret)
		return ret;
	/* memmap= words carry the map: the kernel then ignores e820. */
	if (!req->aopts->pass_memmap_cmdline)
		*e820 = &cs->map;
	*words = cmdline_str(&cs->extra);
	return 0;
}

int arch_hand_over_finish(const struct load_request *req,
			  struct kexec_image *img)
{
	if (req->spec->mode != KJ_LOAD_PRESERVE)
		return 0;
	return preserve_fill(img, req->ho);
}

void arch_hand_over_free(struct arch_hand_over *ho)
{
	if (!ho)
		return;
	hand_over_free(ho);
	free(ho);
}
