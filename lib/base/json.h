/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A minimal streaming JSON writer into a strbuf.  It tracks nesting so
 * callers never place commas by hand; keys are written with json_key()
 * right before a value inside an object.
 *
 * Strings are written as valid JSON whatever the bytes: control
 * characters are escaped and each byte that is not part of a well-formed
 * UTF-8 sequence becomes U+FFFD, so a cgroup or process name read from the
 * kernel cannot make the document unreadable.
 *
 * Nesting deeper than JSON_MAX_DEPTH, or closing more than was opened, is
 * refused: the writer stops writing and json_error() says why, so the
 * caller reports an error instead of printing a broken document.
 */
#ifndef CPM_JSON_H
#define CPM_JSON_H

#include <stdbool.h>
#include <stdint.h>

#include "base/cpuset.h"
#include "base/strbuf.h"

#define JSON_MAX_DEPTH 64

struct json {
	struct strbuf *sb;
	int depth;
	int err;			/* sticky; see json_error() */
	bool first[JSON_MAX_DEPTH + 1];
	bool after_key;
};

void json_init(struct json *j, struct strbuf *sb);
void json_obj_begin(struct json *j);
void json_obj_end(struct json *j);
void json_arr_begin(struct json *j);
void json_arr_end(struct json *j);
void json_key(struct json *j, const char *key);
void json_str(struct json *j, const char *s);	/* NULL writes null */
void json_int(struct json *j, int64_t v);
void json_uint(struct json *j, uint64_t v);
void json_double(struct json *j, double v, int decimals);
void json_bool(struct json *j, bool v);
void json_null(struct json *j);
/* A cpulist as a string ("" when empty), written straight into the
 * buffer: its characters never need escaping. */
void json_cpulist(struct json *j, const struct cpuset *s);
/* Write pre-formatted JSON (a number, say) as one value. */
void json_raw(struct json *j, const char *text);

/*
 * Returns 0 while the document is well formed, -E2BIG once nesting went
 * past JSON_MAX_DEPTH, -EINVAL once more was closed than opened.  After
 * an error nothing more is written.
 */
int json_error(const struct json *j);

/* Append s to sb as a quoted JSON string (see above for bad bytes). */
void json_quote(struct strbuf *sb, const char *s);

#endif
