// SPDX-License-Identifier: GPL-2.0-or-later
/* The Topology Manager merge, policies and memory booking, on hand-made
 * hint lists whose outcome follows from the kubelet's rules. */
#include <errno.h>
#include <string.h>

#include "alloc/state.h"
#include "kube/topomgr.h"
#include "unit.h"

#define N0 1ULL
#define N1 2ULL
#define N01 3ULL
#define ALL2 3ULL

static struct tm_hints
mk(int n, const struct tm_hint *h)
{
	struct tm_hints l;

	memset(&l, 0, sizeof(l));
	l.n = n;
	l.h = (struct tm_hint *)h;
	return l;
}

int
main(void)
{
	struct tm_hint best;
	bool admit;

	{
		static const struct tm_hint a[] = { { N0, true }, { N1, true },
						    { N01, false } };
		struct tm_hints l[2] = { mk(3, a), mk(3, a) };

		admit = tm_merge(TM_RESTRICTED, ALL2, l, 2, &best);
		CHECK("two providers agreeing on node 0 merge to node 0, preferred",
		      admit && best.mask == N0 && best.preferred);
	}
	{
		static const struct tm_hint a[] = { { N0, true } };
		static const struct tm_hint b[] = { { N1, true } };
		struct tm_hints l[2] = { mk(1, a), mk(1, b) };

		admit = tm_merge(TM_RESTRICTED, ALL2, l, 2, &best);
		CHECK("disjoint hints leave all nodes, not preferred, and restricted refuses",
		      !admit && best.mask == ALL2 && !best.preferred);
		admit = tm_merge(TM_BEST_EFFORT, ALL2, l, 2, &best);
		CHECK("best-effort admits what restricted refuses", admit);
	}
	{
		static const struct tm_hint a[] = { { N01, true } };
		struct tm_hints l[2] = { mk(1, a), { .dont_care = true } };

		admit = tm_merge(TM_RESTRICTED, ALL2, l, 2, &best);
		CHECK("a provider without an opinion does not narrow the hint",
		      admit && best.mask == N01 && best.preferred);
		admit = tm_merge(TM_SINGLE_NUMA, ALL2, l, 2, &best);
		CHECK("single-numa-node refuses a two-node hint", !admit);
	}
	{
		struct tm_hints l[1] = { mk(0, NULL) };

		admit = tm_merge(TM_RESTRICTED, ALL2, l, 1, &best);
		CHECK("an empty hint list cannot be satisfied", !admit);
		admit = tm_merge(TM_NONE, ALL2, l, 1, &best);
		CHECK("the none policy admits anything without a hint",
		      admit && best.mask == 0);
	}
	{
		static const struct tm_hint a[] = { { N0, false }, { N01, false } };
		struct tm_hints l[1] = { mk(2, a) };

		admit = tm_merge(TM_BEST_EFFORT, ALL2, l, 1, &best);
		CHECK("between non-preferred hints the narrowest provider count wins",
		      admit && best.mask == N0 && !best.preferred);
	}
	{
		static const struct tm_hint a[] = { { N1, true }, { N0, true } };
		struct tm_hints l[1] = { mk(2, a) };

		tm_merge(TM_RESTRICTED, ALL2, l, 1, &best);
		CHECK("between preferred hints of one node the lower node wins",
		      best.mask == N0);
	}
	{
		static const struct tm_hint a[] = { { N0, true }, { N01, false } };
		static const struct tm_hint b[] = { { N01, true } };
		struct tm_hints l[2] = { mk(2, a), mk(1, b) };

		admit = tm_merge(TM_RESTRICTED, ALL2, l, 2, &best);
		/* {0}&{0,1} is {0} but not preferred (the masks differ);
		 * {0,1} not preferred has the widest provider's narrowest
		 * count (2) and wins over it. */
		CHECK("different masks are never preferred together",
		      !admit && best.mask == N01 && !best.preferred);
	}
	{
		struct tm_mem_node m[2] = {
			{ 0, { 8ULL << 30 }, { 6ULL << 30 }, N0 },
			{ 1, { 8ULL << 30 }, { 0 }, 0 },
		};
		struct tm_hints h;
		struct mem_booking bk[2];
		uint64_t rq[2];
		int n;

		rq[0] = 4ULL << 30;
		tm_mem_hints(m, 2, rq, 1, &h);
		CHECK("memory hints skip a node without room or with single-node bookings",
		      h.n == 1 && h.h[0].mask == N1 && h.h[0].preferred);
		tm_hints_free(&h);
		rq[0] = 10ULL << 30;
		tm_mem_hints(m, 2, rq, 1, &h);
		CHECK("a node with single-node bookings is not grouped with others",
		      h.n == 0);
		tm_hints_free(&h);
		m[0].group = N01;
		tm_mem_hints(m, 2, rq, 1, &h);
		CHECK("nodes of one group serve that group",
		      h.n == 1 && h.h[0].mask == N01 && h.h[0].preferred);
		tm_hints_free(&h);
		CHECK("booking fills nodes in order",
		      tm_mem_book(m, 2, N01, 0, 5ULL << 30, bk, &n) == 0 &&
		      n == 2 && bk[0].bytes == 2ULL << 30 &&
		      bk[1].bytes == 3ULL << 30);
		CHECK("booking more than is free fails",
		      tm_mem_book(m, 2, N1, 0, 9ULL << 30, bk, &n) == -ENOSPC);

		/* Huge pages (resource 1): node 0 has 2 GiB of them, node
		 * 1 none; every resource must fit in a hint. */
		m[0].group = 0;
		m[0].booked[0] = 0;
		m[0].total[1] = 2ULL << 30;
		rq[0] = 1ULL << 30;
		rq[1] = 1ULL << 30;
		tm_mem_hints(m, 2, rq, 2, &h);
		CHECK("a hint holds every resource asked for",
		      h.n == 2 && h.h[0].mask == N0 && h.h[0].preferred &&
		      h.h[1].mask == N01 && !h.h[1].preferred);
		tm_hints_free(&h);
		m[0].booked[1] = 2ULL << 30;
		tm_mem_hints(m, 2, rq, 2, &h);
		CHECK("no hint when one resource has no free memory left",
		      h.n == 0);
		tm_hints_free(&h);
		rq[1] = 3ULL << 30;
		m[0].booked[1] = 0;
		tm_mem_hints(m, 2, rq, 2, &h);
		CHECK("no hint when one resource's allocatable is short",
		      h.n == 0);
		tm_hints_free(&h);
		rq[0] = rq[1] = 0;
		tm_mem_hints(m, 2, rq, 2, &h);
		CHECK("nothing asked for: no preference", h.dont_care);
		tm_hints_free(&h);
		CHECK("booking a resource books only its own memory",
		      tm_mem_book(m, 2, N01, 1, 1ULL << 30, bk, &n) == 0 &&
		      n == 2 && bk[0].bytes == 1ULL << 30 && bk[1].bytes == 0);
	}
	{
		/* A device on node 1 of nodes 0-2: the device manager's
		 * generateDeviceTopologyHints for one device. */
		struct tm_hints h, l[2];
		static const struct tm_hint cpu[] = { { N0, true },
						      { N01, false } };

		CHECK("device hints: every set holding its node, narrowest first",
		      tm_device_hints(7, N1, &h) == 0 && !h.dont_care &&
		      h.n == 4 && h.h[0].mask == N1 && h.h[0].preferred &&
		      h.h[1].mask == 3 && !h.h[1].preferred &&
		      h.h[2].mask == 6 && h.h[3].mask == 7 &&
		      !h.h[3].preferred);
		l[0] = mk(2, cpu);
		l[1] = h;
		admit = tm_merge(TM_SINGLE_NUMA, 3, l, 2, &best);
		CHECK("single-numa-node refuses CPUs on node 0 for a device on node 1",
		      !admit);
		admit = tm_merge(TM_BEST_EFFORT, 3, l, 2, &best);
		/* Non-preferred merges of one node each: the lower wins. */
		CHECK("best-effort admits a hint neither provider prefers",
		      admit && best.mask == N0 && !best.preferred);
		tm_hints_free(&h);
		CHECK("a device of no node has no preference",
		      tm_device_hints(7, 0, &h) == 0 && h.dont_care && h.n == 0);
		CHECK("a device on a node the machine lacks has none either",
		      tm_device_hints(3, 1ULL << 5, &h) == 0 && h.dont_care);
	}
	return unit_failed;
}
