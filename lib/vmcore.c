// SPDX-License-Identifier: GPL-2.0-only
/*
 * /proc/vmcore by physical address: the ELF core's PT_LOADs, read with
 * elf-read.c, map physical ranges of the old kernel to file offsets.
 */
#define _FILE_OFFSET_BITS 64
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ctx.h"
#include "elf-read.h"

#define ET_CORE		4
#define PT_LOAD		1
#define PT_NOTE		4
#define VMCORE_PAGE	4096u
#define MAX_PHDRS	65534u

struct kj_vmcore {
	const struct kj_ctx *ctx;
	char *path;
	int fd;
	bool is_dev;			/* a character device: mmap, not pread */
	uint64_t size;			/* 0 when unknown (devices) */
	struct kj_vmcore_info info;
	struct kj_vmcore_load *loads;
};

/* A page at a time: read() on /dev/mem stops at the end of lowmem. */
static int mmap_at(struct kj_vmcore *vc, uint64_t off, uint8_t *p,
		   size_t len)
{
	while (len) {
		uint64_t page = off & ~(uint64_t)(VMCORE_PAGE - 1);
		size_t in = (size_t)(off - page);
		size_t n = VMCORE_PAGE - in < len ? VMCORE_PAGE - in : len;
		void *m = mmap(NULL, VMCORE_PAGE, PROT_READ, MAP_SHARED,
			       vc->fd, (off_t)page);

		if (m == MAP_FAILED)
			return -errno;
		memcpy(p, (uint8_t *)m + in, n);
		munmap(m, VMCORE_PAGE);
		p += n;
		off += n;
		len -= n;
	}
	return 0;
}

