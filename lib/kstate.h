/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reading the kubelet CPU Manager checkpoint (cpu_manager_state), a
 * one-line JSON document:
 *
 *   v2: {"policyName":"static","defaultCpuSet":"0,2-9",
 *        "entries":{"POD-UID":{"CONTAINER":"1,11"}},"checksum":N}
 *   v1: the same with "entries":{"CONTAINER-ID":"2-5"}
 *
 * The checksum is FNV-1a 32 over the go-spew "%#v" rendering of the
 * checkpoint struct with the checksum set to 0; 0 means "not checked".
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

struct kstate {
	char *policy;
	char *default_set;
	int version;		/* 1 flat entries, 2 nested, 0 none */
	int nentries;
	struct kstate_entry *entries;	/* sorted as go-spew sorts them */
	uint64_t checksum;
	bool have_checksum;
	bool unknown_fields;	/* fields cpm does not know (newer format) */
};

/*
 * Parse the checkpoint text.  Returns 0, -EINVAL for malformed JSON or a
 * field of the wrong type (err names it), -ENOMEM.
 */
int kstate_parse(struct kstate *ks, const char *text, size_t len, char *err,
		 size_t errlen);
void kstate_free(struct kstate *ks);

/*
 * Recompute the kubelet's checksum.  Returns 0 when it matches or the file
 * carries none (or 0), -EBADMSG on a mismatch (*computed gets the value),
 * -ENOTSUP when the file has fields whose rendering cpm cannot reproduce.
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
