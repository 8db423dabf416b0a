// SPDX-License-Identifier: GPL-2.0-or-later
/* The QoS class of a container: see qos.h. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "kube/qos.h"
#include "kube/quantity.h"

void
qos_classify(const struct qos_resources *r, struct qos_class *out)
{
	bool guaranteed = r->cpu_lim_n > 0 && r->mem_lim > 0;
	const char *why = NULL;
	char buf[32];

	out->cpus = 0;
	if (r->cpu_req_n == 0 && r->cpu_lim_n == 0 && r->mem_req == 0 &&
	    r->mem_lim == 0) {
		out->name = "BestEffort";
		why = "BestEffort: no CPU or memory request or limit";
	} else if (!guaranteed) {
		out->name = "Burstable";
		why = r->cpu_lim_n == 0 ? "Burstable: no CPU limit" :
		      "Burstable: no memory limit";
	} else if (r->cpu_req_n != r->cpu_lim_n) {
		out->name = "Burstable";
		why = "Burstable: the CPU request is below the CPU limit";
	} else if (r->mem_req != r->mem_lim) {
		out->name = "Burstable";
		why = "Burstable: the memory request is below the memory limit";
	} else {
		out->name = "Guaranteed";
	}
	if (why) {
		snprintf(out->reason, sizeof(out->reason), "%s", why);
		return;
	}
	millicpu_format(r->cpu_req_m, buf, sizeof(buf));
	/* the static policy's test: Value()*1000 == MilliValue() */
	if (r->cpu_req_m % 1000 == 0) {
		out->cpus = r->cpu_req_m / 1000;
		snprintf(out->reason, sizeof(out->reason), "Guaranteed with an "
			 "integral CPU request of %s", buf);
	} else {
		snprintf(out->reason, sizeof(out->reason), "Guaranteed but the "
			 "CPU request %s is not a whole number of CPUs", buf);
	}
}

/* A CPU quantity as millicpu (for messages) and nanocpu (to compare). */
static int
cpu_of(const char *what, const char *s, bool allow_max, int64_t *m,
       int64_t *n, bool *rounded, char *err, size_t errlen)
{
	char e[160];

	if (cpu_quantity_parse(s, allow_max, m, rounded, e, sizeof(e)) < 0 ||
	    (strcmp(s, "max") != 0 &&
	     quantity_parse(s, 9, n, NULL, e, sizeof(e)) < 0)) {
		snprintf(err, errlen, "invalid %s '%s': %s", what, s, e);
		return -EINVAL;
	}
	if (strcmp(s, "max") == 0)
		*n = 0;
	return 0;
}

static int
mem_of(const char *what, const char *s, int64_t *b, char *err, size_t errlen)
{
	char e[160];

	if (mem_quantity_parse(s, b, e, sizeof(e)) < 0) {
		snprintf(err, errlen, "invalid %s '%s': %s", what, s, e);
		return -EINVAL;
	}
	return 0;
}

int
qos_resources_parse(const struct qos_text *t, struct qos_resources *r,
		    unsigned int *rounded, char *err, size_t errlen)
{
	int64_t n;
	bool rd = false;

	memset(r, 0, sizeof(*r));
	*rounded = 0;
	if (t->cpu_lim) {
		if (cpu_of("CPU limit", t->cpu_lim, true, &r->cpu_lim_m,
			   &r->cpu_lim_n, &rd, err, errlen) < 0)
			return -EINVAL;
		if (rd)
			*rounded |= QOS_ROUNDED_LIMIT;
	}
	if (t->cpu_req) {
		if (cpu_of("CPU request", t->cpu_req, false, &r->cpu_req_m,
			   &r->cpu_req_n, &rd, err, errlen) < 0)
			return -EINVAL;
		if (rd)
			*rounded |= QOS_ROUNDED_REQUEST;
	} else if (r->cpu_lim_n > 0) {
		if (cpu_of("CPU limit", t->cpu_lim, false, &r->cpu_req_m, &n,
			   &rd, err, errlen) < 0)
			return -EINVAL;
		r->cpu_req_n = r->cpu_lim_n;
		if (rd)
			*rounded |= QOS_ROUNDED_REQUEST;
	}
	if (t->mem_lim && strcmp(t->mem_lim, "max") != 0 &&
	    mem_of("memory limit", t->mem_lim, &r->mem_lim, err, errlen) < 0)
		return -EINVAL;
	if (t->mem_req) {
		if (mem_of("memory request", t->mem_req, &r->mem_req, err,
			   errlen) < 0)
			return -EINVAL;
	} else {
		r->mem_req = r->mem_lim;
	}
	if (r->cpu_lim_n > 0 && r->cpu_req_n > r->cpu_lim_n) {
		snprintf(err, errlen, "CPU request '%s' exceeds the CPU limit "
			 "'%s'", t->cpu_req, t->cpu_lim);
		return -EINVAL;
	}
	if (r->mem_lim > 0 && r->mem_req > r->mem_lim) {
		snprintf(err, errlen, "memory request '%s' exceeds the memory "
			 "limit '%s'", t->mem_req, t->mem_lim);
		return -EINVAL;
	}
	return 0;
}
