// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <dirent.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <linux/openat2.h>

#include "inroot.h"
#include "util.h"

int
parse_u64(const char *s, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;
	const char *p = s;

	if (s == NULL || *s == '\0')
		return -EINVAL;
	if (s[0] == '0' && s[1] != '\0')
		return -EINVAL;	/* no octal or zero-padded surprises */
	/* 19 digits never pass UINT64_MAX (20 digits): the digits after
	 * them are checked against it, with constants.  A count, not
	 * p - s, bounds the first loop: GCC recomputed that every digit. */
	for (size_t i = 0; i < 19 && *p; i++, p++) {
		unsigned int d = (unsigned int)(unsigned char)*p - '0';

		if (d > 9)
			return -EINVAL;
		v = v * 10 + d;
	}
	for (; *p; p++) {
		unsigned int d = (unsigned int)(unsigned char)*p - '0';

		if (d > 9)
			return -EINVAL;
		if (v > UINT64_MAX / 10 ||
		    (v == UINT64_MAX / 10 && d > UINT64_MAX % 10))
			return -ERANGE;
		v = v * 10 + d;
	}
	if (v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

int
parse_i64(const char *s, int64_t min, int64_t max, int64_t *out)
{
	uint64_t v;
	int neg = 0, r;

	if (s == NULL)
		return -EINVAL;
	if (*s == '-') {
		neg = 1;
		s++;
	}
	r = parse_u64(s, (uint64_t)INT64_MAX + (uint64_t)neg, &v);
	if (r < 0)
		return r;
	if (neg) {
		if (v == 0)
			return -EINVAL;	/* "-0" */
		if (v == (uint64_t)INT64_MAX + 1) {
			if (min != INT64_MIN)
				return -ERANGE;
			*out = INT64_MIN;
			return 0;
		}
		if (-(int64_t)v < min)
			return -ERANGE;
		*out = -(int64_t)v;
		return 0;
	}
	if ((int64_t)v > max || (int64_t)v < min)
		return -ERANGE;
	*out = (int64_t)v;
	return 0;
}

int
parse_uint(const char *s, unsigned int max, unsigned int *out)
{
	uint64_t v;
	int r = parse_u64(s, max, &v);

	if (r == 0)
		*out = (unsigned int)v;
	return r;
}

/*
 * Parse "<int>[.<frac>]" followed by a unit suffix into value*scale with
 * at most 'scale' precision.  Shared by durations.
 */
static int
parse_fixed(const char *s, size_t numlen, uint64_t scale, uint64_t *out)
{
	uint64_t ip = 0, frac = 0, fscale = scale;
	size_t i = 0;
	int digits = 0;

	if (numlen == 0)
		return -EINVAL;
	for (; i < numlen && s[i] != '.'; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -EINVAL;
		if (ip > (UINT64_MAX / 10) - 10)
			return -ERANGE;
		ip = ip * 10 + (uint64_t)(s[i] - '0');
		digits++;
	}
	if (i < numlen) {	/* fraction */
		i++;
		if (i == numlen)
			return -EINVAL;
		for (; i < numlen; i++) {
			if (s[i] < '0' || s[i] > '9')
				return -EINVAL;
			if (fscale >= 10) {
				fscale /= 10;
				frac += (uint64_t)(s[i] - '0') * fscale;
			} else if (s[i] != '0') {
				return -EINVAL;	/* finer than the unit allows */
			}
			digits++;
		}
	}
	if (digits == 0)
		return -EINVAL;
	if (ip > UINT64_MAX / scale)
		return -ERANGE;
	*out = ip * scale + frac;
	return 0;
}

int
parse_duration_us(const char *s, uint64_t *out_us)
{
	size_t n;
	uint64_t scale;

	if (s == NULL)
		return -EINVAL;
	n = strlen(s);
	if (n > 2 && strcmp(s + n - 2, "us") == 0) {
		scale = 1;
		n -= 2;
	} else if (n > 2 && strcmp(s + n - 2, "ms") == 0) {
		scale = 1000;
		n -= 2;
	} else if (n > 1 && s[n - 1] == 's') {
		scale = 1000000;
		n -= 1;
	} else {
		return -EINVAL;
	}
	return parse_fixed(s, n, scale, out_us);
}

int
parse_size_bytes(const char *s, uint64_t *out)
{
	static const struct {
		const char *suffix;
		uint64_t mult;
	} units[] = {
		{ "KiB", 1ULL << 10 }, { "MiB", 1ULL << 20 },
		{ "GiB", 1ULL << 30 }, { "TiB", 1ULL << 40 },
		{ "Ki", 1ULL << 10 }, { "Mi", 1ULL << 20 },
		{ "Gi", 1ULL << 30 }, { "Ti", 1ULL << 40 },
		{ "K", 1ULL << 10 }, { "M", 1ULL << 20 },
		{ "G", 1ULL << 30 }, { "T", 1ULL << 40 },
		{ "k", 1000ULL }, { "B", 1 },
	};
	char num[32];
	size_t n, i;
	uint64_t v, mult = 1;
	int r;

	if (s == NULL || *s == '\0')
		return -EINVAL;
	n = strlen(s);
	for (i = 0; i < ARRAY_SIZE(units); i++) {
		size_t sl = strlen(units[i].suffix);

		if (n > sl && strcmp(s + n - sl, units[i].suffix) == 0) {
			mult = units[i].mult;
			n -= sl;
			break;
		}
	}
	if (n >= sizeof(num))
		return -ERANGE;
	memcpy(num, s, n);
	num[n] = '\0';
	r = parse_u64(num, UINT64_MAX, &v);
	if (r < 0)
		return r;
	if (v > UINT64_MAX / mult)
		return -ERANGE;
	*out = v * mult;
	return 0;
}

int
open_how_at(int dirfd, const char *path, int flags, unsigned int how)
{
	int fd;

	if (how & READ_NO_LINK)
		flags |= O_NOFOLLOW;
	if (how & READ_IN_ROOT)
		return open_in_root(dirfd, path, flags);
	if (how & READ_NO_LINKS) {
		struct open_how oh = {
			.flags = (unsigned int)flags,
			.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS |
				   RESOLVE_NO_MAGICLINKS | RESOLVE_NO_XDEV,
		};

		fd = (int)syscall(SYS_openat2, dirfd, path, &oh, sizeof(oh));
	} else {
		fd = openat(dirfd, path, flags);
	}
	return fd < 0 ? -errno : fd;
}

bool
open_no_links_works(void)
{
	/* 0 not asked yet, 1 works, -1 not here (no call, or a filter) */
	static int works;
	int w = __atomic_load_n(&works, __ATOMIC_RELAXED);

	if (w == 0) {
		int fd = open_how_at(AT_FDCWD, ".", O_PATH | O_DIRECTORY |
				     O_CLOEXEC, READ_NO_LINKS);

		/* any other refusal comes from a kernel that has the call */
		w = fd >= 0 || (fd != -ENOSYS && fd != -EPERM && fd != -EINVAL)
			    ? 1 : -1;
		if (fd >= 0)
			close(fd);
		__atomic_store_n(&works, w, __ATOMIC_RELAXED);
	}
	return w > 0;
}

/*
 * Open path for reading without blocking on a FIFO, and refuse anything
 * but a regular file: a FIFO, a device or a socket planted where a file
 * is expected would hang the reader or feed it forever.  O_NONBLOCK stays
 * set: it changes nothing for a regular file, and clearing it would cost
 * two more system calls per file (thousands on a large machine's sysfs).
 */
int
open_regular_at(int dirfd, const char *path, struct stat *stp,
		unsigned int how)
{
	struct stat st;
	int fd;

	fd = open_how_at(dirfd, path, O_RDONLY | O_CLOEXEC | O_NONBLOCK |
			 O_NOCTTY, how);
	if (fd < 0)
		return fd;
	if (fstat(fd, &st) < 0) {
		int r = -errno;

		close(fd);
		return r;
	}
	if (S_ISDIR(st.st_mode)) {
		close(fd);
		return -EISDIR;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return -EFTYPE_CPM;
	}
	/* A tree another user may have made holds no hard link to a file
	 * outside it (with protected_hardlinks off, any file can be one):
	 * neither sysfs nor a cgroup file system has a file of two names. */
	if ((how & (READ_IN_ROOT | READ_NO_LINK)) && st.st_nlink > 1) {
		close(fd);
		return -EMLINK;
	}
	if (stp)
		*stp = st;
	return fd;
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

const char *
read_strerror(int r)
{
	switch (r) {
	case -EFTYPE_CPM:
		return "not a regular file";
	case -EFBIG:
		return "file too large";
	case -EILSEQ:
		return "holds a NUL byte";
	case -EMLINK:
		return "a file hard-linked from elsewhere";
	default:
		return strerror(-r);
	}
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
 * A file of a kernel file system in one read(2), with no fstat(): such a
 * file gives all of a small text at once, so a read that neither came
 * back empty nor filled the buffer was the whole file (true, *np its
 * length, newline removed, or -errno when the open failed).  False when
 * it cannot tell (empty, full, an error): the caller reads it again with
 * every check.
 */
static bool
read_kernfs(int dirfd, const char *path, char *buf, size_t size,
	    unsigned int how, ssize_t *np)
{
	ssize_t n;
	int fd;

	fd = open_how_at(dirfd, path, O_RDONLY | O_CLOEXEC | O_NONBLOCK |
			 O_NOCTTY, how);
	if (fd < 0) {
		*np = fd;
		return true;
	}
	n = read(fd, buf, size - 1);
	close(fd);
	if (n <= 0 || (size_t)n >= size - 1)
		return false;
	buf[n] = '\0';
	if (buf[n - 1] == '\n')
		buf[--n] = '\0';
	*np = n;
	return true;
}

ssize_t
read_buf_at(int dirfd, const char *path, unsigned int flags, char *buf,
	    size_t size, bool *whole)
{
	unsigned int how = flags & READ_HOW_MASK;
	size_t len;
	ssize_t n;
	int r;

	if (size < 2)
		return -EINVAL;
	if ((flags & READ_KERNFS) &&
	    read_kernfs(dirfd, path, buf, size, how, &n)) {
		if (n >= 0 && whole)
			*whole = true;
		return n;
	}
	if (flags & READ_HEAD) {
		r = read_upto(dirfd, path, buf, size - 1, &len, how);
		if (r < 0)
			return r;
		buf[len] = '\0';
		if (whole)
			*whole = r == 1;
		return (ssize_t)len;
	}
	r = read_upto(dirfd, path, buf, size, &len, how);
	if (r < 0)
		return r;
	if (r == 0 || len == size)
		return -EFBIG;	/* no room for the NUL */
	buf[len] = '\0';
	if (len > 0 && buf[len - 1] == '\n')
		buf[--len] = '\0';
	if (whole)
		*whole = true;
	return (ssize_t)len;
}

int
write_all(int fd, const void *data, size_t len)
{
	const char *p = data;

	while (len > 0) {
		ssize_t n = write(fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/*
 * May a walk follow the symbolic link 'name' in directory dfd?  Only when
 * no other user could have put it there: it belongs to root or to us, and
 * the directory holding it is not open to others (or is sticky, so that
 * they cannot replace our link).  This is the kernel's protected_symlinks
 * rule, applied whatever the sysctl says.
 */
static bool
link_trusted(int dfd, const char *name)
{
	struct stat ls, ds;
	uid_t me = geteuid();

	if (fstatat(dfd, name, &ls, AT_SYMLINK_NOFOLLOW) < 0 ||
	    !S_ISLNK(ls.st_mode) || fstat(dfd, &ds) < 0)
		return false;
	if (ls.st_uid != 0 && ls.st_uid != me)
		return false;
	if ((ds.st_mode & S_ISVTX) || ds.st_uid == ls.st_uid)
		return true;
	return !(ds.st_mode & (S_IWGRP | S_IWOTH));
}

/*
 * The whole path in one openat2 that follows no symbolic link at all: a
 * path with none resolves as the walk of open_dir_at() would, one
 * component at a time.  -1 when that cannot tell (a link on the way, a
 * missing component, no openat2): the walk decides.
 */
static int
open_dir_direct(int dirfd, const char *path, int oflags)
{
	struct open_how how = {
		.flags = (unsigned int)oflags,
		.resolve = RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
	};
	const char *p;
	int n = 0;

	/* The walk's limit of 256 components, kept. */
	for (p = path; *p; p++)
		n += *p == '/';
	if (n > 255)
		return -1;
	return (int)syscall(SYS_openat2, dirfd, path, &how, sizeof(how));
}

int
open_dir_at(int dirfd, const char *path, unsigned int flags,
	    unsigned int mode)
{
	char buf[PATH_MAX];
	char *comp, *next;
	int fd, depth = 0;
	int oflags = ((flags & DIR_PATH) ? O_PATH : O_RDONLY) | O_DIRECTORY |
		     O_CLOEXEC;

	if (strlen(path) >= sizeof(buf))
		return -ENAMETOOLONG;
	fd = open_dir_direct(dirfd, path, oflags);
	if (fd >= 0)
		return fd;
	strcpy(buf, path);
	if (buf[0] == '/') {
		fd = open("/", oflags);
		comp = buf + 1;
	} else {
		fd = openat(dirfd, ".", oflags);
		comp = buf;
	}
	if (fd < 0)
		return -errno;
	for (; comp != NULL; comp = next) {
		int nfd;

		next = strchr(comp, '/');
		if (next)
			*next++ = '\0';
		if (*comp == '\0' || strcmp(comp, ".") == 0)
			continue;
		if (++depth > 256) {
			close(fd);
			return -ELOOP;
		}
		if ((flags & DIR_CREATE) && mkdirat(fd, comp, mode) < 0 &&
		    errno != EEXIST) {
			int r = -errno;

			close(fd);
			return r;
		}
		nfd = openat(fd, comp, oflags | O_NOFOLLOW);
		if (nfd < 0 && (errno == ELOOP || errno == ENOTDIR)) {
			struct stat ls;
			int e = errno;

			if (fstatat(fd, comp, &ls, AT_SYMLINK_NOFOLLOW) == 0 &&
			    S_ISLNK(ls.st_mode)) {
				e = ELOOP;
				if (!(flags & DIR_NO_LINKS) &&
				    link_trusted(fd, comp)) {
					nfd = openat(fd, comp, oflags);
					e = errno;
				}
			}
			errno = e;
		}
		if (nfd < 0) {
			int r = -errno;

			close(fd);
			return r;
		}
		close(fd);
		fd = nfd;
	}
	return fd;
}

int
open_parent_at(int dirfd, const char *path, unsigned int flags,
	       unsigned int mode, const char **basep)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/');

	*basep = slash ? slash + 1 : path;
	if (**basep == '\0')
		return -EISDIR;
	if (slash == NULL)
		return open_dir_at(dirfd, ".", flags, mode);
	if ((size_t)(slash - path) + 2 > sizeof(dir))
		return -ENAMETOOLONG;
	memcpy(dir, path, (size_t)(slash - path));
	dir[slash - path] = '\0';
	if (slash == path)
		strcpy(dir, "/");
	return open_dir_at(dirfd, dir, flags, mode);
}

/* 16 hex digits from the kernel's random pool (the clock when it fails). */
static void
random_suffix(char *out)
{
	uint64_t v = 0;

	if (getrandom(&v, sizeof(v), GRND_NONBLOCK) != (ssize_t)sizeof(v))
		v = now_us() ^ ((uint64_t)getpid() << 32) ^ (uint64_t)(uintptr_t)out;
	snprintf(out, 17, "%016llx", (unsigned long long)v);
}

/*
 * ".BASE.tmp." + suffix (NULL: 16 random hex digits), with BASE cut short
 * so the whole name fits NAME_MAX: a long final name must not make the
 * file unwritable.
 */
static void
temp_name(const char *base, const char *suffix, char *out, size_t size)
{
	char rnd[17];
	size_t room = NAME_MAX - strlen(".") - strlen(".tmp.") - 16;

	if (!suffix) {
		random_suffix(rnd);
		suffix = rnd;
	}
	snprintf(out, size, ".%.*s.tmp.%s", (int)room, base, suffix);
}

void
remove_stale_temps_at(int dfd, const char *base, unsigned int min_age_s)
{
	char prefix[NAME_MAX + 8];
	struct dirent *de;
	size_t plen, room = NAME_MAX - strlen(".") - strlen(".tmp.") - 16;
	time_t now = time(NULL);
	uid_t me = geteuid();
	int fd;
	DIR *d;

	plen = (size_t)snprintf(prefix, sizeof(prefix), ".%.*s.tmp.",
				(int)room, base);
	if (plen >= sizeof(prefix))
		return;
	fd = dup(dfd);
	if (fd < 0)
		return;
	d = fdopendir(fd);
	if (d == NULL) {
		close(fd);
		return;
	}
	rewinddir(d);
	while ((de = readdir(d))) {
		struct stat st;

		if (strncmp(de->d_name, prefix, plen) != 0 ||
		    fstatat(dfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			continue;
		/* Only our own files: never someone else's, never a link. */
		if (!S_ISREG(st.st_mode) || st.st_uid != me)
			continue;
		if (min_age_s > 0 && st.st_mtime + (time_t)min_age_s > now)
			continue;
		unlinkat(dfd, de->d_name, 0);
	}
	closedir(d);
}

/*
 * Give the unnamed file fd the name 'name' in dfd.  AT_EMPTY_PATH needs
 * CAP_DAC_READ_SEARCH; /proc/self/fd works for everyone else.
 */
static int
link_tmpfile(int fd, int dfd, const char *name)
{
	char proc[64];

	if (linkat(fd, "", dfd, name, AT_EMPTY_PATH) == 0)
		return 0;
	if (errno != ENOENT && errno != EPERM)
		return -errno;
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	if (linkat(AT_FDCWD, proc, dfd, name, AT_SYMLINK_FOLLOW) == 0)
		return 0;
	return -errno;
}

/*
 * Make room at the locked writer's name: what a killed lock holder left
 * there (a regular file of ours) is removed.  1 when the name is free,
 * 0 when something else is there (a file another user planted: left
 * alone, a random name is used instead).
 */
static int
clear_locked_name(int dfd, const char *name)
{
	struct stat st;

	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return errno == ENOENT;
	if (!S_ISREG(st.st_mode) || st.st_uid != geteuid())
		return 0;
	return unlinkat(dfd, name, 0) == 0 || errno == ENOENT;
}

struct bytes {
	const void *data;
	size_t len;
};

static int
fill_bytes(int fd, void *arg)
{
	const struct bytes *b = arg;

	return write_all(fd, b->data, b->len);
}

int
write_file_atomic(const char *path, const void *data, size_t len,
		  const struct write_opts *o)
{
	static const struct write_opts dflt = { .mode = 0644 };
	struct bytes b = { data, len };
	char tmp[NAME_MAX + 1];
	const char *base;
	bool named = false, left = false, locked;
	int (*fill)(int fd, void *arg) = fill_bytes;
	void *arg = &b;
	unsigned int mode;
	int fd = -1, dfd, r, tries;

	if (o == NULL)
		o = &dflt;
	mode = o->mode;
	locked = (o->flags & WRITE_LOCKED) != 0;
	if (o->fill) {
		fill = o->fill;
		arg = o->arg;
	}

	dfd = open_parent_at(AT_FDCWD, path, 0, 0, &base);
	if (dfd < 0)
		return dfd;
	if (strlen(base) > NAME_MAX) {
		close(dfd);
		return -ENAMETOOLONG;
	}
	/*
	 * An unnamed file first: nobody can open it, plant anything in
	 * its place or find it left behind when we are killed.  Where the
	 * file system cannot, a name nobody can guess, created exclusively
	 * (O_EXCL also refuses a symlink or a FIFO already there).
	 */
	fd = openat(dfd, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, mode);
	/* Without unnamed files a killed writer may leave any name. */
	left = fd < 0;
	for (tries = 0; fd < 0 && tries < 100; tries++) {
		temp_name(base, NULL, tmp, sizeof(tmp));
		fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
			    O_CLOEXEC, mode);
		if (fd >= 0)
			named = true;
		else if (errno != EEXIST)
			break;
	}
	if (fd < 0) {
		r = -errno;
		close(dfd);
		return r;
	}
	r = fill(fd, arg);
	/* The mode meant, whatever the umask. */
	if (r == 0 && fchmod(fd, mode) < 0)
		r = -errno;
	if (r == 0 && fsync(fd) < 0)
		r = -errno;
	if (r == 0 && !named && locked) {
		int lr;

		/* The lock holder's own name: the one a killed holder
		 * left is its to replace. */
		temp_name(base, "locked", tmp, sizeof(tmp));
		lr = link_tmpfile(fd, dfd, tmp);
		if (lr == -EEXIST) {
			left = true;
			if (clear_locked_name(dfd, tmp) == 1)
				lr = link_tmpfile(fd, dfd, tmp);
		}
		if (lr == 0)
			named = true;
		else if (lr != -EEXIST)
			r = lr;
	}
	for (tries = 0; r == 0 && !named && tries < 100; tries++) {
		temp_name(base, NULL, tmp, sizeof(tmp));
		r = link_tmpfile(fd, dfd, tmp);
		if (r == 0)
			named = true;
		else if (r == -EEXIST)
			r = 0;
	}
	if (r == 0 && !named)
		r = -EEXIST;
	if (close(fd) < 0 && r == 0)
		r = -errno;
	if (r == 0 && renameat(dfd, tmp, dfd, base) < 0)
		r = -errno;
	if (r < 0) {
		if (named)
			unlinkat(dfd, tmp, 0);
		close(dfd);
		return r;
	}
	fsync(dfd);
	/*
	 * Temporaries a killed writer left behind: without the lock, once
	 * surely abandoned; under it, all of them, but only when one may
	 * have been left (the holder's name was taken, or the file system
	 * has no unnamed files), so that a locked write does not read the
	 * directory every time.
	 */
	if (!locked || left)
		remove_stale_temps_at(dfd, base, locked ? 0 : STALE_TEMP_AGE);
	close(dfd);
	return 0;
}

int
mkdir_p(const char *dir, unsigned int mode)
{
	int fd = open_dir_at(AT_FDCWD, dir, DIR_CREATE, mode);

	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}

/* Lock files */

static void
sleep_ms(unsigned int ms)
{
	struct timespec ts = { (time_t)(ms / 1000), (long)(ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/*
 * The process holding a flock on the file open as fd, from /proc/locks
 * (the kernel's word, not a file another process could have written).
 */
static pid_t
flock_holder(int fd)
{
	unsigned long long ino;
	unsigned int maj, min;
	char line[256], kind[16];
	struct stat st;
	pid_t found = 0;
	long pid;
	FILE *f;

	if (fstat(fd, &st) < 0 || (f = fopen("/proc/locks", "re")) == NULL)
		return 0;
	while (found == 0 && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%*d: %15s %*s %*s %ld %x:%x:%llu", kind, &pid,
			   &maj, &min, &ino) != 5 || strcmp(kind, "FLOCK") != 0)
			continue;
		if (ino == (unsigned long long)st.st_ino &&
		    maj == major(st.st_dev) && min == minor(st.st_dev) &&
		    pid > 0 && pid != getpid())
			found = (pid_t)pid;
	}
	fclose(f);
	return found;
}

pid_t
lock_holder(const char *lockpath)
{
	pid_t pid;
	int fd;

	fd = open_regular_at(AT_FDCWD, lockpath, NULL, 0);
	if (fd < 0)
		return 0;
	pid = flock_holder(fd);
	close(fd);
	return pid;
}

/* Who hears that a lock is being waited for (lock_wait_notice()). */
static void (*lock_waiting)(const char *lockpath, pid_t holder);

void
lock_wait_notice(void (*fn)(const char *lockpath, pid_t holder))
{
	lock_waiting = fn;
}

/*
 * Whether a file of st may be trusted to be ours: a regular file of root
 * or ours that no one else can write (a group's write bit counts only
 * for a group other than root's and ours).  NULL when it may, else what
 * it is, for a message.
 */
static const char *
file_untrusted(const struct stat *st)
{
	if (!S_ISREG(st->st_mode))
		return S_ISDIR(st->st_mode) ? "a directory" :
		       "not a regular file";
	if (st->st_uid != 0 && st->st_uid != geteuid())
		return "owned by another user";
	if ((st->st_mode & S_IWOTH) ||
	    ((st->st_mode & S_IWGRP) && st->st_gid != 0 &&
	     st->st_gid != getegid()))
		return "writable by other users";
	return NULL;
}

/* The same for a directory a file is trusted in: root's or ours, and
 * open to no one else's writes, or sticky (no one else may then remove
 * or replace what is ours in it). */
static const char *
dir_untrusted(const struct stat *st)
{
	if (st->st_uid != 0 && st->st_uid != geteuid())
		return "owned by another user";
	if (!(st->st_mode & S_ISVTX) &&
	    ((st->st_mode & S_IWOTH) ||
	     ((st->st_mode & S_IWGRP) && st->st_gid != 0 &&
	      st->st_gid != getegid())))
		return "writable by other users";
	return NULL;
}

int
own_file_check(const char *path, const char *what, const char *magic,
	       unsigned int flags, char *err, size_t errlen)
{
	char head[64];
	const char *base, *why;
	struct stat st, ds;
	ssize_t n;
	int dfd, fd, r;

	dfd = open_parent_at(AT_FDCWD, path, DIR_PATH, 0, &base);
	if (dfd < 0)
		return dfd == -ENOENT ? 0 :
		       err_ret(err, errlen, dfd == -ELOOP ? -EFTYPE_CPM : dfd,
			       "cannot open the directory of %s '%s': %s",
			       what, path, dfd == -ELOOP ?
			       "a symbolic link on the way" : strerror(-dfd));
	if ((flags & OWN_PRIVATE_DIR) && fstat(dfd, &ds) == 0 &&
	    (why = dir_untrusted(&ds)) != NULL) {
		close(dfd);
		return err_ret(err, errlen, -EFTYPE_CPM, "%s '%s' is not "
			       "trusted: its directory is %s", what, path, why);
	}
	fd = openat(dfd, base, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY |
		    O_NOFOLLOW);
	r = fd < 0 ? -errno : 0;
	if (r == -ELOOP && link_trusted(dfd, base)) {
		fd = openat(dfd, base, O_RDONLY | O_CLOEXEC | O_NONBLOCK |
			    O_NOCTTY);
		r = fd < 0 ? -errno : 0;
	}
	if (fd < 0 && r == -ENXIO) {
		/* a socket, or a FIFO with no writer */
		if (fstatat(dfd, base, &st, AT_SYMLINK_NOFOLLOW) == 0)
			r = -EFTYPE_CPM;
	}
	close(dfd);
	if (r == -ENOENT)
		return 0;
	if (r == -ELOOP)
		return err_ret(err, errlen, -EFTYPE_CPM, "%s '%s' is a symbolic "
			       "link another user could have planted", what,
			       path);
	if (r == -EFTYPE_CPM)
		return err_ret(err, errlen, r, "%s '%s' is not a regular file",
			       what, path);
	if (r < 0)
		return err_ret(err, errlen, r, "cannot open %s '%s': %s", what,
			       path, strerror(-r));
	if (fstat(fd, &st) < 0) {
		r = -errno;
		close(fd);
		return err_ret(err, errlen, r, "cannot open %s '%s': %s", what,
			       path, strerror(-r));
	}
	if ((why = file_untrusted(&st)) != NULL) {
		close(fd);
		return err_ret(err, errlen, S_ISDIR(st.st_mode) ? -EISDIR :
			       -EFTYPE_CPM, "%s '%s' is %s", what, path, why);
	}
	do
		n = pread(fd, head, sizeof(head) - 1, 0);
	while (n < 0 && errno == EINTR);
	close(fd);
	if (n < 0)
		return err_ret(err, errlen, -errno, "cannot read %s '%s': %s",
			       what, path, strerror(errno));
	head[n] = '\0';
	/* Empty is nothing to lose; anything else must be cpm's. */
	if (n > 0 && magic && strncmp(head, magic, strlen(magic)) != 0)
		return err_ret(err, errlen, -EFTYPE_CPM, "'%s' is not a cpm "
			       "%s file (it does not begin with '%s')", path, what,
			       magic);
	return 0;
}

int
own_dir_check(const char *path, const char *what, char *err, size_t errlen)
{
	const char *base, *why;
	struct stat ds;
	int dfd;

	dfd = open_parent_at(AT_FDCWD, path, DIR_PATH, 0, &base);
	if (dfd < 0)
		return 0;	/* the opener words that */
	why = fstat(dfd, &ds) == 0 ? dir_untrusted(&ds) : NULL;
	close(dfd);
	return why ? err_ret(err, errlen, -EFTYPE_CPM, "%s '%s' is not "
			     "trusted: its directory is %s", what, path, why) :
		     0;
}

int
lock_file(const char *lockpath, int64_t wait_ms, char *err, size_t errlen)
{
	struct stat st;
	const char *base, *why;
	uint64_t start, deadline = 0;
	unsigned int nap = 1;
	bool told = false;
	int dfd, fd, r;

	/* No link followed on the way that another user could have
	 * planted; none at all at the lock file itself. */
	dfd = open_parent_at(AT_FDCWD, lockpath, DIR_PATH, 0, &base);
	if (dfd < 0) {
		err_set(err, errlen, "cannot open lock file '%s': %s", lockpath,
			dfd == -ELOOP ? "a symbolic link on the way" :
			strerror(-dfd));
		return dfd == -ELOOP ? -EFTYPE_CPM : dfd;
	}
	/* 0600: a lock others can open, they can hold. */
	fd = openat(dfd, base, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW |
		    O_NONBLOCK | O_NOCTTY, 0600);
	r = -errno;
	close(dfd);
	if (fd < 0) {
		err_set(err, errlen, "cannot open lock file '%s': %s", lockpath,
			r == -ELOOP ? "a symbolic link" : strerror(-r));
		return r == -ELOOP || r == -ENXIO ? -EFTYPE_CPM : r;
	}
	/*
	 * A lock file someone else owns or may write (or a FIFO or device
	 * in its place) is theirs to hold or feed forever: refuse it rather
	 * than wait on it.
	 */
	if (fstat(fd, &st) < 0)
		st.st_mode = 0;
	if ((why = file_untrusted(&st)) != NULL) {
		err_set(err, errlen, "lock file '%s' is %s", lockpath, why);
		close(fd);
		return -EFTYPE_CPM;
	}
	/* One an older cpm made 0644: closed to new readers from now on. */
	if ((st.st_mode & 077) && st.st_uid == geteuid())
		(void)fchmod(fd, 0600);
	start = now_us();
	if (wait_ms > 0)
		deadline = start + (uint64_t)wait_ms * 1000;
	for (;;) {
		if (flock(fd, LOCK_EX | LOCK_NB) == 0)
			break;
		if (errno == EINTR)
			continue;
		if (errno != EWOULDBLOCK) {
			r = -errno;
			err_set(err, errlen, "cannot lock '%s': %s", lockpath,
				strerror(errno));
			close(fd);
			return r;
		}
		if (wait_ms == 0 || (wait_ms > 0 && now_us() >= deadline)) {
			pid_t holder = flock_holder(fd);

			if (holder > 0)
				err_set(err, errlen, "'%s' is locked by process %ld; gave up waiting",
					lockpath, (long)holder);
			else
				err_set(err, errlen, "'%s' is locked by another process; gave up waiting",
					lockpath);
			close(fd);
			return -ETIMEDOUT;
		}
		/* After a second, whoever waits is told for whom. */
		if (!told && lock_waiting && now_us() - start >= 1000000) {
			lock_waiting(lockpath, flock_holder(fd));
			told = true;
		}
		sleep_ms(nap);
		if (nap < 100)
			nap *= 2;
	}
	return fd;
}

void
unlock_file(int fd)
{
	if (fd >= 0)
		close(fd);	/* releases the flock */
}

int
parse_wait(const char *s, int64_t *ms)
{
	uint64_t us;
	int r;

	if (strcmp(s, "forever") == 0) {
		*ms = -1;
		return 0;
	}
	r = parse_duration_us(s, &us);
	if (r == -EINVAL) {
		uint64_t secs;

		r = parse_u64(s, 100000000, &secs);
		us = secs * 1000000;
	}
	if (r < 0)
		return r;
	if (us / 1000 > INT64_MAX / 2)
		return -ERANGE;
	*ms = (int64_t)((us + 999) / 1000);
	return 0;
}

char *
strstrip(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n' ||
			 e[-1] == '\r'))
		*--e = '\0';
	return s;
}

bool
startswith(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

void
strbuf_init(struct strbuf *sb)
{
	sb->buf = NULL;
	sb->len = sb->cap = 0;
	sb->oom = false;
}

void
strbuf_free(struct strbuf *sb)
{
	free(sb->buf);
	strbuf_init(sb);
}

/* Room for len more bytes and the NUL; false (sb->oom) when there is none. */
static bool
strbuf_room(struct strbuf *sb, size_t len)
{
	if (sb->oom)
		return false;
	if (sb->len + len + 1 > sb->cap) {
		size_t ncap = sb->cap ? sb->cap : 256;
		char *nb;

		while (ncap < sb->len + len + 1)
			ncap *= 2;
		nb = realloc(sb->buf, ncap);
		if (nb == NULL) {
			sb->oom = true;
			return false;
		}
		sb->buf = nb;
		sb->cap = ncap;
	}
	return true;
}

bool
strbuf_reserve(struct strbuf *sb, size_t len)
{
	return strbuf_room(sb, len);
}

void
strbuf_add(struct strbuf *sb, const char *data, size_t len)
{
	if (!strbuf_room(sb, len))
		return;
	memcpy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
}

void
strbuf_puts(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

size_t
fmt_int(char *buf, long long v)
{
	char tmp[24];
	unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v :
			       (unsigned long long)v;
	size_t n = 0, len = 0;

	do
		tmp[n++] = (char)('0' + u % 10);
	while ((u /= 10) != 0);
	if (v < 0)
		buf[len++] = '-';
	while (n > 0)
		buf[len++] = tmp[--n];
	buf[len] = '\0';
	return len;
}

void
strbuf_putint(struct strbuf *sb, long long v)
{
	strbuf_putint_w(sb, v, 0);
}

void
strbuf_putint_w(struct strbuf *sb, long long v, int width)
{
	char buf[24];
	size_t n = fmt_int(buf, v), pad = width > (int)n ? (size_t)width - n : 0;

	/* Straight into the buffer: thousands of numbers in a table. */
	if (!strbuf_room(sb, pad + n))
		return;
	memset(sb->buf + sb->len, ' ', pad);
	memcpy(sb->buf + sb->len + pad, buf, n);
	sb->len += pad + n;
	sb->buf[sb->len] = '\0';
}

void
strbuf_pad(struct strbuf *sb, const char *s, int width)
{
	static const char spaces[] = "                                ";
	size_t n = strlen(s);

	strbuf_add(sb, s, n);
	while (width > (int)n) {
		size_t k = (size_t)width - n;

		if (k > sizeof(spaces) - 1)
			k = sizeof(spaces) - 1;
		strbuf_add(sb, spaces, k);
		n += k;
	}
}

void
strbuf_printf(struct strbuf *sb, const char *fmt, ...)
{
	char small[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	va_end(ap);
	if (n < 0) {
		sb->oom = true;
		return;
	}
	if ((size_t)n < sizeof(small)) {
		strbuf_add(sb, small, (size_t)n);
		return;
	}
	{
		char *big = malloc((size_t)n + 1);

		if (big == NULL) {
			sb->oom = true;
			return;
		}
		va_start(ap, fmt);
		vsnprintf(big, (size_t)n + 1, fmt, ap);
		va_end(ap);
		strbuf_add(sb, big, (size_t)n);
		free(big);
	}
}

void
err_vset(char *err, size_t errlen, const char *fmt, va_list ap)
{
	if (err != NULL && errlen > 0)
		vsnprintf(err, errlen, fmt, ap);
}

void
err_set(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	err_vset(err, errlen, fmt, ap);
	va_end(ap);
}

int
err_ret(char *err, size_t errlen, int r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	err_vset(err, errlen, fmt, ap);
	va_end(ap);
	return r;
}

void
str_escape(struct strbuf *sb, const char *s)
{
	static const char hex[] = "0123456789ABCDEF";

	/* Plain bytes in runs: a --since snapshot escapes 10,000 names. */
	while (*s) {
		const char *run = s;
		unsigned char c;
		char esc[3];

		while ((c = (unsigned char)*s) > ' ' && c != '%' && c < 0x7f)
			s++;
		if (s > run)
			strbuf_add(sb, run, (size_t)(s - run));
		if (c == '\0')
			break;
		esc[0] = '%';
		esc[1] = hex[c >> 4];
		esc[2] = hex[c & 15];
		strbuf_add(sb, esc, 3);
		s++;
	}
}

static int
hexdigit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

int
str_unescape(char *s)
{
	char *w = s;

	for (; *s; s++) {
		if (*s == '%') {
			int hi = hexdigit(s[1]), lo = hi < 0 ? -1 : hexdigit(s[2]);

			if (lo < 0 || (hi == 0 && lo == 0))
				return -EINVAL;
			*w++ = (char)(hi * 16 + lo);
			s += 2;
		} else {
			*w++ = *s;
		}
	}
	*w = '\0';
	return 0;
}

uint64_t
now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

static int
cmp_int_asc(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return x < y ? -1 : x > y;
}

void
sort_ints(int *v, size_t n)
{
	uint32_t *a, *b, *t;
	size_t i, cnt[256];
	unsigned int shift;

	for (i = 1; i < n && v[i - 1] <= v[i]; i++)
		;
	if (i >= n)
		return;
	if (n < 64) {
		qsort(v, n, sizeof(*v), cmp_int_asc);
		return;
	}
	a = malloc(2 * n * sizeof(*a));
	if (!a) {
		qsort(v, n, sizeof(*v), cmp_int_asc);
		return;
	}
	b = a + n;
	/* Flipping the sign bit orders ints as unsigned numbers. */
	for (i = 0; i < n; i++)
		a[i] = (uint32_t)v[i] ^ 0x80000000u;
	for (shift = 0; shift < 32; shift += 8) {
		size_t sum = 0, k;

		memset(cnt, 0, sizeof(cnt));
		for (i = 0; i < n; i++)
			cnt[(a[i] >> shift) & 0xff]++;
		if (cnt[(a[0] >> shift) & 0xff] == n)
			continue;	/* one value of this byte: order kept */
		for (k = 0; k < 256; k++) {
			size_t c = cnt[k];

			cnt[k] = sum;
			sum += c;
		}
		for (i = 0; i < n; i++)
			b[cnt[(a[i] >> shift) & 0xff]++] = a[i];
		t = a;
		a = b;
		b = t;
	}
	for (i = 0; i < n; i++)
		v[i] = (int)(a[i] ^ 0x80000000u);
	free(a < b ? a : b);
}

size_t
uniq_ints(int *v, size_t n)
{
	size_t i, m = 0, words;
	uint64_t *seen;
	int lo, hi;

	if (n == 0)
		return 0;
	lo = hi = v[0];
	for (i = 1; i < n; i++) {
		if (v[i] < lo)
			lo = v[i];
		if (v[i] > hi)
			hi = v[i];
	}
	/*
	 * Topology ids are small and dense: mark each in a bitmap and read
	 * the bitmap back in order, O(n + hi) with no sort at all.
	 */
	seen = NULL;
	if (lo >= 0 && (size_t)hi < 64 * n + 4096) {
		words = (size_t)hi / 64 + 1;
		seen = calloc(words, sizeof(*seen));
	}
	if (seen == NULL) {
		sort_ints(v, n);
		for (i = 0; i < n; i++)
			if (i == 0 || v[i] != v[m - 1])
				v[m++] = v[i];
		return m;
	}
	for (i = 0; i < n; i++)
		seen[(unsigned int)v[i] / 64] |= 1ULL << ((unsigned int)v[i] % 64);
	for (i = 0; i < words; i++) {
		uint64_t w = seen[i];

		while (w) {
			v[m++] = (int)(i * 64 + (size_t)__builtin_ctzll(w));
			w &= w - 1;
		}
	}
	free(seen);
	return m;
}

void *
arena_alloc_block(struct arena *a, size_t size)
{
	size_t bs = size > a->block_size ? size : a->block_size;
	struct arena_block *b = malloc(sizeof(*b) + bs);

	if (!b)
		return NULL;
	b->next = a->blocks;
	b->used = size;
	b->size = bs;
	a->blocks = b;
	return b->data;
}

void
arena_reset(struct arena *a)
{
	struct arena_block *keep = a->blocks;

	if (!keep)
		return;
	a->blocks = keep->next;
	arena_free(a);
	keep->next = NULL;
	keep->used = 0;
	a->blocks = keep;
}

void
arena_free(struct arena *a)
{
	while (a->blocks) {
		struct arena_block *next = a->blocks->next;

		free(a->blocks);
		a->blocks = next;
	}
}
