// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Applying cpm's values through systemd; see sdapply.h.  Only runtime
 * properties are set (SetUnitProperties with runtime=true, what
 * 'systemctl set-property --runtime' does): they last until reboot and
 * never change the unit's persistent configuration.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "cgroup/cgcpuset.h"
#include "cgroup/sdapply.h"

int
sdapply_connect(const struct cg_hier *h, const struct cgowner *o,
		const char *group, struct sdbus **b, char *err, size_t errlen)
{
	char unit[CGOWNER_UNIT_MAX];
	enum cg_ctrl c;
	bool real = h->live;
	int r;

	*b = NULL;
	for (c = 0; c < CG_NCTRL; c++)
		if (cg_has(h, c) && h->ctrl[c].kernel)
			real = true;
	if (!real || o->kind != CGOWNER_UNIT || !o->is_unit_group) {
		snprintf(err, errlen, "no systemd behind this hierarchy");
		return -ENOTCONN;
	}
	r = sdbus_open(b, err, errlen);
	if (r < 0)
		return -ENOTCONN;
	r = sdbus_unit_by_cgroup(*b, group, unit, sizeof(unit), err, errlen);
	if (r == 0 && strcmp(unit, o->unit) != 0) {
		snprintf(err, errlen, "systemd says cgroup '%s' is unit %s's, "
			 "not %s's", cg_display(group), unit, o->unit);
		r = -ENOENT;
	}
	if (r < 0) {
		sdbus_close(*b);
		*b = NULL;
		return r == -ENOENT ? r : -ENOTCONN;
	}
	return 0;
}

int
sdapply_quota_props(const struct quota_plan *p, struct sdprops *props,
		    bool *direct)
{
	bool other;
	int i, r;

	*direct = false;
	for (i = 0; i < p->n; i++) {
		r = sdprops_add_cpu_file(props, p->op[i].file, p->op[i].value,
					 &other);
		if (r < 0)
			return -EINVAL;
		if (other)
			*direct = true;
	}
	/*
	 * cpu.max carries the period it keeps; a period not asked for is
	 * the unit's own and stays so: setting CPUQuotaPeriodUSec to it
	 * would pin a value the unit never had (and a runtime drop-in
	 * that outlives the unit file's).
	 */
	if (!p->period_asked)
		sdprops_drop(props, "CPUQuotaPeriodUSec");
	return 0;
}

/* Read file back and compare with want. */
static int
check_file(const struct cg_hier *h, const char *group, const char *file,
	   const char *want, char *err, size_t errlen)
{
	char got[256];
	ssize_t n;

	n = cg_read(h, CG_CPU, group, file, got, sizeof(got), err, errlen);
	if (n < 0)
		return (int)n;
	if (strcmp(got, want) != 0) {
		snprintf(err, errlen, "%s of %s is '%s', not '%s' as asked "
			 "(systemd applied something else)", file,
			 cg_display(group), got, want);
		return -EIO;
	}
	return 0;
}

int
sdapply_quota(const struct cg_hier *h, struct sdbus *b, const char *unit,
	      const char *group, const struct quota_plan *p, char *err,
	      size_t errlen)
{
	struct sdprops props;
	bool direct, other;
	int i, r;

	sdprops_init(&props);
	r = sdapply_quota_props(p, &props, &direct);
	if (r < 0) {
		snprintf(err, errlen, "cannot express the values for %s as "
			 "systemd properties", unit);
		goto out;
	}
	if (props.n > 0) {
		r = sdbus_set_properties(b, unit, true, &props, err, errlen);
		if (r < 0)
			goto out;
	}
	for (i = 0; direct && i < p->n; i++) {
		struct sdprops scratch;

		sdprops_init(&scratch);
		sdprops_add_cpu_file(&scratch, p->op[i].file, p->op[i].value,
				     &other);
		sdprops_free(&scratch);
		if (!other)
			continue;
		r = cg_write(h, CG_CPU, group, p->op[i].file, p->op[i].value,
			     err, errlen);
		if (r < 0)
			goto out;
	}
	for (i = 0; i < p->n; i++) {
		r = check_file(h, group, p->op[i].file, p->op[i].value, err,
			       errlen);
		if (r < 0)
			goto out;
	}
	r = 0;
out:
	sdprops_free(&props);
	return r;
}

int
sdapply_cpu_quota(const struct cg_hier *h, struct sdbus *b, const char *unit,
		  const char *group, int64_t quota_us, uint64_t period_us,
		  char *err, size_t errlen)
{
	struct sdprops props;
	char want[64];
	int r;

	sdprops_init(&props);
	r = sdprops_add_u64(&props, "CPUQuotaPerSecUSec",
			    sdprop_quota_per_sec(quota_us, period_us));
	if (r == 0)
		r = sdbus_set_properties(b, unit, true, &props, err, errlen);
	sdprops_free(&props);
	if (r < 0)
		return r;
	if (quota_us < 0)
		snprintf(want, sizeof(want), "max %llu",
			 (unsigned long long)period_us);
	else
		snprintf(want, sizeof(want), "%lld %llu", (long long)quota_us,
			 (unsigned long long)period_us);
	return check_file(h, group, "cpu.max", want, err, errlen);
}

