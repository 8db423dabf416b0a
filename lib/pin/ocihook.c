// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The OCI state and config.json a hook is given, the cpm.io/ annotations,
 * and the container's cpuset group.  See ocihook.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/err.h"
#include "base/fileread.h"
#include "base/jsonread.h"
#include "base/num.h"
#include "base/strbuf.h"
#include "base/strutils.h"
#include "cgroup/cgcpuset.h"
#include "cgroup/cgowner.h"
#include "cgroup/sdapply.h"
#include "cgroup/sdbus.h"
#include "machine/cgfiles.h"
#include "machine/proc.h"
#include "pin/ocihook.h"
#include "pin/pingroup.h"

/* The document of len bytes, which must be an object, into v. */
static int
parse_object(const char *text, size_t len, struct jr_value *v, char *err,
	     size_t errlen)
{
	int r;

	/* A name given twice is read one way by one runtime and another by
	 * the next: refused, never guessed. */
	r = jr_parse_text_flags(text, len, JR_UNIQUE, v, NULL, err, errlen);
	if (r == 0 && v->type != JR_OBJ) {
		jr_value_free(v);
		r = err_ret(err, errlen, -EINVAL, "not a JSON object");
	}
	return r;
}

/* The state */

/* Put prefix before the message in err. */
static void
prefix_err(char *err, size_t errlen, const char *prefix)
{
	char msg[512];

	snprintf(msg, sizeof(msg), "%s", err);
	snprintf(err, errlen, "%s%s", prefix, msg);
}

static int
add_annotations(struct oci_state *s, const struct jr_value *ann, const char *doc,
		char *err, size_t errlen)
{
	size_t i;

	if (!ann || ann->type == JR_NULL)
		return 0;
	if (ann->type != JR_OBJ)
		return err_ret(err, errlen, -EINVAL, "%s: \"annotations\" is "
			       "not an object", doc);
	for (i = 0; i < ann->n; i++) {
		struct oci_annotation *na;

		if (ann->v[i].type != JR_STR)
			return err_ret(err, errlen, -EINVAL, "%s: annotation "
				       "'%s' is not a string", doc,
				       ann->keys[i]);
		if (oci_annotation(s, ann->keys[i]))
			continue;
		na = realloc(s->ann, (s->nann + 1) * sizeof(*na));
		if (!na)
			return -ENOMEM;
		s->ann = na;
		na[s->nann].key = strdup(ann->keys[i]);
		na[s->nann].value = strdup(ann->v[i].s);
		s->nann++;
		if (!na[s->nann - 1].key || !na[s->nann - 1].value)
			return -ENOMEM;
	}
	return 0;
}

static int
dup_str(const struct jr_value *v, const char *doc, const char *name, char **out,
	char *err, size_t errlen)
{
	if (!v || v->type == JR_NULL)
		return 0;
	if (v->type != JR_STR)
		return err_ret(err, errlen, -EINVAL, "%s: \"%s\" is not a "
			       "string", doc, name);
	if (!(*out = strdup(v->s)))
		return -ENOMEM;
	return 0;
}

int
oci_state_parse(struct oci_state *s, const char *text, size_t len, char *err,
		size_t errlen)
{
	struct jr_value doc;
	const struct jr_value *pid;
	int r;

	memset(s, 0, sizeof(*s));
	s->quota = CFS_QUOTA_UNLIMITED;
	r = parse_object(text, len, &doc, err, errlen);
	if (r == -EINVAL)
		prefix_err(err, errlen, "invalid OCI state on stdin: ");
	if (r < 0)
		return r;
	if ((r = dup_str(jr_member_fold(&doc, "id"), "OCI state", "id", &s->id, err,
			 errlen)) < 0 ||
	    (r = dup_str(jr_member_fold(&doc, "status"), "OCI state", "status",
			 &s->status, err, errlen)) < 0 ||
	    (r = dup_str(jr_member_fold(&doc, "bundle"), "OCI state", "bundle",
			 &s->bundle, err, errlen)) < 0)
		goto out;
	if (!s->id || !*s->id) {
		r = err_ret(err, errlen, -EINVAL, "OCI state has no container "
			    "\"id\"");
		goto out;
	}
	pid = jr_member_fold(&doc, "pid");
	if (pid && pid->type != JR_NULL) {
		if (pid->type != JR_NUM || !pid->num.is_u64 ||
		    pid->num.u > INT_MAX) {
			r = err_ret(err, errlen, -EINVAL, "OCI state: invalid "
				    "\"pid\"");
			goto out;
		}
		s->pid = (pid_t)pid->num.u;
	}
	r = add_annotations(s, jr_member_fold(&doc, "annotations"), "OCI state", err,
			    errlen);
out:
	jr_value_free(&doc);
	return r;
}

