// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The growable byte buffer and percent-encoding (strbuf.h).
 */

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/num.h"
#include "base/strbuf.h"

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
