// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Sorting of int arrays: a radix sort, and a bitmap for small ids (sort.h).
 */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/sort.h"

static int
cmp_int_asc(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return x < y ? -1 : x > y;
}

void
sort_ints(int *v, size_t n)
{
	uint32_t *a, *b, *t;
	size_t i, cnt[256];
	unsigned int shift;

	for (i = 1; i < n && v[i - 1] <= v[i]; i++)
		;
	if (i >= n)
		return;
	if (n < 64) {
		qsort(v, n, sizeof(*v), cmp_int_asc);
		return;
	}
	a = malloc(2 * n * sizeof(*a));
	if (!a) {
		qsort(v, n, sizeof(*v), cmp_int_asc);
		return;
	}
	b = a + n;
	/* Flipping the sign bit orders ints as unsigned numbers. */
	for (i = 0; i < n; i++)
		a[i] = (uint32_t)v[i] ^ 0x80000000u;
	for (shift = 0; shift < 32; shift += 8) {
		size_t sum = 0, k;

		memset(cnt, 0, sizeof(cnt));
		for (i = 0; i < n; i++)
			cnt[(a[i] >> shift) & 0xff]++;
		if (cnt[(a[0] >> shift) & 0xff] == n)
			continue;	/* one value of this byte: order kept */
		for (k = 0; k < 256; k++) {
			size_t c = cnt[k];

			cnt[k] = sum;
			sum += c;
		}
		for (i = 0; i < n; i++)
			b[cnt[(a[i] >> shift) & 0xff]++] = a[i];
		t = a;
		a = b;
		b = t;
	}
	for (i = 0; i < n; i++)
		v[i] = (int)(a[i] ^ 0x80000000u);
	free(a < b ? a : b);
}

size_t
uniq_ints(int *v, size_t n)
{
	size_t i, m = 0, words;
	uint64_t *seen;
	int lo, hi;

	if (n == 0)
		return 0;
	lo = hi = v[0];
	for (i = 1; i < n; i++) {
		if (v[i] < lo)
			lo = v[i];
		if (v[i] > hi)
			hi = v[i];
	}
	/*
	 * Topology ids are small and dense: mark each in a bitmap and read
	 * the bitmap back in order, O(n + hi) with no sort at all.
	 */
	seen = NULL;
	if (lo >= 0 && (size_t)hi < 64 * n + 4096) {
		words = (size_t)hi / 64 + 1;
		seen = calloc(words, sizeof(*seen));
	}
	if (seen == NULL) {
		sort_ints(v, n);
		for (i = 0; i < n; i++)
			if (i == 0 || v[i] != v[m - 1])
				v[m++] = v[i];
		return m;
	}
	for (i = 0; i < n; i++)
		seen[(unsigned int)v[i] / 64] |= 1ULL << ((unsigned int)v[i] % 64);
	for (i = 0; i < words; i++) {
		uint64_t w = seen[i];

		while (w) {
			v[m++] = (int)(i * 64 + (size_t)__builtin_ctzll(w));
			w &= w - 1;
		}
	}
	free(seen);
	return m;
}
