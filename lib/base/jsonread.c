// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The JSON reader.  See jsonread.h for the policy; this file only reads
 * text, it knows nothing of the documents cpm reads with it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#include "base/err.h"
#include "base/jsonread.h"
#include "base/strbuf.h"
#include "base/strutils.h"

int
jr_init(struct jr *j, const char *text, size_t len, char *err, size_t errlen)
{
	memset(j, 0, sizeof(*j));
	j->start = j->p = text;
	j->end = text + len;
	j->err = err;
	j->errlen = errlen;
	if (errlen)
		err[0] = '\0';
	if (len > JR_MAX_LEN) {
		j->end = text;
		j->failed = true;
		return err_ret(err, errlen, -EINVAL, "larger than %u bytes",
			       JR_MAX_LEN);
	}
	return 0;
}

int
jr_fail(struct jr *j, const char *what)
{
	/* The first error is the one that explains the others. */
	if (!j->failed) {
		j->failed = true;
		j->err_at = (size_t)(j->p - j->start);
		if (j->errlen)
			snprintf(j->err, j->errlen, "%s at byte %zu", what,
				 j->err_at);
	}
	return -EINVAL;
}

static void
ws(struct jr *j)
{
	while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' ||
				 *j->p == '\n' || *j->p == '\r'))
		j->p++;
}

bool
jr_at_end(struct jr *j)
{
	ws(j);
	return j->p == j->end;
}

char
jr_peek(struct jr *j)
{
	ws(j);
	return j->p < j->end ? *j->p : '\0';
}

bool
jr_eat(struct jr *j, char c)
{
	ws(j);
	if (j->p < j->end && *j->p == c) {
		j->p++;
		return true;
	}
	return false;
}

static int
hex4(const char *p, unsigned int *out)
{
	unsigned int v = 0;
	int i;

	for (i = 0; i < 4; i++) {
		char c = p[i];

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (unsigned int)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (unsigned int)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (unsigned int)(c - 'A' + 10);
		else
			return -1;
	}
	*out = v;
	return 0;
}

static void
put_utf8(struct strbuf *sb, unsigned int c)
{
	char b[4];
	size_t n;

	if (c < 0x80) {
		b[0] = (char)c;
		n = 1;
	} else if (c < 0x800) {
		b[0] = (char)(0xc0 | (c >> 6));
		b[1] = (char)(0x80 | (c & 0x3f));
		n = 2;
	} else if (c < 0x10000) {
		b[0] = (char)(0xe0 | (c >> 12));
		b[1] = (char)(0x80 | ((c >> 6) & 0x3f));
		b[2] = (char)(0x80 | (c & 0x3f));
		n = 3;
	} else {
		b[0] = (char)(0xf0 | (c >> 18));
		b[1] = (char)(0x80 | ((c >> 12) & 0x3f));
		b[2] = (char)(0x80 | ((c >> 6) & 0x3f));
		b[3] = (char)(0x80 | (c & 0x3f));
		n = 4;
	}
	strbuf_add(sb, b, n);
}

/* One escape after its backslash (at j->p) into sb (when not NULL). */
static int
escape(struct jr *j, struct strbuf *sb)
{
	unsigned int c, lo;
	char d;

	if (j->end - j->p < 2)
		return jr_fail(j, "unterminated string");
	switch (j->p[1]) {
	case '"': case '\\': case '/': d = j->p[1]; break;
	case 'b': d = '\b'; break;
	case 'f': d = '\f'; break;
	case 'n': d = '\n'; break;
	case 'r': d = '\r'; break;
	case 't': d = '\t'; break;
	case 'u':
		if (j->end - j->p < 6 || hex4(j->p + 2, &c) < 0)
			return jr_fail(j, "invalid escape in a string");
		if (c == 0)
			return jr_fail(j, "\\u0000 in a string");
		if (c >= 0xdc00 && c <= 0xdfff)
			return jr_fail(j, "invalid escape in a string");
		if (c >= 0xd800 && c < 0xdc00) {
			if (j->end - j->p < 12 || j->p[6] != '\\' ||
			    j->p[7] != 'u' || hex4(j->p + 8, &lo) < 0 ||
			    lo < 0xdc00 || lo > 0xdfff)
				return jr_fail(j, "invalid escape in a string");
			c = 0x10000 + ((c - 0xd800) << 10) + (lo - 0xdc00);
			j->p += 6;
		}
		if (sb)
			put_utf8(sb, c);
		j->p += 6;
		return 0;
	default:
		return jr_fail(j, "invalid escape in a string");
	}
	if (sb)
		strbuf_add(sb, &d, 1);
	j->p += 2;
	return 0;
}

