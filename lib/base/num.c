// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Number parsing and formatting (num.h).
 */

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "base/macros.h"
#include "base/num.h"

int
parse_u64(const char *s, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;
	const char *p = s;

	if (s == NULL || *s == '\0')
		return -EINVAL;
	if (s[0] == '0' && s[1] != '\0')
		return -EINVAL;	/* no octal or zero-padded surprises */
	/* 19 digits never pass UINT64_MAX (20 digits): the digits after
	 * them are checked against it, with constants.  A count, not
	 * p - s, bounds the first loop: GCC recomputed that every digit. */
	for (size_t i = 0; i < 19 && *p; i++, p++) {
		unsigned int d = (unsigned int)(unsigned char)*p - '0';

		if (d > 9)
			return -EINVAL;
		v = v * 10 + d;
	}
	for (; *p; p++) {
		unsigned int d = (unsigned int)(unsigned char)*p - '0';

		if (d > 9)
			return -EINVAL;
		if (v > UINT64_MAX / 10 ||
		    (v == UINT64_MAX / 10 && d > UINT64_MAX % 10))
			return -ERANGE;
		v = v * 10 + d;
	}
	if (v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

int
parse_i64(const char *s, int64_t min, int64_t max, int64_t *out)
{
	uint64_t v;
	int neg = 0, r;

	if (s == NULL)
		return -EINVAL;
	if (*s == '-') {
		neg = 1;
		s++;
	}
	r = parse_u64(s, (uint64_t)INT64_MAX + (uint64_t)neg, &v);
	if (r < 0)
		return r;
	if (neg) {
		if (v == 0)
			return -EINVAL;	/* "-0" */
		if (v == (uint64_t)INT64_MAX + 1) {
			if (min != INT64_MIN)
				return -ERANGE;
			*out = INT64_MIN;
			return 0;
		}
		if (-(int64_t)v < min)
			return -ERANGE;
		*out = -(int64_t)v;
		return 0;
	}
	if ((int64_t)v > max || (int64_t)v < min)
		return -ERANGE;
	*out = (int64_t)v;
	return 0;
}

int
parse_uint(const char *s, unsigned int max, unsigned int *out)
{
	uint64_t v;
	int r = parse_u64(s, max, &v);

	if (r == 0)
		*out = (unsigned int)v;
	return r;
}

/*
 * Parse "<int>[.<frac>]" followed by a unit suffix into value*scale with
 * at most 'scale' precision.  Shared by durations.
 */
static int
parse_fixed(const char *s, size_t numlen, uint64_t scale, uint64_t *out)
{
	uint64_t ip = 0, frac = 0, fscale = scale;
	size_t i = 0;
	int digits = 0;

	if (numlen == 0)
		return -EINVAL;
	for (; i < numlen && s[i] != '.'; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -EINVAL;
		if (ip > (UINT64_MAX / 10) - 10)
			return -ERANGE;
		ip = ip * 10 + (uint64_t)(s[i] - '0');
		digits++;
	}
	if (i < numlen) {	/* fraction */
		i++;
		if (i == numlen)
			return -EINVAL;
		for (; i < numlen; i++) {
			if (s[i] < '0' || s[i] > '9')
				return -EINVAL;
			if (fscale >= 10) {
				fscale /= 10;
				frac += (uint64_t)(s[i] - '0') * fscale;
			} else if (s[i] != '0') {
				return -EINVAL;	/* finer than the unit allows */
			}
			digits++;
		}
	}
	if (digits == 0)
		return -EINVAL;
	if (ip > UINT64_MAX / scale)
		return -ERANGE;
	*out = ip * scale + frac;
	return 0;
}

int
parse_duration_us(const char *s, uint64_t *out_us)
{
	size_t n;
	uint64_t scale;

	if (s == NULL)
		return -EINVAL;
	n = strlen(s);
	if (n > 2 && strcmp(s + n - 2, "us") == 0) {
		scale = 1;
		n -= 2;
	} else if (n > 2 && strcmp(s + n - 2, "ms") == 0) {
		scale = 1000;
		n -= 2;
	} else if (n > 1 && s[n - 1] == 's') {
		scale = 1000000;
		n -= 1;
	} else {
		return -EINVAL;
	}
	return parse_fixed(s, n, scale, out_us);
}

int
parse_size_bytes(const char *s, uint64_t *out)
{
	static const struct {
		const char *suffix;
		uint64_t mult;
	} units[] = {
		{ "KiB", 1ULL << 10 }, { "MiB", 1ULL << 20 },
		{ "GiB", 1ULL << 30 }, { "TiB", 1ULL << 40 },
		{ "Ki", 1ULL << 10 }, { "Mi", 1ULL << 20 },
		{ "Gi", 1ULL << 30 }, { "Ti", 1ULL << 40 },
		{ "K", 1ULL << 10 }, { "M", 1ULL << 20 },
		{ "G", 1ULL << 30 }, { "T", 1ULL << 40 },
		{ "k", 1000ULL }, { "B", 1 },
	};
	char num[32];
	size_t n, i;
	uint64_t v, mult = 1;
	int r;

	if (s == NULL || *s == '\0')
		return -EINVAL;
	n = strlen(s);
	for (i = 0; i < ARRAY_SIZE(units); i++) {
		size_t sl = strlen(units[i].suffix);

		if (n > sl && strcmp(s + n - sl, units[i].suffix) == 0) {
			mult = units[i].mult;
			n -= sl;
			break;
		}
	}
	if (n >= sizeof(num))
		return -ERANGE;
	memcpy(num, s, n);
	num[n] = '\0';
	r = parse_u64(num, UINT64_MAX, &v);
	if (r < 0)
		return r;
	if (v > UINT64_MAX / mult)
		return -ERANGE;
	*out = v * mult;
	return 0;
}

size_t
fmt_int(char *buf, long long v)
{
	char tmp[24];
	unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v :
			       (unsigned long long)v;
	size_t n = 0, len = 0;

	do
		tmp[n++] = (char)('0' + u % 10);
	while ((u /= 10) != 0);
	if (v < 0)
		buf[len++] = '-';
	while (n > 0)
		buf[len++] = tmp[--n];
	buf[len] = '\0';
	return len;
}
