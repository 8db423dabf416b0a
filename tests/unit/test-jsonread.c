// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The JSON reader: strings decode to UTF-8 and refuse what is not text,
 * numbers say when they fit, and every refusal names its byte.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "unit.h"
#include "base/jsonread.h"

/* The string the document text (a JSON string) holds, or the error. */
static char *
str_of(const char *text)
{
	static char buf[256];
	char err[128];
	struct jr j;
	char *s;

	jr_init(&j, text, strlen(text), err, sizeof(err));
	if (jr_string(&j, &s) < 0) {
		snprintf(buf, sizeof(buf), "error: %s", err);
		return buf;
	}
	snprintf(buf, sizeof(buf), "%s", s);
	free(s);
	return buf;
}

/* 0 when text parses as one value; else the error message in err. */
static int
parse(const char *text, size_t len, struct jr_value *v, char *err,
      size_t errlen)
{
	struct jr j;
	int r = jr_init(&j, text, len, err, errlen);

	if (r == 0)
		r = jr_parse(&j, v);
	return r;
}

static const char *
error_of(const char *text)
{
	static char err[128];
	struct jr_value v;

	if (parse(text, strlen(text), &v, err, sizeof(err)) == 0) {
		jr_value_free(&v);
		return "(parsed)";
	}
	return err;
}

static void
test_strings(void)
{
	CHECK_STR("plain text is kept", str_of("\"kubepods/pod1\""),
		  "kubepods/pod1");
	CHECK_STR("the short escapes decode",
		  str_of("\"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t\""),
		  "a\"b\\c/d\b\f\n\r\t");
	CHECK_STR("\\u escapes decode to UTF-8",
		  str_of("\"\\u0041\\u00e9\\u20AC\""), "A\xc3\xa9\xe2\x82\xac");
	CHECK_STR("a surrogate pair is one code point",
		  str_of("\"\\ud83d\\ude00\""), "\xf0\x9f\x98\x80");
	CHECK_STR("the highest code point", str_of("\"\\udbff\\udfff\""),
		  "\xf4\x8f\xbf\xbf");
	CHECK_STR("a lone high surrogate is refused",
		  str_of("\"a\\ud83dx\""),
		  "error: invalid escape in a string at byte 2");
	CHECK_STR("a high surrogate before another escape is refused",
		  str_of("\"\\ud83d\\u0041\""),
		  "error: invalid escape in a string at byte 1");
	CHECK_STR("a lone low surrogate is refused", str_of("\"\\ude00\""),
		  "error: invalid escape in a string at byte 1");
	CHECK_STR("\\u0000 is refused (a C string cannot hold it)",
		  str_of("\"a\\u0000\""), "error: \\u0000 in a string at byte 2");
	CHECK_STR("a short \\u escape is refused", str_of("\"\\u12\""),
		  "error: invalid escape in a string at byte 1");
	CHECK_STR("a bad hex digit is refused", str_of("\"\\u12g4\""),
		  "error: invalid escape in a string at byte 1");
	CHECK_STR("an unknown escape is refused", str_of("\"\\x\""),
		  "error: invalid escape in a string at byte 1");
	CHECK_STR("a raw control character is refused", str_of("\"a\tb\""),
		  "error: control character in a string at byte 2");
	CHECK_STR("an unterminated string is refused", str_of("\"abc"),
		  "error: unterminated string at byte 4");
	CHECK_STR("a backslash at the end is refused", str_of("\"abc\\"),
		  "error: unterminated string at byte 4");
	CHECK_STR("a value that is no string is refused", str_of("12"),
		  "error: expected a string at byte 0");
	/* Raw UTF-8: well-formed sequences are kept, anything else refused. */
	CHECK_STR("well-formed UTF-8 is kept",
		  str_of("\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\""),
		  "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
	CHECK_STR("a stray continuation byte is refused",
		  str_of("\"a\x80\""), "error: invalid UTF-8 in a string at byte 2");
	CHECK_STR("a truncated sequence is refused", str_of("\"a\xe2\x82\""),
		  "error: invalid UTF-8 in a string at byte 2");
	CHECK_STR("an overlong form is refused", str_of("\"\xc0\xaf\""),
		  "error: invalid UTF-8 in a string at byte 1");
	CHECK_STR("an overlong three-byte form is refused",
		  str_of("\"\xe0\x80\xaf\""),
		  "error: invalid UTF-8 in a string at byte 1");
	CHECK_STR("an encoded surrogate is refused", str_of("\"\xed\xa0\x80\""),
		  "error: invalid UTF-8 in a string at byte 1");
	CHECK_STR("a code point above U+10FFFF is refused",
		  str_of("\"\xf4\x90\x80\x80\""),
		  "error: invalid UTF-8 in a string at byte 1");
	CHECK_STR("0xff is refused", str_of("\"\xff\""),
		  "error: invalid UTF-8 in a string at byte 1");
}

/* The number text reads as: "u=U i=I", "-" for what does not fit. */
static const char *
num_of(const char *text)
{
	static char buf[256];
	char err[128];
	struct jr_number n;
	struct jr j;

	jr_init(&j, text, strlen(text), err, sizeof(err));
	if (jr_number(&j, &n, NULL) < 0) {
		snprintf(buf, sizeof(buf), "error: %s", err);
		return buf;
	}
	if (!jr_at_end(&j))
		return "(not all read)";
	if (n.is_u64)
		snprintf(buf, sizeof(buf), "u=%llu", (unsigned long long)n.u);
	else
		snprintf(buf, sizeof(buf), "u=-");
	if (n.is_i64)
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf),
			 " i=%lld", (long long)n.i);
	else
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), " i=-");
	return buf;
}

