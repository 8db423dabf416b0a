// SPDX-License-Identifier: GPL-2.0-or-later
/* Allocations beside devices: see allocnear.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc/allocnear.h"
#include "base/strbuf.h"
#include "machine/device.h"

/* One entry's device, "NAME@ADDRESS" at p (len bytes), checked. */
static int
check_one(const struct sysroot *root, const struct topo *t,
	  const struct alloc_entry *e, const char *p, size_t len,
	  struct strbuf *out)
{
	char name[256], addr[DEVICE_ADDR_MAX];
	struct cpuset local = CPUSET_INIT, remote = CPUSET_INIT;
	struct device dev;
	size_t at;
	char *list;
	int r;

	for (at = len; at > 0 && p[at - 1] != '@'; at--)
		;
	if (at == 0 || at - 1 >= sizeof(name) || len - at >= sizeof(addr))
		return 0;
	snprintf(name, sizeof(name), "%.*s", (int)(at - 1), p);
	snprintf(addr, sizeof(addr), "%.*s", (int)(len - at), p + at);
	r = device_find(&dev, root, addr, NULL, 0);
	if (r == -ENOMEM)
		return r;
	if (r < 0) {
		strbuf_printf(out, "warning: '%s' was taken beside %s (%s), "
			      "which is gone\n", e->name, name, addr);
		return 1;
	}
	r = 0;
	if (dev.local_known) {
		if (cpuset_copy(&local, &dev.local) < 0)
			r = -ENOMEM;
	} else if (dev.node >= 0) {
		const struct topo_node *n = topo_node_by_id(t, dev.node);

		if (n && cpuset_copy(&local, &n->cpus) < 0)
			r = -ENOMEM;
	} else {
		goto done;	/* nothing says where it is */
	}
	if (r == 0 && cpuset_copy(&remote, &e->cpus) < 0)
		r = -ENOMEM;
	if (r < 0)
		goto done;
	cpuset_andnot(&remote, &local);
	if (cpuset_empty(&remote))
		goto done;
	if ((list = cpuset_to_list(&remote)) == NULL) {
		r = -ENOMEM;
		goto done;
	}
	strbuf_printf(out, "warning: '%s' is not beside %s (%s", e->name,
		      name, addr);
	if (dev.node >= 0)
		strbuf_printf(out, ", NUMA node %d", dev.node);
	strbuf_printf(out, "): CPU%s %s %s not local to it\n",
		      cpuset_count(&remote) == 1 ? "" : "s", list,
		      cpuset_count(&remote) == 1 ? "is" : "are");
	free(list);
	r = 1;
done:
	device_free(&dev);
	cpuset_free(&local);
	cpuset_free(&remote);
	return r;
}

int
alloc_near_check(const struct sysroot *root, const struct topo *t,
		 const struct alloc_state *st, struct strbuf *out)
{
	int i, r, count = 0;

	for (i = 0; i < st->nentries; i++) {
		const struct alloc_entry *e = &st->entries[i];
		const char *p = e->near;

		while (p && *p) {
			size_t len = strcspn(p, ",");

			r = check_one(root, t, e, p, len, out);
			if (r < 0)
				return r;
			count += r;
			p += len;
			if (*p)
				p++;
		}
	}
	return out->oom ? -ENOMEM : count;
}
