// SPDX-License-Identifier: GPL-2.0-or-later
/* A group's cpuset lists: see cgcpuset.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "base/err.h"
#include "base/strutils.h"
#include "cgroup/cgcpuset.h"

int
cgcpuset_read_list(const struct cg_hier *h, const char *group,
		   const char *file, struct cpuset *out, char *err,
		   size_t errlen)
{
	char buf[65536];
	ssize_t n;

	n = cg_read(h, CG_CPUSET, group, file, buf, sizeof(buf), err, errlen);
	if (n < 0)
		return (int)n;
	if (cpuset_parse_list(buf, out, NULL, 0) < 0)
		return err_ret(err, errlen, -EBADMSG, "%s of cgroup '%s' holds "
			    "'%.100s', not a list", file, cg_display(group),
			    buf);
	return 0;
}
