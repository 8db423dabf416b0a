// SPDX-License-Identifier: GPL-2.0-or-later
/* cgroup file names and formats shared by layers: see cgfiles.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "base/num.h"
#include "machine/cgfiles.h"

void
cgcpuset_files(int version, struct cgcpuset_files *f)
{
	f->cpus = "cpuset.cpus";
	f->mems = "cpuset.mems";
	if (version == 2) {
		f->eff_cpus = "cpuset.cpus.effective";
		f->eff_mems = "cpuset.mems.effective";
		f->exclusive = "cpuset.cpus.partition";
		f->exclusive_on = "root";
	} else {
		f->eff_cpus = "cpuset.effective_cpus";
		f->eff_mems = "cpuset.effective_mems";
		f->exclusive = "cpuset.cpu_exclusive";
		f->exclusive_on = "1";
	}
}

int
cpu_max_format(int64_t quota_us, uint64_t period_us, char *buf, size_t len)
{
	if (quota_us <= 0)
		return snprintf(buf, len, "max %llu",
				(unsigned long long)period_us);
	return snprintf(buf, len, "%lld %llu", (long long)quota_us,
			(unsigned long long)period_us);
}

int
cpu_max_parse(const char *text, int64_t *quota_us, uint64_t *period_us)
{
	char buf[64], *sp;
	size_t n = strlen(text);
	uint64_t q;

	if (n > 0 && text[n - 1] == '\n')
		n--;
	if (n == 0 || n >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, text, n);
	buf[n] = '\0';
	sp = strchr(buf, ' ');
	if (sp == NULL)
		return -EINVAL;
	*sp++ = '\0';
	/* The kernel never prints a zero period or quota. */
	if (parse_u64(sp, UINT64_MAX, period_us) < 0 || *period_us == 0)
		return -EINVAL;
	if (strcmp(buf, "max") == 0) {
		*quota_us = CFS_QUOTA_UNLIMITED;
		return 0;
	}
	if (parse_u64(buf, INT64_MAX, &q) < 0 || q == 0)
		return -EINVAL;
	*quota_us = (int64_t)q;
	return 0;
}
