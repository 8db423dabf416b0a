// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cpuset.h"
#include "base/num.h"
#include "base/strbuf.h"

#define WBITS 64u

void
cpuset_init(struct cpuset *s)
{
	s->bits = NULL;
	s->nwords = 0;
}

void
cpuset_free(struct cpuset *s)
{
	free(s->bits);
	cpuset_init(s);
}

void
cpuset_zero(struct cpuset *s)
{
	if (s->nwords)
		memset(s->bits, 0, s->nwords * sizeof(uint64_t));
}

static int
cpuset_grow(struct cpuset *s, unsigned int nwords)
{
	uint64_t *nb;

	if (nwords <= s->nwords)
		return 0;
	nb = realloc(s->bits, nwords * sizeof(uint64_t));
	if (nb == NULL)
		return -ENOMEM;
	memset(nb + s->nwords, 0, (nwords - s->nwords) * sizeof(uint64_t));
	s->bits = nb;
	s->nwords = nwords;
	return 0;
}

int
cpuset_reserve(struct cpuset *s, unsigned int ncpus)
{
	return cpuset_grow(s, (ncpus + WBITS - 1) / WBITS);
}

int
cpuset_set(struct cpuset *s, unsigned int cpu)
{
	unsigned int w = cpu / WBITS;

	if (w >= s->nwords && cpuset_grow(s, w + 1) < 0)
		return -ENOMEM;
	s->bits[w] |= 1ULL << (cpu % WBITS);
	return 0;
}

int
cpuset_set_range(struct cpuset *s, unsigned int first, unsigned int last)
{
	unsigned int c;

	if (first > last)
		return 0;
	if (cpuset_grow(s, last / WBITS + 1) < 0)
		return -ENOMEM;
	for (c = first; c <= last && c % WBITS; c++)
		s->bits[c / WBITS] |= 1ULL << (c % WBITS);
	for (; c + WBITS - 1 <= last && c >= first; c += WBITS)
		s->bits[c / WBITS] = ~0ULL;
	for (; c <= last && c >= first; c++)
		s->bits[c / WBITS] |= 1ULL << (c % WBITS);
	return 0;
}

void
cpuset_clear(struct cpuset *s, unsigned int cpu)
{
	if (cpu / WBITS < s->nwords)
		s->bits[cpu / WBITS] &= ~(1ULL << (cpu % WBITS));
}

/* Bits set in w, without libgcc's table (no popcnt instruction is
 * assumed): sums of 2, 4 and 8 bits, then one multiply. */
