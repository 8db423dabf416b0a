// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The Memory Manager's resources: the --mem resource list, huge pages as
 * the machine has them (nodeN/hugepages), booked as the kubelet's static
 * policy books them, reserved memory subtracted, and the state's
 * hugepages= field and reserved-memory record written and read back.
 * The machine (2 nodes of 4 GiB; node 0 holds 512 pages of 2 MiB and 2
 * of 1 GiB, node 1 512 of 2 MiB and 1 of 1 GiB) is a generated tree;
 * the expectations are worked out by hand from the kubelet's rules:
 * regular memory allocatable = MemTotal - reserved - every huge page.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc/alloc.h"
#include "alloc/allocmem.h"
#include "allocmachine.h"
#include "base/strbuf.h"
#include "unit.h"

#define GiB (1ULL << 30)
#define MiB (1ULL << 20)

#define SPEC								\
	"node 0 mem_kb=4194304 huge=2048:512,1048576:2:1\n"		\
	"node 1 mem_kb=4194304 huge=2048:512,1048576:1\n"		\
	"cpu 0 core=0 socket=0 node=0\n"				\
	"cpu 1 core=1 socket=0 node=0\n"				\
	"cpu 2 core=2 socket=1 node=1\n"				\
	"cpu 3 core=3 socket=1 node=1\n"

static void
test_parse(void)
{
	struct alloc_memreq mr;
	char err[256], name[64];
	unsigned int kb;

	CHECK("a bare size is regular memory, as --mem reads it",
	      alloc_mem_parse("2G", &mr, err, sizeof(err)) == 0 &&
	      mr.mem == 2 * GiB && mr.nhuge == 0);
	CHECK("a list books each resource, huge pages by size",
	      alloc_mem_parse("hugepages-1Gi=2G,memory=1Gi,hugepages-2Mi=4Mi",
			      &mr, err, sizeof(err)) == 0 &&
	      mr.mem == GiB && mr.nhuge == 2 && mr.huge[0].kb == 2048 &&
	      mr.huge[0].bytes == 4 * MiB && mr.huge[1].kb == 1048576 &&
	      mr.huge[1].bytes == 2 * GiB);
	CHECK("a list without memory asks none",
	      alloc_mem_parse("hugepages-2Mi=512Mi", &mr, err,
			      sizeof(err)) == 0 && mr.mem == 0 &&
	      mr.nhuge == 1 && mr.huge[0].bytes == 512 * MiB);
	CHECK("an unknown resource is refused",
	      alloc_mem_parse("cpu=1", &mr, err, sizeof(err)) == -EINVAL &&
	      strstr(err, "invalid --mem resource 'cpu'"));
	CHECK("a size not named as the kubelet names it is refused",
	      alloc_mem_parse("hugepages-2048Ki=4Mi", &mr, err,
			      sizeof(err)) == -EINVAL &&
	      alloc_mem_parse("hugepages-2M=4M", &mr, err,
			      sizeof(err)) == -EINVAL);
	CHECK_STR("huge pages not a multiple of the page size are refused",
		  alloc_mem_parse("hugepages-2Mi=3Mi", &mr, err,
				  sizeof(err)) == -EINVAL ? err : "",
		  "--mem hugepages-2Mi: 3Mi is not a multiple of the page "
		  "size 2Mi");
	CHECK("a resource named twice is refused",
	      alloc_mem_parse("memory=1G,memory=2G", &mr, err,
			      sizeof(err)) == -EINVAL &&
	      alloc_mem_parse("hugepages-2Mi=2Mi,hugepages-2Mi=2Mi", &mr, err,
			      sizeof(err)) == -EINVAL);
	CHECK("an empty item or a bad size is refused",
	      alloc_mem_parse("memory=1G,", &mr, err, sizeof(err)) ==
	      -EINVAL && alloc_mem_parse("memory=x", &mr, err,
					 sizeof(err)) == -EINVAL &&
	      alloc_mem_parse("memory", &mr, err, sizeof(err)) == -EINVAL);
	alloc_huge_name(2048, name, sizeof(name));
	CHECK_STR("2048 kB pages are hugepages-2Mi", name, "hugepages-2Mi");
	alloc_huge_name(1048576, name, sizeof(name));
	CHECK_STR("1048576 kB pages are hugepages-1Gi", name, "hugepages-1Gi");
	alloc_huge_name(64, name, sizeof(name));
	CHECK_STR("64 kB pages are hugepages-64Ki", name, "hugepages-64Ki");
	CHECK("memory is resource 0, hugepages-16Gi 16 GiB pages",
	      alloc_mem_resource("memory", &kb) == 0 && kb == 0 &&
	      alloc_mem_resource("hugepages-16Gi", &kb) == 0 &&
	      kb == 16777216);
}