/* config.json's linux.resources.cpu quota and period, when given. */
static void
config_quota(struct oci_state *s, const struct jr_value *lnx)
{
	const struct jr_value *cpu = jr_member_fold(jr_member_fold(lnx,
						    "resources"), "cpu");
	const struct jr_value *q = jr_member_fold(cpu, "quota");
	const struct jr_value *p = jr_member_fold(cpu, "period");

	if (q && q->type == JR_NUM && q->num.is_i64 && q->num.i > 0)
		s->quota = q->num.i;
	if (p && p->type == JR_NUM && p->num.is_u64)
		s->period = p->num.u;
}

int
oci_config_load(struct oci_state *s, char *err, size_t errlen)
{
	struct jr_value doc;
	char path[PATH_MAX];
	char *buf;
	size_t len;
	int r;

	if (!s->bundle || !*s->bundle)
		return 0;
	if ((size_t)snprintf(path, sizeof(path), "%s/config.json", s->bundle) >=
	    sizeof(path))
		return err_ret(err, errlen, -EINVAL, "bundle path too long");
	r = read_file_at(AT_FDCWD, path, &(struct read_opts){
				.flags = READ_TEXT, .max = OCI_CONFIG_MAX,
			 }, &buf, &len);
	if (r == -ENOENT)
		return 0;
	if (r < 0)
		return err_ret(err, errlen, r, "cannot read '%s': %s", path,
			       read_strerror(r));
	r = parse_object(buf, len, &doc, err, errlen);
	free(buf);
	if (r == -EINVAL) {
		char what[PATH_MAX + 16];

		snprintf(what, sizeof(what), "invalid '%s': ", path);
		prefix_err(err, errlen, what);
	}
	if (r < 0)
		return r;
	r = dup_str(jr_member_fold(jr_member_fold(&doc, "linux"),
				   "cgroupsPath"), path,
		    "linux.cgroupsPath", &s->cgroups_path, err, errlen);
	if (r == 0)
		config_quota(s, jr_member_fold(&doc, "linux"));
	if (r == 0)
		r = add_annotations(s, jr_member_fold(&doc, "annotations"), path, err,
				    errlen);
	jr_value_free(&doc);
	return r;
}

void
oci_state_free(struct oci_state *s)
{
	size_t i;

	for (i = 0; i < s->nann; i++) {
		free(s->ann[i].key);
		free(s->ann[i].value);
	}
	free(s->ann);
	free(s->id);
	free(s->status);
	free(s->bundle);
	free(s->cgroups_path);
	memset(s, 0, sizeof(*s));
	s->quota = CFS_QUOTA_UNLIMITED;
}

const char *
oci_annotation(const struct oci_state *s, const char *key)
{
	size_t i;

	for (i = 0; i < s->nann; i++)
		if (s->ann[i].key && strcmp(s->ann[i].key, key) == 0)
			return s->ann[i].value;
	return NULL;
}

/* The name */

/* Whether name is one oci_container_name() may show. */
static bool
name_ok(const char *name)
{
	size_t n = strlen(name);

	if (n == 0 || n > OCI_NAME_MAX || name[0] == '/' || name[n - 1] == '/')
		return false;
	return strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		      "0123456789_.-/") == n;
}

