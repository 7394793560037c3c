/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The purgatory blob, embedded at build time (purgatory/mkblob writes
 * purgatory-blob.c).  It starts with a struct purgatory_header (see
 * purgatory-params.h); the tool copies it, fills the params block and
 * loads the copy as a segment of header.memsz bytes.
 */
#ifndef KJUMP_PURGATORY_BLOB_H
#define KJUMP_PURGATORY_BLOB_H

extern const unsigned char purgatory_blob[];
extern const unsigned int purgatory_blob_size;

#endif
