// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

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
	for (; *p; p++) {
		unsigned int d;

		if (*p < '0' || *p > '9')
			return -EINVAL;
		d = (unsigned int)(*p - '0');
		if (v > (UINT64_MAX - d) / 10)
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
read_file_at(int dirfd, const char *path, char **bufp, size_t *lenp, bool text)
{
	int fd, err = 0;
	size_t cap = 4096, len = 0;
	char *buf;

	fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	buf = malloc(cap);
	if (buf == NULL) {
		close(fd);
		return -ENOMEM;
	}
	for (;;) {
		ssize_t n;

		if (len + 1 >= cap) {
			char *nb = realloc(buf, cap * 2);

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
	}
	close(fd);
	if (err == 0 && text && memchr(buf, '\0', len) != NULL)
		err = -EILSEQ;
	if (err < 0) {
		free(buf);
		return err;
	}
	buf[len] = '\0';
	*bufp = buf;
	if (lenp)
		*lenp = len;
	return 0;
}

ssize_t
read_small_at(int dirfd, const char *path, char *buf, size_t size)
{
	int fd;
	ssize_t n;
	size_t len = 0;

	if (size < 2)
		return -EINVAL;
	fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	for (;;) {
		n = read(fd, buf + len, size - len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			n = -errno;
			close(fd);
			return n;
		}
		if (n == 0)
			break;
		len += (size_t)n;
		if (len == size) {
			close(fd);
			return -EFBIG;
		}
	}
	close(fd);
	buf[len] = '\0';
	if (len > 0 && buf[len - 1] == '\n')
		buf[--len] = '\0';
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

int
write_file_atomic(const char *path, const void *data, size_t len,
		  unsigned int mode)
{
	char tmp[PATH_MAX], dir[PATH_MAX];
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	int fd, dfd, r;

	if (slash) {
		size_t dl = (size_t)(slash - path);

		if (dl == 0)
			dl = 1;
		if (dl >= sizeof(dir))
			return -ENAMETOOLONG;
		memcpy(dir, path, dl);
		dir[dl] = '\0';
	} else {
		strcpy(dir, ".");
	}
	r = snprintf(tmp, sizeof(tmp), "%.*s.%s.tmp.%ld",
		     (int)(base - path), path, base, (long)getpid());
	if (r < 0 || (size_t)r >= sizeof(tmp))
		return -ENAMETOOLONG;
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW,
		  mode);
	if (fd < 0)
		return -errno;
	r = write_all(fd, data, len);
	if (r == 0 && fsync(fd) < 0)
		r = -errno;
	if (close(fd) < 0 && r == 0)
		r = -errno;
	if (r == 0 && rename(tmp, path) < 0)
		r = -errno;
	if (r < 0) {
		unlink(tmp);
		return r;
	}
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		fsync(dfd);
		close(dfd);
	}
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

void
strbuf_add(struct strbuf *sb, const char *data, size_t len)
{
	if (sb->oom)
		return;
	if (sb->len + len + 1 > sb->cap) {
		size_t ncap = sb->cap ? sb->cap : 256;
		char *nb;

		while (ncap < sb->len + len + 1)
			ncap *= 2;
		nb = realloc(sb->buf, ncap);
		if (nb == NULL) {
			sb->oom = true;
			return;
		}
		sb->buf = nb;
		sb->cap = ncap;
	}
	memcpy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
}

void
strbuf_puts(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
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

void
str_escape(struct strbuf *sb, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c <= ' ' || c == '%' || c >= 0x7f)
			strbuf_printf(sb, "%%%02X", c);
		else
			strbuf_add(sb, s, 1);
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
