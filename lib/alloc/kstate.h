/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reading the kubelet CPU Manager checkpoint (cpu_manager_state), a
 * one-line JSON document, in every layout kubelets have written:
 *
 *   v4: {"policyName":...,"defaultCpuSet":...,"entries":...,
 *        "checksum":0,"data":"{\"policyName\":...}","dataChecksum":N}
 *       the dual format: "data" holds the payload (policyName,
 *       defaultCpuSet, entries, podEntries) as a JSON string and wins;
 *       the fields beside it are for older kubelets.  dataChecksum is
 *       FNV-1a 32 over go-spew's "%#v" of that string, "(string)DATA".
 *   v3: v2 with "podEntries":{"POD-UID":{"cpuSet":"4-7"}}
 *   v2: {"policyName":"static","defaultCpuSet":"0,2-9",
 *        "entries":{"POD-UID":{"CONTAINER":"1,11"}},"checksum":N}
 *   v1: the same with "entries":{"CONTAINER-ID":"2-5"}
 *
 * Keys match in any case, as Go's decoder matches them.  The v1-v3
 * checksum is FNV-1a 32 over the go-spew "%#v" rendering of the
 * checkpoint struct with the checksum set to 0; 0 means "not checked"
 * for v1 and v2.
 */
#ifndef CPM_KSTATE_H
#define CPM_KSTATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct kstate_entry {
	char *name;		/* "POD-UID/CONTAINER" (v2) or the id (v1) */
	char *pod, *container;	/* v2 parts; container NULL for v1 */
	char *cpus;		/* the cpulist text as stored */
};

struct kstate_pod {
	char *pod;		/* pod UID */
	char *cpus;		/* its pod-level cpulist as stored, or NULL */
};

struct kstate {
	char *policy;
	char *default_set;
	int version;		/* 1 flat entries, 2 nested, 0 none */
	int nentries;
	struct kstate_entry *entries;	/* sorted as go-spew sorts them */
	int npods;
	struct kstate_pod *pods;	/* v3 pod entries, sorted */
	bool have_pods;
	uint64_t checksum;
	bool have_checksum;
	char *data;		/* v4's payload, NULL without one */
	uint64_t data_checksum;
	bool dual;		/* v4: the fields above came from data */
};

/*
 * Parse the checkpoint text.  Returns 0, -EINVAL for malformed JSON, a
 * field of the wrong type, or a v4 payload that is missing or does not
 * parse (err names it, as the kubelet does), -ENOMEM.
 */
int kstate_parse(struct kstate *ks, const char *text, size_t len, char *err,
		 size_t errlen);
void kstate_free(struct kstate *ks);

/*
 * Recompute the kubelet's checksum over each layout its readers hash.
 * Returns 0 when one matches, or the v1-v3 file carries none (or 0);
 * -EBADMSG on a mismatch (*computed gets the value of the newest layout
 * tried), -ENOMEM.
 */
int kstate_verify(const struct kstate *ks, uint32_t *computed);

/*
 * Read the checkpoint file at path into ks: parsed, its checksum
 * verified when verify, and of the static policy (no other holds CPU
 * assignments).  Returns 0; -EINVAL when it is no usable checkpoint (err
 * says why: malformed, damaged, another policy); -ENOMEM; the reader's
 * -errno when it cannot be read (err says so; -ENOENT, -EILSEQ, -EFBIG
 * and -EFTYPE_CPM are the file's fault).  ks needs kstate_free() after
 * 0 only.
 */
int kstate_load(struct kstate *ks, const char *path, bool verify, char *err,
		size_t errlen);

#endif