static int pread_all(int fd, uint64_t off, uint8_t *p, size_t len)
{
	while (len) {
		ssize_t n = pread(fd, p, len, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (!n)
			return -ENODATA;
		p += n;
		len -= (size_t)n;
		off += (uint64_t)n;
	}
	return 0;
}

int kj_vmcore_read_at(struct kj_vmcore *vc, uint64_t off, void *buf,
		      size_t len)
{
	int ret = vc->is_dev ? mmap_at(vc, off, buf, len) :
			       pread_all(vc->fd, off, buf, len);

	if (ret)
		kj_err(vc->ctx, "%s: read at 0x%" PRIx64 ": %s", vc->path, off,
		       ret == -ENODATA ? "end of file" : strerror(-ret));
	return ret;
}

/* The first bytes, up to a whole ELF64 header, as far as the file has them. */
static int read_ehdr(struct kj_vmcore *vc, uint64_t hdr_at,
		     struct elf_hdr *eh)
{
	uint8_t b[ELF_READ_EHDR_MAX];
	size_t len = sizeof(b);
	char why[128];
	int ret;

	if (vc->size && vc->size - hdr_at < len)
		len = (size_t)(vc->size - hdr_at);
	ret = kj_vmcore_read_at(vc, hdr_at, b, len);
	if (ret)
		return ret;
	if (elf_read_ehdr(b, len, eh, why, sizeof(why))) {
		kj_err(vc->ctx, "%s: %s", vc->path, why);
		return -EINVAL;
	}
	if (eh->type != ET_CORE || eh->phnum > MAX_PHDRS) {
		kj_err(vc->ctx, "%s: not an ELF core (e_type %u, %u program headers)",
		       vc->path, eh->type, eh->phnum);
		return -EINVAL;
	}
	return 0;
}

static int add_phdr(struct kj_vmcore *vc, const struct elf_phdr *ph)
{
	struct kj_vmcore_info *in = &vc->info;

	if (ph->type == PT_NOTE)
		in->nr_notes++;
	if (ph->type != PT_LOAD)
		return 0;
	if (ph->filesz > ph->memsz || ph->paddr + ph->filesz < ph->paddr) {
		kj_err(vc->ctx, "%s: PT_LOAD at 0x%" PRIx64 " is malformed",
		       vc->path, ph->paddr);
		return -EINVAL;
	}
	vc->loads[in->nr_loads++] = (struct kj_vmcore_load){
		.paddr = ph->paddr, .filesz = ph->filesz,
		.memsz = ph->memsz, .offset = ph->offset,
	};
	return 0;
}

static int read_phdrs(struct kj_vmcore *vc, uint64_t hdr_at)
{
	struct elf_hdr eh;
	struct elf_phdr ph;
	uint8_t *table;
	char why[128];
	unsigned int i;
	int ret;

	ret = read_ehdr(vc, hdr_at, &eh);
	if (ret)
		return ret;
	if (elf_check_phdrs(&eh, vc->size ? vc->size - hdr_at : UINT64_MAX,
			    why, sizeof(why))) {
		kj_err(vc->ctx, "%s: %s", vc->path, why);
		return -EINVAL;
	}
	table = malloc(elf_phdrs_size(&eh));
	vc->loads = calloc(eh.phnum, sizeof(*vc->loads));
	ret = -ENOMEM;
	if (!table || !vc->loads) {
		kj_err(vc->ctx, "%s: out of memory", vc->path);
		goto out;
	}
	ret = kj_vmcore_read_at(vc, hdr_at + eh.phoff, table,
				elf_phdrs_size(&eh));
	for (i = 0; !ret && i < eh.phnum; i++) {
		elf_read_phdr(&eh, table, i, &ph);
		ret = add_phdr(vc, &ph);
	}
	vc->info.elf_class = eh.elf_class;
	vc->info.nr_phdrs = eh.phnum;
	vc->info.loads = vc->loads;
out:
	free(table);
	return ret;
}

int kj_vmcore_open_at(struct kj_ctx *ctx, const char *path, uint64_t hdr_at,
		      struct kj_vmcore **out)
{
	struct kj_vmcore *vc = calloc(1, sizeof(*vc));
	struct stat st;
	int ret;

	*out = NULL;
	if (!vc || !(vc->path = strdup(path))) {
		free(vc);
		kj_err(ctx, "%s: out of memory", path);
		return -ENOMEM;
	}
	vc->ctx = ctx;
	vc->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (vc->fd < 0 || fstat(vc->fd, &st)) {
		ret = -errno;
		kj_err(ctx, "%s: %s", path, strerror(errno));
		goto err;
	}
	vc->is_dev = S_ISCHR(st.st_mode);
	vc->size = S_ISREG(st.st_mode) ? (uint64_t)st.st_size : 0;
	if (vc->size && hdr_at >= vc->size) {
		ret = -EINVAL;
		kj_err(ctx, "%s: no ELF header at 0x%" PRIx64 " (the file has %" PRIu64 " bytes)",
		       path, hdr_at, vc->size);
		goto err;
	}
	ret = read_phdrs(vc, hdr_at);
	if (ret)
		goto err;
	*out = vc;
	return 0;
err:
	kj_vmcore_close(vc);
	return ret;
}

int kj_vmcore_open(struct kj_ctx *ctx, const char *path,
		   struct kj_vmcore **vc)
{
	return kj_vmcore_open_at(ctx, path, 0, vc);
}

void kj_vmcore_close(struct kj_vmcore *vc)
{
	if (!vc)
		return;
	if (vc->fd >= 0)
		close(vc->fd);
	free(vc->loads);
	free(vc->path);
	free(vc);
}

void kj_vmcore_info(const struct kj_vmcore *vc, struct kj_vmcore_info *info)
{
	*info = vc->info;
}

/* The PT_LOAD that holds the byte at paddr, or NULL. */
static const struct kj_vmcore_load *load_of(const struct kj_vmcore *vc,
					    uint64_t paddr)
{
	unsigned int i;

	for (i = 0; i < vc->info.nr_loads; i++) {
		const struct kj_vmcore_load *l = &vc->loads[i];

		if (paddr >= l->paddr && paddr - l->paddr < l->filesz)
			return l;
	}
	return NULL;
}

int kj_vmcore_read(struct kj_vmcore *vc, uint64_t paddr, void *buf,
		   size_t len)
{
	uint8_t *p = buf;

	while (len) {
		const struct kj_vmcore_load *l = load_of(vc, paddr);
		uint64_t in, n;
		int ret;

		if (!l) {
			kj_err(vc->ctx, "%s: no PT_LOAD holds 0x%" PRIx64,
			       vc->path, paddr);
			return -ERANGE;
		}
		in = paddr - l->paddr;
		n = l->filesz - in < len ? l->filesz - in : len;
		ret = kj_vmcore_read_at(vc, l->offset + in, p, (size_t)n);
		if (ret)
			return ret;
		p += n;
		paddr += n;
		len -= (size_t)n;
	}
	return 0;
}
