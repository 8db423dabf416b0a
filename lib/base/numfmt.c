// SPDX-License-Identifier: GPL-2.0-or-later
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/numfmt.h"

static const uint64_t pow10_u64[] = {
	1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000,
	1000000000,
};

/* "00" to "99": two digits a division (snapshots and tables print
 * tens of thousands of numbers). */
static const char digit_pairs[201] =
	"00010203040506070809101112131415161718192021222324252627282930313233"
	"34353637383940414243444546474849505152535455565758596061626364656667"
	"6869707172737475767778798081828384858687888990919293949596979899";

size_t
numfmt_u64(char *buf, uint64_t v)
{
	size_t len = 1, n;
	uint64_t t;

	/* The digits are written from the last, straight into buf. */
	for (t = v; t >= 100; t /= 100)
		len += 2;
	len += t >= 10;
	n = len;
	buf[n] = '\0';
	while (v >= 100) {
		unsigned int r = (unsigned int)(v % 100);

		v /= 100;
		n -= 2;
		memcpy(buf + n, digit_pairs + 2 * r, 2);
	}
	if (v >= 10)
		memcpy(buf, digit_pairs + 2 * v, 2);
	else
		buf[0] = (char)('0' + v);
	return len;
}

size_t
numfmt_i64(char *buf, int64_t v)
{
	if (v >= 0)
		return numfmt_u64(buf, (uint64_t)v);
	buf[0] = '-';
	/* -(v + 1) + 1: no overflow at INT64_MIN */
	return 1 + numfmt_u64(buf + 1, (uint64_t)(-(v + 1)) + 1);
}

/*
 * v (finite, not negative) as mant * 2^(e - 53) exactly, as
 * ldexp(frexp(v, &e), 53) gives it, from v's bits: no libm.
 */
static uint64_t
split_double(double v, int *e)
{
	uint64_t bits, mant;
	int bexp;

	memcpy(&bits, &v, sizeof(bits));
	bexp = (int)(bits >> 52 & 0x7ff);
	mant = bits & ((1ULL << 52) - 1);
	if (bexp == 0) {	/* zero or subnormal: mant * 2^-1074 */
		*e = -1021;
		return mant;
	}
	*e = bexp - 1022;
	return mant | 1ULL << 52;
}

size_t
numfmt_fixed(char *buf, double v, int decimals)
{
	unsigned __int128 p, q, rem, half;
	uint64_t mant, ip, frac;
	int e, shift;
	size_t n;

	if (decimals < 0 || decimals > 9 || !isfinite(v) || signbit(v) ||
	    v >= 9007199254740992.0)
		return (size_t)snprintf(buf, NUMFMT_MAX, "%.*f", decimals, v);
	/* v = mant * 2^(e - 53) exactly, mant < 2^53 */
	mant = split_double(v, &e);
	shift = 53 - e;		/* >= 0 since v < 2^53 */
	p = (unsigned __int128)mant * pow10_u64[decimals];	/* < 2^83 */
	if (shift == 0) {
		q = p;
	} else if (shift > 100) {
		q = 0;		/* p < 2^83 < half: rounds to 0 */
	} else {
		q = p >> shift;
		rem = p - (q << shift);
		half = (unsigned __int128)1 << (shift - 1);
		if (rem > half || (rem == half && (q & 1)))
			q++;
	}
	if ((q >> 64) == 0) {
		/* nearly always: a 64-bit division, not a call to a 128-bit one */
		ip = (uint64_t)q / pow10_u64[decimals];
		frac = (uint64_t)q % pow10_u64[decimals];
	} else {
		ip = (uint64_t)(q / pow10_u64[decimals]);
		frac = (uint64_t)(q % pow10_u64[decimals]);
	}
	n = numfmt_u64(buf, ip);
	if (decimals > 0) {
		buf[n++] = '.';
		for (int i = decimals - 1; i >= 0; i--) {
			buf[n + (size_t)i] = (char)('0' + frac % 10);
			frac /= 10;
		}
		n += (size_t)decimals;
		buf[n] = '\0';
	}
	return n;
}
