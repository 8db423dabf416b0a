// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer harness for what cpm reads from cgroup trees: cpu.stat (v1
 * and v2 layouts) and Kubernetes cgroup paths (QoS class, pod UID and
 * container ID of both kubelet drivers), group path checking, and the
 * mount table (/proc/self/mountinfo) the live hierarchies are found in.
 * Build and run: make fuzz && tests/fuzz/fuzz-cgroup-text -max_total_time=60
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cgroup/cgmount.h"
#include "cgroup/cgroup.h"
#include "throttle/throttle.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cg_cpu_stat st;
	struct thr_k8s k;
	char *text, canon[CG_PATH_MAX], err[256];

	text = malloc(size + 1);
	if (text == NULL)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	memset(&st, 0, sizeof(st));
	cg_cpu_stat_parse(text, 1, &st);
	memset(&st, 0, sizeof(st));
	cg_cpu_stat_parse(text, 2, &st);
	memset(&k, 0, sizeof(k));
	if (thr_k8s_parse(text, &k)) {
		/* what it found is text of the path, NUL-terminated */
		if (memchr(k.qos, '\0', sizeof(k.qos)) == NULL ||
		    memchr(k.pod, '\0', sizeof(k.pod)) == NULL ||
		    memchr(k.container, '\0', sizeof(k.container)) == NULL)
			abort();
	}
	if (cg_path_check(text, canon, sizeof(canon), err, sizeof(err)) == 0) {
		/* no component of a checked path is "." or ".." */
		char *c, *save = NULL;

		for (c = strtok_r(canon, "/", &save); c;
		     c = strtok_r(NULL, "/", &save))
			if (strcmp(c, ".") == 0 || strcmp(c, "..") == 0)
				abort();
	}
	{
		/* a mount point found fits, unescaped, in the buffer */
		char mnt[64];
		const char *ctrl[] = { "cpu", "cpuset", NULL };

		for (size_t i = 0; i < 3; i++) {
			memset(mnt, 'x', sizeof(mnt));
			if (cg_mountinfo_find(text, ctrl[i], mnt, sizeof(mnt)) == 1 &&
			    memchr(mnt, '\0', sizeof(mnt)) == NULL)
				abort();
		}
	}
	free(text);
	return 0;
}
