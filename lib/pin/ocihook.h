/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cpm as an OCI runtime hook (oci-hooks(5)): what podman, CRI-O and the
 * runtimes they drive hand a hook, and the container's request read from
 * its annotations.
 *
 * Terminology:
 *   state      the container's OCI state, the JSON document a hook reads
 *              on stdin: ociVersion, id, status, pid, bundle, annotations
 *   bundle     the directory holding the container's config.json
 *   cgroupsPath  config.json's linux.cgroupsPath: a group path
 *              ("/machine/libpod-ID", cgroupfs managers) or systemd's
 *              "SLICE:PREFIX:NAME" (the scope PREFIX-NAME.scope in SLICE)
 *   follower   a container without a CPU request: its cpuset follows the
 *              shared pool (an allocation of 0 CPUs owned by its group)
 *
 * A document that names a member twice is refused: runtimes written in
 * Go read the last, a reader that stops at the first reads another
 * container.  The state's and config.json's own fields are matched as
 * Go matches them (any case, the last).
 *
 * Nothing here prints or changes the state file; errors come back as
 * -errno with a one-line message in err.
 */
#ifndef CPM_OCIHOOK_H
#define CPM_OCIHOOK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/cpuset.h"
#include "cgroup/cgroup.h"
#include "kube/topomgr.h"
#include "machine/sysroot.h"
#include "machine/topo.h"

/* The largest state and config.json a hook reads. */
#define OCI_STATE_MAX (1u << 20)
#define OCI_CONFIG_MAX (16u << 20)

/* The annotation prefix cpm reads; any other cpm.io/ key is refused. */
#define OCI_ANNOTATION_PREFIX "cpm.io/"

/*
 * CRI-O's high-performance annotations the hook knows, by full key:
 * irq-load-balancing.crio.io and cpu-quota.crio.io are carried out; the
 * others are checked, and ignored with a warning (rq->unsupported).
 */
#define OCI_CRIO_ANNOTATIONS "cpu-load-balancing.crio.io, " \
	"cpu-quota.crio.io, irq-load-balancing.crio.io, " \
	"cpu-c-states.crio.io, cpu-freq-governor.crio.io"

struct oci_annotation {
	char *key, *value;
};

struct oci_state {
	char *id;
	char *status;		/* "creating", "created", "running", "stopped" */
	pid_t pid;		/* 0 when absent (poststop) */
	char *bundle;		/* NULL when absent */
	char *cgroups_path;	/* from config.json, NULL when none */
	int64_t quota;		/* config.json's linux.resources.cpu.quota,
				 * -1 when none */
	uint64_t period;	/* its period, 0 when none */
	size_t nann;
	struct oci_annotation *ann;	/* the state's, then config.json's
					 * keys the state lacks */
};

/*
 * Parse an OCI state document of len bytes.  Returns 0; -EINVAL when it
 * is no JSON object, lacks a valid "id" or has a field of the wrong type
 * (err says which); -ENOMEM.  Free with oci_state_free() either way.
 */
int oci_state_parse(struct oci_state *s, const char *text, size_t len,
		    char *err, size_t errlen);

/*
 * Read s->bundle's config.json (when s->bundle is set): linux.cgroupsPath
 * into s->cgroups_path, and its annotations the state did not carry.
 * Returns 0 (also when there is no bundle or no config.json); -EINVAL for
 * a config.json that is no valid JSON (err says why); -ENOMEM; another
 * -errno of reading it.
 */
int oci_config_load(struct oci_state *s, char *err, size_t errlen);
void oci_state_free(struct oci_state *s);

/* The value of annotation key, or NULL. */
const char *oci_annotation(const struct oci_state *s, const char *key);

/*
 * The container's name, for people to read, into out ("" when none is
 * known): "POD/CONTAINER" from the Kubernetes annotations CRI-O
 * (io.kubernetes.pod.name, io.kubernetes.container.name) and containerd
 * (io.kubernetes.cri.sandbox-name, io.kubernetes.cri.container-name)
 * pass; else podman's name of the container, from its storage's
 * containers.json (or volatile-containers.json) two folders above the
 * bundle (.../overlay-containers/ID/userdata), when root owns that file
 * and only root may write it.  A name of other characters than letters,
 * digits, '_', '.', '-' and the '/' between pod and container, or longer
 * than OCI_NAME_MAX, is none: it is only ever shown, never trusted.
 */
