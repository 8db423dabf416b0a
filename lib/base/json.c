// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>

#include "base/json.h"
#include "base/strbuf.h"
#include "base/strutils.h"

void
json_init(struct json *j, struct strbuf *sb)
{
	j->sb = sb;
	j->depth = 0;
	j->err = 0;
	j->first[0] = true;
	j->after_key = false;
}

/*
 * Comma and bookkeeping before any value or key.  False after an error:
 * the caller then writes nothing.
 */
static bool
json_sep(struct json *j)
{
	if (j->err)
		return false;
	if (j->after_key) {
		j->after_key = false;
		return true;
	}
	if (!j->first[j->depth])
		strbuf_add(j->sb, ",", 1);
	j->first[j->depth] = false;
	return true;
}

int
json_error(const struct json *j)
{
	return j->err;
}

static void
json_open(struct json *j, char c)
{
	if (j->depth >= JSON_MAX_DEPTH)
		j->err = -E2BIG;
	if (!json_sep(j))
		return;
	strbuf_add(j->sb, &c, 1);
	j->depth++;
	j->first[j->depth] = true;
}

static void
json_close(struct json *j, char c)
{
	if (j->err)
		return;
	if (j->depth == 0) {
		j->err = -EINVAL;
		return;
	}
	strbuf_add(j->sb, &c, 1);
	j->depth--;
}

void json_obj_begin(struct json *j) { json_open(j, '{'); }
void json_obj_end(struct json *j) { json_close(j, '}'); }
void json_arr_begin(struct json *j) { json_open(j, '['); }
void json_arr_end(struct json *j) { json_close(j, ']'); }

void
json_quote(struct strbuf *sb, const char *s)
{
	const unsigned char *p = (const unsigned char *)s, *run;
	size_t n;

	strbuf_add(sb, "\"", 1);
	for (run = p; *p; p++) {
		/* Printable ASCII is copied a run at a time. */
		if (*p >= 0x20 && *p < 0x80 && *p != '"' && *p != '\\')
			continue;
		strbuf_add(sb, (const char *)run, (size_t)(p - run));
		run = p + 1;
		if (*p >= 0x80) {
			n = utf8_seq_len(p, SIZE_MAX);
			if (n == 0) {
				strbuf_add(sb, "\\ufffd", 6);
			} else {
				strbuf_add(sb, (const char *)p, n);
				p += n - 1;
				run = p + 1;
			}
			continue;
		}
		switch (*p) {
		case '"': strbuf_add(sb, "\\\"", 2); break;
		case '\\': strbuf_add(sb, "\\\\", 2); break;
		case '\n': strbuf_add(sb, "\\n", 2); break;
		case '\t': strbuf_add(sb, "\\t", 2); break;
		case '\r': strbuf_add(sb, "\\r", 2); break;
		default:
			strbuf_printf(sb, "\\u%04x", *p);
		}
	}
	strbuf_add(sb, (const char *)run, (size_t)(p - run));
	strbuf_add(sb, "\"", 1);
}

void
json_key(struct json *j, const char *key)
{
	if (!json_sep(j))
		return;
	json_quote(j->sb, key);
	strbuf_add(j->sb, ":", 1);
	j->after_key = true;
}

void
json_str(struct json *j, const char *s)
{
	if (!json_sep(j))
		return;
	if (s == NULL)
		strbuf_puts(j->sb, "null");
	else
		json_quote(j->sb, s);
}

void
json_cpulist(struct json *j, const struct cpuset *s)
{
	if (!json_sep(j))
		return;
	strbuf_add(j->sb, "\"", 1);
	cpuset_format(s, j->sb);
	strbuf_add(j->sb, "\"", 1);
}

void
json_int(struct json *j, int64_t v)
{
	if (!json_sep(j))
		return;
	strbuf_putint(j->sb, (long long)v);
}

void
json_uint(struct json *j, uint64_t v)
{
	if (!json_sep(j))
		return;
	strbuf_printf(j->sb, "%llu", (unsigned long long)v);
}

void
json_double(struct json *j, double v, int decimals)
{
	if (!json_sep(j))
		return;
	if (!isfinite(v))
		strbuf_puts(j->sb, "null");
	else
		strbuf_printf(j->sb, "%.*f", decimals, v);
}

void
json_bool(struct json *j, bool v)
{
	if (!json_sep(j))
		return;
	strbuf_puts(j->sb, v ? "true" : "false");
}

void
json_null(struct json *j)
{
	if (!json_sep(j))
		return;
	strbuf_puts(j->sb, "null");
}

void
json_raw(struct json *j, const char *text)
{
	if (!json_sep(j))
		return;
	strbuf_puts(j->sb, text);
}