/* The string whose opening quote is at j->p. */
static int
string_at(struct jr *j, char **out)
{
	struct strbuf sb;
	const char *run;
	int r;

	j->p++;
	strbuf_init(&sb);
	for (;;) {
		/* Runs of plain bytes are copied at once. */
		run = j->p;
		while (j->p < j->end && *j->p != '"' && *j->p != '\\' &&
		       (unsigned char)*j->p >= 0x20) {
			if ((unsigned char)*j->p < 0x80) {
				j->p++;
			} else {
				size_t n = utf8_seq_len(
				    (const unsigned char *)j->p,
				    (size_t)(j->end - j->p));

				if (n == 0) {
					r = jr_fail(j, "invalid UTF-8 in a string");
					goto fail;
				}
				j->p += n;
			}
		}
		if (out && j->p > run)
			strbuf_add(&sb, run, (size_t)(j->p - run));
		if (j->p >= j->end) {
			r = jr_fail(j, "unterminated string");
			goto fail;
		}
		if (*j->p == '"')
			break;
		if (*j->p != '\\') {
			r = jr_fail(j, "control character in a string");
			goto fail;
		}
		if ((r = escape(j, out ? &sb : NULL)) < 0)
			goto fail;
	}
	j->p++;
	if (!out)
		return 0;
	strbuf_add(&sb, "", 0);
	if (sb.oom || !sb.buf) {
		strbuf_free(&sb);
		return -ENOMEM;
	}
	*out = sb.buf;
	return 0;
fail:
	strbuf_free(&sb);
	return r;
}

int
jr_string(struct jr *j, char **out)
{
	if (out)
		*out = NULL;
	ws(j);
	if (j->p >= j->end || *j->p != '"')
		return jr_fail(j, "expected a string");
	return string_at(j, out);
}

int
jr_key(struct jr *j, char **out)
{
	int r;

	if (out)
		*out = NULL;
	ws(j);
	if (j->p >= j->end || *j->p != '"')
		return jr_fail(j, "expected a member name");
	if ((r = string_at(j, out)) < 0)
		return r;
	if (!jr_eat(j, ':')) {
		if (out) {
			free(*out);
			*out = NULL;
		}
		return jr_fail(j, "expected ':'");
	}
	return 0;
}

static bool
digit(const struct jr *j, const char *p)
{
	return p < j->end && *p >= '0' && *p <= '9';
}

int
jr_number(struct jr *j, struct jr_number *n, char **text)
{
	const char *s, *q;
	uint64_t u = 0;
	bool neg, fits = true;

	memset(n, 0, sizeof(*n));
	if (text)
		*text = NULL;
	ws(j);
	s = q = j->p;
	neg = q < j->end && *q == '-';
	q += neg;
	if (!digit(j, q))
		return jr_fail(j, "expected a number");
	if (*q == '0' && digit(j, q + 1)) {
		j->p = q;
		return jr_fail(j, "number with a leading zero");
	}
	while (digit(j, q)) {
		unsigned int d = (unsigned int)(*q++ - '0');

		if (u > (UINT64_MAX - d) / 10)
			fits = false;
		u = u * 10 + d;
	}
	if (q < j->end && *q == '.') {
		if (!digit(j, ++q)) {
			j->p = q;
			return jr_fail(j, "invalid number");
		}
		while (digit(j, q))
			q++;
		fits = false;
	}
	if (q < j->end && (*q == 'e' || *q == 'E')) {
		q++;
		if (q < j->end && (*q == '+' || *q == '-'))
			q++;
		if (!digit(j, q)) {
			j->p = q;
			return jr_fail(j, "invalid number");
		}
		while (digit(j, q))
			q++;
		fits = false;
	}
	j->p = q;
	if (fits && !neg) {
		n->is_u64 = true;
		n->u = u;
		n->is_i64 = u <= INT64_MAX;
		n->i = (int64_t)(n->is_i64 ? u : 0);
	} else if (fits && u <= (uint64_t)INT64_MAX + 1) {
		n->is_i64 = true;
		n->i = u == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)u;
	}
	if (text && !(*text = strndup(s, (size_t)(q - s))))
		return -ENOMEM;
	return 0;
}

