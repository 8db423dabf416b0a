// SPDX-License-Identifier: GPL-2.0-or-later
/* The QoS class of one container, by Kubernetes' GetPodQOS rules. */
#include <stdio.h>
#include <string.h>

#include "kube/qos.h"
#include "unit.h"

#define CPU(m) ((int64_t)(m) * 1000000)	/* millicpu to nanocpu */

static void
classify(const char *name, int64_t req_m, int64_t lim_m, int64_t mreq,
	 int64_t mlim, const char *want_class, int64_t want_cpus,
	 const char *want_reason)
{
	struct qos_resources r = { CPU(req_m), CPU(lim_m), req_m, mreq, mlim,
				   lim_m };
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

/* Parse resources as text; "ERR: message" on failure. */
static const char *
parse(const char *req, const char *lim, const char *mreq, const char *mlim,
      struct qos_resources *r, unsigned int *rounded)
{
	static char buf[600];
	struct qos_text t = { req, lim, mreq, mlim };
	char err[512];

	if (qos_resources_parse(&t, r, rounded, err, sizeof(err)) < 0) {
		snprintf(buf, sizeof(buf), "ERR: %s", err);
		return buf;
	}
	snprintf(buf, sizeof(buf), "req %lldn %lldm lim %lldn mem %lld/%lld",
		 (long long)r->cpu_req_n, (long long)r->cpu_req_m,
		 (long long)r->cpu_lim_n, (long long)r->mem_req,
		 (long long)r->mem_lim);
	return buf;
}

static void
test_parse(void)
{
	struct qos_resources r;
	unsigned int rd;

	CHECK_STR("parse: nothing given is nothing set",
		  parse(NULL, NULL, NULL, NULL, &r, &rd),
		  "req 0n 0m lim 0n mem 0/0");
	CHECK_STR("parse: a CPU limit alone defaults the request",
		  parse(NULL, "1500m", NULL, NULL, &r, &rd),
		  "req 1500000000n 1500m lim 1500000000n mem 0/0");
	CHECK_STR("parse: a memory limit alone defaults the request",
		  parse(NULL, NULL, NULL, "1Gi", &r, &rd),
		  "req 0n 0m lim 0n mem 1073741824/1073741824");
	CHECK_STR("parse: a limit of max is none, and defaults nothing",
		  parse(NULL, "max", NULL, "max", &r, &rd),
		  "req 0n 0m lim 0n mem 0/0");
	CHECK_STR("parse: 1e3m is one CPU",
		  parse("1e3m", "1", "1G", "1G", &r, &rd),
		  "req 1000000000n 1000m lim 1000000000n "
		  "mem 1000000000/1000000000");
	CHECK_STR("parse: a request above the limit is refused",
		  parse("2", "1", NULL, NULL, &r, &rd),
		  "ERR: CPU request '2' exceeds the CPU limit '1'");
	CHECK_STR("parse: a request just above the limit, by nanocpus",
		  parse("1000000001n", "1", NULL, NULL, &r, &rd),
		  "ERR: CPU request '1000000001n' exceeds the CPU limit '1'");
	CHECK_STR("parse: a memory request above its limit is refused",
		  parse(NULL, NULL, "2Gi", "1Gi", &r, &rd),
		  "ERR: memory request '2Gi' exceeds the memory limit '1Gi'");
	CHECK("parse: a bad CPU request is named",
	      strncmp(parse("2x", NULL, NULL, NULL, &r, &rd),
		      "ERR: invalid CPU request '2x': ", 31) == 0);
	CHECK("parse: a bad memory limit is named",
	      strncmp(parse(NULL, "1", NULL, "1GB", &r, &rd),
		      "ERR: invalid memory limit '1GB': ", 33) == 0);
	parse(NULL, "1500500n", NULL, NULL, &r, &rd);
	CHECK("parse: a limit finer than 1m is rounded up, for both",
	      rd == (QOS_ROUNDED_LIMIT | QOS_ROUNDED_REQUEST) &&
	      r.cpu_lim_m == 2 && r.cpu_req_m == 2);
	parse("1500500n", "1", NULL, NULL, &r, &rd);
	CHECK("parse: a request finer than 1m is rounded up",
	      rd == QOS_ROUNDED_REQUEST && r.cpu_req_m == 2);
}

int
main(void)
{
	test_parse();
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
