// SPDX-License-Identifier: GPL-2.0-or-later
/* The QoS class of one container, by Kubernetes' GetPodQOS rules. */
#include <string.h>

#include "qos.h"
#include "unit.h"

#define CPU(m) ((int64_t)(m) * 1000000)	/* millicpu to nanocpu */

static void
classify(const char *name, int64_t req_m, int64_t lim_m, int64_t mreq,
	 int64_t mlim, const char *want_class, int64_t want_cpus,
	 const char *want_reason)
{
	struct qos_resources r = { CPU(req_m), CPU(lim_m), req_m, mreq, mlim };
	struct qos_class q;
	char n[160];

	qos_classify(&r, &q);
	snprintf(n, sizeof(n), "%s: class", name);
	CHECK_STR(n, q.name, want_class);
	snprintf(n, sizeof(n), "%s: reason", name);
	CHECK_STR(n, q.reason, want_reason);
	snprintf(n, sizeof(n), "%s: exclusive CPUs", name);
	CHECK(n, q.cpus == want_cpus);
}

int
main(void)
{
	classify("nothing set", 0, 0, 0, 0, "BestEffort", 0,
		 "BestEffort: no CPU or memory request or limit");
	classify("a CPU request only", 500, 0, 0, 0, "Burstable", 0,
		 "Burstable: no CPU limit");
	classify("no memory limit", 1000, 1000, 0, 0, "Burstable", 0,
		 "Burstable: no memory limit");
	classify("request below limit", 500, 1000, 1 << 20, 1 << 20,
		 "Burstable", 0,
		 "Burstable: the CPU request is below the CPU limit");
	classify("memory request below limit", 1000, 1000, 1 << 20, 2 << 20,
		 "Burstable", 0,
		 "Burstable: the memory request is below the memory limit");
	classify("2 whole CPUs", 2000, 2000, 1 << 20, 1 << 20, "Guaranteed",
		 2, "Guaranteed with an integral CPU request of 2");
	classify("1.5 CPUs", 1500, 1500, 1 << 20, 1 << 20, "Guaranteed", 0,
		 "Guaranteed but the CPU request 1.5 is not a whole number "
		 "of CPUs");
	return unit_failed;
}
