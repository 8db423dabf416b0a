/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Small utilities shared by every cpm tool: strict number parsing, file
 * reading, atomic file replacement, durations and sizes.
 *
 * The library never prints and never exits: every function returns 0 or a
 * positive count on success and a negative errno-style code on failure.
 */
#ifndef CPM_UTIL_H
#define CPM_UTIL_H

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/*
 * Parse a whole string as an unsigned decimal number no larger than max.
 * No sign, no leading/trailing space, no "0x", no leading zeros except "0"
 * itself.  Returns 0, -EINVAL (not a number) or -ERANGE (above max).
 */
int parse_u64(const char *s, uint64_t max, uint64_t *out);

/* Like parse_u64() but for a signed value within [min, max]. */
int parse_i64(const char *s, int64_t min, int64_t max, int64_t *out);

/* parse_u64() into an unsigned int no larger than max. */
int parse_uint(const char *s, unsigned int max, unsigned int *out);

/*
 * Parse a duration with a mandatory unit "us", "ms" or "s"; the number may
 * have a fraction ("1.5s").  Result in microseconds.  Returns 0, -EINVAL
 * or -ERANGE.
 */
int parse_duration_us(const char *s, uint64_t *out_us);

/*
 * Parse a memory size: a whole number with an optional binary suffix
 * K/M/G/T (also Ki/Mi/Gi/Ti, KiB/MiB/...), or Kubernetes decimal k/M/G/T.
 * Plain numbers are bytes.  Returns 0, -EINVAL or -ERANGE.
 */
int parse_size_bytes(const char *s, uint64_t *out);

/*
 * Readers refuse what is not a regular file (a FIFO, a device, a socket
 * planted where a file belongs would block them or feed them forever):
 * -EFTYPE_CPM.  read_strerror() words a reader's error for a message.
 */
#define EFTYPE_CPM EMEDIUMTYPE
const char *read_strerror(int r);

/* The default cap of read_file_at(): no file cpm reads comes near it. */
#define READ_FILE_MAX (16u << 20)

/* The NUL bytes after the end of a file read_file_at() reads, so that a
 * parser may compare a few bytes at any point of it. */
#define READ_PAD 16

/*
 * How the readers below, open_how_at() and open_regular_at() open their
 * file (the READ_HOW_MASK bits of a reader's flags; 0: openat(2) as it
 * is).  READ_IN_ROOT: dirfd is the root of a replayed tree another user
 * may write, and path is resolved as if it were "/" (open_in_root()): no
 * link in the tree, nor "..", leads outside it.
 */
#define READ_IN_ROOT 0x1u
/*
 * READ_NO_LINK: the file itself may not be a symbolic link (-ELOOP).  No
 * cgroup file system can hold one: a link where a control file belongs
 * is a fake tree's, planted to make root read another file.  With
 * READ_IN_ROOT or READ_NO_LINK, a file of more than one hard link is
 * refused too (-EMLINK): no kernel file system has one, and in a tree
 * another user made it may be root's file, linked in.
 */
#define READ_NO_LINK 0x2u
/*
 * READ_NO_LINKS: no component of path may be a symbolic link (-ELOOP),
 * nor lead out of dirfd's directory or its mount (-EXDEV): path is a
 * file below a directory that was checked but not opened, such as
 * "leaf/cpu.stat" from the parent of a cgroup leaf, and whatever
 * replaced that directory meanwhile may not send the read elsewhere.
 * Needs openat2 (Linux 5.6): without it, -ENOSYS (open_no_links_works()
 * tells beforehand).
 */
#define READ_NO_LINKS 0x4u
#define READ_HOW_MASK (READ_IN_ROOT | READ_NO_LINK | READ_NO_LINKS)
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
ssize_t read_buf_at(int dirfd, const char *path, unsigned int flags,
		    char *buf, size_t size, bool *whole);

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
 * The open of the readers above, for one that reads a file in pieces:
 * path (how: READ_HOW_MASK bits) open O_RDONLY | O_NONBLOCK, its stat in
 * *stp (optional); -EISDIR, -EFTYPE_CPM for anything but a regular file,
 * or -errno.
 */
