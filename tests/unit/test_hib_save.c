// SPDX-License-Identifier: GPL-2.0-only
/*
 * The image writer end to end: a fake /proc/vmcore (an ELF64 core with
 * two PT_LOADs, 3 MiB of "A's memory": text, noise, zero pages and free
 * pages outside the map, plus the map directory, bitmap, swsusp header,
 * jump record and a VMCOREINFO note), a parameter page, and a plain file
 * as the device with a PREPARED header and two extents out of physical
 * order.  kjs_save() writes the image; the reader gets every page back,
 * verify passes; a damaged chunk and a torn commit are caught.
 */
#define _FILE_OFFSET_BITS 64
#include <elf.h>
#include <fcntl.h>
#include <sys/wait.h>

#include "elf-core.h"
#include "kjump/hib/image-write.h"
#include "hib/swsusp-stream.h"
#include "save.h"
#include "unit.h"

#define MEM_PAGES	768u		/* pfns 0..767 */
#define CORE_DATA	0x10000u	/* memory starts here in the core */
#define NOTE_OFF	0x8000u
#define MIB		(1024u * 1024u)
#define DEV_SIZE	(8u * MIB)
#define EXT0_PHYS	(5u * MIB)	/* block 0: the image's offset */
#define EXT0_LEN	(2u * MIB)
#define EXT1_PHYS	(1u * MIB)
#define EXT1_LEN	(3u * MIB)
#define DIR_PFN		1u
#define BITMAP_PFN	2u
#define SWSUSP_PFN	3u
#define JUMP_PFN	4u
#define SUPERS_PFN	5u		/* A's kernel's list of its fs */
#define FS_MAJOR	8u		/* the fake ext4 A had mounted */
#define FS_MINOR	1u
#define JUMP_ENTRY	0x1234567ull
#define BUILD_ID	"0123456789abcdef"

struct fake {
	const char *dir;
	char core[4096], dev[4096];
	char root[1024];		/* the job's root: A's fs device */
	uint8_t *mem;			/* MEM_PAGES pages */
	bool in_map[MEM_PAGES];
	uint64_t map_pages, zero_pages;
	struct kj_jump_param param;
	struct kjh_request req;
	bool no_mmap;			/* the job reads the core */
	uint32_t fs_crc;		/* of the fake ext4's superblock */
};

static uint32_t next_rand(uint32_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 17;
	*x ^= *x << 5;
	return *x;
}

static bool pfn_in_map(uint32_t pfn)
{
	if (pfn < 16 || pfn >= 740)
		return pfn <= JUMP_PFN && pfn >= DIR_PFN;
	return !(pfn >= 300 && pfn < 350);	/* free pages: not saved */
}

/* A's memory: text, noise (pfns 500..599), zero pages, free pages. */
static void fill_memory(struct fake *f)
{
	uint32_t x = 88172645u, pfn;
	size_t i;

	for (pfn = 16; pfn < MEM_PAGES; pfn++) {
		uint8_t *p = f->mem + (size_t)pfn * 4096;

		if ((pfn >= 100 && pfn < 130) || pfn == 400 || pfn == 402)
			continue;			/* zero */
		if (pfn >= 300 && pfn < 350) {
			memset(p, 0xee, 4096);		/* free */
			continue;
		}
		for (i = 0; i < 4096; i++)
			p[i] = pfn >= 500 && pfn < 600 ? (uint8_t)next_rand(&x) :
			       (uint8_t)("A's memory, page "[i % 17] + pfn % 7);
	}
}

static void fill_map(struct fake *f)
{
	uint64_t *dir = (uint64_t *)(f->mem + DIR_PFN * 4096);
	uint8_t *bits = f->mem + BITMAP_PFN * 4096;
	uint8_t *sw = f->mem + SWSUSP_PFN * 4096;
	uint8_t *jr = f->mem + JUMP_PFN * 4096 + 0x900;
	uint32_t pfn, magic = 0x504d4a4bu, ver = 1;
	uint64_t entry = JUMP_ENTRY;

	dir[0] = BITMAP_PFN;
	for (pfn = 0; pfn < MEM_PAGES; pfn++) {
		if (!pfn_in_map(pfn))
			continue;
		bits[pfn / 8] |= (uint8_t)(1u << (pfn % 8));
		f->in_map[pfn] = true;
		f->map_pages++;
	}
	memcpy(sw, "Linux", 6);
	memcpy(sw + 65, "a", 2);
	memcpy(sw + 130, "6.1.0-kjump", 12);
	memcpy(sw + 195, "#1 SMP PREEMPT", 15);
	memcpy(sw + 260, "i686", 5);
	memcpy(jr, &magic, 4);
	memcpy(jr + 4, &ver, 4);
	memcpy(jr + 8, &entry, 8);
}

/* A's kernel's list: one ext4 on FS_MAJOR:FS_MINOR, named sdz. */
static void fill_supers(struct fake *f, const char *type)
{
	struct kj_jump_super *sup = (void *)(f->mem + SUPERS_PFN * 4096);
	unsigned int i;

	memset(sup, 0, sizeof(*sup));
	sup->dev = sup->bdev = FS_MAJOR << 8 | FS_MINOR;
	for (i = 0; i < 16; i++)
		sup->uuid[i] = (uint8_t)(0x30 + i);
	snprintf(sup->type, sizeof(sup->type), "%s", type);
	snprintf(sup->id, sizeof(sup->id), "sdz");
}

static void mkdir_p(struct unit_ctx *ctx, const char *path)
{
	char buf[4096], *p;

	snprintf(buf, sizeof(buf), "%s", path);
	for (p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0755) && errno != EEXIST)
			FAILF("mkdir %s: %s", buf, strerror(errno));
		*p = '/';
	}
	if (mkdir(buf, 0755) && errno != EEXIST)
		FAILF("mkdir %s: %s", buf, strerror(errno));
}

/*
 * The device of that file system, below the job's root: an ext4
 * superblock without a journal, and the uevent that names it.
 */
