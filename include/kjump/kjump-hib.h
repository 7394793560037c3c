/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * libkjump's second boundary: the hibernation image itself, for the
 * programs that write or read one without going through kj_hibernate()
 * and kj_resume() (kjump.h).  The image writer kernel B runs
 * (hibernate/kjump-save), kexec --image-info and the test tools use
 * these and nothing else of lib/hib/:
 *  - the on-disk format (hib/image-format.h, doc/image-format.md);
 *  - the request A passes to B and the status B passes back, and the
 *    jump parameter page that carries them (hib/request.h,
 *    hib/jump-param.h);
 *  - CRC-32C and the chunk codecs (hib/crc32c.h, hib/compress.h);
 *  - the reader and the writer of an image on a block device or in a
 *    file's extents (hib/image-read.h, hib/image-write.h);
 *  - the fingerprints of A's file systems (hib/fs-print.h).
 * The rules of kjump.h hold here too, except that most of these
 * functions take no context: they return -errno, with a one-line reason
 * in the caller's buffer where they take one, and the caller reports.
 */
#ifndef KJUMP_KJUMP_HIB_H
#define KJUMP_KJUMP_HIB_H

#include "kjump/hib/image-format.h"
#include "kjump/hib/crc32c.h"
#include "kjump/hib/compress.h"
#include "kjump/hib/request.h"
#include "kjump/hib/jump-param.h"
#include "kjump/hib/image-read.h"
#include "kjump/hib/image-write.h"
#include "kjump/hib/fs-print.h"

#endif
