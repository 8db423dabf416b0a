// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Kubernetes quantities and the kubelet's CPU arithmetic.
 *
 * The parser works on the decimal digits themselves, so any number of
 * digits is exact: a quantity is digits * 10^e * 2^b, and scaling it to
 * 10^-scale units with the ceiling is a digit shift plus a look at the
 * digits shifted out.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/err.h"
#include "base/macros.h"
#include "base/num.h"
#include "kube/quantity.h"

#define QTY_MAX_LEN	128	/* longer input is junk, not a quantity */
#define QTY_MAX_EXP	100000	/* |exponent| beyond this is refused */

static int
qerr(char *err, size_t errlen, int code, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int
qerr(char *err, size_t errlen, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	err_vset(err, errlen, fmt, ap);
	va_end(ap);
	return code;
}

static const struct {
	const char *name;
	int exp10;
} decimal_suffixes[] = {
	{ "n", -9 }, { "u", -6 }, { "m", -3 }, { "", 0 }, { "k", 3 },
	{ "M", 6 }, { "G", 9 }, { "T", 12 }, { "P", 15 }, { "E", 18 },
};

static const struct {
	const char *name;
	int exp2;
} binary_suffixes[] = {
	{ "Ki", 10 }, { "Mi", 20 }, { "Gi", 30 }, { "Ti", 40 }, { "Pi", 50 },
	{ "Ei", 60 },
};

static bool
decimal_suffix(const char *s, int *exp10)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(decimal_suffixes); i++)
		if (strcmp(s, decimal_suffixes[i].name) == 0) {
			*exp10 = decimal_suffixes[i].exp10;
			return true;
		}
	return false;
}

/*
 * Interpret a suffix as Kubernetes does (decimal table, then binary
 * table, then e/E with a signed exponent), plus cpm's "e3m" form.
 */
static int
parse_suffix(const char *suf, int *exp10, int *exp2, char *err,
	     size_t errlen)
{
	const char *p;
	long e = 0;
	int neg = 0, digits = 0, extra;
	size_t i;

	*exp10 = 0;
	*exp2 = 0;
	if (decimal_suffix(suf, exp10))
		return 0;
	for (i = 0; i < ARRAY_SIZE(binary_suffixes); i++)
		if (strcmp(suf, binary_suffixes[i].name) == 0) {
			*exp2 = binary_suffixes[i].exp2;
			return 0;
		}
	if (suf[0] != 'e' && suf[0] != 'E')
		return qerr(err, errlen, -EINVAL, "unknown suffix '%s'", suf);
	p = suf + 1;
	if (*p == '+' || *p == '-')
		neg = *p++ == '-';
	for (; *p >= '0' && *p <= '9'; p++, digits++) {
		if (e > QTY_MAX_EXP)
			return qerr(err, errlen, -ERANGE,
				    "exponent in '%s' is out of range", suf);
		e = e * 10 + (*p - '0');
	}
	if (digits == 0 || !decimal_suffix(p, &extra))
		return qerr(err, errlen, -EINVAL, "unknown suffix '%s'", suf);
	if (e > QTY_MAX_EXP)
		return qerr(err, errlen, -ERANGE,
			    "exponent in '%s' is out of range", suf);
	*exp10 = (int)(neg ? -e : e) + extra;
	return 0;
}

int
quantity_parse(const char *s, unsigned int scale, int64_t *out,
	       bool *rounded, char *err, size_t errlen)
{
	/* little-endian decimal digits, room for 2^60 growth */
	unsigned char d[QTY_MAX_LEN + 32];
	const char *p, *num, *frac = NULL, *suf;
	size_t nint = 0, nfrac = 0, n = 0, i;
	int exp10, exp2, r, neg = 0;
	long e;
	uint64_t v = 0;
	bool rem = false;

	if (rounded)
		*rounded = false;
	if (s == NULL || *s == '\0')
		return qerr(err, errlen, -EINVAL, "empty quantity");
	if (strlen(s) > QTY_MAX_LEN)
		return qerr(err, errlen, -EINVAL, "quantity is too long");
	p = s;
	if (*p == '+' || *p == '-')
		neg = *p++ == '-';
	num = p;
	while (*p >= '0' && *p <= '9')
		p++, nint++;
	if (*p == '.') {
		frac = ++p;
		while (*p >= '0' && *p <= '9')
			p++, nfrac++;
	}
	if (nint + nfrac == 0)
		return qerr(err, errlen, -EINVAL, "not a number");
	suf = p;
	r = parse_suffix(suf, &exp10, &exp2, err, errlen);
	if (r < 0)
		return r;

	/* Digits, least significant first, leading zeros dropped. */
	for (i = nfrac; i > 0; i--)
		d[n++] = (unsigned char)(frac[i - 1] - '0');
	for (i = nint; i > 0; i--)
		d[n++] = (unsigned char)(num[i - 1] - '0');
	while (n > 0 && d[n - 1] == 0)
		n--;
	if (n == 0) {
		*out = 0;
		return 0;
	}
	if (neg)
		return qerr(err, errlen, -EINVAL, "negative quantities are not allowed");

	/* Multiply by 2^exp2, 1024 at a time (exp2 is a multiple of 10). */
	for (; exp2 > 0; exp2 -= 10) {
		unsigned int carry = 0;

		for (i = 0; i < n; i++) {
			unsigned int x = d[i] * 1024u + carry;

			d[i] = (unsigned char)(x % 10);
			carry = x / 10;
		}
		while (carry) {
			d[n++] = (unsigned char)(carry % 10);
			carry /= 10;
		}
	}

	e = (long)exp10 - (long)nfrac + (long)scale;
	if (e < 0) {
		size_t shift = (size_t)-e;

		for (i = 0; i < n && i < shift; i++)
			if (d[i]) {
				rem = true;
				break;
			}
		if (shift >= n) {
			n = 0;
		} else {
			memmove(d, d + shift, n - shift);
			n -= shift;
		}
		e = 0;
	}
	if ((long)n + e > 19)
		return qerr(err, errlen, -ERANGE, "too large");
	for (i = n; i > 0; i--)
		v = v * 10 + d[i - 1];
	for (; e > 0; e--)
		v *= 10;
	if (rem)
		v++;
	if (v > (uint64_t)INT64_MAX)
		return qerr(err, errlen, -ERANGE, "too large");
	if (rounded)
		*rounded = rem;
	*out = (int64_t)v;
	return 0;
}