static void make_fs_dev(struct unit_ctx *ctx, struct fake *f)
{
	uint8_t img[2048] = { 0 }, *sb = img + 1024;
	char path[4096];
	unsigned int i;

	sb[0x38] = 0x53;
	sb[0x39] = 0xef;
	for (i = 0; i < 16; i++)
		sb[0x68 + i] = (uint8_t)(0x30 + i);
	snprintf(f->root, sizeof(f->root), "%.1000s/root", f->dir);
	snprintf(path, sizeof(path), "%s/sys/dev/block/%u:%u", f->root,
		 FS_MAJOR, FS_MINOR);
	mkdir_p(ctx, path);
	snprintf(path, sizeof(path), "%s/dev", f->root);
	mkdir_p(ctx, path);
	unit_write_file(ctx, f->root, "dev/sdz", img, sizeof(img));
	snprintf(path, sizeof(path), "sys/dev/block/%u:%u/uevent", FS_MAJOR,
		 FS_MINOR);
	unit_write_file(ctx, f->root, path, "MAJOR=8\nMINOR=1\nDEVNAME=sdz\n",
			(size_t)-1);
	f->fs_crc = kjh_crc32c(0, sb, 1020);	/* all but s_checksum */
}

static size_t put_note(uint8_t *p)
{
	static const char desc[] = "OSRELEASE=6.1.0\nBUILD-ID=" BUILD_ID
				   "\nPAGESIZE=4096\n";
	uint32_t hdr[3] = { 11, sizeof(desc) - 1, 0 };

	memcpy(p, hdr, sizeof(hdr));
	memcpy(p + 12, "VMCOREINFO", 11);
	memcpy(p + 24, desc, sizeof(desc) - 1);
	return 24 + ((sizeof(desc) - 1 + 3) & ~3u);
}

static void write_core(struct unit_ctx *ctx, struct fake *f)
{
	static const struct elfcore_load loads[] = {
		{ 0, 0x100000, CORE_DATA },
		{ 0x100000, MEM_PAGES * 4096u - 0x100000, CORE_DATA + 0x100000 },
	};
	struct elfcore_note note = { NOTE_OFF, 0 };
	struct elfcore_spec spec = {
		.elf_class = 64, .machine = EM_386,
		.page_offset = 0xc0000000ull, .lowmem_limit = 0x38000000ull,
		.notes = &note, .nr_notes = 1, .loads = loads, .nr_loads = 2,
	};
	size_t len = CORE_DATA + MEM_PAGES * 4096u;
	uint8_t *buf = unit_alloc(ctx, len);

	note.size = put_note(buf + NOTE_OFF);
	CHECK(elfcore_size(&spec) <= NOTE_OFF);
	elfcore_build(&spec, buf);
	memcpy(buf + CORE_DATA, f->mem, MEM_PAGES * 4096u);
	unit_write_file(ctx, f->dir, "vmcore", buf, len);
	snprintf(f->core, sizeof(f->core), "%s/vmcore", f->dir);
}

static void dev_write(struct unit_ctx *ctx, const struct fake *f,
		      const void *buf, size_t len, uint64_t phys)
{
	int fd = open(f->dev, O_WRONLY);

	CHECK(fd >= 0);
	CHECK_EQ_INT(pwrite(fd, buf, len, (off_t)phys), (ssize_t)len);
	close(fd);
}

/* What A writes before the jump: header PREPARED, extents, RAM map. */
static void prepare_dev(struct unit_ctx *ctx, struct fake *f,
			uint64_t capacity)
{
	struct kjh_header h;
	uint8_t blk[KJH_EXTENTS_BLOCKS * KJH_BLOCK];
	struct kjh_extents *x = (struct kjh_extents *)blk;
	struct kjh_extent *e = (struct kjh_extent *)(x + 1);
	/* adjacent ranges; the pages of a partial one count as RAM */
	struct kjh_ram_range ram[2] = { { 0, 0xffbff },
					{ 0x100000, MEM_PAGES * 4096u - 1 } };
	int fd;

	snprintf(f->dev, sizeof(f->dev), "%s/dev", f->dir);
	fd = open(f->dev, O_RDWR | O_CREAT | O_TRUNC, 0600);
	CHECK(fd >= 0);
	CHECK_EQ_INT(ftruncate(fd, DEV_SIZE), 0);
	close(fd);
	memset(&h, 0, sizeof(h));
	memcpy(h.magic, KJH_MAGIC, 8);
	h.version = KJH_VERSION;
	h.header_size = KJH_BLOCK;
	h.state = KJH_STATE_PREPARED;
	memcpy(h.nonce, f->req.nonce, KJH_NONCE_LEN);
	h.created = 1700000000;
	h.capacity = capacity;
	/* A's uname (the x86 swsusp header holds none) */
	snprintf(h.id.release, sizeof(h.id.release), "6.1.0-kjump");
	snprintf(h.id.version, sizeof(h.id.version), "#1 SMP PREEMPT");
	snprintf(h.id.machine, sizeof(h.id.machine), "i686");
	snprintf(h.id.boot_id, sizeof(h.id.boot_id),
		 "0b7c4a9e-3d55-4bd6-9a0e-5f7f1c2d9e01");
	h.crash_start = 0x1000000;
	h.crash_end = 0x3ffffff;
	h.jump_buf_pfn = JUMP_PFN;
	h.page_size = 4096;
	h.ram_off = KJH_DATA_OFF;
	h.ram_count = 2;
	h.fs_off = KJH_DATA_OFF + KJH_BLOCK;
	h.sections_crc = kjh_sections_crc(ram, 2, NULL, 0);
	kjh_header_seal(&h);
	dev_write(ctx, f, &h, sizeof(h), EXT0_PHYS);
	dev_write(ctx, f, ram, sizeof(ram), EXT0_PHYS + KJH_DATA_OFF);

	memset(blk, 0, sizeof(blk));
	memcpy(x->magic, KJH_EXTENTS_MAGIC, 8);
	memcpy(x->nonce, f->req.nonce, KJH_NONCE_LEN);
	x->dev_major = f->req.dev_major;
	x->dev_minor = f->req.dev_minor;
	x->dev_size = DEV_SIZE;
	x->count = 2;
	e[0] = (struct kjh_extent){ 0, EXT0_PHYS, EXT0_LEN };
	e[1] = (struct kjh_extent){ EXT0_LEN, EXT1_PHYS, EXT1_LEN };
	x->crc = kjh_extents_crc(e, 2);
	dev_write(ctx, f, blk, sizeof(blk), EXT0_PHYS + KJH_BLOCK);
}

