// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdlib.h>

#include "base/strbuf.h"
#include "machine/smtgap.h"

int
smtgap_cores(const struct topo *t, struct cpuset *cores, int *ncpus,
	     int *ncores)
{
	int *threads, cpu, n = 0;

	cpuset_zero(cores);
	*ncpus = (int)cpuset_count(&t->online);
	*ncores = 0;
	threads = calloc((size_t)t->ncpus + 1, sizeof(*threads));
	if (!threads)
		return -ENOMEM;
	cpuset_for_each(cpu, &t->online) {
		int core = t->cpus[cpu].core;

		if (core < 0 || core >= t->ncpus)
			core = cpu;
		if (threads[core]++ == 0)
			(*ncores)++;
	}
	if (!cpuset_empty(&t->offline))
		for (cpu = 0; cpu < t->ncpus; cpu++)
			if (threads[cpu] && threads[cpu] < t->threads_per_core) {
				if (cpuset_set(cores, (unsigned int)cpu) < 0) {
					free(threads);
					return -ENOMEM;
				}
				n++;
			}
	free(threads);
	return n;
}

int
smtgap_warning(const struct topo *t, struct strbuf *out)
{
	struct cpuset cores = CPUSET_INIT;
	int ncpus, ncores, n = smtgap_cores(t, &cores, &ncpus, &ncores);

	if (n > 0) {
		int per = ncores ? ncpus / ncores : 0;

		strbuf_printf(out, "warning: %s ", n == 1 ? "core" : "cores");
		cpuset_format(&cores, out);
		strbuf_printf(out, " %s an offline SMT sibling: as the kubelet, "
			      "cpm counts %d online CPUs / %d cores = %d CPU%s "
			      "per core, so allocations take single threads "
			      "of whole cores and may span sockets or nodes "
			      "(see cpm-alloc(1))", n == 1 ? "has" : "have",
			      ncpus, ncores, per, per == 1 ? "" : "s");
	}
	cpuset_free(&cores);
	if (n < 0 || out->oom)
		return -ENOMEM;
	return n > 0;
}
