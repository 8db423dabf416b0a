// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The container's name the OCI hook records for people to read: from
 * the Kubernetes annotations of CRI-O and containerd, else from podman's
 * storage beside the bundle (a fake store in a temporary directory,
 * laid out as podman lays out its own), and never a name that is not
 * one, nor one read from a file anybody but root may write.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pin/ocihook.h"
#include "unit.h"

#define ID "86fd73f8da51337d015cf511e769fc6f9b2b9884b1970816913c972ee74345f5"

/* The name for the OCI state text doc. */
static const char *
name_of(const char *doc)
{
	static char out[OCI_NAME_MAX + 1];
	static char err[256];
	struct oci_state s;

	memset(&s, 0, sizeof(s));
	if (oci_state_parse(&s, doc, strlen(doc), err, sizeof(err)) < 0) {
		oci_state_free(&s);
		return err;
	}
	oci_container_name(&s, out, sizeof(out));
	oci_state_free(&s);
	return out;
}

static void
test_annotations(void)
{
	CHECK_STR("CRI-O's annotations give POD/CONTAINER",
		  name_of("{\"id\":\"" ID "\",\"annotations\":{"
			  "\"io.kubernetes.pod.name\":\"web-7d9f\","
			  "\"io.kubernetes.container.name\":\"nginx\"}}"),
		  "web-7d9f/nginx");
	CHECK_STR("containerd's annotations give POD/CONTAINER",
		  name_of("{\"id\":\"" ID "\",\"annotations\":{"
			  "\"io.kubernetes.cri.sandbox-name\":\"db-0\","
			  "\"io.kubernetes.cri.container-name\":\"pg\"}}"),
		  "db-0/pg");
	CHECK_STR("a container name without its pod's is the name alone",
		  name_of("{\"id\":\"" ID "\",\"annotations\":{"
			  "\"io.kubernetes.container.name\":\"nginx\"}}"),
		  "nginx");
	CHECK_STR("a name with a space is none",
		  name_of("{\"id\":\"" ID "\",\"annotations\":{"
			  "\"io.kubernetes.container.name\":\"a b\"}}"),
		  "");
	CHECK_STR("a name with a control character is none",
		  name_of("{\"id\":\"" ID "\",\"annotations\":{"
			  "\"io.kubernetes.container.name\":\"a\\u001b[2J\"}}"),
		  "");
	CHECK_STR("no annotation and no bundle: no name",
		  name_of("{\"id\":\"" ID "\"}"), "");
}

static void
test_podman(const char *tmp)
{
	char store[512], bundle[600], doc[1024], path[700];
	const char *other = "{\"id\":\"aa\",\"names\":[\"other\"]},";

	snprintf(store, sizeof(store), "%s/vfs-containers", tmp);
	snprintf(bundle, sizeof(bundle), "%s/" ID "/userdata", store);
	snprintf(path, sizeof(path), "mkdir -p '%s'", bundle);
	if (system(path) != 0) {
		printf("not ok - a fake podman store\n");
		unit_failed = 1;
		return;
	}
	snprintf(doc, sizeof(doc), "{\"id\":\"" ID "\",\"bundle\":\"%s\"}",
		 bundle);
	CHECK_STR("podman: no containers.json, no name", name_of(doc), "");
	snprintf(path, sizeof(path), "[%s{\"id\":\"" ID "\",\"names\":"
		 "[\"mywebapp\"],\"image\":\"\"}]", other);
	unit_put(store, "containers.json", path);
	snprintf(path, sizeof(path), "%s/containers.json", store);
	chmod(path, 0600);
	if (geteuid() == 0) {
		CHECK_STR("podman: the name from containers.json", name_of(doc),
			  "mywebapp");
		chmod(path, 0620);
		CHECK_STR("podman: not from a file the group may write",
			  name_of(doc), "");
		chmod(path, 0600);
		unlink(path);
		snprintf(path, sizeof(path), "[{\"id\":\"" ID "\",\"names\":"
			 "[\"vol\"]}]");
		unit_put(store, "volatile-containers.json", path);
		snprintf(path, sizeof(path), "%s/volatile-containers.json",
			 store);
		chmod(path, 0600);
		CHECK_STR("podman: or from volatile-containers.json",
			  name_of(doc), "vol");
	} else {
		printf("skip - podman's store # owned by root only as root\n");
		CHECK_STR("podman: not from a file root does not own",
			  name_of(doc), "");
	}
	snprintf(doc, sizeof(doc), "{\"id\":\"" ID "\",\"bundle\":\"%s/"
		 "0123/userdata\"}", store);
	CHECK_STR("podman: a bundle not named after the id gives no name",
		  name_of(doc), "");
	snprintf(doc, sizeof(doc), "{\"id\":\"" ID "\",\"bundle\":\"%s\","
		 "\"annotations\":{\"io.kubernetes.container.name\":\"k\"}}",
		 bundle);
	CHECK_STR("the annotations win over the store", name_of(doc), "k");
}

int
main(void)
{
	char tmp[] = "/tmp/cpm-ociname.XXXXXX", cmd[64];

	test_annotations();
	if (!mkdtemp(tmp)) {
		printf("not ok - a temporary directory\n");
		return 1;
	}
	test_podman(tmp);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", tmp);
	return unit_failed;
}
