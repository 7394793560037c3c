// SPDX-License-Identifier: GPL-2.0-only
/*
 * memfill MIB TAG
 *
 * Allocate MIB MiB of anonymous memory and give every 4 KiB page the
 * pattern of pattern.h: a header {magic, TAG, page index, total pages,
 * payload checksum} and a payload derived from TAG and the index.  Lock the
 * pages in RAM (mlock; without it they still stay put: the guests have no
 * swap), print one line
 *
 *   memfill tag=TAG pages=N sum=OVERALL locked=0|1
 *
 * and wait until killed.  TAG is 32 hex digits.
 *
 * Verify mode: on every SIGUSR1, memfill checks its whole buffer again,
 * byte for byte against the regenerated pattern, and prints one line
 *
 *   memfill: verify N pages: OK
 *   memfill: verify N pages: BAD n first=INDEX
 *
 * (n pages differ, INDEX the first of them).  stdout stays open for these
 * lines and each is flushed at once, so a reader of a pipe or FIFO gets it
 * as soon as the check is done: `kill -USR1 PID; read -r line <&3` is the
 * whole synchronisation.  SIGPIPE is ignored: with nobody reading, the
 * line is lost and memfill keeps its memory.  SIGUSR1 is blocked before the
 * first line is printed, so a signal sent after it cannot kill memfill.
 * With MEMFILL_NOLOCK=1 in the environment the pages are not locked
 * (locked=0), so that a kernel may swap them out.
 * Exit status 2 on a usage error, 1 when the memory cannot be had.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "pattern.h"

static void fill_page(const uint8_t tag[PAT_TAG_LEN], uint32_t i,
		      uint32_t pages, uint8_t *page)
{
	struct pat_hdr h;

	memset(&h, 0, sizeof(h));
	h.magic = PAT_MAGIC;
	memcpy(h.tag, tag, PAT_TAG_LEN);
	h.index = i;
	h.total = pages;
	pat_payload(tag, i, page + PAT_PAYLOAD_OFF);
	h.sum = pat_sum(page + PAT_PAYLOAD_OFF, PAT_PAYLOAD_LEN);
	memset(page, 0, PAT_PAYLOAD_OFF);
	memcpy(page, &h, sizeof(h));
}

/* Compare every page with a freshly generated copy; print the result. */
static void verify(const uint8_t tag[PAT_TAG_LEN], const uint8_t *mem,
		   uint32_t pages)
{
	static uint8_t want[PAT_PAGE];
	uint32_t i, bad = 0, first = 0;

	for (i = 0; i < pages; i++) {
		fill_page(tag, i, pages, want);
		if (memcmp(mem + (size_t)i * PAT_PAGE, want, PAT_PAGE)) {
			if (!bad)
				first = i;
			bad++;
		}
	}
	if (bad)
		printf("memfill: verify %" PRIu32 " pages: BAD %" PRIu32
		       " first=%" PRIu32 "\n", pages, bad, first);
	else
		printf("memfill: verify %" PRIu32 " pages: OK\n", pages);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	sigset_t usr1;
	int sig;
	uint8_t tag[PAT_TAG_LEN];
	uint64_t fold = PAT_FOLD_INIT;
	unsigned long mib;
	uint32_t pages, i;
	uint8_t *mem;
	size_t len;
	char *end;
	int locked;

	if (argc != 3) {
		fprintf(stderr, "usage: memfill MIB TAG(32 hex digits)\n");
		return 2;
	}
	errno = 0;
	mib = strtoul(argv[1], &end, 10);
	if (errno || *end || mib < 1 || mib > 2048) {
		fprintf(stderr, "memfill: MIB must be 1..2048, not '%s'\n", argv[1]);
		return 2;
	}
	if (pat_parse_tag(argv[2], tag)) {
		fprintf(stderr, "memfill: TAG must be 32 hex digits, not '%s'\n", argv[2]);
		return 2;
	}
	len = (size_t)mib << 20;
	pages = (uint32_t)(len / PAT_PAGE);
	mem = mmap(NULL, len, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (mem == MAP_FAILED) {
		fprintf(stderr, "memfill: mmap %lu MiB: %s\n", mib, strerror(errno));
		return 1;
	}
	for (i = 0; i < pages; i++) {
		uint8_t *page = mem + (size_t)i * PAT_PAGE;
		struct pat_hdr h;

		fill_page(tag, i, pages, page);
		memcpy(&h, page, sizeof(h));
		fold = pat_fold(fold, h.sum);
	}
	/* MEMFILL_NOLOCK=1: leave the pages swappable (swsusp's bench) */
	locked = !getenv("MEMFILL_NOLOCK") && mlock(mem, len) == 0;

	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	if (sigprocmask(SIG_BLOCK, &usr1, NULL)) {
		fprintf(stderr, "memfill: sigprocmask: %s\n", strerror(errno));
		return 1;
	}
	signal(SIGPIPE, SIG_IGN);

	printf("memfill tag=");
	for (i = 0; i < PAT_TAG_LEN; i++)
		printf("%02x", tag[i]);
	printf(" pages=%" PRIu32 " sum=%016" PRIx64 " locked=%d\n",
	       pages, fold, locked);
	fflush(stdout);
	for (;;) {
		if (sigwait(&usr1, &sig))
			continue;
		verify(tag, mem, pages);
	}
}