static void
test_machine(void)
{
	const struct topo_huge *h = topo_node_huge(&topo.nodes[0], 1048576);
	struct alloc_memreq mr;
	char err[256];

	CHECK("the node's huge pages are read, by size",
	      topo.nodes[0].nhuge == 2 && topo.nodes[0].huge[0].kb == 2048 &&
	      topo.nodes[0].huge[0].nr == 512 &&
	      topo.nodes[0].huge[0].free == 512);
	CHECK("nr_hugepages and free_hugepages", h && h->nr == 2 &&
	      h->free == 1);
	alloc_mem_parse("hugepages-32Mi=32Mi", &mr, err, sizeof(err));
	CHECK("a size the machine lacks is refused",
	      alloc_mem_check(&topo, &mr, err, sizeof(err)) == -EINVAL &&
	      strstr(err, "hugepages-32Mi"));
	alloc_mem_parse("hugepages-1Gi=1G", &mr, err, sizeof(err));
	CHECK("a size it has is taken",
	      alloc_mem_check(&topo, &mr, err, sizeof(err)) == 0);
}

/* Take n CPUs with --mem s under policy; add to st.  Returns the take's. */
static int
take(struct alloc_state *st, const char *name, int n, const char *s,
     int policy, char *err, size_t errlen)
{
	struct alloc_request rq;
	struct alloc_memreq mr;
	struct alloc_entry e;
	int r;

	unit_request(&rq, name, n);
	rq.opts.numa_policy = policy;
	if (alloc_mem_parse(s, &mr, err, errlen) < 0)
		return -EINVAL;
	rq.have_mem = true;
	rq.mem = mr.mem;
	rq.nhuge = mr.nhuge;
	memcpy(rq.huge, mr.huge, sizeof(rq.huge));
	memset(&e, 0, sizeof(e));
	r = alloc_opts_effective(&m, &st->policy, &rq.opts, err, errlen);
	if (r == 0)
		r = alloc_take(&m, st, &rq, &e, NULL, err, errlen);
	if (r == 0 && state_add(st, &e) < 0)
		r = -ENOMEM;
	alloc_entry_free(&e);
	return r;
}

/* An entry's bookings: "mem 0:B,... huge KB:N:B,..." */
static const char *
bookings(const struct alloc_state *st, const char *name)
{
	static char buf[512];
	const struct alloc_entry *e = state_find(st, name);
	size_t n = 0;
	int k;

	buf[0] = '\0';
	if (!e)
		return "(none)";
	n += (size_t)snprintf(buf + n, sizeof(buf) - n, "mem");
	for (k = 0; k < e->nmem; k++)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, " %d:%lluM",
				      e->mem[k].node, (unsigned long long)
				      (e->mem[k].bytes >> 20));
	n += (size_t)snprintf(buf + n, sizeof(buf) - n, " huge");
	for (k = 0; k < e->nhuge; k++)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, " %u:%d:%lluM",
				      e->huge[k].kb, e->huge[k].node,
				      (unsigned long long)
				      (e->huge[k].bytes >> 20));
	return buf;
}