int open_regular_at(int dirfd, const char *path, struct stat *stp,
		    unsigned int how);
/* openat(dirfd, path, flags) as how (READ_HOW_MASK bits) says: an fd or
 * -errno. */
int open_how_at(int dirfd, const char *path, int flags, unsigned int how);
/* Whether READ_NO_LINKS opens can be made here (asked once). */
bool open_no_links_works(void);

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
 * Open directory path (relative to dirfd unless absolute) one component
 * at a time, never following a symbolic link another user could have
 * planted: a link is followed only when it belongs to root or to us and
 * sits in a directory others cannot write (or a sticky one).  DIR_CREATE
 * creates missing components with mode; DIR_NO_LINKS follows no link at
 * all; DIR_PATH opens O_PATH (enough to open what is below, and needs
 * no read permission on the way).  Returns the directory's fd or -errno
 * (-ELOOP for a refused link).
 */
#define DIR_CREATE	1u
#define DIR_NO_LINKS	2u
#define DIR_PATH	4u
int open_dir_at(int dirfd, const char *path, unsigned int flags,
		unsigned int mode);
/* open_dir_at() of path's directory; *basep gets path's last component. */
int open_parent_at(int dirfd, const char *path, unsigned int flags,
		   unsigned int mode, const char **basep);

/*
 * Create directory dir and its missing parents with the given mode, like
 * "mkdir -p", through open_dir_at().  Returns 0 (also when it exists) or
 * -errno.
 */
int mkdir_p(const char *dir, unsigned int mode);

/*
 * Lock files: the one mechanism every tool uses.  lock_file() opens (or
 * creates) lockpath, a regular file that must belong to us or root, and
 * takes an exclusive flock on it, waiting wait_ms milliseconds at most
 * (negative: forever, 0: not at all).  A lock file is created 0600 (one
 * others can open, they can hold) and refused (-EFTYPE_CPM) when it is
 * another user's, writable by others, not a regular file or reached
 * through a link another user could have planted.  A waiter that gives
 * up names the holder from /proc/locks.  Returns the fd to pass to
 * unlock_file() or -errno with err set; -ETIMEDOUT when the wait ran
 * out.
 */
int lock_file(const char *lockpath, int64_t wait_ms, char *err,
	      size_t errlen);
/*
 * fn(lockpath, holder) is called once by a lock_file() that has waited a
 * second, holder the PID holding the lock (0: unknown): the tool tells
 * its user whom it waits for and how to bound the wait.
 */
void lock_wait_notice(void (*fn)(const char *lockpath, pid_t holder));
/*
 * Before anything is locked, created or written beside path: the file
 * there, if any, must be cpm's to replace.  It is opened without
 * following a symbolic link another user could have planted (as the
 * kernel's protected_symlinks rule, applied whatever the sysctl says) and
 * without blocking, and must be a regular file of root's or ours that no
 * one else can write, and be empty or begin with magic (NULL: any text).
 * OWN_PRIVATE_DIR: its directory, too, must be root's or ours and
 * writable by no one else (or sticky), as for a journal whose word is
 * acted on.  what names the file in err ("state", "journal").  Returns
 * 0 (also when there is no such file), -EFTYPE_CPM or -EISDIR with err
 * saying why, or another -errno.
 */
#define OWN_PRIVATE_DIR 1u
int own_file_check(const char *path, const char *what, const char *magic,
		   unsigned int flags, char *err, size_t errlen);
/* own_file_check()'s OWN_PRIVATE_DIR test alone: 0 or -EFTYPE_CPM. */
int own_dir_check(const char *path, const char *what, char *err,
		  size_t errlen);
void unlock_file(int fd);
/* The PID holding a flock on lockpath (from /proc/locks), or 0. */
pid_t lock_holder(const char *lockpath);
/*
 * Parse a --wait argument: whole seconds, a duration with a unit ("500ms",
 * "2s") or "forever" (-1).  Result in milliseconds.  0, -EINVAL or
 * -ERANGE.
 */