/*
 * Container id's first name in podman's storage file path: a JSON array
 * of {"id": ..., "names": [...]}.  0 with out set, or -errno.
 */
static int
storage_name(const char *path, const char *id, char *out, size_t outlen)
{
	struct jr_value doc;
	struct stat st;
	char *buf;
	size_t len, i;
	int fd, r;

	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_uid != 0 ||
	    (st.st_mode & 022)) {
		close(fd);
		return -EPERM;
	}
	r = read_fd(fd, &st, &(struct read_opts){
			    .flags = READ_TEXT, .max = OCI_CONFIG_MAX,
		    }, &buf, &len);
	close(fd);
	if (r < 0)
		return r;
	r = jr_parse_text(buf, len, &doc, NULL, NULL, 0);
	free(buf);
	if (r < 0)
		return r;
	r = -ENOENT;
	for (i = 0; doc.type == JR_ARR && i < doc.n && r == -ENOENT; i++) {
		const struct jr_value *e = &doc.v[i];
		const struct jr_value *cid = jr_member(e, "id");
		const struct jr_value *names = jr_member(e, "names");

		if (!cid || cid->type != JR_STR || strcmp(cid->s, id) != 0)
			continue;
		if (names && names->type == JR_ARR && names->n > 0 &&
		    names->v[0].type == JR_STR &&
		    strlen(names->v[0].s) < outlen) {
			snprintf(out, outlen, "%s", names->v[0].s);
			r = 0;
		} else {
			r = -ENODATA;
		}
	}
	jr_value_free(&doc);
	return r;
}

void
oci_container_name(const struct oci_state *s, char *out, size_t outlen)
{
	static const char *const keys[][2] = {
		{ "io.kubernetes.pod.name", "io.kubernetes.container.name" },
		{ "io.kubernetes.cri.sandbox-name",
		  "io.kubernetes.cri.container-name" },
	};
	static const char *const stores[] = {
		"containers.json", "volatile-containers.json",
	};
	char path[PATH_MAX];
	size_t i, n;

	*out = '\0';
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]) && !*out; i++) {
		const char *pod = oci_annotation(s, keys[i][0]);
		const char *name = oci_annotation(s, keys[i][1]);

		if (name && *name)
			snprintf(out, outlen, "%s%s%s", pod && *pod ? pod : "",
				 pod && *pod ? "/" : "", name);
	}
	/* podman: BUNDLE is STORE/ID/userdata. */
	n = s->bundle ? strlen(s->bundle) : 0;
	if (!*out && n > 9 && strcmp(s->bundle + n - 9, "/userdata") == 0 &&
	    n - 9 > strlen(s->id) &&
	    strncmp(s->bundle + n - 9 - strlen(s->id), s->id,
		    strlen(s->id)) == 0 &&
	    s->bundle[n - 10 - strlen(s->id)] == '/') {
		for (i = 0; i < sizeof(stores) / sizeof(stores[0]) && !*out;
		     i++)
			if ((size_t)snprintf(path, sizeof(path), "%.*s%s",
					     (int)(n - 9 - strlen(s->id)),
					     s->bundle, stores[i]) <
			    sizeof(path) &&
			    storage_name(path, s->id, out, outlen) < 0)
				*out = '\0';
	}
	if (!name_ok(out))
		*out = '\0';
}

/* The request */

static int
bad_annotation(const char *key, const char *value, const char *takes,
	       char *err, size_t errlen)
{
	return err_ret(err, errlen, -EINVAL, "invalid annotation %s='%s' "
		       "(%s)", key, value, takes);
}

static const char *const annotation_names[] = {
	"cpus", "mode", "numa-policy", "mem", "core-type", "isolate-irqs",
	"cpu-load-balancing.crio.io", "cpu-quota.crio.io",
	"irq-load-balancing.crio.io", "cpu-c-states.crio.io",
	"cpu-freq-governor.crio.io",
};

