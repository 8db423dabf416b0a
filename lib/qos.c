// SPDX-License-Identifier: GPL-2.0-or-later
/* The QoS class of a container: see qos.h. */
#include <stdbool.h>
#include <stdio.h>

#include "qos.h"
#include "quantity.h"

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
