// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The blocks of an arena (arena.h).
 */

#include <stdlib.h>

#include "base/arena.h"

void *
arena_alloc_block(struct arena *a, size_t size)
{
	size_t bs = size > a->block_size ? size : a->block_size;
	struct arena_block *b = malloc(sizeof(*b) + bs);

	if (!b)
		return NULL;
	b->next = a->blocks;
	b->used = size;
	b->size = bs;
	a->blocks = b;
	return b->data;
}

void
arena_reset(struct arena *a)
{
	struct arena_block *keep = a->blocks;

	if (!keep)
		return;
	a->blocks = keep->next;
	arena_free(a);
	keep->next = NULL;
	keep->used = 0;
	a->blocks = keep;
}

void
arena_free(struct arena *a)
{
	while (a->blocks) {
		struct arena_block *next = a->blocks->next;

		free(a->blocks);
		a->blocks = next;
	}
}
