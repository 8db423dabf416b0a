/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The Memory Manager's resources as cpm-alloc takes them: regular memory
 * and huge pages of each size the machine has, named as the kubelet
 * names them ("memory", "hugepages-2Mi", "hugepages-1Gi"), in a --mem
 * resource list ("memory=1G,hugepages-1Gi=2G") or a bare size (memory
 * alone).
 */
#ifndef CPM_ALLOCMEM_H
#define CPM_ALLOCMEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "alloc/state.h"
#include "base/strbuf.h"
#include "kube/topomgr.h"
#include "machine/topo.h"

/* Huge page sizes one request can name: the Memory Manager's resources
 * after regular memory. */
#define ALLOC_HUGE_MAX (TM_MEM_RES - 1)

/* bytes of huge pages of kb kB. */
struct alloc_huge {
	unsigned int kb;
	uint64_t bytes;
};

/* What --mem asks for. */
struct alloc_memreq {
	uint64_t mem;			/* regular memory, bytes */
	int nhuge;
	struct alloc_huge huge[ALLOC_HUGE_MAX];	/* by page size */
};

/*
 * Parse a --mem value: a bare size (regular memory, as parse_size_bytes()
 * reads it) or a list of RESOURCE=SIZE, each resource at most once, a
 * huge page amount a multiple of its page size.  Returns 0, or -EINVAL
 * with one line in err.
 */
int alloc_mem_parse(const char *s, struct alloc_memreq *out, char *err,
		    size_t errlen);

/* The kubelet's name of huge pages of kb kB: "hugepages-2Mi". */
void alloc_huge_name(unsigned int kb, char *buf, size_t len);

/*
 * Parse a resource name: 0 for "memory", the page size in kB for a
 * "hugepages-<size>" named as the kubelet names it; -EINVAL otherwise.
 */
int alloc_mem_resource(const char *name, unsigned int *kb);

/* bytes as a Kubernetes binary quantity ("2Mi", "1536Mi", "100"). */
void alloc_qty_format(struct strbuf *sb, uint64_t bytes);

/*
 * Refuse huge pages of a size no node of t has: -EINVAL with one line
 * in err.  Returns 0 otherwise.
 */
int alloc_mem_check(const struct topo *t, const struct alloc_memreq *mr,
		    char *err, size_t errlen);

/*
 * The kubelet's --reserved-memory, "NODE:TYPE=QTY[,TYPE=QTY...][;...]"
 * (QTY a Kubernetes quantity, 1Gi or 1G = 10^9), into a list by node,
 * then page size (kb 0: memory), checked as the kubelet checks it, with
 * its messages: the flag's format, a zero or repeated reservation (its
 * configuration's validation), a node t lacks (the Memory Manager's);
 * and more than the node has of the resource (MemTotal; nr_hugepages
 * pages).  *out is malloc'ed.  Returns 0, -EINVAL with one line in err,
 * -ENOMEM.
 */
int alloc_resmem_parse(const struct topo *t, const char *s,
		       struct mem_reserve **out, int *nout, char *err,
		       size_t errlen);

#endif
