/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A strict JSON reader (RFC 8259), the counterpart of json.h's writer.
 * Two ways in, one grammar:
 *
 *   pull    jr_init() over a text, then jr_eat(), jr_string(), jr_key(),
 *           jr_number() and jr_skip() walk it value by value; the caller
 *           says what it expects next and reports anything else with
 *           jr_fail(), so a reader of one document keeps its own words
 *           for the document's structure
 *   tree    jr_parse() reads one whole value into a struct jr_value;
 *           jr_member() and jr_member_fold() look members up
 *
 * The policy, for every caller:
 *   - strings are returned as NUL-terminated UTF-8: escapes are decoded
 *     (\uXXXX surrogate pairs into one code point); a lone surrogate,
 *     \u0000 (a C string cannot hold it), a control character and any
 *     byte sequence that is not well-formed UTF-8 are refused, never
 *     replaced
 *   - numbers follow JSON's grammar exactly (no leading zeros, no bare
 *     '.', no '+'); an integer that fits is also given as uint64_t
 *     and/or int64_t, and one that does not is still a number
 *   - containers nest at most JR_MAX_DEPTH deep; a text is at most
 *     JR_MAX_LEN bytes
 *   - a member name given twice is kept twice in a tree: the lookups
 *     answer the last, as Go's encoding/json does; or, with j->unique
 *     (JR_UNIQUE), refused, so that a document no two readers can read
 *     differently is the only one accepted
 *
 * Errors are -EINVAL with "WHAT at byte N" in the caller's err buffer
 * (the first error only), and j->err_at holds N; -ENOMEM otherwise.
 */
#ifndef CPM_JSONREAD_H
#define CPM_JSONREAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define JR_MAX_DEPTH 64
#define JR_MAX_LEN (64u << 20)

struct jr {
	const char *start, *p, *end;
	char *err;
	size_t errlen;
	size_t err_at;		/* byte offset of the first error */
	bool failed;
	bool unique;		/* jr_parse(): refuse a member name given
				 * twice in one object */
	int depth;
};

/* A number as read: its text, and its value when it is an integer. */
struct jr_number {
	bool is_u64;		/* a non-negative integer up to UINT64_MAX */
	bool is_i64;		/* an integer within int64_t */
	uint64_t u;
	int64_t i;
};

/*
 * Read len bytes of text (not NUL-terminated); err receives the first
 * error.  Returns 0, or -EINVAL when len is above JR_MAX_LEN.
 */
int jr_init(struct jr *j, const char *text, size_t len, char *err,
	    size_t errlen);

/* Report what at the current byte.  Returns -EINVAL. */
int jr_fail(struct jr *j, const char *what);

/* Skip white space; true when nothing is left. */
bool jr_at_end(struct jr *j);

/* After white space: the next byte, or 0 at the end. */
char jr_peek(struct jr *j);

/* After white space, consume c when it is next. */
bool jr_eat(struct jr *j, char c);

/*
 * A string value into a malloc'ed copy (out NULL only checks it).
 * Returns 0; -EINVAL ("expected a string" when none is next); -ENOMEM.
 */
int jr_string(struct jr *j, char **out);

/*
 * A member name and its ':'.  Returns 0; -EINVAL ("expected a member
 * name", "expected ':'"); -ENOMEM.
 */
int jr_key(struct jr *j, char **out);

/* A number; text, when not NULL, receives a malloc'ed copy of it. */
int jr_number(struct jr *j, struct jr_number *n, char **text);

/* Check and step over one value of any kind. */
int jr_skip(struct jr *j);

/*
 * After a member or element: true after a ',' (another follows), false
 * after close; -EINVAL ("expected ',' or '}'" or "... ']'") otherwise.
 */
int jr_next(struct jr *j, char close);

enum jr_type { JR_NULL, JR_BOOL, JR_NUM, JR_STR, JR_ARR, JR_OBJ };

struct jr_value {
	enum jr_type type;
	bool b;				/* JR_BOOL */
	char *s;			/* JR_STR: the text; JR_NUM: as written */
	struct jr_number num;		/* JR_NUM */
	size_t n;			/* members or elements */
	char **keys;			/* JR_OBJ: the member names */
	struct jr_value *v;		/* members or elements */
};

/*
 * One value, and nothing after it but white space ("trailing data"),
 * into v.  Returns 0, -EINVAL or -ENOMEM; v needs jr_value_free() after
 * 0 and is left empty otherwise.
 */
int jr_parse(struct jr *j, struct jr_value *v);
void jr_value_free(struct jr_value *v);

/*
 * A whole document of len bytes into v: jr_init() and jr_parse() in one.
 * *err_at (may be NULL) gets the byte a refusal was at, so that a caller
 * can word a text cut short as its peers do.
 */
int jr_parse_text(const char *text, size_t len, struct jr_value *v,
		  size_t *err_at, char *err, size_t errlen);

/*
 * The same with flags: JR_UNIQUE refuses an object that names a member
 * twice ("member 'NAME' given twice at byte N", the byte after the
 * object).
 */
#define JR_UNIQUE 1u
int jr_parse_text_flags(const char *text, size_t len, unsigned int flags,
			struct jr_value *v, size_t *err_at, char *err,
			size_t errlen);

/* The last member of o named key; NULL when none or o is no object. */
const struct jr_value *jr_member(const struct jr_value *o, const char *key);

/*
 * The same, names compared as Go's encoding/json matches them to a
 * struct's fields: ASCII letters in any case, and U+212A KELVIN SIGN and
 * U+017F LONG S as 'k' and 's' (the only other code points that fold to
 * an ASCII letter).
 */
const struct jr_value *jr_member_fold(const struct jr_value *o,
				      const char *key);

/* Whether name matches key as jr_member_fold() compares them. */
bool jr_name_fold_eq(const char *name, const char *key);

#endif