static struct fake *make_fake(struct unit_ctx *ctx, enum kjh_compress m,
			      enum kjh_mode mode, uint64_t capacity)
{
	struct fake *f = unit_alloc(ctx, sizeof(*f));
	struct kjh_request *r = &f->req;
	unsigned int i;
	int len;

	f->dir = unit_tmpdir(ctx);
	f->mem = unit_alloc(ctx, MEM_PAGES * 4096u);
	r->mode = mode;
	r->dev_major = 7;
	r->dev_minor = 3;
	r->dev_size = DEV_SIZE;
	r->offset = EXT0_PHYS;
	r->capacity = capacity;
	for (i = 0; i < KJH_NONCE_LEN; i++)
		r->nonce[i] = (uint8_t)(i * 17 + 1);
	r->compress = m;
	r->threads = 3;
	fill_memory(f);
	fill_map(f);
	fill_supers(f, "ext4");
	write_core(ctx, f);
	make_fs_dev(ctx, f);
	prepare_dev(ctx, f, capacity);

	f->param.magic = KJ_JUMP_PARAM_MAGIC;
	f->param.version = KJ_JUMP_PARAM_VERSION;
	f->param.size = KJ_JUMP_PARAM_SIZE;
	f->param.flags = KJ_JUMP_PARAM_HAS_MAP | KJ_JUMP_PARAM_HAS_SUPERS;
	f->param.supers = SUPERS_PFN * 4096;
	f->param.super_count = 1;
	f->param.map_dir = DIR_PFN * 4096;
	f->param.map_pfn_end = MEM_PAGES;
	f->param.map_pages = f->map_pages;
	f->param.snapshot_header = SWSUSP_PFN * 4096;
	f->param.free_pages = 50;
	f->param.kernel_word = 4;
	len = kjh_request_format(r, f->param.request, KJ_JUMP_REQUEST_MAX);
	CHECK(len > 0);
	f->param.request_len = (uint32_t)len;
	return f;
}

static int save(struct unit_ctx *ctx, struct fake *f, struct kjh_status *st)
{
	struct kjs_job job = {
		.ctx = unit_kj(ctx, ""), .param = &f->param, .req = &f->req,
		.vmcore = f->core, .dev = f->dev, .no_mmap = f->no_mmap,
		.root = f->root,
	};
	int r;

	unit_capture_start(ctx);
	r = kjs_save(&job, st);
	unit_capture_stop(ctx);
	return r;
}

/* The image through its extents, as a resume would see it. */
struct opened {
	int fd;
	struct kjh_dev dev;
	struct kjh_image img;
};

static void close_opened(void *arg)
{
	struct opened *o = arg;

	kjh_image_close(&o->img);
	kjh_dev_fini(&o->dev);
	close(o->fd);
}

static int open_image(struct unit_ctx *ctx, const struct fake *f,
		      struct opened *o, char *why, size_t size)
{
	static const struct kjh_extent ext[2] = {
		{ 0, EXT0_PHYS, EXT0_LEN }, { EXT0_LEN, EXT1_PHYS, EXT1_LEN },
	};
	int r;

	memset(o, 0, sizeof(*o));
	o->fd = open(f->dev, O_RDONLY);
	CHECK(o->fd >= 0);
	CHECK_EQ_INT(kjh_dev_init(&o->dev, o->fd, ext, 2, f->req.capacity), 0);
	r = kjh_image_open(&o->img, &o->dev, why, size);
	unit_defer(ctx, close_opened, o);
	return r;
}

struct walk {
	struct unit_ctx *ctx;
	const struct fake *f;
	uint64_t pages, zero, last;
	char err[160];
};

static int check_page(void *data, uint64_t pfn, const void *page)
{
	struct walk *w = data;
	const uint8_t *want = w->f->mem + pfn * 4096;
	static const uint8_t zero[4096];

	if (pfn >= MEM_PAGES || !w->f->in_map[pfn] ||
	    (w->pages && pfn <= w->last)) {
		snprintf(w->err, sizeof(w->err), "pfn %llu out of place",
			 (unsigned long long)pfn);
		return 1;
	}
	if (memcmp(page ? page : zero, want, 4096)) {
		snprintf(w->err, sizeof(w->err), "pfn %llu differs%s",
			 (unsigned long long)pfn, page ? "" : " (zero)");
		return 1;
	}
	w->zero += !page;
	w->pages++;
	w->last = pfn;
	return 0;
}

static void check_image(struct unit_ctx *ctx, struct fake *f,
			struct opened *o)
{
	const struct kjh_header *h = &o->img.hdr;
	struct walk w = { ctx, f, 0, 0, 0, "" };
	uint8_t page[4096];
	char why[160];
	uint64_t bad = 0;