#define OCI_NAME_MAX 253
void oci_container_name(const struct oci_state *s, char *out, size_t outlen);

/* What a container's cpm.io/ annotations ask for. */
struct oci_request {
	bool have_cpus;			/* cpm.io/cpus given */
	unsigned int n;
	bool share;			/* cpm.io/mode=share */
	bool have_policy;
	int policy;			/* enum tm_policy: cpm.io/numa-policy */
	bool have_mem;
	uint64_t mem;			/* cpm.io/mem, bytes */
	const char *core_type;		/* cpm.io/core-type, or NULL */
	bool isolate_irqs;		/* cpm.io/isolate-irqs=true, or
					 * irq-load-balancing.crio.io=disable */
	bool crio_irqs;			/* irq-load-balancing.crio.io=disable
					 * (before the allowed list) */
	bool no_quota;			/* cpu-quota.crio.io=disable */
	const char *unsupported;	/* the first CRI-O annotation allowed
					 * that cpm does not carry out */
	const char *ignored;		/* the first annotation asked for
					 * and not allowed, or NULL */
};

/*
 * Read the request from s's annotations.  Returns 0; -EINVAL for a value
 * that is not valid, an unknown cpm.io/ key, or options without
 * cpm.io/cpus (err names the annotation and what it takes).  Every
 * cpm.io/ annotation is checked, and CRI-O's high-performance ones
 * (OCI_CRIO_ANNOTATIONS, with CRI-O's values); then those allowed does
 * not name ("cpus,mode,...", the names after cpm.io/ and CRI-O's full
 * keys; NULL: none) are dropped as if absent (without cpus, all are),
 * and rq->ignored names the first.
 */
int oci_request_parse(const struct oci_state *s, const char *allowed,
		      struct oci_request *rq, char *err, size_t errlen);

/* Whether allowed ("cpus,mode,..."; NULL: none) names name. */
bool oci_annotation_allowed(const char *allowed, const char *name);

/*
 * Check an allowed list: each a name after cpm.io/ that the hook reads.
 * Returns 0, or -EINVAL with err naming the first that is not.
 */
int oci_allowed_check(const char *allowed, char *err, size_t errlen);

/*
 * The container's cpuset group in h, canonical (cg_path_check()), into
 * out: the group of its process (proc/PID/cgroup below live: the v1
 * cpuset line, or the v2 line), else the one config.json's cgroupsPath
 * names (systemd's "SLICE:PREFIX:NAME" expanded as systemd does).
 * Returns 0; -ENOENT when neither names a group that exists (err says
 * so); -EINVAL for a path that is not one.
 */
int oci_container_group(const struct oci_state *s, const struct cg_hier *h,
			const struct sysroot *live, char *out, size_t outlen,
			char *err, size_t errlen);

/*
 * The group config.json's cgroupsPath names, canonical, whether it
 * exists or not, into out ("" when there is none).  Returns 0 or
 * -EINVAL for a path that is not one.
 */
int oci_config_group(const struct oci_state *s, char *out, size_t outlen,
		     char *err, size_t errlen);

/*
 * Give group the CPUs and memory nodes: through systemd when it is a
 * unit's own group (a scope of the systemd cgroup manager), else by
 * writing its cpuset files, and read back (see cgcpuset_apply() and
 * sdapply_cpuset()).  Returns 0 or -errno (err says why); -ENOENT when
 * the group is gone.
 */
int oci_cpuset_apply(const struct cg_hier *h, const struct sysroot *live,
		     const struct topo *t, const char *group,
		     const struct cpuset *cpus, const struct cpuset *mems,
		     char *err, size_t errlen);

/*
 * cpu-quota.crio.io=disable: group's CFS quota in the cpu hierarchy of h
 * removed (v1 cpu.cfs_quota_us -1, v2 cpu.max "max").  The value to
 * restore is config.json's (s->quota), which the runtime gave the group.
 * Returns 0; -ENOENT when the group or the file is missing; -errno.
 */
int oci_quota_disable(const struct cg_hier *h, const char *group,
		      char *err, size_t errlen);

/*
 * Put back s's quota on group when the group still exists and its quota
 * still reads as oci_quota_disable() left it (someone else's value is
 * left alone).  Returns 1 when written, 0 when nothing was to do, -errno.
 */
int oci_quota_restore(const struct cg_hier *h, const struct oci_state *s,
		      const char *group, char *err, size_t errlen);

#endif
