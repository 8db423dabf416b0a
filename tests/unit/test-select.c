// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * CPU selectors on a generated machine: 2 sockets, one NUMA node and one
 * L3 each, 2 cores of 2 threads per socket (socket 0: CPUs 0,1 and their
 * siblings 4,5; socket 1: 2,3 and 6,7), CPU 7 offline, CPU 3 isolated.
 * The expected sets are read off that layout by hand.
 */
#include <errno.h>
#include <string.h>

#include "machine/select.h"
#include "machine.h"
#include "unit.h"

static const char spec[] =
	"node 0\nnode 1\nisolated 3\n"
	"cpu 0 core=0 socket=0 node=0 l3=0\n"
	"cpu 1 core=1 socket=0 node=0 l3=0\n"
	"cpu 2 core=0 socket=1 node=1 l3=1\n"
	"cpu 3 core=1 socket=1 node=1 l3=1\n"
	"cpu 4 core=0 socket=0 node=0 l3=0\n"
	"cpu 5 core=1 socket=0 node=0 l3=0\n"
	"cpu 6 core=0 socket=1 node=1 l3=1\n"
	"cpu 7 core=1 socket=1 node=1 l3=1 online=0\n";

static struct topo t;

static void
good(const char *sel, const char *want)
{
	struct cpuset s = CPUSET_INIT;
	char name[128], err[256] = "";
	int r = select_resolve(&t, sel, &s, err, sizeof(err));

	snprintf(name, sizeof(name), "select %s", sel);
	CHECK_STR(name, r == 0 ? unit_list(&s) : err, want);
	cpuset_free(&s);
}

static void
bad(const char *sel, const char *want)
{
	struct cpuset s = CPUSET_INIT;
	char name[128], err[256] = "";
	int r = select_resolve(&t, sel, &s, err, sizeof(err));

	snprintf(name, sizeof(name), "select %s is refused", sel);
	CHECK_STR(name, r == -EINVAL ? err : "(accepted)", want);
	cpuset_free(&s);
}

int
main(void)
{
	unit_machine(spec, 0, &t, NULL);
	CHECK("cpulist: a range is not a selector", select_is_cpulist("0-3"));
	CHECK("cpulist: stdin is not a selector", select_is_cpulist("-"));
	CHECK("cpulist: the empty list", select_is_cpulist(""));
	CHECK("cpulist: node:1 is a selector", !select_is_cpulist("node:1"));
	CHECK("cpulist: all is a selector", !select_is_cpulist("all"));

	good("all", "0-7");
	good("possible", "0-7");
	good("online", "0-6");
	good("offline", "7");
	good("isolated", "3");
	good("node:0", "0-1,4-5");
	good("node:1", "2-3,6");		/* online CPUs only */
	good("socket:0", "0-1,4-5");
	good("die:1.0", "2-3,6");
	good("l3:0", "0-1,4-5");
	good("siblings:1", "1,5");
	good("siblings:6", "2,6");
	good("thread:0", "0-3");
	good("thread:1", "4-6");		/* core 3 has no online sibling */

	bad("node:9", "invalid selector 'node:9': no NUMA node 9");
	bad("node:x", "invalid selector 'node:x': not a number");
	bad("socket:2", "invalid selector 'socket:2': no socket 2");
	bad("die:1", "invalid selector 'die:1': use die:SOCKET.DIE");
	bad("die:1.5", "invalid selector 'die:1.5': no die 5 in socket 1");
	bad("l3:7", "invalid selector 'l3:7': no L3 cache with id 7");
	bad("siblings:8", "invalid selector 'siblings:8': CPU 8 does not "
	    "exist");
	bad("thread:2", "invalid selector 'thread:2': cores have at most 2 "
	    "threads");
	bad("bogus", "unknown selector 'bogus'");
	bad("cores:1", "unknown selector 'cores:1'");
	unit_machine_remove();
	topo_free(&t);
	return unit_failed;
}