	CHECK_EQ_U64(h->pages, f->map_pages);
	CHECK_EQ_U64(h->zero_pages, 32 + 0);	/* 100..129, 400, 402 */
	CHECK_EQ_U64(h->data_pages, f->map_pages - 32);
	CHECK_EQ_U64(h->jump_entry, JUMP_ENTRY);
	CHECK_EQ_U64(h->kernel_word, 4);
	CHECK_STR(h->id.release, "6.1.0-kjump");
	CHECK_STR(h->id.machine, "i686");
	CHECK_STR(h->id.version, "#1 SMP PREEMPT");
	CHECK_EQ_INT(h->id.build_id_len, 8);
	CHECK_EQ_U64(h->id.build_id[7], 0xef);
	CHECK_STR(h->id.boot_id, "0b7c4a9e-3d55-4bd6-9a0e-5f7f1c2d9e01");
	CHECK_EQ_U64(h->ram_count, 2);
	/* after the RAM map's block and the file system table's slots */
	CHECK_EQ_U64(h->swsusp_off, KJH_DATA_OFF + KJH_BLOCK +
		     kjh_round_up(KJH_FS_SLOTS * sizeof(struct kjh_fs)));
	CHECK(h->image_bytes > EXT0_LEN || f->req.compress);
	CHECK_MEM(o->img.swsusp, f->mem + SWSUSP_PFN * 4096, 4096);
	if (kjh_image_for_each_page(&o->img, check_page, &w, why, sizeof(why)))
		FAILF("pages: %s%s", w.err, why);
	CHECK_EQ_U64(w.pages, f->map_pages);
	CHECK_EQ_U64(w.zero, 32);
	CHECK_EQ_INT(kjh_image_verify(&o->img, &bad, why, sizeof(why)), 0);
	CHECK_EQ_INT(kjh_image_find_page(&o->img, 555, page, why,
					 sizeof(why)), 1);
	CHECK_MEM(page, f->mem + 555 * 4096, 4096);
	CHECK_EQ_INT(kjh_image_find_page(&o->img, 310, page, why,
					 sizeof(why)), 0);
}

/* Byte off of the image's logical space, changed on the device. */
static void damage(struct unit_ctx *ctx, const struct fake *f, uint64_t off)
{
	uint64_t phys = off < EXT0_LEN ? EXT0_PHYS + off :
				EXT1_PHYS + off - EXT0_LEN;
	int fd = open(f->dev, O_RDWR);
	uint8_t b;

	CHECK(fd >= 0);
	CHECK_EQ_INT(pread(fd, &b, 1, (off_t)phys), 1);
	b ^= 0x40;
	CHECK_EQ_INT(pwrite(fd, &b, 1, (off_t)phys), 1);
	close(fd);
}

/* len bytes at logical off of f's image (inside one extent) */
static void io_at(struct unit_ctx *ctx, const struct fake *f, uint64_t off,
		  void *buf, size_t len, bool wr)
{
	uint64_t phys = off < EXT0_LEN ? EXT0_PHYS + off :
				EXT1_PHYS + off - EXT0_LEN;
	int fd = open(f->dev, O_RDWR);

	CHECK(fd >= 0);
	CHECK(off >= EXT0_LEN || off + len <= EXT0_LEN);
	CHECK_EQ_INT(wr ? pwrite(fd, buf, len, (off_t)phys) :
		     pread(fd, buf, len, (off_t)phys), (ssize_t)len);
	close(fd);
}

static void put_at(struct unit_ctx *ctx, const struct fake *f, uint64_t off,
		   const void *buf, size_t len)
{
	io_at(ctx, f, off, (void *)buf, len, true);
}

static void get_at(struct unit_ctx *ctx, const struct fake *f, uint64_t off,
		   void *buf, size_t len)
{
	io_at(ctx, f, off, buf, len, false);
}

static void save_and_check(struct unit_ctx *ctx, enum kjh_compress m,
			   bool no_mmap)
{
	struct fake *f = make_fake(ctx, m, KJH_MODE_SNAPSHOT, 5 * MIB);
	struct opened *o = unit_alloc(ctx, sizeof(*o));
	struct opened *o2 = unit_alloc(ctx, sizeof(*o2));
	struct kjh_status st;
	char why[160];
	uint64_t bad = 0, k;

	f->no_mmap = no_mmap;
	if (save(ctx, f, &st))
		FAILF("kjs_save: %s", st.reason);
	CHECK_EQ_INT(st.result, KJH_RESULT_OK);
	CHECK_EQ_U64(st.pages, f->map_pages);
	if (open_image(ctx, f, o, why, sizeof(why)))
		FAILF("open: %s", why);
	CHECK_EQ_U64(o->img.hdr.flags & KJH_F_SNAPSHOT, KJH_F_SNAPSHOT);
	CHECK_EQ_U64(o->img.hdr.compress, m);
	CHECK_EQ_U64(st.image_bytes, o->img.hdr.image_bytes);
	if (m != KJH_COMPRESS_NONE)
		CHECK(o->img.hdr.stored_bytes < o->img.hdr.raw_bytes / 2);
	else
		CHECK_EQ_U64(o->img.hdr.stored_bytes, o->img.hdr.raw_bytes);
	/* the chunks reach into the second extent */
	CHECK(o->img.index[o->img.hdr.chunk_count - 1].off >= EXT0_LEN ||
	      m != KJH_COMPRESS_NONE);
	check_image(ctx, f, o);

	/* one stored byte of chunk k changed: verify names chunk k */
	k = o->img.hdr.chunk_count / 2;
	damage(ctx, f, o->img.index[k].off + sizeof(struct kjh_chunk) + 100);
	CHECK(kjh_image_verify(&o->img, &bad, why, sizeof(why)) < 0);
	CHECK_EQ_U64(bad, k);
	CHECK_CONTAINS(why, "stored data's checksum");

	/* the commit record damaged: torn */
	damage(ctx, f, o->img.hdr.commit_off + 3);
	CHECK(open_image(ctx, f, o2, why, sizeof(why)) < 0);
	CHECK_CONTAINS(why, "torn");
}

TEST(save_none)
{
	save_and_check(ctx, KJH_COMPRESS_NONE, false);
}

TEST(save_lz4)
{
	save_and_check(ctx, KJH_COMPRESS_LZ4, false);
}

TEST(save_zstd)
{
	save_and_check(ctx, KJH_COMPRESS_ZSTD, false);
}

