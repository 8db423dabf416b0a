// SPDX-License-Identifier: GPL-2.0-or-later
/* FNV-1a hashes: see hash.h. */
#include "base/hash.h"

#define FNV64_PRIME 0x100000001b3ULL

uint64_t
fnv1a64(uint64_t h, const void *data, size_t len)
{
	const unsigned char *p = data;

	/* Eight bytes a turn: the loop costs as much as the hash itself. */
	for (; len >= 8; len -= 8, p += 8) {
		h = (h ^ p[0]) * FNV64_PRIME;
		h = (h ^ p[1]) * FNV64_PRIME;
		h = (h ^ p[2]) * FNV64_PRIME;
		h = (h ^ p[3]) * FNV64_PRIME;
		h = (h ^ p[4]) * FNV64_PRIME;
		h = (h ^ p[5]) * FNV64_PRIME;
		h = (h ^ p[6]) * FNV64_PRIME;
		h = (h ^ p[7]) * FNV64_PRIME;
	}
	while (len--)
		h = (h ^ *p++) * FNV64_PRIME;
	return h;
}