static void
test_booking(void)
{
	struct alloc_state st;
	char err[1024];

	state_init(&st);
	CHECK_STR("memory and huge pages are booked on the one node that "
		  "holds them all",
		  take(&st, "a", 1, "memory=512M,hugepages-1Gi=2G,"
		       "hugepages-2Mi=4Mi", TM_SINGLE_NUMA, err,
		       sizeof(err)) == 0 ? bookings(&st, "a") : err,
		  "mem 0:512M huge 2048:0:4M 1048576:0:2048M");
	CHECK_STR("node 0's 1 GiB pages are all booked: node 1's are next",
		  take(&st, "b", 1, "hugepages-1Gi=1G", TM_SINGLE_NUMA, err,
		       sizeof(err)) == 0 ? bookings(&st, "b") : err,
		  "mem huge 1048576:1:1024M");
	CHECK("no 1 GiB page is left: refused",
	      take(&st, "c", 1, "hugepages-1Gi=1G", TM_BEST_EFFORT, err,
		   sizeof(err)) == -ENOSPC);
	/* Regular memory: 4G - 1G of 2 MiB pages - 2G (node 0) or 1G
	 * (node 1) of 1 GiB pages: 1G and 2G allocatable. */
	CHECK_STR("regular memory is MemTotal less the node's huge pages",
		  take(&st, "d", 1, "memory=1536M", TM_SINGLE_NUMA, err,
		       sizeof(err)) == 0 ? bookings(&st, "d") : err,
		  "mem 1:1536M huge");
	CHECK("and more than that on one node is refused",
	      take(&st, "e", 1, "memory=1G", TM_SINGLE_NUMA, err,
		   sizeof(err)) == -ENOSPC);
	state_free(&st);

	/* Reserved memory is subtracted: 1G of node 0's 2 MiB pages
	 * reserved leaves none there. */
	state_init(&st);
	st.resmem = calloc(1, sizeof(*st.resmem));
	st.resmem[0].node = 0;
	st.resmem[0].kb = 2048;
	st.resmem[0].bytes = GiB;
	st.nresmem = 1;
	CHECK_STR("reserved huge pages cannot be booked",
		  take(&st, "a", 1, "hugepages-2Mi=2Mi", TM_SINGLE_NUMA, err,
		       sizeof(err)) == 0 ? bookings(&st, "a") : err,
		  "mem huge 2048:1:2M");
	state_free(&st);

	/* Spread over two nodes: 1 GiB pages, 3 of them, filled in node
	 * order (updateMachineState). */
	state_init(&st);
	CHECK_STR("a request wider than a node books its nodes in order",
		  take(&st, "a", 1, "hugepages-1Gi=3G", TM_BEST_EFFORT, err,
		       sizeof(err)) == 0 ? bookings(&st, "a") : err,
		  "mem huge 1048576:0:2048M 1048576:1:1024M");
	CHECK("a node of a two-node group serves no single-node request",
	      take(&st, "b", 1, "hugepages-2Mi=2Mi", TM_SINGLE_NUMA, err,
		   sizeof(err)) == -ENOSPC);
	state_free(&st);
}

static void
test_state(void)
{
	struct alloc_state st, back;
	struct strbuf a, b;
	struct alloc_entry e;
	char err[256];
	int r;

	state_init(&st);
	memset(&e, 0, sizeof(e));
	e.name = strdup("x");
	e.n = 1;
	cpuset_set(&e.cpus, 1);
	e.nhuge = 2;
	e.huge = calloc(2, sizeof(*e.huge));
	e.huge[0] = (struct huge_booking){ 2048, 0, 4 * MiB };
	e.huge[1] = (struct huge_booking){ 1048576, 1, GiB };
	state_add(&st, &e);
	alloc_entry_free(&e);
	st.resmem = calloc(2, sizeof(*st.resmem));
	st.resmem[0] = (struct mem_reserve){ 0, 0, GiB };
	st.resmem[1] = (struct mem_reserve){ 0, 1048576, GiB };
	st.nresmem = 2;
	strbuf_init(&a);
	strbuf_init(&b);
	state_format(&st, &a);
	CHECK("the hugepages field is written",
	      a.buf && strstr(a.buf, " hugepages=2048:0:4194304,"
			      "1048576:1:1073741824"));
	CHECK("the reserved-memory record is written",
	      a.buf && strstr(a.buf, "\nreserved-memory 0:0:1073741824,"
			      "0:1048576:1073741824\n"));
	r = state_parse(&back, a.buf, a.len, err, sizeof(err));
	CHECK("and read back", r == 0 && back.nentries == 1 &&
	      back.entries[0].nhuge == 2 &&
	      back.entries[0].huge[1].kb == 1048576 &&
	      back.entries[0].huge[1].node == 1 &&
	      back.entries[0].huge[1].bytes == GiB && back.nresmem == 2 &&
	      state_mem_reserved(&back, 0, 1048576) == GiB &&
	      state_huge_booked(&back, 2048, 0) == 4 * MiB);
	if (r == 0) {
		state_format(&back, &b);
		CHECK("a state with them round-trips byte for byte",
		      b.len == a.len && memcmp(a.buf, b.buf, a.len) == 0);
		state_free(&back);
	}
	state_free(&st);
	strbuf_free(&a);
	strbuf_free(&b);
}

