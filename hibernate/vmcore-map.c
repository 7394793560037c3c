// SPDX-License-Identifier: GPL-2.0-only
/*
 * /proc/vmcore mapped a window at a time (vmcore-map.h).
 */
#define _FILE_OFFSET_BITS 64
#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "kjump/kjump-hib.h"
#include "vmcore-map.h"

/* The PT_LOAD holding the page at paddr. */
static const struct kj_vmcore_load *load_at(const struct vmap *m,
					    uint64_t paddr)
{
	const struct kj_vmcore_info *in = &m->info;
	unsigned int i;

	for (i = 0; i < in->nr_loads; i++)
		if (paddr >= in->loads[i].paddr &&
		    paddr - in->loads[i].paddr < in->loads[i].filesz)
			return &in->loads[i];
	return NULL;
}

void vmap_open(struct vmap *m, struct kj_vmcore *vc, const char *path,
	       uint64_t first_pfn)
{
	const struct kj_vmcore_load *l;
	unsigned int i;
	int fd;
	void *p;

	kj_vmcore_info(vc, &m->info);
	if (first_pfn == UINT64_MAX)
		return;
	for (i = 0; i < m->info.nr_loads; i++)
		if ((m->info.loads[i].offset - m->info.loads[i].paddr) %
		    KJH_PAGE)
			return;		/* pages not on the file's pages */
	l = load_at(m, first_pfn * KJH_PAGE);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (!l || fd < 0)
		goto out;
	p = mmap(NULL, KJH_PAGE, PROT_READ, MAP_SHARED, fd,
		 (off_t)(l->offset + (first_pfn * KJH_PAGE - l->paddr)));
	if (p == MAP_FAILED)
		goto out;
	munmap(p, KJH_PAGE);
	m->fd = fd;
	return;
out:
	if (fd >= 0)
		close(fd);
}

/* Unmaps w, once release() says no chunk needs it. */
static int win_drop(struct win *w,
		    int (*release)(void *data, struct win *w), void *data)
{
	int r = release(data, w);

	if (r)
		return r;
	munmap((void *)w->ptr, (size_t)w->len);
	w->ptr = NULL;
	return 0;
}

int vmap_page(struct vmap *m, uint64_t pfn, const uint8_t **page,
	      int (*release)(void *data, struct win *w), void *data)
{
	uint64_t paddr = pfn * KJH_PAGE, off, end;
	const struct kj_vmcore_load *l = load_at(m, paddr);
	struct win *w = &m->wins[m->cur];
	void *p;
	int r;

	off = l->offset + (paddr - l->paddr);
	if (w->ptr && off >= w->off && off - w->off < w->len) {
		*page = w->ptr + (off - w->off);
		return 0;
	}
	m->cur = (m->cur + 1) % VMAP_NR_WINS;
	w = &m->wins[m->cur];
	if (w->ptr) {
		r = win_drop(w, release, data);
		if (r)
			return r;
	}
	end = (l->offset + l->filesz) & ~(uint64_t)(KJH_PAGE - 1);
	w->off = off;
	w->len = end - off < VMAP_WIN_BYTES ? end - off : VMAP_WIN_BYTES;
	w->last_seq = UINT64_MAX;
	m->tried = off;
	p = mmap(NULL, (size_t)w->len, PROT_READ, MAP_SHARED, m->fd,
		 (off_t)off);
	if (p == MAP_FAILED)
		return -errno;
	w->ptr = p;
	*page = p;
	return 0;
}

struct win *vmap_current(struct vmap *m)
{
	return &m->wins[m->cur];
}

void vmap_close(struct vmap *m)
{
	unsigned int i;

	for (i = 0; i < VMAP_NR_WINS; i++)
		if (m->wins[i].ptr)
			munmap((void *)m->wins[i].ptr, (size_t)m->wins[i].len);
	if (m->fd >= 0)
		close(m->fd);
	m->fd = -1;
}