static inline unsigned int
popcount64(uint64_t w)
{
	w = w - ((w >> 1) & 0x5555555555555555ULL);
	w = (w & 0x3333333333333333ULL) + ((w >> 2) & 0x3333333333333333ULL);
	w = (w + (w >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
	return (unsigned int)((w * 0x0101010101010101ULL) >> 56);
}

unsigned int
cpuset_count(const struct cpuset *s)
{
	unsigned int i, n = 0;

	for (i = 0; i < s->nwords; i++)
		if (s->bits[i])
			n += popcount64(s->bits[i]);
	return n;
}

bool
cpuset_empty(const struct cpuset *s)
{
	unsigned int i;

	for (i = 0; i < s->nwords; i++)
		if (s->bits[i])
			return false;
	return true;
}

int
cpuset_next(const struct cpuset *s, int prev)
{
	unsigned int c = (unsigned int)(prev + 1), w = c / WBITS;
	uint64_t word;

	if (w >= s->nwords)
		return -1;
	word = s->bits[w] & (~0ULL << (c % WBITS));
	while (word == 0) {
		if (++w >= s->nwords)
			return -1;
		word = s->bits[w];
	}
	return (int)(w * WBITS + (unsigned int)__builtin_ctzll(word));
}

int
cpuset_first(const struct cpuset *s)
{
	return cpuset_next(s, -1);
}

int
cpuset_last(const struct cpuset *s)
{
	unsigned int w = s->nwords;

	while (w > 0) {
		w--;
		if (s->bits[w])
			return (int)(w * WBITS + 63u -
				     (unsigned int)__builtin_clzll(s->bits[w]));
	}
	return -1;
}

int
cpuset_copy(struct cpuset *dst, const struct cpuset *src)
{
	if (dst == src)
		return 0;
	if (cpuset_grow(dst, src->nwords) < 0)
		return -ENOMEM;
	cpuset_zero(dst);
	if (src->nwords)
		memcpy(dst->bits, src->bits, src->nwords * sizeof(uint64_t));
	return 0;
}

int
cpuset_or(struct cpuset *dst, const struct cpuset *src)
{
	return cpuset_or_words(dst, src, 0, src->nwords);
}

void
cpuset_and(struct cpuset *dst, const struct cpuset *src)
{
	unsigned int i;

	for (i = 0; i < dst->nwords; i++)
		dst->bits[i] &= i < src->nwords ? src->bits[i] : 0;
}

void
cpuset_andnot(struct cpuset *dst, const struct cpuset *src)
{
	unsigned int i;

	for (i = 0; i < dst->nwords && i < src->nwords; i++)
		dst->bits[i] &= ~src->bits[i];
}

static uint64_t
word_at(const struct cpuset *s, unsigned int i)
{
	return i < s->nwords ? s->bits[i] : 0;
}

bool
cpuset_equal(const struct cpuset *a, const struct cpuset *b)
{
	unsigned int i, n = a->nwords > b->nwords ? a->nwords : b->nwords;

	for (i = 0; i < n; i++)
		if (word_at(a, i) != word_at(b, i))
			return false;
	return true;
}

bool
cpuset_subset(const struct cpuset *a, const struct cpuset *b)
{
	unsigned int i;

	for (i = 0; i < a->nwords; i++)
		if (a->bits[i] & ~word_at(b, i))
			return false;
	return true;
}

bool
cpuset_intersects(const struct cpuset *a, const struct cpuset *b)
{
	unsigned int i;

	for (i = 0; i < a->nwords && i < b->nwords; i++)
		if (a->bits[i] & b->bits[i])
			return true;
	return false;
}

unsigned int
cpuset_count_and(const struct cpuset *a, const struct cpuset *b)
{
	unsigned int i, n = 0;

	for (i = 0; i < a->nwords && i < b->nwords; i++)
		n += popcount64(a->bits[i] & b->bits[i]);
	return n;
}

/* ---- parsing ---- */

static bool
is_sep(char c)
{
	return c == ',' || c == ' ' || c == '\t';
}

static void
set_err(char *err, size_t errlen, const char *start, const char *end,
	const char *why)
{
	int n;

	if (err == NULL || errlen == 0)
		return;
	while (end > start && (end[-1] == '\n'))
		end--;
	n = (int)(end - start);
	if (n > 40)
		n = 40;
	if (n <= 0)
		snprintf(err, errlen, "%s", why);
	else
		snprintf(err, errlen, "'%.*s': %s", n, start, why);
}

/*
 * Read one decimal number at *pp.  Returns 0, -EINVAL when there is no
 * digit or a leading zero, -ERANGE when >= CPUSET_MAX_CPUS.
 */
static int
get_num(const char **pp, unsigned int *out)
{
	const char *p = *pp;
	unsigned long v = 0;
	bool big = false;

	if (*p < '0' || *p > '9')
		return -EINVAL;
	if (p[0] == '0' && p[1] >= '0' && p[1] <= '9')
		return -EINVAL;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (!big)
			v = v * 10 + (unsigned long)(*p - '0');
		if (v >= CPUSET_MAX_CPUS)
			big = true;
	}
	*pp = p;
	if (big)
		return -ERANGE;
	*out = (unsigned int)v;
	return 0;
}

/*
 * The list grammar, once: each run of CPUs text names goes to
 * fn(arg, first, last) in the order written.  cpuset_parse_list() is
 * built on it.
 */
int
cpuset_walk_list(const char *text, cpuset_range_fn *fn, void *arg,
		 char *err, size_t errlen)
{
	const char *p = text;

	if (err && errlen)
		err[0] = '\0';
	for (;;) {
		const char *start;
		unsigned int a, b, used, group;
		int r;

		while (is_sep(*p))
			p++;
		if (*p == '\0')
			return 0;
		if (*p == '\n') {
			if (p[1] != '\0') {
				set_err(err, errlen, p + 1, p + 1 + strlen(p + 1),
					"text after the end of the list");
				return -EINVAL;
			}
			return 0;
		}
		start = p;
		r = get_num(&p, &a);
		if (r < 0)
			goto bad_num;
		b = a;
		used = group = 0;
		if (*p == '-') {
			p++;
			r = get_num(&p, &b);
			if (r < 0)
				goto bad_num;
			if (a > b) {
				set_err(err, errlen, start, p,
					"range start above its end");
				return -EINVAL;
			}
			if (*p == ':') {
				p++;
				r = get_num(&p, &used);
				if (r == 0 && *p != '/')
					r = -EINVAL;
				if (r == 0) {
					p++;
					r = get_num(&p, &group);
				}
				if (r < 0)
					goto bad_num;
				if (group == 0) {
					set_err(err, errlen, start, p,
						"group size must not be 0");
					return -EINVAL;
				}
				if (used > group) {
					set_err(err, errlen, start, p,
						"used count above group size");
					return -EINVAL;
				}
			}
		} else if (*p == ':') {
			set_err(err, errlen, start, p + strcspn(p, ", \t\n"),
				"a stride needs a range (a-b:used/group)");
			return -EINVAL;
		}
		if (*p != '\0' && *p != '\n' && !is_sep(*p)) {
			set_err(err, errlen, start, p + 1 + strcspn(p + 1, ", \t\n"),
				"unexpected character");
			return -EINVAL;
		}
		if (group == 0) {
			r = fn(arg, a, b);
			if (r < 0)
				return r;
		} else {
			unsigned int c;

			for (c = a; c <= b; c += group) {
				unsigned int e = c + used;	/* exclusive */

				if (used == 0)
					continue;
				if (e - 1 > b)
					e = b + 1;
				r = fn(arg, c, e - 1);
				if (r < 0)
					return r;
				if (b - c < group)
					break;
			}
		}
		continue;
bad_num:
		{
			const char *end = p + strcspn(p, ", \t\n");

			if (end == start)
				end = start + 1;
			set_err(err, errlen, start, end,
				r == -ERANGE ? "number too large" :
				"not a number or range");
			return r;
		}
	}
}

static int
set_range_fn(void *arg, unsigned int first, unsigned int last)
{
	return cpuset_set_range(arg, first, last);
}

int
cpuset_parse_list(const char *text, struct cpuset *s, char *err,
		  size_t errlen)
{
	cpuset_zero(s);
	return cpuset_walk_list(text, set_range_fn, s, err, errlen);
}

static int
hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int
cpuset_walk_mask(const char *text, cpuset_range_fn *fn, void *arg)
{
	size_t len = strlen(text);
	unsigned int bit = 0, run = 0;
	bool in_run = false;
	const char *p;
	int r;

	while (len > 0 && (text[len - 1] == '\n' || text[len - 1] == ' '))
		len--;
	if (len >= 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
		text += 2;
		len -= 2;
	}
	if (len == 0)
		return -EINVAL;
	for (p = text + len; p > text; ) {
		int v, k;

		/* Masks are as wide as the kernel's NR_CPUS (thousands of
		 * bits for a few CPUs): a zero word outside a run passes at
		 * once, and so does any zero or full digit. */
		if (!in_run && p - text >= 9 && memcmp(p - 9, ",00000000", 9) == 0) {
			p -= 9;
			bit += 32;
			continue;
		}
		p--;
		if (*p == ',')
			continue;
		v = hexval(*p);
		if (v < 0)
			return -EINVAL;
		if (v && bit + 4 > CPUSET_MAX_CPUS)
			return -ERANGE;
		if ((v == 0 && !in_run) || (v == 15 && in_run)) {
			bit += 4;
			continue;
		}
		for (k = 0; k < 4; k++, bit++) {
			if (v >> k & 1) {
				if (!in_run)
					run = bit;
				in_run = true;
			} else if (in_run) {
				in_run = false;
				if ((r = fn(arg, run, bit - 1)) < 0)
					return r;
			}
		}
	}
	if (in_run && (r = fn(arg, run, bit - 1)) < 0)
		return r;
	return 0;
}

int
cpuset_parse_mask(const char *text, struct cpuset *s)
{
	cpuset_zero(s);
	return cpuset_walk_mask(text, set_range_fn, s);
}

/* The first CPU from c on that is not in s (c itself when it is not). */
static unsigned int
next_clear(const struct cpuset *s, unsigned int c)
{
	unsigned int w = c / WBITS;
	uint64_t word;

	if (w >= s->nwords)
		return c;
	word = ~s->bits[w] & (~0ULL << (c % WBITS));
	while (word == 0) {
		if (++w >= s->nwords)
			return w * WBITS;
		word = ~s->bits[w];
	}
	return w * WBITS + (unsigned int)__builtin_ctzll(word);
}

void
cpuset_format(const struct cpuset *s, struct strbuf *sb)
{
	int c = cpuset_first(s);
	bool first = true;
	char buf[48];

	/* A run at a time, a word at a time: "0-8191" is one step. */
	while (c >= 0) {
		int e = (int)next_clear(s, (unsigned int)c) - 1;
		size_t n = 0;

		if (!first)
			buf[n++] = ',';
		first = false;
		n += fmt_int(buf + n, c);
		if (e != c) {
			buf[n++] = '-';
			n += fmt_int(buf + n, e);
		}
		strbuf_add(sb, buf, n);
		c = cpuset_next(s, e);
	}
}

char *
cpuset_to_list(const struct cpuset *s)
{
	struct strbuf sb;

	strbuf_init(&sb);
	cpuset_format(s, &sb);
	if (sb.oom) {
		strbuf_free(&sb);
		return NULL;
	}
	if (sb.buf == NULL)
		return strdup("");
	return sb.buf;
}

/*
 * The kernel's masks are arrays of unsigned long; a cpuset is an array of
 * 64-bit words.  Both are converted a word at a time: a mask of 65536
 * CPUs is 1024 words, not 65536 bits.
 */
#define LBITS (8 * sizeof(unsigned long))
#define LPERW (WBITS / LBITS)	/* unsigned longs per 64-bit word */

int
cpuset_to_mask(const struct cpuset *s, void *mask, size_t bytes)
{
	unsigned long *m = mask;
	size_t nl = bytes / sizeof(unsigned long), i, k;

	memset(mask, 0, bytes);
	for (i = 0; i < s->nwords; i++) {
		if (s->bits[i] == 0)
			continue;
		for (k = 0; k < LPERW; k++) {
			unsigned long part = (unsigned long)(s->bits[i] >> (k * LBITS % WBITS));

			if (part == 0)
				continue;
			if (i * LPERW + k >= nl)
				return -ERANGE;
			m[i * LPERW + k] = part;
		}
	}
	return 0;
}

int
cpuset_from_mask(struct cpuset *s, const void *mask, size_t bytes)
{
	const unsigned long *m = mask;
	size_t nl = bytes / sizeof(unsigned long), j;

	cpuset_zero(s);
	for (j = 0; j < nl && j * LBITS < CPUSET_MAX_CPUS; j++) {
		unsigned long part = m[j];
		size_t first = j * LBITS;
		unsigned int top;

		if (part == 0)
			continue;
		if (first + LBITS > CPUSET_MAX_CPUS)
			part &= (1UL << (CPUSET_MAX_CPUS - first)) - 1;
		if (part == 0)
			continue;
		top = (unsigned int)(first + LBITS - 1 - (size_t)__builtin_clzl(part));
		if (cpuset_grow(s, top / WBITS + 1) < 0)
			return -ENOMEM;
		s->bits[first / WBITS] |= (uint64_t)part << (first % WBITS);
	}
	return 0;
}
