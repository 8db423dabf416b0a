/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reading files: one family for every file cpm reads, sysfs attributes,
 * cgroup control files, its own states and journals.  read_buf_at()
 * reads a small file into the caller's buffer, read_file_at() a whole
 * file into an allocated one; flags and options say how (path.h's
 * READ_HOW_MASK bits choose the open).
 */
#ifndef CPM_FILEREAD_H
#define CPM_FILEREAD_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "base/path.h"

/* The default cap of read_file_at(): no file cpm reads comes near it. */
#define READ_FILE_MAX (16u << 20)

/* The NUL bytes after the end of a file read_file_at() reads, so that a
 * parser may compare a few bytes at any point of it. */
#define READ_PAD 16

/* read_file_at(): refuse a file holding a NUL byte (-EILSEQ). */
#define READ_TEXT 0x10u
/*
 * read_buf_at() of a file of a kernel file system (a sysfs attribute, a
 * cgroup control file), in three system calls where the file answers at
 * once: such a file gives all of a small text in one read(2), so a read
 * that neither came back empty nor filled the buffer was the whole file.
 * Anything else (empty, full, an error) is read again with every check
 * (a directory, a FIFO, a device), whose answer then stands.  Not with
 * READ_HEAD.
 */
#define READ_KERNFS 0x20u
/*
 * read_buf_at() of the first bytes of a file, at most size-1 of them, as
 * they are (no newline removed): a file longer than that is no error,
 * *whole tells it was cut.
 */
#define READ_HEAD 0x40u

/*
 * Every reader opens path (from dirfd, AT_FDCWD for the cwd) without
 * blocking on a FIFO and refuses anything but a regular file
 * (-EFTYPE_CPM; -EISDIR for a directory), as its flags' READ_HOW_MASK
 * bits say (open_regular_at()).
 *
 * read_buf_at(): a small file into the caller's buf of size bytes (at
 * least 2), NUL-terminated, a single trailing newline removed.  Returns
 * the length, or -errno: -EFBIG when the file does not fit in size-1
 * bytes.  flags: READ_HOW_MASK bits, READ_KERNFS or READ_HEAD.  *whole
 * (optional) tells whether buf holds the whole file (always, but with
 * READ_HEAD).
 */
static inline ssize_t read_buf_at(int dirfd, const char *path,
				  unsigned int flags, char *buf, size_t size,
				  bool *whole);

struct held_file;

/* What read_file_at() reads, and how; NULL or zeroed: the defaults. */
struct read_opts {
	unsigned int flags;	/* READ_HOW_MASK bits, READ_TEXT */
	size_t max;		/* the cap: larger is -EFBIG (0: READ_FILE_MAX) */
	struct held_file *held;	/* leave the file open here (held_file_*) */
};

/*
 * read_file_at(): a whole file into a malloc'ed buffer in *bufp, followed
 * by READ_PAD NUL bytes; *lenp gets the length (optional).  Returns 0 or
 * -errno: -EFBIG above the cap, -EILSEQ for a NUL byte with READ_TEXT.
 *
 * With held set, the file stays open in *o->held (close it with
 * held_file_close()), and a file of a few pages or more is read into
 * anonymous pages of its own, mapped and filled in one call, where a
 * malloc'ed buffer would take a page fault for each page the read
 * touches.  The buffer is the same either way (READ_PAD zeroes past the
 * end; it may not be written), and always a copy: a writer that cuts or
 * rewrites the file in place cannot change what was read, and
 * held_file_intact() tells that it did.  Free it with
 * held_file_free_buf(), before held_file_close().
 */
int read_file_at(int dirfd, const char *path, const struct read_opts *o,
		 char **bufp, size_t *lenp);

/*
 * read_fd(): the rest of the regular file fd, whose fstat() is *st, as
 * read_file_at() reads it (o's max and READ_TEXT; its open bits and held
 * do not apply), for a caller that opened and checked the file itself.
 * fd stays open.
 */
int read_fd(int fd, const struct stat *st, const struct read_opts *o,
	    char **bufp, size_t *lenp);

/*
 * read_lines_at(): the file path a line at a time, in memory its longest
 * line needs, not the whole file: fn(arg, line, len) for each line, the
 * newline replaced by a NUL (a last line without one too).  No cap on the
 * file's size: for a file that grows with what another user does, such
 * as a process's /proc/PID/numa_maps, one line per mapping.  Stops at
 * fn's first nonzero return and returns it; else 0, or -errno.  flags:
 * READ_HOW_MASK bits.
 */
typedef int read_line_fn(void *arg, char *line, size_t len);
int read_lines_at(int dirfd, const char *path, unsigned int flags,
		  read_line_fn *fn, void *arg);

/*
 * A file read and held open, and what it was when read: while its fd is
 * open its inode cannot be freed, so no other file can come to have its
 * device and inode number.  A path that still names it, with the size
 * and times it had, names the bytes that were read, unless something
 * wrote them in place within one tick of the file system's clock; a file
 * replaced by rename(2), as every cpm writer replaces one, never does.
 */
struct held_file {
	bool open;		/* false (as zeroed): none */
	int fd;
	struct stat st;		/* fstat() of fd when it was read */
	char *map;		/* the buffer, when pages of its own (else
				 * NULL: malloc'ed) */
	size_t maplen;
};

/* Whether path (from dirfd) still names the file h holds, as it was
 * read: 1, 0 (not, or nothing held), or -errno. */
int held_file_same(const struct held_file *h, int dirfd, const char *path);
/*
 * Whether the bytes read from the file h holds are still its bytes, so
 * that what was checked of them holds: 1; 0 when the file (the fd held)
 * changed size or times since; -errno.
 */
int held_file_intact(const struct held_file *h);
/* Free buf, the buffer read_file_at() gave with h (NULL: none). */
void held_file_free_buf(struct held_file *h, char *buf);
void held_file_close(struct held_file *h);

/*
 * The three readers behind read_buf_at(), for it alone: it is inline so
 * that the choice among them costs its callers nothing (sysfs is read a
 * file at a time, thousands of files on a large machine).
 */
ssize_t read_buf_small_(int dirfd, const char *path, char *buf, size_t size,
			unsigned int how);
ssize_t read_buf_kernfs_(int dirfd, const char *path, char *buf,
			 size_t size, unsigned int how);
ssize_t read_buf_head_(int dirfd, const char *path, char *buf, size_t size,
		       unsigned int how, bool *whole);

static inline ssize_t
read_buf_at(int dirfd, const char *path, unsigned int flags, char *buf,
	    size_t size, bool *whole)
{
	unsigned int how = flags & READ_HOW_MASK;

	if (flags & READ_HEAD)
		return read_buf_head_(dirfd, path, buf, size, how, whole);
	if (whole)
		*whole = true;
	if (flags & READ_KERNFS)
		return read_buf_kernfs_(dirfd, path, buf, size, how);
	return read_buf_small_(dirfd, path, buf, size, how);
}

#endif