/* The core read, not mapped: the same image. */
TEST(save_none_read)
{
	save_and_check(ctx, KJH_COMPRESS_NONE, true);
}

TEST(save_lz4_read)
{
	save_and_check(ctx, KJH_COMPRESS_LZ4, true);
}

TEST(save_hibernate_mode_no_snapshot_flag)
{
	struct fake *f = make_fake(ctx, KJH_COMPRESS_LZ4, KJH_MODE_HIBERNATE,
				   5 * MIB);
	struct opened *o = unit_alloc(ctx, sizeof(*o));
	struct kjh_status st;
	char why[160];

	if (save(ctx, f, &st))
		FAILF("kjs_save: %s", st.reason);
	if (open_image(ctx, f, o, why, sizeof(why)))
		FAILF("open: %s", why);
	CHECK_EQ_U64(o->img.hdr.flags & KJH_F_SNAPSHOT, 0);
}

static void header_state(struct unit_ctx *ctx, const struct fake *f,
			 uint32_t *state);

/* B's table: what A's kernel listed, fingerprinted from the device. */
TEST(filesystems_recorded)
{
	struct fake *f = make_fake(ctx, KJH_COMPRESS_LZ4, KJH_MODE_HIBERNATE,
				   5 * MIB);
	struct opened *o = unit_alloc(ctx, sizeof(*o));
	struct kjh_status st;
	const struct kjh_fs *fs;
	char why[160];
	unsigned int i;

	if (save(ctx, f, &st))
		FAILF("kjs_save: %s", st.reason);
	if (open_image(ctx, f, o, why, sizeof(why)))
		FAILF("open: %s", why);
	CHECK_EQ_INT(o->img.hdr.fs_count, 1);
	fs = &o->img.fs[0];
	CHECK_STR(fs->type, "ext4");
	CHECK_STR(fs->name, "sdz");	/* A's own list did not have it */
	CHECK_EQ_INT(fs->dev_major, FS_MAJOR);
	CHECK_EQ_INT(fs->dev_minor, FS_MINOR);
	CHECK_EQ_INT(fs->flags, KJH_FS_PRINTED);	/* no journal */
	CHECK_EQ_U64(fs->sb_crc, f->fs_crc);
	for (i = 0; i < 16; i++)
		CHECK_EQ_INT(fs->uuid[i], 0x30 + i);
}

/* More pages than the resume will have room for: refused, nothing kept. */
TEST(refuses_more_than_a_resume_holds)
{
	struct fake *f = make_fake(ctx, KJH_COMPRESS_LZ4, KJH_MODE_HIBERNATE,
				   5 * MIB);
	struct kjh_status st;

	f->req.max_pages = kjh_restore_need(f->map_pages) - 1;
	CHECK_EQ_INT(save(ctx, f, &st), -ENOMEM);
	CHECK_STR(st.reason, "A has 2 MiB to save, and a resume would have room for 2 MiB: free memory in A, or hibernate with --drop-caches");
	f->req.max_pages = kjh_restore_need(f->map_pages);
	if (save(ctx, f, &st))
		FAILF("kjs_save: %s", st.reason);
}

/* A type with no fingerprint: a hibernation fails, a snapshot goes on. */
TEST(filesystems_unprintable)
{
	struct fake *f = make_fake(ctx, KJH_COMPRESS_LZ4, KJH_MODE_HIBERNATE,
				   5 * MIB);
	struct opened *o = unit_alloc(ctx, sizeof(*o));
	struct kjh_status st;
	uint32_t state;
	char why[160];

	fill_supers(f, "btrfs");
	write_core(ctx, f);
	CHECK(save(ctx, f, &st) < 0);
	CHECK_STR(st.reason, "sdz (btrfs): a resume could not tell whether it changed in between");
	header_state(ctx, f, &state);
	CHECK_EQ_INT(state, KJH_STATE_INVALID);

	f = make_fake(ctx, KJH_COMPRESS_LZ4, KJH_MODE_SNAPSHOT, 5 * MIB);
	fill_supers(f, "btrfs");
	write_core(ctx, f);
	if (save(ctx, f, &st))
		FAILF("kjs_save: %s", st.reason);
	if (open_image(ctx, f, o, why, sizeof(why)))
		FAILF("open: %s", why);
	CHECK_EQ_INT(o->img.hdr.fs_count, 1);
	CHECK_EQ_INT(o->img.fs[0].flags, 0);

	/* another file system on the device than A's kernel mounted */
	f = make_fake(ctx, KJH_COMPRESS_LZ4, KJH_MODE_HIBERNATE, 5 * MIB);
	((struct kj_jump_super *)(f->mem + SUPERS_PFN * 4096))->uuid[0] = 1;
	write_core(ctx, f);
	CHECK(save(ctx, f, &st) < 0);
	CHECK_STR(st.reason, "sdz (8:1): its device holds another ext4 than A's kernel mounted (uuid)");

	/* a kernel without the list */
	f = make_fake(ctx, KJH_COMPRESS_LZ4, KJH_MODE_HIBERNATE, 5 * MIB);
	f->param.flags &= ~KJ_JUMP_PARAM_HAS_SUPERS;
	CHECK(save(ctx, f, &st) < 0);
	CHECK_CONTAINS(st.reason, "A's kernel did not list its file systems");
}

/* The image of f, read back after one byte at logical off flipped. */
static void refused_after_damage(struct unit_ctx *ctx, struct fake *f,
				 uint64_t off, const char *want)
{
	struct opened *o = unit_alloc(ctx, sizeof(*o));
	char why[200];

	damage(ctx, f, off);
	CHECK_EQ_INT(open_image(ctx, f, o, why, sizeof(why)), -EBADMSG);
	CHECK_CONTAINS(why, want);
	damage(ctx, f, off);
}

/*
 * Every table the pages' placement depends on is checked: a byte flipped
 * in the runs, the swsusp block or A's sections is refused, as is a run
 * out of order whose checksums were made to match.
 */