static int
check_set(const struct cg_hier *h, const char *group, const char *file,
	  const struct cpuset *want, char *err, size_t errlen)
{
	struct cpuset got = CPUSET_INIT;
	char *g = NULL, *w = NULL;
	int r;

	r = cgcpuset_read_list(h, group, file, &got, err, errlen);
	if (r == 0 && !cpuset_equal(&got, want)) {
		g = cpuset_to_list(&got);
		w = cpuset_to_list(want);
		snprintf(err, errlen, "%s of %s is '%s', not '%s' as asked "
			 "(systemd applied something else)", file,
			 cg_display(group), g ? g : "?", w ? w : "?");
		r = -EIO;
	}
	free(g);
	free(w);
	cpuset_free(&got);
	return r;
}

int
sdapply_cpuset(const struct cg_hier *h, struct sdbus *b, const char *unit,
	       const char *group, const struct cpuset *cpus,
	       const struct cpuset *mems, char *err, size_t errlen)
{
	struct sdprops props;
	int r;

	sdprops_init(&props);
	r = sdprops_add_set(&props, "AllowedCPUs", cpus);
	if (r == 0)
		r = sdprops_add_set(&props, "AllowedMemoryNodes", mems);
	if (r < 0) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	r = sdbus_set_properties(b, unit, true, &props, err, errlen);
	if (r < 0)
		goto out;
	r = check_set(h, group, "cpuset.cpus", cpus, err, errlen);
	if (r == 0)
		r = check_set(h, group, "cpuset.mems", mems, err, errlen);
out:
	sdprops_free(&props);
	return r;
}

int
sdapply_scope_name(const char *given, pid_t pid, char *out, size_t outlen,
		   char *err, size_t errlen)
{
	size_t n;

	if (given == NULL) {
		snprintf(out, outlen, "cpm-pin-%d.scope", (int)pid);
		return 0;
	}
	n = strlen(given);
	if (n == 0 || n + sizeof(".scope") > outlen ||
	    n + sizeof(".scope") > CGOWNER_UNIT_MAX) {
		snprintf(err, errlen, "invalid unit name '%s': %s", given,
			 n ? "too long" : "empty");
		return -EINVAL;
	}
	if (cgowner_is_unit_name(given)) {
		if (n < 6 || strcmp(given + n - 6, ".scope") != 0) {
			snprintf(err, errlen, "invalid unit name '%s': "
				 "--scope makes a .scope unit", given);
			return -EINVAL;
		}
		snprintf(out, outlen, "%s", given);
	} else {
		snprintf(out, outlen, "%s.scope", given);
	}
	if (!cgowner_is_unit_name(out) || out[0] == '.' || strchr(out, '@')) {
		snprintf(err, errlen, "invalid unit name '%s': systemd takes "
			 "letters, digits and ':-_.\\'", given);
		return -EINVAL;
	}
	return 0;
}

int
sdapply_scope(const struct cg_hier *h, const char *unit, pid_t pid,
	      const char *description, const struct cpuset *cpus,
	      const struct cpuset *mems, char *err, size_t errlen)
{
	struct sdprops props;
	struct sdbus *b;
	int r;

	if (!cgowner_systemd_host(h)) {
		snprintf(err, errlen, "no systemd here: a scope needs systemd "
			 "as PID 1 on cgroup v2 (run without --scope to pin by "
			 "affinity only)");
		return -ENOTCONN;
	}
	r = sdbus_open(&b, err, errlen);
	if (r < 0)
		return -ENOTCONN;
	sdprops_init(&props);
	r = sdprops_add_set(&props, "AllowedCPUs", cpus);
	if (r == 0 && mems)
		r = sdprops_add_set(&props, "AllowedMemoryNodes", mems);
	if (r < 0)
		snprintf(err, errlen, "out of memory");
	else
		r = sdbus_start_scope(b, unit, pid, description, &props, err,
				      errlen);
	sdprops_free(&props);
	sdbus_close(b);
	return r;
}

int
sdapply_route(const struct cg_hier *h, const char *group,
	      const char *unsupported, bool force, struct cgowner *o,
	      struct sdbus **b, char *err, size_t errlen)
{
	enum cgowner_route route;
	char why[512];
	int r;

	*b = NULL;
	r = cgowner_of(h, group, o, err, errlen);
	if (r < 0)
		return r;
	if (o->kind != CGOWNER_UNIT)
		return CGOWNER_WRITE_FILES;
	if (unsupported != NULL && !force)
		return err_ret(err, errlen, -ECANCELED, "cgroup '%s' belongs "
			       "to systemd unit %s, and systemd has no "
			       "property for %s: use systemd-run or 'cpm-pin "
			       "--scope', or --force to write it anyway",
			       cg_display(group), o->unit, unsupported);
	r = sdapply_connect(h, o, group, b, why, sizeof(why));
	if (r == -ENOENT && !force)
		return err_ret(err, errlen, -ECANCELED,
			       "%s; --force writes the files anyway", why);
	route = cgowner_route(o, r == 0 && unsupported == NULL, force);
	if (route == CGOWNER_REFUSE) {
		sdbus_close(*b);
		*b = NULL;
		cgowner_refusal(o, group, r != -ENOTCONN, err, errlen);
		return -ECANCELED;
	}
	if (route == CGOWNER_FORCED) {
		sdbus_close(*b);
		*b = NULL;
		err_set(err, errlen, "writing cgroup '%s' of systemd unit %s "
			"directly (--force): systemd may put its own values "
			"back", cg_display(group), o->unit);
	}
	return route;
}
