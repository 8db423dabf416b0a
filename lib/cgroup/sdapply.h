/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Applying cpm's values to a systemd unit so that they last: through the
 * unit's runtime properties (systemd then writes the files itself, now and
 * on every reload), then reading the kernel's files back.
 *
 * Which groups go this way is cgowner_route()'s rule.  The connection is
 * only tried for a real hierarchy (live, or a --cgroup-root on cgroupfs):
 * a replayed tree has no systemd behind it.
 */
#ifndef CPM_SDAPPLY_H
#define CPM_SDAPPLY_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "base/cpuset.h"
#include "cgroup/cgctrl.h"
#include "cgroup/cgowner.h"
#include "cgroup/cgroup.h"
#include "cgroup/sdbus.h"

/*
 * For a unit's own group (o->is_unit_group) of a real hierarchy: connect
 * to systemd and confirm that it knows the group as o->unit's.  Returns
 * 0 with *b connected (close with sdbus_close()); -ENOTCONN when there is
 * nothing to ask (a replayed tree, not a unit's group) or systemd cannot
 * be reached; -ENOENT when systemd names another unit or none (err says
 * which).
 */
int sdapply_connect(const struct cg_hier *h, const struct cgowner *o,
		    const char *group, struct sdbus **b, char *err,
		    size_t errlen);

/*
 * How a change to group is to be made, the whole decision a tool needs:
 * fills *o with who owns the group and, for CGOWNER_VIA_SYSTEMD, *b with
 * a connection to systemd (close with sdbus_close()).  unsupported names
 * what the change asks that systemd has no property for ("a cpuset
 * partition", say; NULL when nothing), which a unit's group cannot take
 * without force.  Returns the route (CGOWNER_WRITE_FILES,
 * CGOWNER_VIA_SYSTEMD, or CGOWNER_FORCED with err holding the warning to
 * show), -ECANCELED when the change is refused (err: why, and what to do
 * instead; nothing was changed), -EINVAL for a group path that is not
 * one, or the error that stopped the decision.
 */
int sdapply_route(const struct cg_hier *h, const char *group,
		  const char *unsupported, bool force, struct cgowner *o,
		  struct sdbus **b, char *err, size_t errlen);

/*
 * The properties for a cpm-quota plan (cgroup v2 files): cpu.weight and
 * cpu.max become CPUWeight, CPUQuotaPerSecUSec and CPUQuotaPeriodUSec;
 * *direct is set when the plan also writes a file systemd never writes
 * (cpu.max.burst), which is then written directly.  Returns 0 or -EINVAL.
 */
int sdapply_quota_props(const struct quota_plan *p, struct sdprops *props,
			bool *direct);

/*
 * Apply a cpm-quota plan to unit (group is its group): the properties,
 * runtime only, then the files systemd does not write, then every file
 * read back.  Returns 0, -EIO when a file reads back other than planned
 * (err: "cpu.max of G is 'X', not 'Y' as asked"), or the error of the
 * call that failed.
 */
int sdapply_quota(const struct cg_hier *h, struct sdbus *b, const char *unit,
		  const char *group, const struct quota_plan *p, char *err,
		  size_t errlen);

/*
 * Set unit's CPU quota alone (CPUQuotaPerSecUSec, runtime only; quota_us
 * < 0: none), as cpm-quota burst and restore do, leaving its period
 * property as it is, and read cpu.max back as "QUOTA PERIOD".  Setting
 * the value the unit had before puts 'systemctl show' back as it was.
 * Returns as sdapply_quota().
 */
int sdapply_cpu_quota(const struct cg_hier *h, struct sdbus *b,
		      const char *unit, const char *group, int64_t quota_us,
		      uint64_t period_us, char *err, size_t errlen);

/*
 * Give unit (group is its group) the CPUs and memory nodes as
 * AllowedCPUs and AllowedMemoryNodes, runtime only, and read cpuset.cpus
 * and cpuset.mems back.  Returns as sdapply_quota().
 */
int sdapply_cpuset(const struct cg_hier *h, struct sdbus *b, const char *unit,
		   const char *group, const struct cpuset *cpus,
		   const struct cpuset *mems, char *err, size_t errlen);

/*
 * The scope unit's name: given (NULL: "cpm-pin-PID.scope"), with
 * ".scope" appended when it has no suffix.  Returns 0, or -EINVAL (err
 * says why) for a name systemd would refuse or of another unit type.
 */
int sdapply_scope_name(const char *given, pid_t pid, char *out, size_t outlen,
		       char *err, size_t errlen);

/*
 * Move process pid into a new transient scope unit with AllowedCPUs=cpus
 * and, when mems is not NULL, AllowedMemoryNodes=mems, as
 * 'systemd-run --scope -p AllowedCPUs=...' does.  h must be a systemd
 * host's hierarchy (cgowner_systemd_host()).  Returns 0; -ENOTCONN when
 * it is not or systemd cannot be reached; -EEXIST when the unit exists;
 * -errno of systemd (err says what).
 */
int sdapply_scope(const struct cg_hier *h, const char *unit, pid_t pid,
		  const char *description, const struct cpuset *cpus,
		  const struct cpuset *mems, char *err, size_t errlen);

#endif
