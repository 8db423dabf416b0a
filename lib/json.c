// SPDX-License-Identifier: GPL-2.0-or-later
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "json.h"

void
json_init(struct json *j, struct strbuf *sb)
{
	j->sb = sb;
	j->depth = 0;
	j->first[0] = true;
	j->after_key = false;
}

/* Comma and bookkeeping before any value or key. */
static void
json_sep(struct json *j)
{
	if (j->after_key) {
		j->after_key = false;
		return;
	}
	if (!j->first[j->depth])
		strbuf_add(j->sb, ",", 1);
	j->first[j->depth] = false;
}

static void
json_open(struct json *j, char c)
{
	json_sep(j);
	strbuf_add(j->sb, &c, 1);
	if (j->depth + 1 < JSON_MAX_DEPTH)
		j->depth++;
	j->first[j->depth] = true;
}

static void
json_close(struct json *j, char c)
{
	strbuf_add(j->sb, &c, 1);
	if (j->depth > 0)
		j->depth--;
}

void json_obj_begin(struct json *j) { json_open(j, '{'); }
void json_obj_end(struct json *j) { json_close(j, '}'); }
void json_arr_begin(struct json *j) { json_open(j, '['); }
void json_arr_end(struct json *j) { json_close(j, ']'); }

static void
json_quote(struct strbuf *sb, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	strbuf_add(sb, "\"", 1);
	for (; *p; p++) {
		switch (*p) {
		case '"': strbuf_add(sb, "\\\"", 2); break;
		case '\\': strbuf_add(sb, "\\\\", 2); break;
		case '\n': strbuf_add(sb, "\\n", 2); break;
		case '\t': strbuf_add(sb, "\\t", 2); break;
		case '\r': strbuf_add(sb, "\\r", 2); break;
		default:
			if (*p < 0x20)
				strbuf_printf(sb, "\\u%04x", *p);
			else
				strbuf_add(sb, (const char *)p, 1);
		}
	}
	strbuf_add(sb, "\"", 1);
}

void
json_key(struct json *j, const char *key)
{
	json_sep(j);
	json_quote(j->sb, key);
	strbuf_add(j->sb, ":", 1);
	j->after_key = true;
}

void
json_str(struct json *j, const char *s)
{
	json_sep(j);
	if (s == NULL)
		strbuf_puts(j->sb, "null");
	else
		json_quote(j->sb, s);
}

void
json_int(struct json *j, int64_t v)
{
	json_sep(j);
	strbuf_printf(j->sb, "%lld", (long long)v);
}

void
json_uint(struct json *j, uint64_t v)
{
	json_sep(j);
	strbuf_printf(j->sb, "%llu", (unsigned long long)v);
}

void
json_double(struct json *j, double v, int decimals)
{
	json_sep(j);
	if (!isfinite(v))
		strbuf_puts(j->sb, "null");
	else
		strbuf_printf(j->sb, "%.*f", decimals, v);
}

void
json_bool(struct json *j, bool v)
{
	json_sep(j);
	strbuf_puts(j->sb, v ? "true" : "false");
}

void
json_null(struct json *j)
{
	json_sep(j);
	strbuf_puts(j->sb, "null");
}

void
json_raw(struct json *j, const char *text)
{
	json_sep(j);
	strbuf_puts(j->sb, text);
}