bool
oci_annotation_allowed(const char *allowed, const char *name)
{
	size_t n = strlen(name);
	const char *p = allowed;

	while (p && *p) {
		const char *end = strchrnul(p, ',');

		if ((size_t)(end - p) == n && strncmp(p, name, n) == 0)
			return true;
		p = *end ? end + 1 : end;
	}
	return false;
}

int
oci_allowed_check(const char *allowed, char *err, size_t errlen)
{
	const char *p = allowed;
	size_t i;

	while (*p) {
		const char *end = strchrnul(p, ',');

		for (i = 0; i < sizeof(annotation_names) /
			    sizeof(annotation_names[0]); i++)
			if (strlen(annotation_names[i]) == (size_t)(end - p) &&
			    strncmp(p, annotation_names[i],
				    (size_t)(end - p)) == 0)
				break;
		if (i == sizeof(annotation_names) / sizeof(annotation_names[0]))
			return err_ret(err, errlen, -EINVAL, "unknown "
				       "annotation '%.*s' (cpus, mode, "
				       "numa-policy, mem, core-type, "
				       "isolate-irqs, " OCI_CRIO_ANNOTATIONS ")",
				       (int)(end - p), p);
		p = *end ? end + 1 : end;
	}
	return 0;
}

#define IRQ_LB "irq-load-balancing.crio.io"
#define QUOTA "cpu-quota.crio.io"

/* Whether name is asked for in rq and not allowed: noted, then false. */
static bool
keep(struct oci_request *rq, bool asked, const char *allowed, const char *name,
     const char *key)
{
	if (!asked)
		return false;
	if (oci_annotation_allowed(allowed, name))
		return true;
	if (!rq->ignored)
		rq->ignored = key;
	return false;
}

/* Drop from rq what allowed does not name, noting the first. */
static void
request_filter(struct oci_request *rq, const char *allowed)
{
	if (!keep(rq, rq->have_cpus, allowed, "cpus", "cpm.io/cpus")) {
		const char *ignored = rq->ignored;

		memset(rq, 0, sizeof(*rq));
		rq->ignored = ignored;
		return;
	}
	rq->share = keep(rq, rq->share, allowed, "mode", "cpm.io/mode");
	rq->have_policy = keep(rq, rq->have_policy, allowed, "numa-policy",
			       "cpm.io/numa-policy");
	rq->have_mem = keep(rq, rq->have_mem, allowed, "mem", "cpm.io/mem");
	if (!keep(rq, rq->core_type != NULL, allowed, "core-type",
		  "cpm.io/core-type"))
		rq->core_type = NULL;
	rq->isolate_irqs = keep(rq, rq->isolate_irqs, allowed, "isolate-irqs",
				"cpm.io/isolate-irqs");
	if (keep(rq, rq->crio_irqs, allowed, IRQ_LB, IRQ_LB))
		rq->isolate_irqs = true;
	rq->no_quota = keep(rq, rq->no_quota, allowed, QUOTA, QUOTA);
	if (!keep(rq, rq->unsupported != NULL, allowed, rq->unsupported,
		  rq->unsupported))
		rq->unsupported = NULL;
}

/*
 * A CRI-O high-performance annotation (k), checked as CRI-O reads it:
 * 1 when it is one, 0 when it is not, -EINVAL for a bad value.  "true"
 * is CRI-O's older word for "disable".
 */
