// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The reader family (fileread.h): whole files into allocated buffers,
 * small ones into the caller's, files held open for a later check.
 */

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "base/fileread.h"
#include "base/path.h"

int
read_lines_at(int dirfd, const char *path, unsigned int flags,
	      read_line_fn *fn, void *arg)
{
	size_t cap = 64 << 10, have = 0, done;
	char *buf, *nl, *nb;
	ssize_t n;
	int fd, r = 0;

	fd = open_regular_at(dirfd, path, NULL, flags & READ_HOW_MASK);
	if (fd < 0)
		return fd;
	if ((buf = malloc(cap)) == NULL) {
		close(fd);
		return -ENOMEM;
	}
	for (;;) {
		if (have + 1 >= cap) {	/* a line longer than the buffer */
			if ((nb = realloc(buf, cap * 2)) == NULL) {
				r = -ENOMEM;
				break;
			}
			buf = nb;
			cap *= 2;
		}
		n = read(fd, buf + have, cap - 1 - have);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			r = -errno;
			break;
		}
		if (n == 0) {	/* the last line, without its newline */
			if (have > 0) {
				buf[have] = '\0';
				r = fn(arg, buf, have);
			}
			break;
		}
		/* Only the bytes just read are searched for newlines: each
		 * byte once, whatever the lines' lengths. */
		done = 0;
		nl = memchr(buf + have, '\n', (size_t)n);
		have += (size_t)n;
		while (nl != NULL && r == 0) {
			*nl = '\0';
			r = fn(arg, buf + done, (size_t)(nl - (buf + done)));
			done = (size_t)(nl - buf) + 1;
			nl = memchr(buf + done, '\n', have - done);
		}
		if (r != 0)
			break;
		memmove(buf, buf + done, have - done);
		have -= done;
	}
	free(buf);
	close(fd);
	return r;
}

/*
 * Whether a read that returned n bytes, len in all, of the file st
 * describes has reached its end, so that the read(2) that would return 0
 * can be saved.  An ordinary file's size is exact: once len reaches it,
 * it is all read.  A sysfs attribute claims one page and no blocks, and
 * the kernel hands over all of it in the first read: a read shorter than
 * asked is its end.  Anything else (procfs and cgroupfs files claim size
 * 0; they may come in pieces) is read until read(2) returns 0.
 */
static bool
read_done(const struct stat *st, size_t len, size_t n, size_t asked)
{
	if (st->st_size <= 0)
		return false;
	if ((off_t)len >= st->st_size)
		return true;
	return st->st_size == 4096 && st->st_blocks == 0 && n < asked;
}

/* The rest of the regular file fd, whose fstat() is *st, as
 * read_file_at() reads it; fd stays open. */
static int
read_open_file(int fd, const struct stat *st, size_t max, char **bufp,
	       size_t *lenp, bool text)
{
	size_t cap = 4096, len = 0;
	char *buf;
	int err = 0;

	/* An ordinary file's size is known: room for it at once (and one
	 * more byte, to see it end, and the padding), not by doubling. */
	if (st->st_size >= (off_t)cap - READ_PAD && (size_t)st->st_size <= max)
		cap = (size_t)st->st_size + 1 + READ_PAD;
	buf = malloc(cap);
	if (buf == NULL)
		return -ENOMEM;
	for (;;) {
		ssize_t n;

		if (len + 1 >= cap) {
			char *nb;

			if (cap > max + 1) {
				err = -EFBIG;
				break;
			}
			nb = realloc(buf, cap * 2);
			if (nb == NULL) {
				err = -ENOMEM;
				break;
			}
			buf = nb;
			cap *= 2;
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			err = -errno;
			break;
		}
		if (n == 0)
			break;
		len += (size_t)n;
		if (len > max) {
			err = -EFBIG;
			break;
		}
		if (read_done(st, len, (size_t)n, cap - (len - (size_t)n) - 1))
			break;
	}
	if (err == 0 && text && memchr(buf, '\0', len) != NULL)
		err = -EILSEQ;
	if (err == 0 && cap - len < READ_PAD) {
		char *nb = realloc(buf, len + READ_PAD);

		if (nb == NULL)
			err = -ENOMEM;
		else
			buf = nb;
	}
	if (err < 0) {
		free(buf);
		return err;
	}
	memset(buf + len, 0, READ_PAD);
	*bufp = buf;
	if (lenp)
		*lenp = len;
	return 0;
}