TEST(tables_bound_to_the_commit)
{
	struct fake *f = make_fake(ctx, KJH_COMPRESS_LZ4, KJH_MODE_HIBERNATE,
				   5 * MIB);
	struct opened *o = unit_alloc(ctx, sizeof(*o));
	struct kjh_header h;
	struct kjh_commit cm;
	struct kjh_run runs[2];
	struct kjh_status st;
	char why[200];

	if (save(ctx, f, &st))
		FAILF("kjs_save: %s", st.reason);
	if (open_image(ctx, f, o, why, sizeof(why)))
		FAILF("open: %s", why);
	CHECK_EQ_INT(o->img.hdr.state, KJH_STATE_COMMITTED);
	h = o->img.hdr;
	CHECK(h.run_count >= 2);
	refused_after_damage(ctx, f, h.run_off + 16 + 2, "runs' checksum");
	refused_after_damage(ctx, f, h.swsusp_off + 40, "swsusp header's checksum");
	refused_after_damage(ctx, f, h.ram_off + 5, "RAM map and file systems");

	/* runs 0 and 1 swapped, every checksum made to match */
	memcpy(runs, o->img.runs, sizeof(runs));
	o->img.runs[0] = runs[1];
	o->img.runs[1] = runs[0];
	h.runs_crc = kjh_crc32c(0, o->img.runs, (size_t)h.run_count *
				sizeof(struct kjh_run));
	kjh_header_seal(&h);
	put_at(ctx, f, h.run_off, o->img.runs, sizeof(runs));
	put_at(ctx, f, 0, &h, sizeof(h));
	get_at(ctx, f, h.commit_off, &cm, sizeof(cm));
	cm.runs_crc = h.runs_crc;
	kjh_commit_seal(&cm);
	put_at(ctx, f, h.commit_off, &cm, sizeof(cm));
	o = unit_alloc(ctx, sizeof(*o));
	CHECK_EQ_INT(open_image(ctx, f, o, why, sizeof(why)), -EBADMSG);
	CHECK_CONTAINS(why, "run 1 ");
	CHECK_CONTAINS(why, "out of order or outside A's RAM");
}

/* Counts that would wrap a 32-bit size never reach an allocation. */
TEST(counts_bounded_before_reading)
{
	struct fake *f = make_fake(ctx, KJH_COMPRESS_NONE, KJH_MODE_HIBERNATE,
				   5 * MIB);
	struct opened *o = unit_alloc(ctx, sizeof(*o));
	struct kjh_header h;
	struct kjh_status st;
	char why[200];
	int fd;

	if (save(ctx, f, &st))
		FAILF("kjs_save: %s", st.reason);
	fd = open(f->dev, O_RDWR);
	CHECK(fd >= 0);
	CHECK_EQ_INT(pread(fd, &h, sizeof(h), EXT0_PHYS), (ssize_t)sizeof(h));
	h.run_count = 1u << 28;		/* * 16 is 0 in 32 bits */
	kjh_header_seal(&h);
	CHECK_EQ_INT(pwrite(fd, &h, sizeof(h), EXT0_PHYS), (ssize_t)sizeof(h));
	close(fd);
	CHECK_EQ_INT(open_image(ctx, f, o, why, sizeof(why)), -EBADMSG);
	CHECK_CONTAINS(why, "counts do not add up");
}

static void header_state(struct unit_ctx *ctx, const struct fake *f,
			 uint32_t *state)
{
	struct kjh_header h;
	int fd = open(f->dev, O_RDONLY);

	CHECK(fd >= 0);
	CHECK_EQ_INT(pread(fd, &h, sizeof(h), EXT0_PHYS), (ssize_t)sizeof(h));
	close(fd);
	CHECK_EQ_INT(kjh_header_check(&h, NULL, 0), 0);
	*state = h.state;
}

TEST(refuses_another_nonce)
{
	struct fake *f = make_fake(ctx, KJH_COMPRESS_LZ4, KJH_MODE_SNAPSHOT,
				   5 * MIB);
	struct kjh_status st;
	uint32_t state;

	f->req.nonce[3] ^= 1;
	CHECK(save(ctx, f, &st) < 0);
	CHECK_EQ_INT(st.result, KJH_RESULT_ERROR);
	CHECK_CONTAINS(st.reason, "nonce");
	header_state(ctx, f, &state);
	CHECK_EQ_INT(state, KJH_STATE_PREPARED);	/* nothing written */
}

TEST(refuses_page_not_in_vmcore)
{
	struct fake *f = make_fake(ctx, KJH_COMPRESS_LZ4, KJH_MODE_SNAPSHOT,
				   5 * MIB);
	struct kjh_status st;

	f->param.map_pfn_end = 32768;
	/* a bit past the core's memory */
	f->mem[BITMAP_PFN * 4096 + 1000 / 8] |= 1;
	write_core(ctx, f);
	CHECK(save(ctx, f, &st) < 0);
	CHECK_CONTAINS(st.reason, "A's page pfn 0x3e8 is not in");
}

TEST(target_too_small)
{
	struct fake *f = make_fake(ctx, KJH_COMPRESS_NONE, KJH_MODE_SNAPSHOT,
				   EXT0_LEN);
	struct kjh_status st;
	uint32_t state;

	CHECK(save(ctx, f, &st) < 0);
	CHECK_EQ_INT(st.result, KJH_RESULT_ERROR);
	CHECK_CONTAINS(st.reason, "target too small: the image needs ");
	CHECK_CONTAINS(st.reason, "bytes, the target has 2097152");
	header_state(ctx, f, &state);
	CHECK_EQ_INT(state, KJH_STATE_INVALID);
}

static bool cancel_now(void *data)
{
	(void)data;
	return true;
}

