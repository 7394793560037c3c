/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KJUMP_HIBERNATE_PIPELINE_H
#define KJUMP_HIBERNATE_PIPELINE_H

/*
 * The image writer's pipeline: a ring of slots, one chunk each.  The
 * caller fills the slot pipe_fill_slot() names (the pages' addresses in
 * src[], or the pages themselves in the slot) and hands it on with
 * pipe_submit(); the workers (one per thread) copy the pages into the
 * record as they checksum them and compress it; one writer thread writes
 * the records in order through the image writer, gathered into large
 * writes.  Once the writer fails it stops, and every call says why.
 *
 *   pipe_start()  pipe_submit()...  pipe_submit(all)  pipe_join()
 *   pipe_stop()   (always, also after a failure: frees everything)
 */
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kjump/kjump-hib.h"

/* Bytes per device write at most: the image writer's batch size. */
#define PIPE_BATCH_BYTES	(2u << 20)

/*
 * A chunk on its way: the reader fills buf's pages (after room for the
 * chunk's header), a worker builds the record (in place, or compressed
 * into zbuf), the writer thread writes it.
 */
struct slot {
	uint8_t *buf;
	uint8_t *zbuf;			/* NULL for --compress=none */
	const uint8_t *src[KJH_CHUNK_PAGES];	/* mapped; NULL: in buf */
	void *rec;			/* buf or zbuf */
	size_t rec_len;
	uint32_t pages;
	uint64_t first_page;
	bool done;
	int err;
};

enum wfail { WFAIL_NONE, WFAIL_CHUNK, WFAIL_WRITE };

struct pipe {
	pthread_mutex_t lock;
	pthread_cond_t work, done, freed;
	struct slot *slots;
	unsigned int nr_slots;
	uint64_t head;			/* next seq to submit */
	uint64_t tail;			/* oldest seq not written */
	uint64_t next_work;		/* next seq for a worker */
	bool stop;
	enum kjh_compress method;
	int level;
	pthread_t *threads;
	unsigned int nr_threads;
	pthread_t writer;
	bool have_writer;
	struct kjh_writer *w;
	uint64_t written;		/* w->written, for the reader */
	enum wfail wfail;		/* the writer stopped: why */
	int werr;
	uint64_t wseq;
};

/* Memory for a block-aligned record of len bytes (free() it). */
void *block_alloc(size_t len);
/* Where a slot's pages go: after room for the chunk's header. */
uint8_t *slot_pages(const struct slot *sl);

/* Slots, threads workers and the writer thread; 0, or -errno. */
int pipe_start(struct pipe *p, struct kjh_writer *w, enum kjh_compress method,
	       int level, unsigned int threads);
/* The slot the caller fills now. */
struct slot *pipe_fill_slot(struct pipe *p);
/*
 * Hands the filled slot (if it has pages) to the workers; returns when
 * the next one is free, with all when every chunk is written, or when the
 * writer failed (WFAIL_NONE: it did not).
 */
enum wfail pipe_submit(struct pipe *p, bool all);
/* Until the chunks before seq are written, or the writer failed. */
enum wfail pipe_wait_written(struct pipe *p, uint64_t seq);
/* The bytes the writer has written so far. */
uint64_t pipe_written(struct pipe *p);
/* Stops and joins the threads; what is queued is dropped.  Idempotent. */
void pipe_join(struct pipe *p);
/* pipe_join(), then frees the slots. */
void pipe_stop(struct pipe *p);

#endif
