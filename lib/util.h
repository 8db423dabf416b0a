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

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
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
 * Read a whole file into a malloc'ed, NUL-terminated buffer.  dirfd is a
 * directory fd (AT_FDCWD for the cwd); path is relative to it.  *lenp gets
 * the length (optional).  Refuses files with embedded NUL bytes when
 * text is true (-EILSEQ).  Returns 0 or -errno.
 */
int read_file_at(int dirfd, const char *path, char **bufp, size_t *lenp,
		 bool text);

/*
 * Read a small file (at most size-1 bytes) into buf, NUL-terminated, with
 * a single trailing newline removed.  Returns the length or -errno;
 * -EFBIG when the file does not fit.
 */
ssize_t read_small_at(int dirfd, const char *path, char *buf, size_t size);

/*
 * Replace path with data atomically: write a temporary file in the same
 * directory (named ".NAME.tmp.PID", so that it never ends in the final
 * name's suffix), fsync it, rename it over path and fsync the directory.
 * mode is used for a new file.  Returns 0 or -errno; on failure path is
 * untouched and the temporary file removed.
 */
int write_file_atomic(const char *path, const void *data, size_t len,
		      unsigned int mode);

/* write(2) all of buf, retrying on EINTR and short writes.  0 or -errno. */
int write_all(int fd, const void *buf, size_t len);

/* Strip leading and trailing white space in place; returns s. */
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

/* Growable byte buffer, for building output before writing it at once. */
struct strbuf {
	char *buf;
	size_t len, cap;
	bool oom;	/* set when an append failed; further appends no-op */
};

void strbuf_init(struct strbuf *sb);
void strbuf_free(struct strbuf *sb);
void strbuf_add(struct strbuf *sb, const char *data, size_t len);
void strbuf_puts(struct strbuf *sb, const char *s);
void strbuf_printf(struct strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

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