int parse_wait(const char *s, int64_t *ms);

/* write(2) all of buf, retrying on EINTR and short writes.  0 or -errno. */
int write_all(int fd, const void *buf, size_t len);

/* Strip leading and trailing white space in place; returns s. */
/*
 * Sort v[0..n) in ascending order: O(n) (a radix sort, or nothing when v
 * is sorted already) where qsort(3) costs O(n log n) comparison calls.
 * Falls back to qsort(3) when it cannot allocate its buffer.
 */
void sort_ints(int *v, size_t n);

/*
 * Sort v[0..n) and drop repeated values; returns how many are left.
 * O(n + largest value) for small non-negative ids (a bitmap), else a
 * sort_ints() and one pass.
 */
size_t uniq_ints(int *v, size_t n);

/*
 * Memory handed out in pieces from blocks of block_size bytes (or one
 * piece's size, when larger) and freed all together: for many small
 * pieces that live as long as their owner.  Zero-initialise, set
 * block_size.
 */
struct arena_block {
	struct arena_block *next;
	size_t used, size;
	_Alignas(16) unsigned char data[];
};

struct arena {
	struct arena_block *blocks;
	size_t block_size;
};

/* arena_alloc() when the newest block has no room. */
void *arena_alloc_block(struct arena *a, size_t size);

/* size bytes at a multiple of align (a power of two up to 16), or NULL
 * when out of memory.  Inline: it is called once per small piece. */
static inline void *
arena_alloc(struct arena *a, size_t size, size_t align)
{
	struct arena_block *b = a->blocks;
	size_t at;

	if (!b)
		return arena_alloc_block(a, size);
	at = (b->used + align - 1) & ~(align - 1);
	if (at > b->size || b->size - at < size)
		return arena_alloc_block(a, size);
	b->used = at + size;
	return b->data + at;
}
/* Forget every piece, keeping the newest block for the next ones. */
void arena_reset(struct arena *a);
void arena_free(struct arena *a);

char *strstrip(char *s);

/* True when s starts with prefix. */
bool startswith(const char *s, const char *prefix);

/*
 * Format a one-line message into err (when err is not NULL and errlen is
 * not 0): the library's way of explaining a negative return code.
 */
void err_set(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void err_vset(char *err, size_t errlen, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));
/* err_set(), then return r: for 'return err_ret(err, errlen, -EINVAL, ...)'. */
int err_ret(char *err, size_t errlen, int r, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Growable byte buffer, for building output before writing it at once. */
struct strbuf {
	char *buf;
	size_t len, cap;
	bool oom;	/* set when an append failed; further appends no-op */
};

void strbuf_init(struct strbuf *sb);
void strbuf_free(struct strbuf *sb);
void strbuf_add(struct strbuf *sb, const char *data, size_t len);
/* Room for len more bytes at once; false (sb->oom) when there is none. */
bool strbuf_reserve(struct strbuf *sb, size_t len);
void strbuf_puts(struct strbuf *sb, const char *s);
void strbuf_printf(struct strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/*
 * Decimal integers without printf, for output of thousands of numbers:
 * fmt_int() writes v into buf (at least 21 bytes, NUL-terminated) and
 * returns its length; strbuf_putint() appends it; strbuf_putint_w()
 * right-aligns it in width characters as "%*lld" does.
 */
size_t fmt_int(char *buf, long long v);
void strbuf_putint(struct strbuf *sb, long long v);
void strbuf_putint_w(struct strbuf *sb, long long v, int width);
/* s, then spaces up to width characters (bytes), as "%-*s" does. */
void strbuf_pad(struct strbuf *sb, const char *s, int width);

/*
 * Percent-encoding for values kept in cpm's line-oriented text files
 * (states, journals, snapshots): bytes up to the space, '%', DEL and
 * everything above ASCII become %XX, so a value is one word.
 */
void str_escape(struct strbuf *sb, const char *s);
/* Decode str_escape() in place.  0, or -EINVAL on a bad escape or %00. */
int str_unescape(char *s);

/* Monotonic clock in microseconds. */
uint64_t now_us(void);

#endif
