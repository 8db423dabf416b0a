// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * XXH64, written from its specification (xxHash's doc/xxhash_spec.md):
 * four lanes of 64 bits take a stripe of 32 bytes a turn, so the
 * multiplies of a turn do not wait on each other, where FNV-1a waits
 * on one multiply per byte.
 */
#include <endian.h>
#include <string.h>

#include "base/xxh64.h"

#define P1 0x9E3779B185EBCA87ULL
#define P2 0xC2B2AE3D27D4EB4FULL
#define P3 0x165667B19E3779F9ULL
#define P4 0x85EBCA77C2B2AE63ULL
#define P5 0x27D4EB2F165667C5ULL

static inline uint64_t
rotl(uint64_t x, int r)
{
	return (x << r) | (x >> (64 - r));
}

static inline uint64_t
read64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return le64toh(v);
}

static inline uint32_t
read32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return le32toh(v);
}

static inline uint64_t
round64(uint64_t acc, uint64_t in)
{
	acc += in * P2;
	acc = rotl(acc, 31);
	return acc * P1;
}

static inline uint64_t
merge(uint64_t h, uint64_t v)
{
	h ^= round64(0, v);
	return h * P1 + P4;
}

void
xxh64_start(struct xxh64_lanes *l, uint64_t seed)
{
	l->v[0] = seed + P1 + P2;
	l->v[1] = seed + P2;
	l->v[2] = seed;
	l->v[3] = seed - P1;
}

size_t
xxh64_stripes(struct xxh64_lanes *l, const void *data, size_t len)
{
	const unsigned char *p = data;
	uint64_t v0 = l->v[0], v1 = l->v[1], v2 = l->v[2], v3 = l->v[3];
	size_t n = len - len % XXH64_STRIPE, i;

	for (i = 0; i < n; i += XXH64_STRIPE) {
		v0 = round64(v0, read64(p + i));
		v1 = round64(v1, read64(p + i + 8));
		v2 = round64(v2, read64(p + i + 16));
		v3 = round64(v3, read64(p + i + 24));
	}
	l->v[0] = v0;
	l->v[1] = v1;
	l->v[2] = v2;
	l->v[3] = v3;
	return n;
}

uint64_t
xxh64_end(const struct xxh64_lanes *l, uint64_t seed, uint64_t total,
	  const void *tail, size_t tlen)
{
	const unsigned char *p = tail;
	uint64_t h;

	if (total >= XXH64_STRIPE) {
		h = rotl(l->v[0], 1) + rotl(l->v[1], 7) + rotl(l->v[2], 12) +
		    rotl(l->v[3], 18);
		h = merge(h, l->v[0]);
		h = merge(h, l->v[1]);
		h = merge(h, l->v[2]);
		h = merge(h, l->v[3]);
	} else {
		h = seed + P5;
	}
	h += total;
	for (; tlen >= 8; tlen -= 8, p += 8) {
		h ^= round64(0, read64(p));
		h = rotl(h, 27) * P1 + P4;
	}
	if (tlen >= 4) {
		h ^= (uint64_t)read32(p) * P1;
		h = rotl(h, 23) * P2 + P3;
		tlen -= 4;
		p += 4;
	}
	while (tlen--) {
		h ^= *p++ * P5;
		h = rotl(h, 11) * P1;
	}
	h ^= h >> 33;
	h *= P2;
	h ^= h >> 29;
	h *= P3;
	h ^= h >> 32;
	return h;
}

uint64_t
xxh64(uint64_t seed, const void *p, size_t len)
{
	struct xxh64_lanes l;
	size_t done;

	xxh64_start(&l, seed);
	done = xxh64_stripes(&l, p, len);
	return xxh64_end(&l, seed, len, (const unsigned char *)p + done,
			 len - done);
}
