/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * XXH64 (Yann Collet's xxHash, 64-bit variant): the checksum of the
 * cpm-alloc state since version 3.  The same value as `xxhsum -H1`, so
 * a state file can be checked with a standard tool.
 *
 * A text is hashed 32 bytes (a stripe) at a time into four lanes; the
 * lanes after any whole number of stripes can be kept and the hash of a
 * text beginning with those bytes resumed from them:
 *
 *	struct xxh64_lanes l;
 *	xxh64_start(&l, 0);
 *	done = xxh64_stripes(&l, p, len);	(len / 32 stripes)
 *	h = xxh64_end(&l, 0, len, p + done, len - done);
 */
#ifndef CPM_XXH64_H
#define CPM_XXH64_H

#include <stddef.h>
#include <stdint.h>

#define XXH64_STRIPE 32

struct xxh64_lanes {
	uint64_t v[4];
};

void xxh64_start(struct xxh64_lanes *l, uint64_t seed);
/* Feeds the len / 32 whole stripes of p; returns the bytes fed. */
size_t xxh64_stripes(struct xxh64_lanes *l, const void *p, size_t len);
/*
 * The hash of a text of total bytes, all but the last tlen (< 32) fed
 * to l, which are at tail.
 */
uint64_t xxh64_end(const struct xxh64_lanes *l, uint64_t seed,
		   uint64_t total, const void *tail, size_t tlen);
uint64_t xxh64(uint64_t seed, const void *p, size_t len);

#endif
