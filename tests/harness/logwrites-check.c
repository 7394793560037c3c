// SPDX-License-Identifier: GPL-2.0-only
/*
 * logwrites-check LOG SECTOR: read the write log QEMU's blklogwrites
 * driver kept of a guest disk (the dm-log-writes format: a superblock,
 * then one entry per write, flush or discard, each a header sector and
 * the data) and check that every write the guest made below SECTOR was
 * followed by a cache flush before the guest's first write at or above
 * SECTOR.  The guest writes below SECTOR before an event (a saving jump)
 * and at SECTOR after it: a flush in between is the event's.  (QEMU's
 * own flush when it closes the disk comes after everything, and only
 * when something is left to flush, so it proves nothing about the
 * guest.)
 *
 * Prints one line, "writes=W flushes=F before=B last-before=I
 * first-after=J flush-between=0|1", and exits 0 when a flush came
 * between, 1 when none did (or the log lacks either side), 2 when the
 * log cannot be read.
 */
#define _FILE_OFFSET_BITS 64
#include <endian.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LOG_MAGIC	0x6a736677736872ULL
#define LOG_FLUSH	(1u << 0)
#define LOG_FUA		(1u << 1)
#define LOG_DISCARD	(1u << 2)
#define LOG_MARK	(1u << 3)

struct log_super {
	uint64_t magic, version, nr_entries;
	uint32_t sectorsize;
} __attribute__((packed));

struct log_entry {
	uint64_t sector, nr_sectors, flags, data_len;
} __attribute__((packed));

struct tally {
	uint64_t boundary;		/* the first sector "after" */
	uint64_t writes, flushes, before;
	uint64_t last_before, first_after;	/* entry numbers, from 1 */
	int flush_between;
};

static int read_at(FILE *f, uint64_t off, void *buf, size_t len)
{
	if (fseeko(f, (off_t)off, SEEK_SET))
		return -1;
	return fread(buf, 1, len, f) == len ? 0 : -1;
}

static void count(struct tally *t, uint64_t n, const struct log_entry *e)
{
	uint64_t flags = le64toh(e->flags);

	if (flags & LOG_FLUSH) {
		t->flushes++;
		if (t->last_before && !t->first_after)
			t->flush_between = 1;
	}
	if (flags & (LOG_DISCARD | LOG_MARK) || !le64toh(e->nr_sectors))
		return;
	t->writes++;
	if (le64toh(e->sector) < t->boundary) {
		t->before++;
		t->last_before = n;
		t->flush_between = 0;
	} else if (!t->first_after) {
		t->first_after = n;
	}
}

int main(int argc, char **argv)
{
	struct tally t = { 0 };
	struct log_super sb;
	struct log_entry e;
	uint64_t off, n, ssize;
	char *end;
	FILE *f;

	if (argc != 3) {
		fputs("usage: logwrites-check LOG SECTOR\n", stderr);
		return 2;
	}
	t.boundary = strtoull(argv[2], &end, 0);
	if (*end || !t.boundary) {
		fprintf(stderr, "logwrites-check: %s: not a sector\n", argv[2]);
		return 2;
	}
	f = fopen(argv[1], "rb");
	if (!f || read_at(f, 0, &sb, sizeof(sb)) ||
	    le64toh(sb.magic) != LOG_MAGIC) {
		fprintf(stderr, "logwrites-check: %s: not a write log (%s)\n",
			argv[1], f ? "no superblock" : strerror(errno));
		return 2;
	}
	ssize = le32toh(sb.sectorsize);
	if (ssize < sizeof(e) || ssize > 65536) {
		fprintf(stderr, "logwrites-check: %s: sector size %" PRIu64 "\n",
			argv[1], ssize);
		return 2;
	}
	/* the entries that follow, whatever the superblock last counted */
	for (n = 1, off = ssize; !read_at(f, off, &e, sizeof(e)); n++) {
		if (!e.flags && !e.nr_sectors && !e.sector)
			break;
		count(&t, n, &e);
		off += ssize * (1 + le64toh(e.nr_sectors));
	}
	fclose(f);
	printf("writes=%" PRIu64 " flushes=%" PRIu64 " before=%" PRIu64
	       " last-before=%" PRIu64 " first-after=%" PRIu64
	       " flush-between=%d\n", t.writes, t.flushes, t.before,
	       t.last_before, t.first_after, t.flush_between);
	return t.last_before && t.first_after && t.flush_between ? 0 : 1;
}
