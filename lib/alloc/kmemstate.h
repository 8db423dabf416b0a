/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reading the kubelet Memory Manager checkpoint (memory_manager_state),
 * in every layout kubelets have written, as the kubelet's
 * memorymanager/state reads them:
 *
 *   v1: {"policyName":"Static","machineState":{"0":{...}},
 *        "entries":{"POD":{"CONTAINER":[{"numaAffinity":[0],
 *        "type":"memory","size":N}]}},"checksum":N}
 *   v2: v1 with "podEntries":{"POD":{"memoryBlocks":[...]}}
 *   v3: the dual format: "data" holds the payload as a JSON string with
 *       its own "dataChecksum"; the v1 fields beside it are for older
 *       kubelets only.
 *
 * The v1/v2 checksum is FNV-1a 32 over go-spew's "%#v" of the checkpoint
 * struct (checksum 0, the struct named MemoryManagerCheckpoint); v1
 * accepts a checksum of 0 unchecked, v2 does not.  v3's is over
 * "(string)DATA".  Keys match in any case, as Go's decoder matches them.
 */
#ifndef CPM_KMEMSTATE_H
#define CPM_KMEMSTATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "alloc/alloc.h"

struct kmem_block {
	char *pod, *container;
	char *type;		/* "memory", "hugepages-2Mi", ... */
	uint64_t size;		/* bytes */
	int nnodes;
	int *nodes;		/* numaAffinity */
};

struct kmemstate {
	char *policy;		/* "None" or "Static" */
	int nblocks;
	struct kmem_block *blocks;
};

/*
 * Read and (when verify) verify the checkpoint at path.  Returns 0;
 * -ENOENT when there is none; -EINVAL when the kubelet would refuse it
 * (err gives its reason: "checkpoint is corrupted", "could not load v3
 * checkpoint: ..."); -ENOMEM; another -errno when it cannot be read.
 */
int kmem_load(struct kmemstate *ms, const char *path, bool verify, char *err,
	      size_t errlen);
void kmem_free(struct kmemstate *ms);

/*
 * Book on the entries of im named POD/CONTAINER the "memory" and
 * "hugepages-<size>" blocks the Static policy's checkpoint ms gives that
 * container: a block's size on its node, split evenly (the remainder on
 * the lowest; huge pages in whole pages) over a group of nodes; memory
 * as memory, huge pages as the entry's huge page bookings.  Nodes must be nodes of t.  Returns the number of entries that
 * got memory, -EINVAL (err says which node is not there), -ENOMEM.
 */
int kmem_book(const struct kmemstate *ms, const struct topo *t,
	      struct alloc_import *im, const char *file, char *err,
	      size_t errlen);

#endif