int
jr_next(struct jr *j, char close)
{
	if (jr_eat(j, ','))
		return 1;
	if (jr_eat(j, close))
		return 0;
	return jr_fail(j, close == '}' ? "expected ',' or '}'" :
		       "expected ',' or ']'");
}

static int
literal(struct jr *j, const char *word, size_t len)
{
	if ((size_t)(j->end - j->p) >= len && memcmp(j->p, word, len) == 0) {
		j->p += len;
		return 0;
	}
	return jr_fail(j, "invalid value");
}

static int
key_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* With j->unique: object v's names, each once (sorted, not compared
 * pairwise: an object may have many members). */
static int
check_unique(struct jr *j, const struct jr_value *v)
{
	char **k;
	size_t i;
	int r = 0;

	if (!j->unique || v->n < 2)
		return 0;
	if (!(k = malloc(v->n * sizeof(*k))))
		return -ENOMEM;
	memcpy(k, v->keys, v->n * sizeof(*k));
	qsort(k, v->n, sizeof(*k), key_cmp);
	for (i = 1; i < v->n && r == 0; i++)
		if (strcmp(k[i - 1], k[i]) == 0) {
			char what[96], name[44];
			size_t n;

			/* Printable, and short: the error is one line. */
			for (n = 0; k[i][n] && n < 40; n++)
				name[n] = k[i][n] >= 0x20 && k[i][n] < 0x7f ?
					  k[i][n] : '?';
			name[n] = '\0';
			snprintf(what, sizeof(what), "member '%s%s' given twice",
				 name, k[i][n] ? "..." : "");
			r = jr_fail(j, what);
		}
	free(k);
	return r;
}

/*
 * One value into v (NULL: checked and skipped).  Containers recurse, at
 * most JR_MAX_DEPTH deep.
 */
static int
value(struct jr *j, struct jr_value *v)
{
	struct jr_number num;
	char close;
	int r;

	ws(j);
	if (j->p >= j->end)
		return jr_fail(j, "unexpected end");
	switch (*j->p) {
	case '"':
		if (v)
			v->type = JR_STR;
		return string_at(j, v ? &v->s : NULL);
	case 't':
		if (v) {
			v->type = JR_BOOL;
			v->b = true;
		}
		return literal(j, "true", 4);
	case 'f':
		if (v)
			v->type = JR_BOOL;
		return literal(j, "false", 5);
	case 'n':
		return literal(j, "null", 4);
	case '{':
	case '[':
		break;
	default:
		if (*j->p != '-' && (*j->p < '0' || *j->p > '9'))
			return jr_fail(j, "invalid value");
		if (!v)
			return jr_number(j, &num, NULL);
		v->type = JR_NUM;
		return jr_number(j, &v->num, &v->s);
	}
	if (j->depth >= JR_MAX_DEPTH)
		return jr_fail(j, "nesting too deep");
	j->depth++;
	close = *j->p == '{' ? '}' : ']';
	if (v)
		v->type = close == '}' ? JR_OBJ : JR_ARR;
	j->p++;
	if (jr_eat(j, close)) {
		j->depth--;
		return 0;
	}
	do {
		struct jr_value *nv = NULL;
		char *key = NULL;

		if (close == '}' && (r = jr_key(j, v ? &key : NULL)) < 0)
			return r;
		if (v) {
			/* Grown one by one: documents are small. */
			nv = realloc(v->v, (v->n + 1) * sizeof(*nv));
			if (nv)
				v->v = nv;
			if (nv && close == '}') {
				char **nk = realloc(v->keys, (v->n + 1) *
						    sizeof(*nk));

				if (nk)
					v->keys = nk;
				else
					nv = NULL;
			}
			if (!nv) {
				free(key);
				return -ENOMEM;
			}
			nv = &v->v[v->n];
			memset(nv, 0, sizeof(*nv));
			if (close == '}')
				v->keys[v->n] = key;
			v->n++;
		}
		if ((r = value(j, nv)) < 0)
			return r;
	} while ((r = jr_next(j, close)) > 0);
	if (r < 0)
		return r;
	j->depth--;
	return v && close == '}' ? check_unique(j, v) : 0;
}