int
read_fd(int fd, const struct stat *st, const struct read_opts *o,
	char **bufp, size_t *lenp)
{
	size_t max = o && o->max ? o->max : READ_FILE_MAX;

	return read_open_file(fd, st, max, bufp, lenp,
			      o && (o->flags & READ_TEXT));
}

/*
 * The regular file fd of st->st_size bytes read, as read_open_file()
 * would read it, into memory of its own: anonymous pages mapped and
 * filled at once (MAP_POPULATE), where a malloc'ed buffer of that size
 * takes a page fault for each page the read touches.  A copy, not a
 * mapping of the file: a writer that cuts or rewrites the file in place
 * meanwhile cannot change a byte a parser has checked (a page of a
 * mapped file cut off under its reader read as zeroes, and a newline
 * checked before was gone).  *lenp gets the bytes read, which differ
 * from st->st_size when the file changed size meanwhile
 * (held_file_intact() tells).  NULL when it is not worth it (a file of
 * two pages or less) or cannot be.
 */
static char *
copy_open_file(int fd, const struct stat *st, size_t max, size_t *lenp,
	       size_t *maplenp)
{
	size_t len = (size_t)st->st_size, maplen, got = 0;
	long pg = sysconf(_SC_PAGESIZE);
	char *m;

	if (st->st_size <= 0 || len > max || pg <= 0 ||
	    len <= 2 * (size_t)pg)
		return NULL;
	maplen = (len + READ_PAD + (size_t)pg - 1) / (size_t)pg * (size_t)pg;
	m = mmap(NULL, maplen, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (m == MAP_FAILED)
		return NULL;
	while (got < len) {
		ssize_t n = pread(fd, m + got, len - got, (off_t)got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			munmap(m, maplen);
			return NULL;
		}
		if (n == 0)
			break;	/* cut short meanwhile */
		got += (size_t)n;
	}
	/* Read only from now on, as a mapping of the file was. */
	mprotect(m, maplen, PROT_READ);
	*lenp = got;
	*maplenp = maplen;
	return m;
}

int
read_file_at(int dirfd, const char *path, const struct read_opts *o,
	     char **bufp, size_t *lenp)
{
	static const struct read_opts none;
	struct held_file *h;
	struct stat st;
	char *m = NULL;
	size_t got = 0, maplen = 0, max;
	bool text;
	int fd, r;

	if (o == NULL)
		o = &none;
	h = o->held;
	max = o->max ? o->max : READ_FILE_MAX;
	text = (o->flags & READ_TEXT) != 0;
	fd = open_regular_at(dirfd, path, &st, o->flags & READ_HOW_MASK);
	if (fd < 0)
		return fd;
	if (h && (m = copy_open_file(fd, &st, max, &got, &maplen))) {
		if (text && memchr(m, '\0', got) != NULL) {
			munmap(m, maplen);
			close(fd);
			return -EILSEQ;
		}
		*bufp = m;
		if (lenp)
			*lenp = got;
		r = 0;
	} else {
		r = read_open_file(fd, &st, max, bufp, lenp, text);
	}
	if (r < 0 || !h) {
		close(fd);
		return r;
	}
	h->open = true;
	h->fd = fd;
	h->st = st;
	h->map = m;
	h->maplen = m ? maplen : 0;
	return 0;
}

/* Whether st, the file h holds now, has the size and times it had when
 * read. */
static bool
held_as_read(const struct held_file *h, const struct stat *st)
{
	return st->st_size == h->st.st_size &&
	       st->st_mtim.tv_sec == h->st.st_mtim.tv_sec &&
	       st->st_mtim.tv_nsec == h->st.st_mtim.tv_nsec &&
	       st->st_ctim.tv_sec == h->st.st_ctim.tv_sec &&
	       st->st_ctim.tv_nsec == h->st.st_ctim.tv_nsec;
}

int
held_file_same(const struct held_file *h, int dirfd, const char *path)
{
	struct stat st;

	if (!h->open)
		return 0;
	if (fstatat(dirfd, path, &st, 0) < 0)
		return errno == ENOENT ? 0 : -errno;
	return st.st_dev == h->st.st_dev && st.st_ino == h->st.st_ino &&
	       held_as_read(h, &st);
}

int
held_file_intact(const struct held_file *h)
{
	struct stat st;

	if (!h->open)
		return 0;
	if (fstat(h->fd, &st) < 0)
		return -errno;
	return held_as_read(h, &st);
}

void
held_file_free_buf(struct held_file *h, char *buf)
{
	if (!buf || buf != h->map) {
		free(buf);
		return;
	}
	munmap(buf, h->maplen);
	h->map = NULL;
	h->maplen = 0;
}

void
held_file_close(struct held_file *h)
{
	if (h->open)
		close(h->fd);
	h->open = false;
}

/*
 * Open the regular file path and read it into buf until it ends or cap
 * bytes are in: 1 when the end was seen, 0 when buf filled first,
 * -errno.  *lenp is the length read.
 */
static int
read_upto(int dirfd, const char *path, char *buf, size_t cap, size_t *lenp,
	  unsigned int how)
{
	struct stat st;
	size_t len = 0;
	int fd, r = 1;

	fd = open_regular_at(dirfd, path, &st, how);
	if (fd < 0)
		return fd;
	for (;;) {
		ssize_t n;

		if (len == cap) {
			r = 0;
			break;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			r = -errno;
			break;
		}
		if (n == 0)
			break;
		len += (size_t)n;
		if (read_done(&st, len, (size_t)n, cap - (len - (size_t)n)))
			break;
	}
	close(fd);
	*lenp = len;
	return r;
}

/*
 * read_buf_at() without READ_KERNFS or READ_HEAD: the file, checked as
 * open_regular_at() checks it, a single trailing newline removed.
 */
ssize_t
read_buf_small_(int dirfd, const char *path, char *buf, size_t size,
		unsigned int how)
{
	size_t len;
	int r;

	if (size < 2)
		return -EINVAL;
	r = read_upto(dirfd, path, buf, size, &len, how);
	if (r < 0)
		return r;
	if (r == 0 || len == size)
		return -EFBIG;	/* no room for the NUL */
	buf[len] = '\0';
	if (len > 0 && buf[len - 1] == '\n')
		buf[--len] = '\0';
	return (ssize_t)len;
}

/*
 * READ_KERNFS: a file of a kernel file system in one read(2), with no
 * fstat(): such a file gives all of a small text at once, so a read that
 * neither came back empty nor filled the buffer was the whole file.
 * Anything else (empty, full, an error) is read again by
 * read_buf_small_(), whose checks (a directory, a FIFO, a device) and
 * answer then stand.
 */
ssize_t
read_buf_kernfs_(int dirfd, const char *path, char *buf, size_t size,
		 unsigned int how)
{
	ssize_t n;
	int fd;

	if (size < 2)
		return -EINVAL;
	fd = open_how_at(dirfd, path, O_RDONLY | O_CLOEXEC | O_NONBLOCK |
			 O_NOCTTY, how);
	if (fd < 0)
		return fd;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n <= 0 || (size_t)n >= size - 1)
		return read_buf_small_(dirfd, path, buf, size, how);
	buf[n] = '\0';
	if (buf[n - 1] == '\n')
		buf[--n] = '\0';
	return n;
}

/* READ_HEAD: at most size-1 bytes as they are; *whole (optional) tells
 * whether that was all of the file. */
ssize_t
read_buf_head_(int dirfd, const char *path, char *buf, size_t size,
	       unsigned int how, bool *whole)
{
	size_t len;
	int r;

	if (size < 2)
		return -EINVAL;
	r = read_upto(dirfd, path, buf, size - 1, &len, how);
	if (r < 0)
		return r;
	buf[len] = '\0';
	if (whole)
		*whole = r == 1;
	return (ssize_t)len;
}
