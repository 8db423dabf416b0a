/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Memory handed out in pieces and freed all together.
 */
#ifndef CPM_ARENA_H
#define CPM_ARENA_H

#include <stddef.h>

/*
 * Memory handed out in pieces from blocks of block_size bytes (or one
 * piece's size, when larger) and freed all together: for many small
 * pieces that live as long as their owner.  Zero-initialise, set
 * block_size.
 */
struct arena_block {
	struct arena_block *next;
	size_t used, size;
	_Alignas(16) unsigned char data[];
};

struct arena {
	struct arena_block *blocks;
	size_t block_size;
};

/* arena_alloc() when the newest block has no room. */
void *arena_alloc_block(struct arena *a, size_t size);

/* size bytes at a multiple of align (a power of two up to 16), or NULL
 * when out of memory.  Inline: it is called once per small piece. */
static inline void *
arena_alloc(struct arena *a, size_t size, size_t align)
{
	struct arena_block *b = a->blocks;
	size_t at;

	if (!b)
		return arena_alloc_block(a, size);
	at = (b->used + align - 1) & ~(align - 1);
	if (at > b->size || b->size - at < size)
		return arena_alloc_block(a, size);
	b->used = at + size;
	return b->data + at;
}
/* Forget every piece, keeping the newest block for the next ones. */
void arena_reset(struct arena *a);
void arena_free(struct arena *a);

#endif