static int
crio_annotation(struct oci_request *rq, const char *k, const char *v,
		char *err, size_t errlen)
{
	bool off = strcmp(v, "disable") == 0 || strcmp(v, "true") == 0;
	unsigned int n;

	if (strcmp(k, IRQ_LB) == 0) {
		if (strcmp(v, "housekeeping") == 0)
			return err_ret(err, errlen, -EINVAL, "annotation %s="
				       "housekeeping is not supported (disable)",
				       k);
		if (!off)
			return bad_annotation(k, v, "disable", err, errlen);
		rq->crio_irqs = true;
	} else if (strcmp(k, QUOTA) == 0) {
		if (!off)
			return bad_annotation(k, v, "disable", err, errlen);
		rq->no_quota = true;
	} else if (strcmp(k, "cpu-load-balancing.crio.io") == 0) {
		if (!off)
			return bad_annotation(k, v, "disable", err, errlen);
	} else if (strcmp(k, "cpu-c-states.crio.io") == 0) {
		if (strcmp(v, "enable") != 0 && strcmp(v, "disable") != 0 &&
		    !(startswith(v, "max_latency:") &&
		      parse_uint(v + 12, INT_MAX, &n) == 0 && n > 0))
			return bad_annotation(k, v, "enable, disable or "
					      "max_latency:MICROSECONDS", err,
					      errlen);
	} else if (strcmp(k, "cpu-freq-governor.crio.io") == 0) {
		if (!*v || strlen(v) > 15 ||
		    strspn(v, "abcdefghijklmnopqrstuvwxyz0123456789_") !=
		    strlen(v))
			return bad_annotation(k, v, "a cpufreq governor",
					      err, errlen);
	} else {
		return 0;
	}
	if (strcmp(k, IRQ_LB) != 0 && strcmp(k, QUOTA) != 0 &&
	    !rq->unsupported)
		rq->unsupported = k;
	return 1;
}

int
oci_request_parse(const struct oci_state *s, const char *allowed,
		  struct oci_request *rq, char *err, size_t errlen)
{
	const char *other = NULL;
	size_t i;

	memset(rq, 0, sizeof(*rq));
	for (i = 0; i < s->nann; i++) {
		const char *k = s->ann[i].key, *v = s->ann[i].value;
		const char *name = k + strlen(OCI_ANNOTATION_PREFIX);

		if (!startswith(k, OCI_ANNOTATION_PREFIX)) {
			if (crio_annotation(rq, k, v, err, errlen) < 0)
				return -EINVAL;
			continue;
		}
		if (strcmp(name, "cpus") == 0) {
			if (parse_uint(v, CPUSET_MAX_CPUS, &rq->n) < 0)
				return bad_annotation(k, v, "a CPU count",
						      err, errlen);
			rq->have_cpus = true;
			continue;
		}
		if (strcmp(name, "mode") == 0) {
			if (strcmp(v, "share") == 0)
				rq->share = true;
			else if (strcmp(v, "exclusive") != 0)
				return bad_annotation(k, v, "exclusive or "
						      "share", err, errlen);
		} else if (strcmp(name, "numa-policy") == 0) {
			if (tm_policy_parse(v, &rq->policy) < 0)
				return bad_annotation(k, v, "none, "
						      "best-effort, restricted "
						      "or single-numa-node",
						      err, errlen);
			rq->have_policy = true;
		} else if (strcmp(name, "mem") == 0) {
			if (parse_size_bytes(v, &rq->mem) < 0)
				return bad_annotation(k, v, "a size such as "
						      "512M or 2G", err,
						      errlen);
			rq->have_mem = true;
		} else if (strcmp(name, "core-type") == 0) {
			if (!*v)
				return bad_annotation(k, v, "a core type",
						      err, errlen);
			rq->core_type = v;
		} else if (strcmp(name, "isolate-irqs") == 0) {
			if (strcmp(v, "true") == 0)
				rq->isolate_irqs = true;
			else if (strcmp(v, "false") != 0)
				return bad_annotation(k, v, "true or false",
						      err, errlen);
		} else {
			return err_ret(err, errlen, -EINVAL, "unknown "
				       "annotation '%s' (cpm.io/cpus, mode, "
				       "numa-policy, mem, core-type, "
				       "isolate-irqs)", k);
		}
		other = k;
	}
	if (other && !rq->have_cpus)
		return err_ret(err, errlen, -EINVAL, "annotation %s needs "
			       "cpm.io/cpus", other);
	if (rq->have_cpus && rq->n == 0 && other)
		return err_ret(err, errlen, -EINVAL, "annotation %s needs "
			       "cpm.io/cpus of at least 1", other);
	request_filter(rq, allowed);
	return 0;
}

/* The group */