int
jr_skip(struct jr *j)
{
	return value(j, NULL);
}

int
jr_parse(struct jr *j, struct jr_value *v)
{
	int r;

	memset(v, 0, sizeof(*v));
	if (j->failed)
		return -EINVAL;
	r = value(j, v);
	if (r == 0 && !jr_at_end(j))
		r = jr_fail(j, "trailing data");
	if (r < 0)
		jr_value_free(v);
	return r;
}

int
jr_parse_text(const char *text, size_t len, struct jr_value *v,
	      size_t *err_at, char *err, size_t errlen)
{
	return jr_parse_text_flags(text, len, 0, v, err_at, err, errlen);
}

int
jr_parse_text_flags(const char *text, size_t len, unsigned int flags,
		    struct jr_value *v, size_t *err_at, char *err,
		    size_t errlen)
{
	struct jr j;
	int r;

	memset(v, 0, sizeof(*v));
	r = jr_init(&j, text, len, err, errlen);
	j.unique = flags & JR_UNIQUE;
	if (r == 0)
		r = jr_parse(&j, v);
	if (err_at)
		*err_at = r == 0 ? 0 : j.err_at;
	return r;
}

void
jr_value_free(struct jr_value *v)
{
	size_t i;

	for (i = 0; i < v->n; i++) {
		if (v->keys)
			free(v->keys[i]);
		jr_value_free(&v->v[i]);
	}
	free(v->keys);
	free(v->v);
	free(v->s);
	memset(v, 0, sizeof(*v));
}

const struct jr_value *
jr_member(const struct jr_value *o, const char *key)
{
	size_t i;

	if (!o || o->type != JR_OBJ)
		return NULL;
	for (i = o->n; i-- > 0;)
		if (strcmp(o->keys[i], key) == 0)
			return &o->v[i];
	return NULL;
}

bool
jr_name_fold_eq(const char *name, const char *key)
{
	const unsigned char *a = (const unsigned char *)name;
	const unsigned char *b = (const unsigned char *)key;

	while (*b) {
		unsigned char c = *a, k = *b;

		if (c >= 'A' && c <= 'Z')
			c = (unsigned char)(c - 'A' + 'a');
		if (k >= 'A' && k <= 'Z')
			k = (unsigned char)(k - 'A' + 'a');
		if (c == k && c) {
			a++;
		} else if (k == 'k' && a[0] == 0xe2 && a[1] == 0x84 &&
			   a[2] == 0xaa) {
			a += 3;
		} else if (k == 's' && a[0] == 0xc5 && a[1] == 0xbf) {
			a += 2;
		} else {
			return false;
		}
		b++;
	}
	return *a == '\0';
}

const struct jr_value *
jr_member_fold(const struct jr_value *o, const char *key)
{
	size_t i;

	if (!o || o->type != JR_OBJ)
		return NULL;
	for (i = o->n; i-- > 0;)
		if (jr_name_fold_eq(o->keys[i], key))
			return &o->v[i];
	return NULL;
}