/* --reserved-memory s on the machine: "" or the error. */
static const char *
resmem(const char *s, struct mem_reserve **rv, int *n)
{
	static char err[256];

	if (alloc_resmem_parse(&topo, s, rv, n, err, sizeof(err)) == 0)
		return "";
	return err;
}

static void
test_resmem(void)
{
	struct mem_reserve *rv = NULL;
	int n = 0;

	CHECK_STR("reserved memory per node and resource is read",
		  resmem("1:memory=1Gi;0:hugepages-2Mi=4Mi,memory=512Mi", &rv,
			 &n), "");
	CHECK("sorted by node, then resource, Kubernetes quantities",
	      n == 3 && rv[0].node == 0 && rv[0].kb == 0 &&
	      rv[0].bytes == 512 * MiB && rv[1].kb == 2048 &&
	      rv[1].bytes == 4 * MiB && rv[2].node == 1 && rv[2].bytes == GiB);
	free(rv);
	CHECK_STR("1G is a decimal quantity, as the kubelet reads it",
		  resmem("0:memory=1G", &rv, &n), "");
	CHECK("1G = 10^9 bytes", n == 1 && rv[0].bytes == 1000000000ULL);
	free(rv);
	CHECK_STR("the flag's format",
		  resmem("0memory=1G", &rv, &n), "the reserved memory has "
		  "incorrect format, expected numaNodeID:type=quantity"
		  "[,type=quantity...], got 0memory=1G");
	CHECK_STR("the node id", resmem("x:memory=1G", &rv, &n),
		  "failed to convert the NUMA node ID, exptected integer, "
		  "got x");
	CHECK_STR("a limit", resmem("0:memory", &rv, &n), "the reserved limit "
		  "has incorrect value, expected type=quantatity, got memory");
	CHECK_STR("a type", resmem("0:cpu=1", &rv, &n), "memory type "
		  "conversion error, unknown type: \"cpu\"");
	CHECK_STR("a quantity", resmem("0:memory=1x", &rv, &n), "failed to "
		  "parse the quantatity, expected quantatity, got 1x");
	CHECK_STR("zero", resmem("0:memory=0", &rv, &n), "invalid "
		  "configuration: reserved memory may not be zero for NUMA "
		  "node 0 and resource \"memory\"");
	CHECK_STR("a node twice", resmem("0:memory=1Gi;0:memory=2Gi", &rv, &n),
		  "invalid configuration: the reserved memory has a duplicate "
		  "value for NUMA node 0 and resource \"memory\"");
	CHECK_STR("a node the machine lacks",
		  resmem("0:memory=1Gi;2:memory=1Gi", &rv, &n), "the reserved "
		  "memory configuration references a NUMA node 2 that does not "
		  "exist on this machine");
	CHECK_STR("more than the node has",
		  resmem("1:hugepages-1Gi=2Gi", &rv, &n), "the reserved memory "
		  "for NUMA node 1 and resource \"hugepages-1Gi\": 2Gi is more "
		  "than the node's 1Gi");
	CHECK("nothing is kept from a refused list", rv == NULL && n == 0);
}

int
main(void)
{
	test_parse();
	unit_alloc_machine(SPEC);
	test_machine();
	test_booking();
	test_state();
	test_resmem();
	unit_machine_remove();
	return unit_failed;
}