static void
test_numbers(void)
{
	CHECK_STR("zero", num_of("0"), "u=0 i=0");
	CHECK_STR("a small integer", num_of("42"), "u=42 i=42");
	CHECK_STR("a negative integer", num_of("-42"), "u=- i=-42");
	CHECK_STR("INT64_MAX fits both", num_of("9223372036854775807"),
		  "u=9223372036854775807 i=9223372036854775807");
	CHECK_STR("INT64_MAX + 1 fits only unsigned",
		  num_of("9223372036854775808"), "u=9223372036854775808 i=-");
	CHECK_STR("INT64_MIN fits signed", num_of("-9223372036854775808"),
		  "u=- i=-9223372036854775808");
	CHECK_STR("below INT64_MIN fits nothing",
		  num_of("-9223372036854775809"), "u=- i=-");
	CHECK_STR("UINT64_MAX fits unsigned", num_of("18446744073709551615"),
		  "u=18446744073709551615 i=-");
	CHECK_STR("UINT64_MAX + 1 overflows", num_of("18446744073709551616"),
		  "u=- i=-");
	CHECK_STR("a long integer overflows",
		  num_of("1000000000000000000000000"), "u=- i=-");
	CHECK_STR("a fraction is a number, not an integer", num_of("1.5"),
		  "u=- i=-");
	CHECK_STR("an exponent is a number, not an integer", num_of("1e3"),
		  "u=- i=-");
	CHECK_STR("a signed exponent", num_of("-2.5E-3"), "u=- i=-");
	CHECK_STR("-0 is a signed zero", num_of("-0"), "u=- i=0");
	CHECK_STR("a leading zero is refused", num_of("012"),
		  "error: number with a leading zero at byte 0");
	CHECK_STR("a bare '.' is refused", num_of("1."),
		  "error: invalid number at byte 2");
	CHECK_STR("an empty exponent is refused", num_of("1e+"),
		  "error: invalid number at byte 3");
	CHECK_STR("a bare '-' is refused", num_of("-"),
		  "error: expected a number at byte 0");
	CHECK_STR("'+' is refused", num_of("+1"),
		  "error: expected a number at byte 0");
}

