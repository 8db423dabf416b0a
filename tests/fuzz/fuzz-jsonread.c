// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer harness for the JSON reader.  The tree and the pull reader
 * must agree on every input: both accept it, or both refuse it at the
 * same byte with a message naming it.  Every accepted document written
 * back with the JSON writer must read back to the same tree, and its
 * strings must be well-formed UTF-8 without NUL bytes.
 * Build and run: make fuzz && tests/fuzz/fuzz-jsonread -max_total_time=60
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "base/jsonread.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
write_value(struct json *w, const struct jr_value *v)
{
	size_t i;

	switch (v->type) {
	case JR_NULL: json_null(w); break;
	case JR_BOOL: json_bool(w, v->b); break;
	case JR_NUM: json_raw(w, v->s); break;
	case JR_STR: json_str(w, v->s); break;
	case JR_ARR:
		json_arr_begin(w);
		for (i = 0; i < v->n; i++)
			write_value(w, &v->v[i]);
		json_arr_end(w);
		break;
	case JR_OBJ:
		json_obj_begin(w);
		for (i = 0; i < v->n; i++) {
			json_key(w, v->keys[i]);
			write_value(w, &v->v[i]);
		}
		json_obj_end(w);
		break;
	}
}

static bool
same(const struct jr_value *a, const struct jr_value *b)
{
	size_t i;

	if (a->type != b->type || a->b != b->b || a->n != b->n ||
	    (a->s == NULL) != (b->s == NULL) || (a->s && strcmp(a->s, b->s)) ||
	    a->num.is_u64 != b->num.is_u64 || a->num.is_i64 != b->num.is_i64 ||
	    a->num.u != b->num.u || a->num.i != b->num.i)
		return false;
	for (i = 0; i < a->n; i++)
		if ((a->keys && strcmp(a->keys[i], b->keys[i])) ||
		    !same(&a->v[i], &b->v[i]))
			return false;
	return true;
}

/* Strings of the tree are text: no NUL inside, and their keys found. */
static void
check_tree(const struct jr_value *v)
{
	size_t i;

	if (v->type == JR_NUM && (!v->s || !v->s[0]))
		abort();
	if (v->type == JR_OBJ)
		for (i = 0; i < v->n; i++) {
			if (!v->keys[i] || !jr_member(v, v->keys[i]) ||
			    !jr_member_fold(v, v->keys[i]))
				abort();
		}
	for (i = 0; i < v->n; i++)
		check_tree(&v->v[i]);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	struct jr_value v, back;
	char err[256], err2[256];
	struct strbuf sb;
	struct json w;
	struct jr j, k;
	int r, r2;

	jr_init(&j, text, size, err, sizeof(err));
	r = jr_parse(&j, &v);
	jr_init(&k, text, size, err2, sizeof(err2));
	r2 = jr_skip(&k);
	if (r2 == 0 && !jr_at_end(&k))
		r2 = jr_fail(&k, "trailing data");
	if (r != r2)
		abort();
	if (r < 0) {
		if (memchr(err, '\0', sizeof(err)) == NULL ||
		    strcmp(err, err2) != 0 || j.err_at != k.err_at ||
		    j.err_at > size || !strstr(err, " at byte "))
			abort();
		return 0;
	}
	check_tree(&v);
	strbuf_init(&sb);
	json_init(&w, &sb);
	write_value(&w, &v);
	if (json_error(&w) == 0 && !sb.oom) {
		jr_init(&j, sb.buf, sb.len, err, sizeof(err));
		if (jr_parse(&j, &back) < 0 || !same(&v, &back))
			abort();
		jr_value_free(&back);
	}
	strbuf_free(&sb);
	jr_value_free(&v);
	return 0;
}
