// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * XXH64 against the reference implementation: the values below are
 * `xxhsum -H1` (xxHash 0.8.1) of bytes (i * 7 + 3) mod 256, i from 0,
 * at every length where the code changes path (the tail's 8-, 4- and
 * 1-byte steps, the first stripe, the state's 512-byte checkpoints);
 * and the same values resumed from lanes kept at each stripe.
 */
#include <stdint.h>

#include "unit.h"
#include "base/xxh64.h"

static const struct {
	size_t len;
	uint64_t h;
} vec[] = {
	{ 0, 0xef46db3751d8e999ULL },	{ 1, 0x1f25c8d0bc1f4bb6ULL },
	{ 3, 0x31d2363f52e564c9ULL },	{ 4, 0x9bb64b7d66ee9fdaULL },
	{ 7, 0x9a7b149959ce60d8ULL },	{ 8, 0xdab99d95c6f90092ULL },
	{ 9, 0x170bb6bf975b4c02ULL },	{ 31, 0xa2aa5f33cc4a6119ULL },
	{ 32, 0x23c3c17ef790fd97ULL },	{ 33, 0x50a7cfc7ba588784ULL },
	{ 63, 0x5e3e54b431c7493cULL },	{ 64, 0x0eb64b3ef6eeb01fULL },
	{ 100, 0xa61f8d4c170fe531ULL },	{ 511, 0x9f5e8276c77830bbULL },
	{ 512, 0x6765eddc80089b7bULL },	{ 513, 0x8f4c3ed50e8b1459ULL },
	{ 1000, 0x5f235fa033f1a3fbULL }, { 4096, 0x796398cd432797ccULL },
	{ 4099, 0x6243e90ade852967ULL },
};

static unsigned char text[4099 + 8];

int
main(void)
{
	char name[128];
	size_t i, k;

	for (i = 0; i < sizeof(text); i++)
		text[i] = (unsigned char)(i * 7 + 3);
	CHECK("xxh64 of \"abc\" (the specification's example)",
	      xxh64(0, "abc", 3) == 0x44bc2cf5ad770999ULL);
	for (i = 0; i < sizeof(vec) / sizeof(vec[0]); i++) {
		size_t len = vec[i].len;
		int resumed = 1;

		snprintf(name, sizeof(name), "xxh64 of %zu bytes", len);
		CHECK(name, xxh64(0, text, len) == vec[i].h);
		/* Lanes kept after k stripes, the rest fed later. */
		for (k = 0; k * XXH64_STRIPE <= len; k++) {
			struct xxh64_lanes l, copy;
			size_t at = k * XXH64_STRIPE, done;

			xxh64_start(&l, 0);
			if (xxh64_stripes(&l, text, at) != at)
				resumed = 0;
			copy = l;
			done = at + xxh64_stripes(&copy, text + at, len - at);
			if (done != len - len % XXH64_STRIPE ||
			    xxh64_end(&copy, 0, len, text + done,
				      len - done) != vec[i].h)
				resumed = 0;
		}
		snprintf(name, sizeof(name),
			 "xxh64 of %zu bytes resumed at every stripe", len);
		CHECK(name, resumed);
	}
	/* Unaligned input reads the same bytes. */
	memmove(text + 1, text, 4099);
	CHECK("xxh64 of unaligned bytes",
	      xxh64(0, text + 1, 4099) == 0x6243e90ade852967ULL);
	/* A seed changes the hash (only seed 0 is used by cpm). */
	CHECK("xxh64 seed 1 differs from seed 0",
	      xxh64(1, text + 1, 100) != xxh64(0, text + 1, 100));
	return unit_failed;
}
