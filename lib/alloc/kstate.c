// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kubelet's cpu_manager_state, walked with the pull side of
 * jsonread.h: only the fields the kubelet reads are kept, the values of
 * others are checked and skipped.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc/kstate.h"
#include "alloc/state.h"
#include "base/cpuset.h"
#include "base/err.h"
#include "base/fileread.h"
#include "base/jsonread.h"
#include "base/strbuf.h"

static int
add_entry(struct kstate *ks, char *pod, char *container, char *cpus)
{
	struct kstate_entry *n, *e;
	size_t len;

	n = realloc(ks->entries, (size_t)(ks->nentries + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	ks->entries = n;
	e = &n[ks->nentries++];
	e->pod = pod;
	e->container = container;
	e->cpus = cpus;
	len = strlen(pod) + (container ? strlen(container) + 1 : 0) + 1;
	e->name = malloc(len);
	if (!e->name)
		return -ENOMEM;
	if (container)
		snprintf(e->name, len, "%s/%s", pod, container);
	else
		snprintf(e->name, len, "%s", pod);
	return 0;
}

/* "entries": object of id -> cpulist (v1) or pod -> {container -> cpulist}. */
static int
parse_entries(struct jr *j, struct kstate *ks)
{
	int r;

	if (!jr_eat(j, '{'))
		return jr_fail(j, "\"entries\" is not an object");
	if (jr_eat(j, '}'))
		return 0;
	do {
		char *key, *val;

		if ((r = jr_key(j, &key)) < 0)
			return r;
		if (jr_peek(j) == '"') {
			if (ks->version == 2) {
				free(key);
				return jr_fail(j, "\"entries\" mixes the v1 and v2 forms");
			}
			ks->version = 1;
			if ((r = jr_string(j, &val)) < 0) {
				free(key);
				return r;
			}
			if ((r = add_entry(ks, key, NULL, val)) < 0)
				return r;
			continue;
		}
		if (ks->version == 1) {
			free(key);
			return jr_fail(j, "\"entries\" mixes the v1 and v2 forms");
		}
		ks->version = 2;
		if (!jr_eat(j, '{')) {
			free(key);
			return jr_fail(j, "an entry is neither a cpulist nor an object");
		}
		if (jr_eat(j, '}')) {
			free(key);
			continue;
		}
		do {
			char *c, *pod;

			if ((r = jr_key(j, &c)) < 0) {
				free(key);
				return r;
			}
			if ((r = jr_string(j, &val)) < 0) {
				free(c);
				free(key);
				return r;
			}
			if (!(pod = strdup(key))) {
				free(c);
				free(val);
				free(key);
				return -ENOMEM;
			}
			if ((r = add_entry(ks, pod, c, val)) < 0) {
				free(key);
				return r;
			}
		} while (jr_eat(j, ','));
		free(key);
		if (!jr_eat(j, '}'))
			return jr_fail(j, "expected ',' or '}'");
	} while (jr_eat(j, ','));
	if (!jr_eat(j, '}'))
		return jr_fail(j, "expected ',' or '}'");
	return 0;
}

static void
free_entries(struct kstate *ks)
{
	int i;

	for (i = 0; i < ks->nentries; i++) {
		free(ks->entries[i].name);
		free(ks->entries[i].pod);
		free(ks->entries[i].container);
		free(ks->entries[i].cpus);
	}
	free(ks->entries);
	ks->entries = NULL;
	ks->nentries = 0;
	ks->version = 0;
}

static void
free_pods(struct kstate *ks)
{
	int i;

	for (i = 0; i < ks->npods; i++) {
		free(ks->pods[i].pod);
		free(ks->pods[i].cpus);
	}
	free(ks->pods);
	ks->pods = NULL;
	ks->npods = 0;
	ks->have_pods = false;
}

/* "podEntries": object of pod -> {"cpuSet": cpulist}, other keys skipped. */
static int
parse_pods(struct jr *j, struct kstate *ks)
{
	int r;

	free_pods(ks);
	ks->have_pods = true;
	if (!jr_eat(j, '{'))
		return jr_fail(j, "\"podEntries\" is not an object");
	if (jr_eat(j, '}'))
		return 0;
	do {
		struct kstate_pod *n, *p;
		char *key;

		if ((r = jr_key(j, &key)) < 0)
			return r;
		n = realloc(ks->pods, (size_t)(ks->npods + 1) * sizeof(*n));
		if (!n) {
			free(key);
			return -ENOMEM;
		}
		ks->pods = n;
		p = &n[ks->npods++];
		p->pod = key;
		p->cpus = NULL;
		if (!jr_eat(j, '{'))
			return jr_fail(j, "a pod entry is not an object");
		if (jr_eat(j, '}'))
			continue;
		do {
			char *k;

			if ((r = jr_key(j, &k)) < 0)
				return r;
			if (jr_name_fold_eq(k, "cpuSet")) {
				free(p->cpus);
				r = jr_string(j, &p->cpus);
			} else {
				r = jr_skip(j);
			}
			free(k);
			if (r < 0)
				return r;
		} while (jr_eat(j, ','));
		if (!jr_eat(j, '}'))
			return jr_fail(j, "expected ',' or '}'");
	} while (jr_eat(j, ','));
	if (!jr_eat(j, '}'))
		return jr_fail(j, "expected ',' or '}'");
	return 0;
}

static int
entry_cmp(const void *a, const void *b)
{
	const struct kstate_entry *x = a, *y = b;
	int c = strcmp(x->pod, y->pod);

	if (c || !x->container)
		return c;
	return strcmp(x->container, y->container);
}

static int
pod_cmp(const void *a, const void *b)
{
	const struct kstate_pod *x = a, *y = b;

	return strcmp(x->pod, y->pod);
}

/*
 * One JSON object of checkpoint fields into ks.  Keys are matched as
 * Go's encoding/json matches them, ignoring case ("defaultCPUSet" is
 * "defaultCpuSet"), and a key given twice keeps its last value.  Inside
 * the "data" payload (inner) only the payload's fields are known.
 */
static int
parse_fields(struct jr *j, struct kstate *ks, bool inner)
{
	int r = 0;

	if (!jr_eat(j, '{'))
		return jr_fail(j, "not a JSON object");
	if (jr_eat(j, '}'))
		return 0;
	do {
		struct jr_number n;
		char *key;

		if ((r = jr_key(j, &key)) < 0)
			return r;
		if (jr_name_fold_eq(key, "policyName")) {
			free(ks->policy);
			ks->policy = NULL;
			r = jr_string(j, &ks->policy);
		} else if (jr_name_fold_eq(key, "defaultCpuSet")) {
			free(ks->default_set);
			ks->default_set = NULL;
			r = jr_string(j, &ks->default_set);
		} else if (jr_name_fold_eq(key, "entries")) {
			free_entries(ks);
			r = parse_entries(j, ks);
		} else if (jr_name_fold_eq(key, "podEntries")) {
			r = parse_pods(j, ks);
		} else if (!inner && jr_name_fold_eq(key, "checksum")) {
			r = jr_number(j, &n, NULL);
			ks->checksum = n.u;
			if (r == 0 && (!n.is_u64 || n.u > UINT32_MAX))
				r = jr_fail(j, "\"checksum\" is not a 32-bit unsigned number");
			ks->have_checksum = true;
		} else if (!inner && jr_name_fold_eq(key, "dataChecksum")) {
			r = jr_number(j, &n, NULL);
			ks->data_checksum = n.u;
			if (r == 0 && (!n.is_u64 || n.u > UINT32_MAX))
				r = jr_fail(j, "\"dataChecksum\" is not a 32-bit unsigned number");
		} else if (!inner && jr_name_fold_eq(key, "data")) {
			free(ks->data);
			ks->data = NULL;
			r = jr_string(j, &ks->data);
		} else {
			r = jr_skip(j);
		}
		free(key);
		if (r < 0)
			return r;
	} while (jr_eat(j, ','));
	if (!jr_eat(j, '}'))
		return jr_fail(j, "expected ',' or '}'");
	return 0;
}

/*
 * The current kubelet's dual format: "data" holds the payload as a JSON
 * string, with its own "dataChecksum"; the top-level fields beside it
 * are for older kubelets only.  The payload replaces them.
 */
static int
parse_data(struct kstate *ks, char *err, size_t errlen)
{
	static const char pfx[] = "could not load v4 checkpoint: failed to "
				  "deserialize cpu manager checkpoint data: ";
	struct kstate in;
	char perr[256];
	struct jr j;
	const char *d = ks->data ? ks->data : "";
	int r;

	memset(&in, 0, sizeof(in));
	if (jr_init(&j, d, strlen(d), perr, sizeof(perr)) < 0) {
		snprintf(err, errlen, "%s%s", pfx, perr);
		return -EINVAL;
	}
	if (jr_at_end(&j)) {
		snprintf(err, errlen, "%sunexpected end of JSON input", pfx);
		return -EINVAL;
	}
	r = parse_fields(&j, &in, true);
	if (r == 0 && !jr_at_end(&j))
		r = jr_fail(&j, "trailing data after the JSON object");
	if (r < 0) {
		if (r == -EINVAL)
			snprintf(err, errlen, "%s%s", pfx, perr);
		free_entries(&in);
		free_pods(&in);
		free(in.policy);
		free(in.default_set);
		return r;
	}
	free_entries(ks);
	free_pods(ks);
	free(ks->policy);
	free(ks->default_set);
	ks->policy = in.policy ? in.policy : strdup("");
	ks->default_set = in.default_set;
	ks->entries = in.entries;
	ks->nentries = in.nentries;
	ks->version = in.version;
	ks->pods = in.pods;
	ks->npods = in.npods;
	ks->have_pods = in.have_pods;
	ks->dual = true;
	return ks->policy ? 0 : -ENOMEM;
}

int
kstate_parse(struct kstate *ks, const char *text, size_t len, char *err,
	     size_t errlen)
{
	struct jr j;
	int r;

	memset(ks, 0, sizeof(*ks));
	if ((r = jr_init(&j, text, len, err, errlen)) < 0 ||
	    (r = parse_fields(&j, ks, false)) < 0)
		goto fail;
	if (!jr_at_end(&j)) {
		r = jr_fail(&j, "trailing data after the JSON object");
		goto fail;
	}
	/* As the kubelet: a payload or its checksum makes it the dual
	 * format, never read as an older one. */
	if ((ks->data && ks->data[0]) || ks->data_checksum != 0) {
		if ((r = parse_data(ks, err, errlen)) < 0)
			goto fail;
	} else if (!ks->policy && !(ks->policy = strdup(""))) {
		/* None given: the empty name, as Go's decoder leaves it. */
		r = -ENOMEM;
		goto fail;
	}
	if (!ks->default_set && !(ks->default_set = strdup(""))) {
		r = -ENOMEM;
		goto fail;
	}
	if (ks->nentries > 1)
		qsort(ks->entries, (size_t)ks->nentries, sizeof(*ks->entries),
		      entry_cmp);
	if (ks->npods > 1)
		qsort(ks->pods, (size_t)ks->npods, sizeof(*ks->pods), pod_cmp);
	return 0;
fail:
	kstate_free(ks);
	return r;
}

void
kstate_free(struct kstate *ks)
{
	free_entries(ks);
	free_pods(ks);
	free(ks->policy);
	free(ks->default_set);
	free(ks->data);
	memset(ks, 0, sizeof(*ks));
}

/* The entries map as go-spew's %#v shows it inside the struct. */
static void
render_entries(const struct kstate *ks, struct strbuf *sb)
{
	int i;

	for (i = 0; i < ks->nentries; i++) {
		const struct kstate_entry *e = &ks->entries[i];
		bool first_of_pod = i == 0 ||
			strcmp(ks->entries[i - 1].pod, e->pod) != 0;
		bool last_of_pod = i == ks->nentries - 1 ||
			strcmp(ks->entries[i + 1].pod, e->pod) != 0;

		if (!e->container) {
			strbuf_printf(sb, "%s%s:%s", i ? " " : "", e->pod,
				      e->cpus);
			continue;
		}
		if (first_of_pod)
			strbuf_printf(sb, "%s%s:map[", i ? " " : "", e->pod);
		else
			strbuf_puts(sb, " ");
		strbuf_printf(sb, "%s:%s", e->container, e->cpus);
		if (last_of_pod)
			strbuf_puts(sb, "]");
	}
}

/*
 * The pod entries of a v3 checkpoint: each a PodEntry whose CPUSet is a
 * cpuset.CPUSet, a map of CPU numbers.  Returns 0, or -EINVAL when a
 * cpulist does not parse (the kubelet could not have read it as v3).
 */
static int
render_pods(const struct kstate *ks, struct strbuf *sb)
{
	struct cpuset s = CPUSET_INIT;
	char why[128];
	int i, cpu;

	for (i = 0; i < ks->npods; i++) {
		bool first = true;

		if (cpuset_parse_list(ks->pods[i].cpus ? ks->pods[i].cpus : "",
				      &s, why, sizeof(why)) < 0) {
			cpuset_free(&s);
			return -EINVAL;
		}
		strbuf_printf(sb, "%s%s:{CPUSet:(cpuset.CPUSet){elems:"
			      "(map[int]struct {})map[", i ? " " : "",
			      ks->pods[i].pod);
		cpuset_for_each(cpu, &s) {
			strbuf_printf(sb, "%s%d:{}", first ? "" : " ", cpu);
			first = false;
		}
		strbuf_puts(sb, "]}}");
	}
	cpuset_free(&s);
	return 0;
}

/* FNV-1a 32 of one rendering of the checkpoint struct called name. */
static int
render_sum(const struct kstate *ks, const char *name, int layout,
	   uint32_t *sum)
{
	struct strbuf sb;

	strbuf_init(&sb);
	strbuf_printf(&sb, "(*state.%s){PolicyName:(string)%s"
		      " DefaultCPUSet:(string)%s Entries:(%s)map[", name,
		      ks->policy, ks->default_set, layout == 1 ?
		      "map[string]string" : "map[string]map[string]string");
	render_entries(ks, &sb);
	strbuf_puts(&sb, "]");
	if (layout == 3) {
		strbuf_puts(&sb, " PodEntries:(state.PodCPUAssignments)map[");
		if (render_pods(ks, &sb) < 0) {
			strbuf_free(&sb);
			return -EINVAL;
		}
		strbuf_puts(&sb, "]");
	}
	strbuf_puts(&sb, " Checksum:(checksum.Checksum)0}");
	if (sb.oom) {
		strbuf_free(&sb);
		return -ENOMEM;
	}
	*sum = fnv1a32(FNV32_INIT, sb.buf, sb.len);
	strbuf_free(&sb);
	return 0;
}

int
kstate_verify(const struct kstate *ks, uint32_t *computed)
{
	/*
	 * The layouts the kubelet hashes, as its readers try them from the
	 * newest: go-spew's %#v of the checkpoint struct with the checksum
	 * set to 0 (type annotations on the struct and its fields, none
	 * inside maps, map keys sorted, strings unquoted), under the name
	 * the writing kubelet gave it.  v3 adds the pod entries; v2 and v1
	 * (flat entries) were renamed when newer versions came, and their
	 * readers hash them under the old name as well.  v3 accepts no
	 * checksum of 0, v2 and v1 do.  Entries that are not flat cannot be
	 * v1, flat ones cannot be v2 or v3.
	 */
	static const struct {
		int layout;
		const char *name;
	} tries[] = {
		{ 3, "CPUManagerCheckpointV3" }, { 3, "CPUManagerCheckpoint" },
		{ 2, "CPUManagerCheckpoint" }, { 2, "CPUManagerCheckpointV2" },
		{ 1, "CPUManagerCheckpoint" },
	};
	size_t i;
	bool first = true;

	*computed = 0;
	if (ks->dual) {
		uint32_t h = fnv1a32(FNV32_INIT, "(string)", 8);

		*computed = fnv1a32(h, ks->data, strlen(ks->data));
		return *computed == (uint32_t)ks->data_checksum ? 0 : -EBADMSG;
	}
	if (!ks->have_checksum || ks->checksum == 0)
		return 0;
	for (i = 0; i < sizeof(tries) / sizeof(tries[0]); i++) {
		uint32_t sum;
		int r;

		if ((ks->version == 1 && tries[i].layout != 1) ||
		    (ks->version == 2 && tries[i].layout == 1))
			continue;
		r = render_sum(ks, tries[i].name, tries[i].layout, &sum);
		if (r == -ENOMEM)
			return r;
		if (r < 0)
			continue;
		if (first)
			*computed = sum;
		first = false;
		if (sum == (uint32_t)ks->checksum)
			return 0;
	}
	return -EBADMSG;
}

int
kstate_load(struct kstate *ks, const char *path, bool verify, char *err,
	    size_t errlen)
{
	char *text, perr[512];
	size_t len;
	uint32_t sum;
	int r;

	r = read_file_at(AT_FDCWD, path,
			 &(struct read_opts){ .flags = READ_TEXT }, &text, &len);
	if (r < 0) {
		snprintf(err, errlen, "cannot read '%s': %s", path,
			 r == -EILSEQ ? "it holds a NUL byte" :
			 read_strerror(r));
		return r;
	}
	/* Any parse failure, even out of memory, says it is no checkpoint. */
	r = kstate_parse(ks, text, len, perr, sizeof(perr));
	free(text);
	if (r < 0) {
		snprintf(err, errlen, "'%s' is not a kubelet CPU manager "
			 "checkpoint: %s", path, perr);
		return -EINVAL;
	}
	r = verify ? kstate_verify(ks, &sum) : 0;
	if (r == -EBADMSG) {
		snprintf(err, errlen, "'%s': %scheckpoint is corrupted (stored "
			 "checksum %llu, computed %u; --no-verify imports it "
			 "anyway)", path, ks->dual ? "could not load v4 "
			 "checkpoint: " : "", (unsigned long long)(ks->dual ?
			 ks->data_checksum : ks->checksum), sum);
		r = -EINVAL;
	} else if (r == -ENOMEM) {
		snprintf(err, errlen, "out of memory");
	} else if (strcmp(ks->policy, "none") == 0) {
		snprintf(err, errlen, "'%s' is a checkpoint of the '%s' policy: "
			 "it holds no CPU assignments", path, ks->policy);
		r = -EINVAL;
	} else if (strcmp(ks->policy, "static") != 0) {
		/* The kubelet's words, cpm's policy being the static one. */
		snprintf(err, errlen, "'%s': configured policy \"static\" "
			 "differs from state checkpoint policy \"%s\"", path,
			 ks->policy);
		r = -EINVAL;
	} else {
		return 0;
	}
	kstate_free(ks);
	return r;
}