/*
 * systemd's "SLICE:PREFIX:NAME" as the group runc and crun make: the
 * slice's path (each '-' a level: "a-b.slice" is "a.slice/a-b.slice"),
 * then "PREFIX-NAME.scope".  Returns 0 or -EINVAL.
 */
static int
systemd_group(const char *path, char *out, size_t outlen)
{
	const char *c1 = strchr(path, ':'), *c2;
	char slice[NAME_MAX + 1];
	struct strbuf sb;
	size_t n, i;
	int r = 0;

	if (!c1 || !(c2 = strchr(c1 + 1, ':')) || strchr(c2 + 1, ':'))
		return -EINVAL;
	n = (size_t)(c1 - path);
	if (n == 0) {
		strcpy(slice, "system.slice");
	} else {
		if (n >= sizeof(slice))
			return -EINVAL;
		memcpy(slice, path, n);
		slice[n] = '\0';
	}
	if (strlen(slice) < 7 ||
	    strcmp(slice + strlen(slice) - 6, ".slice") != 0)
		return -EINVAL;
	strbuf_init(&sb);
	if (strcmp(slice, "-.slice") != 0) {
		/* Each prefix ending before a '-' is a parent slice. */
		for (i = 0; slice[i] && slice[i] != '.'; i++)
			if (slice[i] == '-' && i > 0)
				strbuf_printf(&sb, "%.*s.slice/", (int)i,
					      slice);
		strbuf_printf(&sb, "%s/", slice);
	}
	if (c2 - c1 - 1 > 0)
		strbuf_printf(&sb, "%.*s-%s.scope", (int)(c2 - c1 - 1), c1 + 1,
			      c2 + 1);
	else
		strbuf_printf(&sb, "%s", c2 + 1);
	if (!sb.buf)
		r = -ENOMEM;
	else if (sb.len >= outlen)
		r = -EINVAL;
	else
		memcpy(out, sb.buf, sb.len + 1);
	strbuf_free(&sb);
	return r;
}

int
oci_container_group(const struct oci_state *s, const struct cg_hier *h,
		    const struct sysroot *live, char *out, size_t outlen,
		    char *err, size_t errlen)
{
	char raw[CG_PATH_MAX];
	bool v2 = cg_version(h, CG_CPUSET) == 2;
	int r;

	if (s->pid > 0) {
		char path[64], *text;
		size_t len;

		snprintf(path, sizeof(path), "proc/%d/cgroup", (int)s->pid);
		r = sysroot_read_file(live, path, &text, &len);
		if (r == 0) {
			r = proc_cgroup_group(text, v2 ? "" : "cpuset", raw,
					      sizeof(raw));
			free(text);
			if (r == 0 &&
			    cg_path_check(raw, out, outlen, err, errlen) == 0 &&
			    *out && cg_exists(h, CG_CPUSET, out))
				return 0;
		}
	}
	if (s->cgroups_path && *s->cgroups_path) {
		r = oci_config_group(s, out, outlen, err, errlen);
		if (r < 0)
			return r;
		if (*out && cg_exists(h, CG_CPUSET, out))
			return 0;
		return err_ret(err, errlen, -ENOENT, "container %s: its cgroup "
			       "'%s' does not exist", s->id, cg_display(out));
	}
	return err_ret(err, errlen, -ENOENT, "container %s has no cgroup of "
		       "its own (no process in one, no linux.cgroupsPath)",
		       s->id);
}

int
oci_config_group(const struct oci_state *s, char *out, size_t outlen,
		 char *err, size_t errlen)
{
	char raw[CG_PATH_MAX];
	const char *p = s->cgroups_path;

	*out = '\0';
	if (!p || !*p)
		return 0;
	if (*p != '/' && strchr(p, ':')) {
		if (systemd_group(p, raw, sizeof(raw)) < 0)
			return err_ret(err, errlen, -EINVAL, "invalid "
				       "linux.cgroupsPath '%s'", p);
		p = raw;
	}
	return cg_path_check(p, out, outlen, err, errlen);
}

/* The cpuset */