TEST(cancelled)
{
	struct fake *f = make_fake(ctx, KJH_COMPRESS_ZSTD, KJH_MODE_SNAPSHOT,
				   5 * MIB);
	struct kjs_job job = {
		.ctx = unit_kj(ctx, ""), .param = &f->param, .req = &f->req,
		.vmcore = f->core, .dev = f->dev, .cancelled = cancel_now,
	};
	struct kjh_status st;
	uint32_t state;

	CHECK_EQ_INT(kjs_save(&job, &st), -ECANCELED);
	CHECK_EQ_INT(st.result, KJH_RESULT_CANCELLED);
	CHECK_STR(st.reason, "cancelled by the user in the image writer");
	header_state(ctx, f, &state);
	CHECK_EQ_INT(state, KJH_STATE_INVALID);
}

/* ------------------------------------------- the programs (built ones) */

static const char *builddir(struct unit_ctx *ctx)
{
	const char *b = getenv("KJUMP_BUILDDIR");

	if (!b || !*b)
		SKIP("KJUMP_BUILDDIR not set (run through make check)");
	return b;
}

/* sh -c cmd, stderr into dir/err; the exit status. */
__attribute__((format(printf, 3, 4)))
static int run_cmd(struct unit_ctx *ctx, const struct fake *f,
		   const char *fmt, ...)
{
	char cmd[8192];
	va_list ap;
	int n, st;

	va_start(ap, fmt);
	n = vsnprintf(cmd, sizeof(cmd) - 64, fmt, ap);
	va_end(ap);
	CHECK(n > 0 && n < (int)sizeof(cmd) - 64);
	snprintf(cmd + n, sizeof(cmd) - (size_t)n, " >%s/out 2>%s/err", f->dir,
		 f->dir);
	st = system(cmd);
	CHECK(st != -1 && WIFEXITED(st));
	return WEXITSTATUS(st);
}

static const char *slurp(struct unit_ctx *ctx, const struct fake *f,
			 const char *name)
{
	char path[4200];
	char *buf = unit_alloc(ctx, 65536);
	FILE *fp;
	size_t n;

	snprintf(path, sizeof(path), "%s/%s", f->dir, name);
	fp = fopen(path, "r");
	CHECK(fp);
	n = fread(buf, 1, 65535, fp);
	fclose(fp);
	buf[n] = '\0';
	return buf;
}

/* The image's logical bytes as one file: what A's file system holds. */
static void flatten(struct unit_ctx *ctx, struct fake *f, const char *name)
{
	struct opened *o = unit_alloc(ctx, sizeof(*o));
	char why[160];
	uint8_t *buf;
	size_t len;

	if (open_image(ctx, f, o, why, sizeof(why)))
		FAILF("open: %s", why);
	len = (size_t)o->img.hdr.capacity;
	buf = unit_alloc(ctx, len);
	CHECK_EQ_INT(kjh_dev_pread(&o->dev, buf, len, 0), 0);
	unit_write_file(ctx, f->dir, name, buf, len);
}

static void flat_patch(struct unit_ctx *ctx, struct fake *f, uint64_t off,
		       const void *data, size_t len)
{
	char path[4200];
	int fd;

	snprintf(path, sizeof(path), "%s/flat", f->dir);
	fd = open(path, O_RDWR);
	CHECK(fd >= 0);
	CHECK_EQ_INT(pwrite(fd, data, len, (off_t)off), (ssize_t)len);
	close(fd);
}

TEST(programs)
{
	const char *b = builddir(ctx);
	struct fake *f = make_fake(ctx, KJH_COMPRESS_ZSTD, KJH_MODE_SNAPSHOT,
				   5 * MIB);
	struct kjh_status st;
	struct kjh_header h;
	const char *text;
	char err[160], ref[16];
	uint64_t chunk1;
	int fd;

	unit_write_file(ctx, f->dir, "param", &f->param, sizeof(f->param));
	CHECK_EQ_INT(run_cmd(ctx, f, "%s/hibernate/kjump-save --param %s/param"
			     " --status %s/status --vmcore %s --dev %s --no-jump",
			     b, f->dir, f->dir, f->core, f->dev), 0);
	CHECK_CONTAINS(slurp(ctx, f, "err"), "kjump-save: saved ");
	text = slurp(ctx, f, "status");
	CHECK_EQ_INT(kjh_status_parse(text, strlen(text), &st, err,
				      sizeof(err)), 0);
	CHECK_EQ_INT(st.result, KJH_RESULT_OK);
	CHECK_EQ_U64(st.pages, f->map_pages);

	flatten(ctx, f, "flat");
	CHECK_EQ_INT(run_cmd(ctx, f, "%s/kexec/kexec --image-info=%s/flat "
			     "--verify", b, f->dir), 0);
	text = slurp(ctx, f, "out");
	CHECK_CONTAINS(text, "state: snapshot\nresumable: no (a snapshot");
	CHECK_CONTAINS(text, "release: 6.1.0-kjump\n");
	CHECK_CONTAINS(text, "compression: zstd\n");
	CHECK_CONTAINS(text, "verify: ok, ");

	/* chunk 1's payload damaged */
	memset(&h, 0, sizeof(h));
	fd = open(f->dev, O_RDONLY);
	CHECK(fd >= 0);
	CHECK_EQ_INT(pread(fd, &h, sizeof(h), EXT0_PHYS), (ssize_t)sizeof(h));
	close(fd);
	{
		char path[4200];
		struct kjh_chunk_ref r;

		snprintf(path, sizeof(path), "%s/flat", f->dir);
		fd = open(path, O_RDONLY);
		CHECK(fd >= 0);
		CHECK_EQ_INT(pread(fd, &r, sizeof(r), (off_t)(h.index_off +
				   sizeof(r))), (ssize_t)sizeof(r));
		close(fd);
		chunk1 = r.off;
	}
	memset(ref, 0x55, sizeof(ref));
	flat_patch(ctx, f, chunk1 + sizeof(struct kjh_chunk) + 8, ref, 4);
	CHECK_EQ_INT(run_cmd(ctx, f, "%s/kexec/kexec --image-info=%s/flat "
			     "--verify", b, f->dir), 1);
	CHECK_ERR_LINE(slurp(ctx, f, "err"), "image-info: chunk 1: ");

	/* a save that did not finish */
	h.state = KJH_STATE_WRITING;
	kjh_header_seal(&h);
	flat_patch(ctx, f, 0, &h, sizeof(h));
	CHECK_EQ_INT(run_cmd(ctx, f, "%s/kexec/kexec --image-info=%s/flat",
			     b, f->dir), 1);
	CHECK_ERR_LINE(slurp(ctx, f, "err"),
		       "/flat: not committed (state writing): the save did not finish");

	/* no request: B's init goes on as usual */
	f->param.request_len = 0;
	unit_write_file(ctx, f->dir, "param", &f->param, sizeof(f->param));
	CHECK_EQ_INT(run_cmd(ctx, f, "%s/hibernate/kjump-save --param %s/param"
			     " --status %s/status --vmcore %s --dev %s --no-jump",
			     b, f->dir, f->dir, f->core, f->dev), 3);
	CHECK_STR(slurp(ctx, f, "err"), "kjump-save: no hibernation request\n");
}

