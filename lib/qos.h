/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The Kubernetes QoS class of one container (GetPodQOS), and whether the
 * CPU Manager's static policy gives it exclusive CPUs.
 */
#ifndef CPM_QOS_H
#define CPM_QOS_H

#include <stdint.h>

/*
 * One container's resources, after the API's defaulting (a request that
 * is not given defaults to the limit).  0 means "not set", as for
 * Kubernetes, which only counts positive quantities.
 */
struct qos_resources {
	int64_t cpu_req_n, cpu_lim_n;	/* nanocpu, for exact comparison */
	int64_t cpu_req_m;		/* millicpu of the request */
	int64_t mem_req, mem_lim;	/* bytes */
};

struct qos_class {
	const char *name;	/* "BestEffort", "Burstable", "Guaranteed" */
	int64_t cpus;		/* exclusive CPUs under the static policy */
	char reason[256];	/* why, in one line */
};

/* Classify r into out. */
void qos_classify(const struct qos_resources *r, struct qos_class *out);

#endif