int
oci_cpuset_apply(const struct cg_hier *h, const struct sysroot *live,
		 const struct topo *t, const char *group,
		 const struct cpuset *cpus, const struct cpuset *mems,
		 char *err, size_t errlen)
{
	struct cgcpuset_request rq;
	struct cgcpuset_plan plan;
	struct cgowner o;
	struct sdbus *bus = NULL;
	int r;

	memset(&rq, 0, sizeof(rq));
	rq.group = group;
	rq.cpus = cpus;
	rq.mems = mems;
	r = cgcpuset_plan(h, t, &rq, &plan, err, errlen);
	if (r == 0) {
		r = sdapply_route(h, group, NULL, false, &o, &bus, err,
				  errlen);
		if (r == CGOWNER_VIA_SYSTEMD) {
			r = sdapply_cpuset(h, bus, o.unit, group, &plan.cpus,
					   &plan.mems, err, errlen);
			sdbus_close(bus);
		} else if (r >= 0) {
			r = cgcpuset_apply(h, live, &plan, err, errlen);
		}
	}
	cgcpuset_plan_free(&plan);
	return r;
}

/* The quota */

/* The text of quota (period: v2's, 0 for the kernel's default). */
static void
quota_text(int version, int64_t quota, uint64_t period, char *buf,
	   size_t size)
{
	if (version == 2)
		cpu_max_format(quota, period ? period : 100000, buf, size);
	else
		snprintf(buf, size, "%lld", (long long)quota);
}

int
oci_quota_disable(const struct cg_hier *h, const char *group, char *err,
		  size_t errlen)
{
	int v = cg_version(h, CG_CPU);
	char buf[64];
	int64_t q;
	uint64_t p;
	ssize_t n;

	if (!cg_has(h, CG_CPU))
		return err_ret(err, errlen, -ENOENT, "no cpu cgroup hierarchy");
	n = cg_read(h, CG_CPU, group, v == 2 ? "cpu.max" : "cpu.cfs_quota_us",
		    buf, sizeof(buf), err, errlen);
	if (n < 0)
		return (int)n;
	if (v == 2) {
		if (cpu_max_parse(buf, &q, &p) < 0)
			return err_ret(err, errlen, -EINVAL, "cpu.max of '%s' "
				       "reads '%s'", cg_display(group), buf);
		quota_text(2, CFS_QUOTA_UNLIMITED, p, buf, sizeof(buf));
	} else {
		quota_text(1, CFS_QUOTA_UNLIMITED, 0, buf, sizeof(buf));
	}
	return cg_write(h, CG_CPU, group, v == 2 ? "cpu.max" :
			"cpu.cfs_quota_us", buf, err, errlen);
}

int
oci_quota_restore(const struct cg_hier *h, const struct oci_state *s,
		  const char *group, char *err, size_t errlen)
{
	int v = cg_version(h, CG_CPU);
	const char *file = v == 2 ? "cpu.max" : "cpu.cfs_quota_us";
	char buf[64];
	int64_t q;
	uint64_t p = 0;
	ssize_t n;
	int r;

	if (s->quota <= 0 || !cg_has(h, CG_CPU) || !*group ||
	    !cg_exists(h, CG_CPU, group))
		return 0;
	n = cg_read_quiet(h, CG_CPU, group, file, buf, sizeof(buf));
	if (n == -ENOENT)
		return 0;
	if (n < 0)
		return err_ret(err, errlen, (int)n, "cannot read %s of '%s'",
			       file, cg_display(group));
	if (v == 2 ? cpu_max_parse(buf, &q, &p) < 0 :
		     parse_i64(buf, INT64_MIN, INT64_MAX, &q) < 0)
		return err_ret(err, errlen, -EINVAL, "%s of '%s' reads '%s'",
			       file, cg_display(group), buf);
	if (q != CFS_QUOTA_UNLIMITED)
		return 0;
	quota_text(v, s->quota, s->period ? s->period : p, buf, sizeof(buf));
	r = cg_write(h, CG_CPU, group, file, buf, err, errlen);
	return r < 0 ? (r == -ENOENT ? 0 : r) : 1;
}
