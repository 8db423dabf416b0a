/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The Kubernetes QoS class of one container (GetPodQOS), and whether the
 * CPU Manager's static policy gives it exclusive CPUs.
 */
#ifndef CPM_QOS_H
#define CPM_QOS_H

#include <stddef.h>
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
	int64_t cpu_lim_m;		/* millicpu of the limit */
};

struct qos_class {
	const char *name;	/* "BestEffort", "Burstable", "Guaranteed" */
	int64_t cpus;		/* exclusive CPUs under the static policy */
	char reason[256];	/* why, in one line */
};

/* One container's resources as text; NULL: not given. */
struct qos_text {
	const char *cpu_req, *cpu_lim;	/* CPU quantities; limit "max": none */
	const char *mem_req, *mem_lim;	/* memory quantities; limit "max": none */
};

/* What qos_resources_parse() rounded up to whole millicpus. */
#define QOS_ROUNDED_LIMIT	1u	/* the CPU limit */
#define QOS_ROUNDED_REQUEST	2u	/* the CPU request (or the limit it
					 * defaults to) */

/*
 * Parse t into r with the API's defaulting: a CPU request not given is
 * the CPU limit when that is positive, a memory request not given is the
 * memory limit.  A request above its limit is refused, as the API
 * refuses it.  *rounded gets the QOS_ROUNDED_ flags of the quantities
 * parsed (also on failure).  Returns 0, or -EINVAL with err naming the
 * quantity ("invalid CPU request '2x': ...", "CPU request '2' exceeds
 * the CPU limit '1'").
 */
int qos_resources_parse(const struct qos_text *t, struct qos_resources *r,
			unsigned int *rounded, char *err, size_t errlen);

/* Classify r into out. */
void qos_classify(const struct qos_resources *r, struct qos_class *out);

#endif