int
cpu_quantity_parse(const char *s, bool allow_max, int64_t *millicpu,
		   bool *rounded, char *err, size_t errlen)
{
	if (allow_max && s && strcmp(s, "max") == 0) {
		if (rounded)
			*rounded = false;
		*millicpu = MILLICPU_MAX;
		return 0;
	}
	return quantity_parse(s, 3, millicpu, rounded, err, errlen);
}

int
mem_quantity_parse(const char *s, int64_t *bytes, char *err, size_t errlen)
{
	return quantity_parse(s, 0, bytes, NULL, err, errlen);
}

int
weight_formula_parse(const char *s, enum weight_formula *f)
{
	if (strcmp(s, "runc") == 0 || strcmp(s, "quadratic") == 0)
		*f = WEIGHT_RUNC;
	else if (strcmp(s, "kubelet") == 0 || strcmp(s, "linear") == 0)
		*f = WEIGHT_KUBELET;
	else if (strcmp(s, "systemd") == 0)
		*f = WEIGHT_SYSTEMD;
	else
		return -EINVAL;
	return 0;
}

uint64_t
millicpu_to_shares(int64_t millicpu)
{
	__int128 s;

	if (millicpu == MILLICPU_MAX)
		return CPU_SHARES_MAX;
	if (millicpu <= 0)
		return CPU_SHARES_MIN;
	s = (__int128)millicpu * CPU_SHARES_PER_CPU / 1000;
	if (s < CPU_SHARES_MIN)
		return CPU_SHARES_MIN;
	if (s > CPU_SHARES_MAX)
		return CPU_SHARES_MAX;
	return (uint64_t)s;
}

int64_t
shares_to_millicpu(uint64_t shares)
{
	if (shares < CPU_SHARES_MIN)
		return 0;
	/* ceil without floating point; shares is at most a few digits */
	if (shares > UINT64_MAX / 1000)
		shares = UINT64_MAX / 1000;
	return (int64_t)((shares * 1000 + CPU_SHARES_PER_CPU - 1) /
			 CPU_SHARES_PER_CPU);
}

int64_t
millicpu_to_quota_exact(int64_t millicpu, uint64_t period_us)
{
	__int128 q;

	if (millicpu == MILLICPU_MAX)
		return CFS_QUOTA_UNLIMITED;
	if (millicpu <= 0)
		return 0;
	q = (__int128)millicpu * period_us / 1000;
	return q > INT64_MAX ? INT64_MAX : (int64_t)q;
}

int64_t
millicpu_to_quota(int64_t millicpu, uint64_t period_us)
{
	int64_t q;

	if (millicpu == 0)
		return 0;
	q = millicpu_to_quota_exact(millicpu, period_us);
	if (q != CFS_QUOTA_UNLIMITED && q < CFS_QUOTA_MIN_US)
		q = CFS_QUOTA_MIN_US;
	return q;
}

int64_t
quota_to_millicpu(int64_t quota_us, uint64_t period_us)
{
	__int128 m;

	if (quota_us < 0)
		return MILLICPU_MAX;
	if (period_us == 0)
		return 0;
	m = (__int128)quota_us * 1000 / period_us;
	return m > INT64_MAX ? INT64_MAX : (int64_t)m;
}


int
millicpu_format(int64_t millicpu, char *buf, size_t len)
{
	char frac[8];
	int i;

	if (millicpu < 0)
		return snprintf(buf, len, "max");
	if (millicpu % 1000 == 0)
		return snprintf(buf, len, "%lld", (long long)(millicpu / 1000));
	snprintf(frac, sizeof(frac), "%03lld", (long long)(millicpu % 1000));
	for (i = 2; i > 0 && frac[i] == '0'; i--)
		frac[i] = '\0';
	return snprintf(buf, len, "%lld.%s", (long long)(millicpu / 1000),
			frac);
}
