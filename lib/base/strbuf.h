/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A growable byte buffer for building output before writing it at once,
 * and the percent-encoding of values in cpm's line-oriented text files.
 */
#ifndef CPM_STRBUF_H
#define CPM_STRBUF_H

#include <stdbool.h>
#include <stddef.h>

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
 * strbuf_putint() appends v as fmt_int() writes it; strbuf_putint_w()
 * right-aligns it in width characters as "%*lld" does.
 */
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

#endif
