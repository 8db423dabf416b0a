/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A minimal streaming JSON writer into a strbuf.  It tracks nesting so
 * callers never place commas by hand; keys are written with json_key()
 * right before a value inside an object.
 */
#ifndef CPM_JSON_H
#define CPM_JSON_H

#include <stdbool.h>
#include <stdint.h>

#include "util.h"

#define JSON_MAX_DEPTH 32

struct json {
	struct strbuf *sb;
	int depth;
	bool first[JSON_MAX_DEPTH];
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
/* Write pre-formatted JSON (a number, say) as one value. */
void json_raw(struct json *j, const char *text);

#endif
