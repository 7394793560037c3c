/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * One kexec at a time: an advisory lock on /run/kexec-tools-kjump.lock,
 * taken by the actions that change the kernel's kexec state (load,
 * unload, exec, jump).  The holder writes its pid into the file so a
 * second kexec can say who it is waiting for.
 *
 * kj_lock_take() (kjump.h) takes it below the context's root without
 * waiting.  It returns 0 when held, or when the file cannot be opened
 * for writing (no writable /run, not root): then there is nothing to
 * hold and the kernel's own checks decide.  It returns -EBUSY, after
 * reporting "WHAT: another kexec is running (pid N)", when another
 * process holds it.  kj_lock_release() closes the file; the file stays.
 */
#ifndef KJUMP_LOCK_H
#define KJUMP_LOCK_H

#define KEXEC_LOCK_FILE		"/run/kexec-tools-kjump.lock"

#endif
