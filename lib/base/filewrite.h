/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Writing files: whole writes to a descriptor, the atomic replacement
 * of a file, the cleanup of what a killed writer left, and mkdir -p.
 */
#ifndef CPM_FILEWRITE_H
#define CPM_FILEWRITE_H

#include <stddef.h>

/* write(2) all of buf, retrying on EINTR and short writes.  0 or -errno. */
int write_all(int fd, const void *buf, size_t len);

/*
 * Replace path with data atomically: write an unnamed file (O_TMPFILE) in
 * the same directory, or where the file system cannot, a temporary
 * ".NAME.tmp.<16 random hex digits>" created exclusively, set its mode to
 * o->mode (whatever the umask), fsync it, rename it over path and fsync
 * the directory.  Nothing planted in the directory (a FIFO, a symlink, a
 * file of another user) is ever opened.  Our own temporaries older than
 * STALE_TEMP_AGE seconds, left by a killed writer, are removed.  Returns
 * 0 or -errno; on failure path is untouched and the temporary removed.
 */
#define STALE_TEMP_AGE 60
/*
 * WRITE_LOCKED: every writer of path holds a lock (state_lock()): where
 * an unnamed file needs a name, the lock holder's own ".NAME.tmp.locked",
 * so that a holder killed before its rename leaves at most that name,
 * which the next holder replaces.  The directory is read for other
 * temporaries (of any age) only then, or when another user's file sits
 * at that name (a random name is used instead), or when the file system
 * has no unnamed files: not on every write.
 */
#define WRITE_LOCKED 0x1u
/* How write_file_atomic() writes; NULL: mode 0644, no flags. */
struct write_opts {
	unsigned int mode;	/* of the new file */
	unsigned int flags;	/* WRITE_LOCKED */
	/* When set, what fill writes to fd (the file's start, empty and
	 * writable, nobody else's) instead of data: for a file written in
	 * pieces, not built whole in memory first.  fill returns 0 or
	 * -errno (then path stays as it was). */
	int (*fill)(int fd, void *arg);
	void *arg;
};
int write_file_atomic(const char *path, const void *data, size_t len,
		      const struct write_opts *o);

/*
 * Remove the regular files ".BASE.tmp.*" in dfd that belong to us and were
 * last written at least min_age_s seconds ago (0: any age).
 */
void remove_stale_temps_at(int dfd, const char *base, unsigned int min_age_s);

/*
 * Create directory dir and its missing parents with the given mode, like
 * "mkdir -p", through open_dir_at().  Returns 0 (also when it exists) or
 * -errno.
 */
int mkdir_p(const char *dir, unsigned int mode);

#endif