/* ------------------------------------------------------ swsusp stream */

static void put_le32(uint8_t *p, uint64_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

/* The counts of an i386 struct swsusp_info, as A's kernel writes them. */
static void swsusp_counts(struct fake *f, uint64_t image_pages, uint64_t pages)
{
	uint8_t *sw = f->mem + SWSUSP_PFN * 4096;

	put_le32(sw + 404, image_pages);
	put_le32(sw + 408, pages);
}

static uint8_t *stream_of(struct unit_ctx *ctx, struct fake *f,
			  struct opened *o, size_t *len, int *ret, char *why,
			  size_t why_size)
{
	char path[4200];
	struct stat st;
	uint8_t *buf;
	int fd;

	snprintf(path, sizeof(path), "%s/stream", f->dir);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	CHECK(fd >= 0);
	*ret = kjh_swsusp_write(&o->img, fd, NULL, why, why_size);
	CHECK(!fstat(fd, &st));
	*len = (size_t)st.st_size;
	buf = unit_alloc(ctx, *len + 1);
	CHECK_EQ_INT(pread(fd, buf, *len, 0), (long long)*len);
	close(fd);
	return buf;
}

TEST(swsusp_stream)
{
	struct fake *f = make_fake(ctx, KJH_COMPRESS_LZ4, KJH_MODE_HIBERNATE,
				   5 * MIB);
	struct opened *o = unit_alloc(ctx, sizeof(*o));
	uint64_t meta, n, i, pfn, k;
	struct kjh_status st;
	const uint8_t *page;
	uint32_t v;
	char why[200];
	uint8_t *s;
	size_t len;
	int r;

	meta = kjh_swsusp_meta_pages(f->map_pages, 4);
	CHECK_EQ_U64(meta, 1);			/* 1024 pfns a page */
	swsusp_counts(f, f->map_pages, f->map_pages + meta + 1);
	write_core(ctx, f);
	if (save(ctx, f, &st))
		FAILF("kjs_save: %s", st.reason);
	if (open_image(ctx, f, o, why, sizeof(why)))
		FAILF("open: %s", why);
	n = o->img.hdr.pages;
	s = stream_of(ctx, f, o, &len, &r, why, sizeof(why));
	if (r)
		FAILF("stream: %s", why);
	CHECK_EQ_U64(len, (1 + meta + n) * 4096);
	CHECK_MEM(s, f->mem + SWSUSP_PFN * 4096, 4096);
	/* the frame list: every pfn of the map, ascending, then ~0 */
	for (pfn = 0, i = 0; pfn < MEM_PAGES; pfn++) {
		if (!f->in_map[pfn])
			continue;
		memcpy(&v, s + 4096 + i * 4, 4);
		CHECK_EQ_U64(v, pfn);
		page = s + (1 + meta + i) * 4096;
		if (memcmp(page, f->mem + pfn * 4096, 4096))
			FAILF("page %" PRIu64 " (pfn %" PRIu64 ") differs", i, pfn);
		i++;
	}
	CHECK_EQ_U64(i, n);
	memcpy(&v, s + 4096 + n * 4, 4);
	CHECK_EQ_U64(v, 0xffffffffu);

	/* a header for other pages: nothing but the refusal */
	CHECK_EQ_INT(kjh_swsusp_check(&o->img, why, sizeof(why)), 0);
	o->img.swsusp[404] ^= 1;
	CHECK_EQ_INT(kjh_swsusp_check(&o->img, why, sizeof(why)), -EBADMSG);
	CHECK_CONTAINS(why, "the swsusp header counts");
	o->img.swsusp[404] ^= 1;

	/* a bad chunk: the stream stops before any page of it */
	k = o->img.hdr.chunk_count - 1;
	damage(ctx, f, o->img.index[k].off + sizeof(struct kjh_chunk) + 10);
	s = stream_of(ctx, f, o, &len, &r, why, sizeof(why));
	CHECK(r < 0);
	/* found by decoding it, without the stored bytes' checksum */
	CHECK_CONTAINS(why, "corrupt: chunk");
	CHECK_EQ_U64(len % 4096, 0);
	CHECK(len <= (1 + meta + k * o->img.hdr.chunk_pages +
		      o->img.hdr.zero_pages) * 4096);
}

UNIT_MAIN("hib-save", RUN(save_none), RUN(save_lz4), RUN(save_zstd),
	  RUN(save_none_read), RUN(save_lz4_read),
	  RUN(save_hibernate_mode_no_snapshot_flag),
	  RUN(filesystems_recorded), RUN(filesystems_unprintable),
	  RUN(refuses_more_than_a_resume_holds),
	  RUN(tables_bound_to_the_commit), RUN(counts_bounded_before_reading),
	  RUN(refuses_another_nonce),
	  RUN(refuses_page_not_in_vmcore), RUN(target_too_small),
	  RUN(cancelled), RUN(programs), RUN(swsusp_stream))
