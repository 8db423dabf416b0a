/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * FNV-1a hashes: the checksum of cpm's journals (interrupt affinities,
 * bursts) and of the cpm-alloc state before version 3, the digest of a
 * state's layout, and the hash of names in tables.
 */
#ifndef CPM_HASH_H
#define CPM_HASH_H

#include <stddef.h>
#include <stdint.h>

/* FNV-1a, 64 and 32 bits, continuing from h (start with the offset
 * basis FNV64_INIT / FNV32_INIT). */
#define FNV64_INIT 0xcbf29ce484222325ULL
#define FNV32_INIT 0x811c9dc5U
uint64_t fnv1a64(uint64_t h, const void *data, size_t len);

/* Inline: the name tables hash a few bytes a call. */
static inline uint32_t
fnv1a32(uint32_t h, const void *data, size_t len)
{
	const unsigned char *p = data;

	while (len--) {
		h ^= *p++;
		h *= 0x01000193U;
	}
	return h;
}

#endif
