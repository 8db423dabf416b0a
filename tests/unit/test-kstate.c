// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Loading a kubelet CPU manager checkpoint: read, parsed, its checksum
 * verified (a real file's, from kubernetes issue #103910) and of the
 * static policy, with one message for each refusal.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc/kstate.h"
#include "unit.h"

static char dir[] = "/tmp/cpm-test-kstate-XXXXXX";
static char path[256];

/* kstate_load() of a file holding text; its error message in err. */
static int
load(const char *text, bool verify, char *err, size_t errlen)
{
	struct kstate ks;
	int r;

	unit_put(dir, "cpu_manager_state", text);
	err[0] = '\0';
	r = kstate_load(&ks, path, verify, err, errlen);
	if (r == 0)
		kstate_free(&ks);
	return r;
}

int
main(void)
{
	static const char real[] = "{\"policyName\":\"static\","
		"\"defaultCpuSet\":\"0-31\",\"checksum\":3540042759}\n";
	static const char damaged[] = "{\"policyName\":\"static\","
		"\"defaultCpuSet\":\"0-30\",\"checksum\":3540042759}\n";
	struct kstate ks;
	char err[512], want[512];

	if (!mkdtemp(dir)) {
		printf("not ok - mkdtemp\n");
		return 1;
	}
	snprintf(path, sizeof(path), "%s/cpu_manager_state", dir);

	CHECK("a missing file cannot be read",
	      kstate_load(&ks, path, true, err, sizeof(err)) == -ENOENT);
	snprintf(want, sizeof(want), "cannot read '%s': No such file or "
		 "directory", path);
	CHECK_STR("and says which", err, want);

	CHECK("a real checkpoint loads, verified",
	      kstate_load(&ks, (unit_put(dir, "cpu_manager_state", real), path),
			  true, err, sizeof(err)) == 0 &&
	      strcmp(ks.policy, "static") == 0 && ks.checksum == 3540042759u);
	kstate_free(&ks);

	CHECK("a changed checkpoint fails its checksum",
	      load(damaged, true, err, sizeof(err)) == -EINVAL);
	snprintf(want, sizeof(want), "'%s': checkpoint is corrupted (stored "
		 "checksum 3540042759, computed ", path);
	CHECK("and says the file is damaged, as the kubelet does",
	      strncmp(err, want, strlen(want)) == 0 &&
	      strstr(err, "; --no-verify imports it anyway)") != NULL);
	CHECK("without verifying, it loads",
	      load(damaged, false, err, sizeof(err)) == 0);

	CHECK("another policy holds no assignments",
	      load("{\"policyName\":\"none\",\"defaultCpuSet\":\"\","
		   "\"checksum\":0}", false, err, sizeof(err)) == -EINVAL);
	snprintf(want, sizeof(want), "'%s' is a checkpoint of the 'none' "
		 "policy: it holds no CPU assignments", path);
	CHECK_STR("and says so", err, want);

	CHECK("malformed JSON is no checkpoint",
	      load("{\"policyName\":", true, err, sizeof(err)) == -EINVAL);
	snprintf(want, sizeof(want), "'%s' is not a kubelet CPU manager "
		 "checkpoint: ", path);
	CHECK("and says so", strncmp(err, want, strlen(want)) == 0);

	{
		FILE *f = fopen(path, "w");

		if (f) {
			fwrite("{\0}", 1, 3, f);
			fclose(f);
		}
	}
	CHECK("a NUL byte is refused as the file's fault",
	      kstate_load(&ks, path, true, err, sizeof(err)) == -EILSEQ);
	snprintf(want, sizeof(want), "cannot read '%s': it holds a NUL byte",
		 path);
	CHECK_STR("and says so", err, want);
	unlink(path);
	rmdir(dir);
	return unit_failed;
}
