// SPDX-License-Identifier: GPL-2.0-or-later
/* The JSON writer: strings are valid UTF-8 JSON, nesting never corrupts. */
#include <errno.h>
#include <string.h>

#include "base/json.h"
#include "base/strbuf.h"
#include "unit.h"

/* The JSON text json_str() writes for s. */
static char *
quoted(const char *s)
{
	struct strbuf sb;
	struct json j;

	strbuf_init(&sb);
	json_init(&j, &sb);
	json_str(&j, s);
	strbuf_add(&sb, "", 1);
	return sb.buf;
}

#define QUOTE(name, in, want) do {					\
	char *q_ = quoted(in);						\
	CHECK_STR(name, q_, want);					\
	free(q_);							\
} while (0)

static void
test_strings(void)
{
	QUOTE("plain ASCII is kept", "kubepods/pod1", "\"kubepods/pod1\"");
	QUOTE("quotes, backslashes and controls are escaped",
	      "a\"b\\c\nd\te\x01", "\"a\\\"b\\\\c\\nd\\te\\u0001\"");
	QUOTE("well-formed UTF-8 is kept",
	      "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80",
	      "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"");
	QUOTE("the highest code point is kept", "\xf4\x8f\xbf\xbf",
	      "\"\xf4\x8f\xbf\xbf\"");
	QUOTE("a stray byte becomes U+FFFD", "a\xff" "b", "\"a\\ufffdb\"");
	QUOTE("a lone continuation byte becomes U+FFFD", "\x80",
	      "\"\\ufffd\"");
	QUOTE("an overlong '/' is refused byte by byte", "\xc0\xaf",
	      "\"\\ufffd\\ufffd\"");
	QUOTE("an overlong three-byte form is refused", "\xe0\x80\xaf",
	      "\"\\ufffd\\ufffd\\ufffd\"");
	QUOTE("a UTF-16 surrogate is refused", "\xed\xa0\x80",
	      "\"\\ufffd\\ufffd\\ufffd\"");
	QUOTE("a code point above U+10FFFF is refused", "\xf4\x90\x80\x80",
	      "\"\\ufffd\\ufffd\\ufffd\\ufffd\"");
	QUOTE("a sequence cut short by the end is refused", "x\xe2\x82",
	      "\"x\\ufffd\\ufffd\"");
	QUOTE("a sequence cut short by ASCII keeps the ASCII", "\xe2\x82" "a",
	      "\"\\ufffd\\ufffda\"");
	QUOTE("keys are escaped the same way", "\xfe", "\"\\ufffd\"");
}

/*
 * depth nested arrays, each holding the next and then the number of its
 * level: [[[1],2],3] for depth 3.
 */
static void
nest(struct json *j, int depth)
{
	int i;

	for (i = 0; i < depth; i++)
		json_arr_begin(j);
	for (i = 1; i <= depth; i++) {
		if (i == 1)
			json_int(j, 1);
		json_arr_end(j);
		if (i < depth)
			json_int(j, i + 1);
	}
}

static char *
nest_want(int depth)
{
	struct strbuf sb;
	int i;

	strbuf_init(&sb);
	for (i = 0; i < depth; i++)
		strbuf_puts(&sb, "[");
	for (i = 1; i <= depth; i++)
		strbuf_printf(&sb, i == 1 ? "1]" : ",%d]", i);
	strbuf_add(&sb, "", 1);
	return sb.buf;
}

static void
test_depth(void)
{
	struct strbuf sb;
	struct json j;
	char *want;
	size_t len;

	/* Past the old limit of 32 levels the commas went wrong. */
	strbuf_init(&sb);
	json_init(&j, &sb);
	nest(&j, 40);
	strbuf_add(&sb, "", 1);
	want = nest_want(40);
	CHECK_STR("40 levels are written correctly", sb.buf, want);
	CHECK("40 levels are no error", json_error(&j) == 0);
	free(want);
	strbuf_free(&sb);

	strbuf_init(&sb);
	json_init(&j, &sb);
	nest(&j, JSON_MAX_DEPTH);
	strbuf_add(&sb, "", 1);
	want = nest_want(JSON_MAX_DEPTH);
	CHECK_STR("JSON_MAX_DEPTH levels are written correctly", sb.buf, want);
	CHECK("JSON_MAX_DEPTH levels are no error", json_error(&j) == 0);
	free(want);
	strbuf_free(&sb);

	strbuf_init(&sb);
	json_init(&j, &sb);
	nest(&j, JSON_MAX_DEPTH + 1);
	CHECK("one level more is refused", json_error(&j) == -E2BIG);
	len = sb.len;
	json_int(&j, 7);
	json_key(&j, "k");
	json_str(&j, "v");
	json_arr_end(&j);
	CHECK("after the refusal nothing more is written", sb.len == len);
	CHECK("what was written is only the opening brackets",
	      len == JSON_MAX_DEPTH && sb.buf[len - 1] == '[');
	strbuf_free(&sb);

	strbuf_init(&sb);
	json_init(&j, &sb);
	json_obj_begin(&j);
	json_obj_end(&j);
	CHECK("a balanced document is no error", json_error(&j) == 0);
	json_obj_end(&j);
	CHECK("closing more than was opened is refused",
	      json_error(&j) == -EINVAL && sb.len == 2);
	strbuf_free(&sb);
}

static void
test_document(void)
{
	struct strbuf sb;
	struct json j;

	strbuf_init(&sb);
	json_init(&j, &sb);
	json_obj_begin(&j);
	json_key(&j, "a");
	json_arr_begin(&j);
	json_int(&j, -1);
	json_uint(&j, 18446744073709551615ULL);
	json_double(&j, 0.25, 3);
	json_double(&j, 1.0 / 0.0, 3);
	json_bool(&j, true);
	json_null(&j);
	json_raw(&j, "{\"x\":1}");
	json_arr_end(&j);
	json_key(&j, "b");
	json_str(&j, NULL);
	json_obj_end(&j);
	strbuf_add(&sb, "", 1);
	CHECK_STR("values and separators",
		  sb.buf, "{\"a\":[-1,18446744073709551615,0.250,null,true,null,{\"x\":1}],\"b\":null}");
	strbuf_free(&sb);
}

/* Cpulists go in as strings, "" when empty, with their separators. */
static void
test_cpulist(void)
{
	struct cpuset s = CPUSET_INIT;
	struct strbuf sb;
	struct json j;

	cpuset_set(&s, 0);
	cpuset_set(&s, 1);
	cpuset_set(&s, 2);
	cpuset_set(&s, 8);
	strbuf_init(&sb);
	json_init(&j, &sb);
	json_arr_begin(&j);
	json_cpulist(&j, &s);
	cpuset_zero(&s);
	json_cpulist(&j, &s);
	json_arr_end(&j);
	strbuf_add(&sb, "", 1);
	CHECK_STR("a cpulist and an empty one", sb.buf, "[\"0-2,8\",\"\"]");
	strbuf_free(&sb);
	cpuset_free(&s);
}

int
main(void)
{
	test_strings();
	test_depth();
	test_document();
	test_cpulist();
	return unit_failed;
}