static void
test_documents(void)
{
	const char *doc = "{\"a\": [1, true, null, \"x\"], \"b\": {}}";
	struct jr_value v;
	char err[128], deep[300];
	int i;

	CHECK("an object parses",
	      parse(doc, strlen(doc), &v, err, sizeof(err)) == 0 && v.type == JR_OBJ && v.n == 2 &&
	      v.v[0].type == JR_ARR && v.v[0].n == 4 &&
	      v.v[0].v[1].type == JR_BOOL && v.v[0].v[1].b &&
	      v.v[0].v[2].type == JR_NULL && v.v[0].v[3].type == JR_STR &&
	      v.v[1].type == JR_OBJ && v.v[1].n == 0);
	jr_value_free(&v);

	CHECK("a repeated name is kept twice, the last is found",
	      parse("{\"a\":1,\"A\":2,\"a\":3}", 19, &v, err, sizeof(err)) == 0 &&
	      v.n == 3 && jr_member(&v, "a") &&
	      strcmp(jr_member(&v, "a")->s, "3") == 0);
	CHECK("the exact lookup ignores other cases",
	      jr_member(&v, "A") && strcmp(jr_member(&v, "A")->s, "2") == 0 &&
	      !jr_member(&v, "b"));
	CHECK("the folding lookup finds the last in any case",
	      jr_member_fold(&v, "A") &&
	      strcmp(jr_member_fold(&v, "A")->s, "3") == 0);
	jr_value_free(&v);
	CHECK_STR("with JR_UNIQUE a repeated name is refused",
		  jr_parse_text_flags("{\"b\":{\"x\":1,\"y\":2,\"x\":3}}", 25,
				      JR_UNIQUE, &v, NULL, err,
				      sizeof(err)) == -EINVAL ? err : "parsed",
		  "member 'x' given twice at byte 24");
	CHECK("with JR_UNIQUE names in other cases are not repeats",
	      jr_parse_text_flags("{\"a\":1,\"A\":2}", 13, JR_UNIQUE, &v,
				  NULL, err, sizeof(err)) == 0 && v.n == 2);
	jr_value_free(&v);
	CHECK_STR("a repeated name of control characters is named on one line",
		  jr_parse_text_flags("{\"\\n\":1,\"\\n\":2}", 15, JR_UNIQUE,
				      &v, NULL, err, sizeof(err)) == -EINVAL ?
		  err : "parsed", "member '?' given twice at byte 15");
	CHECK("a later name in another case wins the folding lookup",
	      parse("{\"checksum\":1,\"CheckSum\":2}", 27, &v, err,
		    sizeof(err)) == 0 &&
	      strcmp(jr_member_fold(&v, "checksum")->s, "2") == 0);
	jr_value_free(&v);
	CHECK("Go folds the Kelvin sign to k and the long s to s",
	      jr_name_fold_eq("chec\xe2\x84\xaa\xc5\xbfum", "checksum") &&
	      jr_name_fold_eq("CHECKSUM", "checksum"));
	CHECK("and nothing else", !jr_name_fold_eq("checksu", "checksum") &&
	      !jr_name_fold_eq("checksums", "checksum") &&
	      !jr_name_fold_eq("ch\xc3\xa9", "che"));

	CHECK_STR("an empty text is refused", error_of(""),
		  "unexpected end at byte 0");
	CHECK_STR("white space alone is refused", error_of(" \n"),
		  "unexpected end at byte 2");
	CHECK_STR("a truncated object is refused", error_of("{\"a\":1,"),
		  "expected a member name at byte 7");
	CHECK_STR("a truncated member is refused", error_of("{\"a\""),
		  "expected ':' at byte 4");
	CHECK_STR("a truncated value is refused", error_of("{\"a\":"),
		  "unexpected end at byte 5");
	CHECK_STR("an unclosed array is refused", error_of("[1,2"),
		  "expected ',' or ']' at byte 4");
	CHECK_STR("a truncated literal is refused", error_of("[tru"),
		  "invalid value at byte 1");
	CHECK_STR("a trailing comma is refused", error_of("[1,]"),
		  "invalid value at byte 3");
	CHECK_STR("a name that is no string is refused", error_of("{a:1}"),
		  "expected a member name at byte 1");
	CHECK_STR("trailing garbage is refused", error_of("{} x"),
		  "trailing data at byte 3");
	CHECK_STR("a second value is refused", error_of("1 2"),
		  "trailing data at byte 2");
	CHECK_STR("trailing white space is fine", error_of(" {}\r\n\t "),
		  "(parsed)");
	CHECK_STR("a scalar document parses", error_of("\"x\""), "(parsed)");

	for (i = 0; i < 64; i++)
		deep[i] = '[';
	for (i = 0; i < 64; i++)
		deep[64 + i] = ']';
	deep[128] = '\0';
	CHECK_STR("64 levels of nesting parse", error_of(deep), "(parsed)");
	for (i = 0; i < 65; i++)
		deep[i] = '[';
	for (i = 0; i < 65; i++)
		deep[65 + i] = ']';
	deep[130] = '\0';
	CHECK_STR("65 levels are refused", error_of(deep),
		  "nesting too deep at byte 64");
	CHECK("a text above the size cap is refused unread",
	      parse("{}", (size_t)JR_MAX_LEN + 1, &v, err, sizeof(err)) ==
	      -EINVAL && strstr(err, "larger than") != NULL);
}

static void
test_pull(void)
{
	const char *text = "{\"skip\": [1, {\"x\": \"\\u00e9\"}], \"n\": 7}";
	struct jr_number n;
	char err[128], *k = NULL;
	struct jr j;

	jr_init(&j, text, strlen(text), err, sizeof(err));
	CHECK("the pull reader opens an object", jr_eat(&j, '{'));
	CHECK("reads a member name", jr_key(&j, &k) == 0 && k &&
	      strcmp(k, "skip") == 0);
	free(k);
	CHECK("skips a nested value", jr_skip(&j) == 0 &&
	      jr_next(&j, '}') == 1);
	CHECK("reads the next name and a number", jr_key(&j, NULL) == 0 &&
	      jr_number(&j, &n, NULL) == 0 && n.is_u64 && n.u == 7);
	CHECK("and the end", jr_next(&j, '}') == 0 && jr_at_end(&j));

	jr_init(&j, "[1 2]", 5, err, sizeof(err));
	CHECK("jr_next refuses a missing comma",
	      jr_eat(&j, '[') && jr_skip(&j) == 0 &&
	      jr_next(&j, ']') == -EINVAL && j.err_at == 3);
	CHECK_STR("and says so", err, "expected ',' or ']' at byte 3");
	CHECK("only the first error is kept",
	      jr_fail(&j, "another") == -EINVAL &&
	      strcmp(err, "expected ',' or ']' at byte 3") == 0);
}

int
main(void)
{
	test_strings();
	test_numbers();
	test_documents();
	test_pull();
	return unit_failed;
}
