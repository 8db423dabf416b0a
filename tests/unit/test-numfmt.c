// SPDX-License-Identifier: GPL-2.0-or-later
/* numfmt: the same bytes as printf, checked against printf itself. */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "unit.h"
#include "base/numfmt.h"

static uint64_t seed = 88172645463325252ULL;

static uint64_t
next(void)
{
	seed ^= seed << 13;
	seed ^= seed >> 7;
	seed ^= seed << 17;
	return seed;
}

/* Compare numfmt_fixed with printf for v at every precision 0..9. */
static int
same_fixed(double v)
{
	char got[NUMFMT_MAX], want[NUMFMT_MAX];
	int bad = 0;

	for (int d = 0; d <= 9; d++) {
		size_t n = numfmt_fixed(got, v, d);

		snprintf(want, sizeof(want), "%.*f", d, v);
		if (strcmp(got, want) != 0 || n != strlen(want)) {
			if (bad++ == 0)
				printf("# %.17g %%.%df: got '%s' want '%s'\n",
				       v, d, got, want);
		}
	}
	return bad == 0;
}

/* numfmt_u64() of 10^k - 1, 10^k and 10^k + 1 (k = 0 to 19), odd and
 * even digit counts, is printf's, and its length strlen's. */
static bool
u64_edges(void)
{
	char buf[NUMFMT_MAX], want[32];
	uint64_t p = 1;
	int k, d, bad = 0;

	for (k = 0; k <= 19; k++, p *= 10)
		for (d = -1; d <= 1; d++) {
			uint64_t v = p + (uint64_t)(int64_t)d;
			size_t n = numfmt_u64(buf, v);

			snprintf(want, sizeof(want), "%llu",
				 (unsigned long long)v);
			if (strcmp(buf, want) != 0 || n != strlen(want)) {
				printf("# %s: '%s' (%zu)\n", want, buf, n);
				bad++;
			}
		}
	return bad == 0;
}

int
main(void)
{
	char buf[NUMFMT_MAX];
	int ok;

	CHECK_STR("u64 0", (numfmt_u64(buf, 0), buf), "0");
	CHECK_STR("u64 max", (numfmt_u64(buf, UINT64_MAX), buf),
		  "18446744073709551615");
	CHECK_STR("i64 min", (numfmt_i64(buf, INT64_MIN), buf),
		  "-9223372036854775808");
	CHECK_STR("i64 -1", (numfmt_i64(buf, -1), buf), "-1");
	CHECK("u64 length", numfmt_u64(buf, 1234567) == 7);
	CHECK("u64 at each side of every power of ten, as printf",
	      u64_edges());

	/* Ties round half to even on the exact binary value, as glibc. */
	CHECK_STR("0.125 %.2f", (numfmt_fixed(buf, 0.125, 2), buf), "0.12");
	CHECK_STR("0.375 %.2f", (numfmt_fixed(buf, 0.375, 2), buf), "0.38");
	CHECK_STR("2.5 %.0f", (numfmt_fixed(buf, 2.5, 0), buf), "2");
	CHECK_STR("0.0005 %.3f", (numfmt_fixed(buf, 0.0005, 3), buf), "0.001");
	CHECK_STR("1 %.6f", (numfmt_fixed(buf, 1.0, 6), buf), "1.000000");
	CHECK_STR("0 %.9f", (numfmt_fixed(buf, 0.0, 9), buf), "0.000000000");
	CHECK_STR("the smallest subnormal %.9f",
		  (numfmt_fixed(buf, 4.9406564584124654e-324, 9), buf),
		  "0.000000000");
	CHECK_STR("2^53 - 1 %.1f", (numfmt_fixed(buf, 9007199254740991.0, 1),
				     buf), "9007199254740991.0");
	CHECK_STR("0.9995 (above it in binary) %.3f",
		  (numfmt_fixed(buf, 0.9995, 3), buf), "1.000");
	CHECK_STR("0.4995 (below it in binary) %.3f",
		  (numfmt_fixed(buf, 0.4995, 3), buf), "0.499");
	CHECK_STR("0.99951 %.3f", (numfmt_fixed(buf, 0.99951, 3), buf), "1.000");
	CHECK_STR("negative passes to printf",
		  (numfmt_fixed(buf, -0.5, 3), buf), "-0.500");
	CHECK_STR("precision 12 passes to printf",
		  (numfmt_fixed(buf, 0.1, 12), buf), "0.100000000000");

	ok = 1;
	for (int i = 0; i < 200000 && ok; i++) {
		uint64_t a = next() % 100000000, b = next() % 100000000 + 1;

		/* what cpm divides: counters, ns, quota / period */
		ok = same_fixed((double)a / (double)b) &&
		     same_fixed((double)a / 1e9) &&
		     same_fixed((double)(next() >> 11) / 1e9) &&
		     same_fixed((double)a / 1000.0 / (double)b);
	}
	CHECK("ratios and seconds match printf", ok);
	/* Where v * 10^decimals passes 2^64: the 64-bit division ends. */
	CHECK("around 2^64 / 10^9 and 2^64 / 10^6 as printf",
	      same_fixed(18446744073.709551) && same_fixed(18446744073.709553) &&
	      same_fixed(18446744073709.551) && same_fixed(18446744073709.553) &&
	      same_fixed(1e15 + 0.5));
	ok = 1;
	for (int i = 0; i < 200000 && ok; i++) {
		double v;
		uint64_t bits = next();

		/* any finite non-negative double below 2^53 */
		bits &= ~(1ULL << 63);
		memcpy(&v, &bits, sizeof(v));
		if (v != v || v >= 9007199254740992.0)
			continue;
		ok = same_fixed(v);
	}
	CHECK("random doubles match printf", ok);
	ok = 1;
	for (int k = 0; k < 4096 && ok; k++)
		ok = same_fixed((double)k / 4096.0) &&
		     same_fixed((double)k / 1024.0 + 1e6) &&
		     same_fixed(ldexp(1.0, -k % 1075));
	CHECK("exact binary ties and tiny values match printf", ok);
	return unit_failed;
}
