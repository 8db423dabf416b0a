// SPDX-License-Identifier: GPL-2.0-or-later
/* PCI devices and their locality: see device.h. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/err.h"
#include "base/macros.h"
#include "base/num.h"
#include "base/strbuf.h"
#include "base/strutils.h"
#include "machine/device.h"

#define PCI_DIR "sys/bus/pci/devices"

/*
 * The sysfs class directories whose entries name what a device
 * provides, in the order names are listed.
 */
static const struct name_class {
	const char *dir;
	bool cards_only;	/* drm: card0, not card0-DP-1 or renderD128 */
	bool disks_only;	/* block: nvme0n1, not its partitions */
} name_classes[] = {
	{ "sys/class/net", false, false },
	{ "sys/class/infiniband", false, false },
	{ "sys/class/nvme", false, false },
	{ "sys/class/block", false, true },
	{ "sys/class/drm", true, false },
};

static int
hexval(int ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return -1;
}

/* n hex digits at s. */
static bool
hexrun(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (hexval((unsigned char)s[i]) < 0)
			return false;
	return true;
}

/*
 * s[0..len) as a PCI address: [DOMAIN:]BB:SS.F, the domain 1 to 8 hex
 * digits (required when need_domain), the function 0-7.
 */
static bool
parse_addr_n(const char *s, size_t len, bool need_domain,
	     char addr[DEVICE_ADDR_MAX])
{
	const char *bsf = s;
	size_t dlen = 0, i;

	if (len > 8 && s[len - 8] == ':') {
		dlen = len - 8;
		bsf = s + dlen + 1;
		if (dlen > 8 || !hexrun(s, dlen))
			return false;
	} else if (len != 7 || need_domain)
		return false;
	if (!hexrun(bsf, 2) || bsf[2] != ':' || !hexrun(bsf + 3, 2) ||
	    bsf[5] != '.' || bsf[6] < '0' || bsf[6] > '7')
		return false;
	if (addr) {
		if (dlen == 0)
			snprintf(addr, DEVICE_ADDR_MAX, "0000:%.7s", bsf);
		else if (dlen < 4)
			snprintf(addr, DEVICE_ADDR_MAX, "%0*d%.*s", (int)(4 - dlen),
				 0, (int)len, s);
		else
			snprintf(addr, DEVICE_ADDR_MAX, "%.*s", (int)len, s);
		for (i = 0; addr[i]; i++)
			if (addr[i] >= 'A' && addr[i] <= 'F')
				addr[i] = (char)(addr[i] - 'A' + 'a');
	}
	return true;
}

bool
device_parse_addr(const char *s, char addr[DEVICE_ADDR_MAX])
{
	return parse_addr_n(s, strlen(s), false, addr);
}

/* The last full PCI address among the components of a link's text. */
static bool
link_addr(const char *text, char addr[DEVICE_ADDR_MAX])
{
	const char *p = text;
	bool found = false;

	while (*p) {
		size_t n = strcspn(p, "/");

		if (n && parse_addr_n(p, n, true, addr))
			found = true;
		p += n;
		if (*p == '/')
			p++;
	}
	return found;
}

/* The last component of a link's text ("igb" of ".../drivers/igb"). */
static const char *
link_base(const char *text)
{
	const char *s = strrchr(text, '/');

	return s ? s + 1 : text;
}

const char *
device_kind_name(enum device_kind k)
{
	static const char *const names[] = {
		[DEVICE_OTHER] = "other", [DEVICE_NET] = "net",
		[DEVICE_NVME] = "nvme", [DEVICE_STORAGE] = "storage",
		[DEVICE_GPU] = "gpu", [DEVICE_ACCEL] = "accel",
		[DEVICE_BRIDGE] = "bridge",
	};

	return (size_t)k < ARRAY_SIZE(names) ? names[k] : "other";
}

static enum device_kind
kind_of(unsigned int class)
{
	unsigned int base = class >> 16, sub = (class >> 8) & 0xff;

	switch (base) {
	case 0x01:
		return sub == 0x08 ? DEVICE_NVME : DEVICE_STORAGE;
	case 0x02:
		return DEVICE_NET;
	case 0x03:
		return DEVICE_GPU;
	case 0x06:
		return DEVICE_BRIDGE;
	case 0x0b:
		return sub == 0x40 ? DEVICE_ACCEL : DEVICE_OTHER;
	case 0x12:
		return DEVICE_ACCEL;
	}
	return DEVICE_OTHER;
}

/* A "0x..." attribute of the device, 0 when unreadable. */
static unsigned int
read_hex(const struct sysroot *root, const char *addr, const char *attr)
{
	char path[256], buf[32];
	uint64_t v;

	snprintf(path, sizeof(path), PCI_DIR "/%s/%s", addr, attr);
	if (sysroot_read(root, path, buf, sizeof(buf)) < 0)
		return 0;
	if (startswith(buf, "0x") || startswith(buf, "0X"))
		memmove(buf, buf + 2, strlen(buf + 2) + 1);
	if (buf[0] == '\0' || !hexrun(buf, strlen(buf)) || strlen(buf) > 8)
		return 0;
	v = strtoull(buf, NULL, 16);
	return (unsigned int)v;
}

/* An integer attribute, fallback when missing or malformed. */
static int
read_int(const struct sysroot *root, const char *addr, const char *attr,
	 int fallback)
{
	char path[256], buf[32];
	int64_t v;

	snprintf(path, sizeof(path), PCI_DIR "/%s/%s", addr, attr);
	if (sysroot_read(root, path, buf, sizeof(buf)) < 0 ||
	    parse_i64(strstrip(buf), -1, CPUSET_MAX_CPUS, &v) < 0)
		return fallback;
	return (int)v;
}

/* The last component of the device's link attr into out ("" none). */
static void
read_link_base(const struct sysroot *root, const char *addr,
	       const char *attr, char *out, size_t size)
{
	char path[256], buf[4096];

	out[0] = '\0';
	snprintf(path, sizeof(path), PCI_DIR "/%s/%s", addr, attr);
	if (sysroot_readlink(root, path, buf, sizeof(buf)) >= 0)
		snprintf(out, size, "%s", link_base(buf));
}

/* Read the attributes of the device at addr.  0 or -ENOMEM. */
static int
read_device(const struct sysroot *root, const char *addr, struct device *dev)
{
	char path[256], *text = NULL;
	size_t len;

	memset(dev, 0, sizeof(*dev));
	cpuset_init(&dev->local);
	snprintf(dev->addr, sizeof(dev->addr), "%s", addr);
	dev->class = read_hex(root, addr, "class");
	dev->vendor = read_hex(root, addr, "vendor");
	dev->id = read_hex(root, addr, "device");
	dev->kind = kind_of(dev->class);
	/* Firmware without _PXM says -1; anything else malformed too. */
	dev->node = read_int(root, addr, "numa_node", -1);
	snprintf(path, sizeof(path), PCI_DIR "/%s/local_cpulist", addr);
	if (sysroot_read_file(root, path, &text, &len) >= 0) {
		int r = cpuset_parse_list(strstrip(text), &dev->local, NULL, 0);

		free(text);
		if (r == -ENOMEM)
			return r;
		dev->local_known = r == 0;
	} else {
		/* Kernels before 2.6.26 give only the mask. */
		snprintf(path, sizeof(path), PCI_DIR "/%s/local_cpus", addr);
		if (sysroot_read_file(root, path, &text, &len) >= 0) {
			int r = cpuset_parse_mask(strstrip(text), &dev->local);

			free(text);
			if (r == -ENOMEM)
				return r;
			dev->local_known = r == 0;
		}
	}
	read_link_base(root, addr, "driver", dev->driver, sizeof(dev->driver));
	{
		char pf[4096];

		read_link_base(root, addr, "physfn", pf, sizeof(pf));
		if (!device_parse_addr(pf, dev->physfn))
			dev->physfn[0] = '\0';
	}
	dev->numvfs = read_int(root, addr, "sriov_numvfs", -1);
	return 0;
}

void
device_free(struct device *dev)
{
	cpuset_free(&dev->local);
	free(dev->names);
	dev->names = NULL;
}

void
devices_free(struct devices *d)
{
	int i;

	for (i = 0; i < d->n; i++)
		device_free(&d->devs[i]);
	free(d->devs);
	d->devs = NULL;
	d->n = 0;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int
cmp_dev(const void *a, const void *b)
{
	return strcmp(((const struct device *)a)->addr,
		      ((const struct device *)b)->addr);
}

/* The names of a directory's entries, sorted; *np of them.  -errno. */
static int
read_names(const struct sysroot *root, const char *dir, char ***vp, int *np)
{
	char **v = NULL;
	int fd, n = 0, cap = 0;
	struct dirent *de;
	DIR *d;

	*vp = NULL;
	*np = 0;
	fd = sysroot_open_dir(root, dir);
	if (fd < 0)
		return fd;
	d = fdopendir(fd);
	if (d == NULL) {
		close(fd);
		return -errno;
	}
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		if (n == cap) {
			char **nv = realloc(v, (size_t)(cap = cap ? 2 * cap : 16) *
					    sizeof(*v));

			if (nv == NULL)
				goto oom;
			v = nv;
		}
		if ((v[n] = strdup(de->d_name)) == NULL)
			goto oom;
		n++;
	}
	closedir(d);
	if (n)
		qsort(v, (size_t)n, sizeof(*v), cmp_str);
	*vp = v;
	*np = n;
	return 0;
oom:
	closedir(d);
	while (n > 0)
		free(v[--n]);
	free(v);
	return -ENOMEM;
}

static void
free_names(char **v, int n)
{
	while (n > 0)
		free(v[--n]);
	free(v);
}

/* True for a DRM card ("card0"), not a connector or a render node. */
static bool
is_card(const char *name)
{
	const char *p;

	if (!startswith(name, "card") || name[4] == '\0')
		return false;
	for (p = name + 4; *p; p++)
		if (*p < '0' || *p > '9')
			return false;
	return true;
}

/*
 * True when a block device's link runs through another block device of
 * the class (.../block/sda/sda1): a partition, not a disk.
 */
static bool
is_partition(const char *link, char **disks, int n)
{
	const char *end = strrchr(link, '/'), *start;
	char parent[256];

	if (end == NULL)
		return false;
	for (start = end; start > link && start[-1] != '/'; start--)
		;
	if ((size_t)(end - start) >= sizeof(parent))
		return false;
	memcpy(parent, start, (size_t)(end - start));
	parent[end - start] = '\0';
	start = parent;
	return bsearch(&start, disks, (size_t)n, sizeof(*disks), cmp_str) != NULL;
}

/* Append ",name" (or "name") to dev's names.  0 or -ENOMEM. */
static int
add_name(struct device *dev, const char *name)
{
	size_t old = dev->names ? strlen(dev->names) : 0;
	char *s = realloc(dev->names, old + strlen(name) + 2);

	if (s == NULL)
		return -ENOMEM;
	if (old)
		s[old++] = ',';
	strcpy(s + old, name);
	dev->names = s;
	return 0;
}

/* Give each device the names of one class directory.  0 or -ENOMEM. */
static int
attach_names(struct devices *d, const struct sysroot *root,
	     const struct name_class *nc)
{
	char **names, path[512], link[4096];
	struct device key;
	int n, i, r;

	if (read_names(root, nc->dir, &names, &n) < 0)
		return 0;	/* no such class here */
	for (i = 0, r = 0; i < n && r == 0; i++) {
		struct device *dev;

		if (nc->cards_only && !is_card(names[i]))
			continue;
		snprintf(path, sizeof(path), "%s/%s", nc->dir, names[i]);
		if (sysroot_readlink(root, path, link, sizeof(link)) < 0 ||
		    !link_addr(link, key.addr))
			continue;
		if (nc->disks_only && is_partition(link, names, n))
			continue;
		dev = bsearch(&key, d->devs, (size_t)d->n, sizeof(*d->devs),
			      cmp_dev);
		if (dev)
			r = add_name(dev, names[i]);
	}
	free_names(names, n);
	return r;
}

int
device_list(struct devices *d, const struct sysroot *root, char *err,
	    size_t errlen)
{
	char **addrs;
	size_t k;
	int n, i, r;

	d->devs = NULL;
	d->n = 0;
	r = read_names(root, PCI_DIR, &addrs, &n);
	if (r == -ENOENT)
		return 0;	/* no PCI bus: no devices */
	if (r < 0)
		return err_ret(err, errlen, r, "cannot read %s/%s: %s",
			       root->live ? "" : root->path, PCI_DIR,
			       strerror(-r));
	d->devs = calloc((size_t)n + 1, sizeof(*d->devs));
	if (d->devs == NULL) {
		free_names(addrs, n);
		return err_ret(err, errlen, -ENOMEM, "out of memory");
	}
	for (i = 0, r = 0; i < n && r == 0; i++) {
		char addr[DEVICE_ADDR_MAX];

		if (!parse_addr_n(addrs[i], strlen(addrs[i]), true, addr))
			continue;
		r = read_device(root, addr, &d->devs[d->n]);
		d->n++;
	}
	free_names(addrs, n);
	if (r == 0)
		qsort(d->devs, (size_t)d->n, sizeof(*d->devs), cmp_dev);
	for (k = 0; r == 0 && k < ARRAY_SIZE(name_classes); k++)
		r = attach_names(d, root, &name_classes[k]);
	if (r < 0) {
		devices_free(d);
		return err_ret(err, errlen, r, "out of memory");
	}
	return 0;
}

int
device_find(struct device *dev, const struct sysroot *root, const char *name,
	    char *err, size_t errlen)
{
	char addr[DEVICE_ADDR_MAX], path[512], link[4096];
	size_t k;
	int r;

	memset(dev, 0, sizeof(*dev));
	if (device_parse_addr(name, addr)) {
		snprintf(path, sizeof(path), PCI_DIR "/%s", addr);
		if (!sysroot_exists(root, path))
			return err_ret(err, errlen, -ENOENT, "no PCI device %s",
				       addr);
	} else {
		if (name[0] == '\0' || name[0] == '.' || strchr(name, '/') ||
		    strlen(name) > 255)
			return err_ret(err, errlen, -EINVAL, "invalid device "
				       "name '%s'", name);
		for (k = 0; k < ARRAY_SIZE(name_classes); k++) {
			snprintf(path, sizeof(path), "%s/%s",
				 name_classes[k].dir, name);
			if (sysroot_readlink(root, path, link, sizeof(link)) >= 0)
				break;
		}
		if (k == ARRAY_SIZE(name_classes))
			return err_ret(err, errlen, -ENOENT, "no device '%s' (not "
				       "a network interface, NVMe, block or DRM "
				       "device, or PCI address)", name);
		if (!link_addr(link, addr))
			return err_ret(err, errlen, -ENODEV, "'%s' is not a PCI "
				       "device", name);
	}
	r = read_device(root, addr, dev);
	if (r == 0 && (dev->names = strdup(name)) == NULL)
		r = -ENOMEM;
	if (r < 0) {
		device_free(dev);
		return err_ret(err, errlen, r, "out of memory");
	}
	return 0;
}

int
device_cpus(const struct device *dev, const struct topo *t,
	    struct cpuset *out)
{
	cpuset_zero(out);
	if (dev->local_known) {
		if (cpuset_copy(out, &dev->local) < 0)
			return -ENOMEM;
	} else if (dev->node >= 0) {
		const struct topo_node *n = topo_node_by_id(t, dev->node);

		if (n && cpuset_copy(out, &n->cpus) < 0)
			return -ENOMEM;
	}
	cpuset_and(out, &t->online);
	return cpuset_empty(out) ? -ENOENT : 0;
}

int
device_irqs(const struct sysroot *root, const char *addr,
	    struct cpuset *irqs)
{
	char path[256], **v;
	unsigned int irq;
	int n, i, r;

	cpuset_zero(irqs);
	snprintf(path, sizeof(path), PCI_DIR "/%s/msi_irqs", addr);
	r = read_names(root, path, &v, &n);
	if (r == -ENOMEM)
		return r;
	for (i = 0, r = 0; i < n && r == 0; i++)
		if (parse_uint(v[i], CPUSET_MAX_CPUS - 1, &irq) == 0)
			r = cpuset_set(irqs, irq) < 0 ? -ENOMEM : 0;
	if (n)
		free_names(v, n);
	if (r < 0)
		return r;
	if (cpuset_empty(irqs)) {
		/* No MSI: the INTx line, when one is routed. */
		int line = read_int(root, addr, "irq", 0);

		if (line > 0 && cpuset_set(irqs, (unsigned int)line) < 0)
			return -ENOMEM;
	}
	return cpuset_empty(irqs) ? -ENOENT : 0;
}

bool
device_is_selector(const char *sel)
{
	return startswith(sel, "dev:");
}

int
device_select(const struct sysroot *root, const struct topo *t,
	      const char *sel, struct cpuset *out, char *err, size_t errlen)
{
	struct device dev;
	char why[256];
	int r;

	cpuset_zero(out);
	r = device_find(&dev, root, sel + 4, why, sizeof(why));
	if (r == -ENOMEM)
		return r;
	if (r < 0)
		return err_ret(err, errlen, -EINVAL, "invalid selector '%s': %s",
			       sel, why);
	r = device_cpus(&dev, t, out);
	if (r == -ENOENT)
		err_set(err, errlen, "invalid selector '%s': %s has no local "
			"CPUs online", sel, dev.addr);
	device_free(&dev);
	return r == -ENOENT ? -EINVAL : r;
}

/* The distance from node a to node b, -1 unknown. */
static int
distance(const struct topo *t, int a, int b)
{
	const struct topo_node *na = topo_node_by_id(t, a);
	int j;

	if (!na || !na->distance)
		return -1;
	for (j = 0; j < t->nnodes; j++)
		if (t->nodes[j].id == b)
			return na->distance[j];
	return -1;
}

int
device_check_cpus(const struct device *dev, const struct topo *t,
		  const struct cpuset *cpus, struct strbuf *out)
{
	struct cpuset remote = CPUSET_INIT, part = CPUSET_INIT;
	const char *name = dev->names ? dev->names : dev->addr;
	int count = 0, i;
	char *list;

	if (dev->local_known) {
		if (cpuset_copy(&remote, cpus) < 0)
			return -ENOMEM;
		cpuset_andnot(&remote, &dev->local);
	} else if (dev->node >= 0) {
		const struct topo_node *n = topo_node_by_id(t, dev->node);

		if (cpuset_copy(&remote, cpus) < 0)
			return -ENOMEM;
		if (n)
			cpuset_andnot(&remote, &n->cpus);
	}
	/* One line per node the stray CPUs are on, nearest first as listed. */
	for (i = 0; i <= t->nnodes && !cpuset_empty(&remote); i++) {
		int node = i < t->nnodes ? t->nodes[i].id : -1, d, cpu;

		cpuset_zero(&part);
		cpuset_for_each(cpu, &remote)
			if (cpu < t->ncpus && (i == t->nnodes ||
					       t->cpus[cpu].node == node) &&
			    cpuset_set(&part, (unsigned int)cpu) < 0)
				goto oom;
		if (cpuset_empty(&part))
			continue;
		cpuset_andnot(&remote, &part);
		if ((list = cpuset_to_list(&part)) == NULL)
			goto oom;
		strbuf_printf(out, "warning: CPU%s %s %s not local to %s (%s",
			      cpuset_count(&part) == 1 ? "" : "s", list,
			      cpuset_count(&part) == 1 ? "is" : "are", name,
			      dev->addr);
		free(list);
		if (dev->node >= 0)
			strbuf_printf(out, ", NUMA node %d", dev->node);
		strbuf_puts(out, ")");
		d = dev->node >= 0 && node >= 0 ? distance(t, dev->node, node) :
		    -1;
		if (node >= 0 && d >= 0)
			strbuf_printf(out, ": on NUMA node %d, distance %d "
				      "(local %d)", node, d,
				      distance(t, dev->node, dev->node));
		else if (node >= 0)
			strbuf_printf(out, ": on NUMA node %d", node);
		strbuf_puts(out, "\n");
		count++;
	}
	cpuset_free(&remote);
	cpuset_free(&part);
	return out->oom ? -ENOMEM : count;
oom:
	cpuset_free(&remote);
	cpuset_free(&part);
	return -ENOMEM;
}

bool
device_shown(const struct device *dev)
{
	return dev->names != NULL || dev->physfn[0] || dev->numvfs >= 0 ||
	       (dev->kind != DEVICE_OTHER && dev->kind != DEVICE_BRIDGE);
}

enum { C_DEVICE, C_ADDRESS, C_TYPE, C_NODE, C_CPUS, C_DRIVER, C_NAMES,
       C_VFS, C_PF, C_CLASS, C_VENDOR, C_NCOLS };

static const struct table_column device_columns[] = {
	[C_DEVICE] = { "DEVICE", "device", 0, 0 },
	[C_ADDRESS] = { "ADDRESS", "address", 0, 0 },
	[C_TYPE] = { "TYPE", "type", 0, 0 },
	[C_NODE] = { "NODE", "node", TABLE_RIGHT, 0 },
	[C_CPUS] = { "CPUS", "cpus", 0, 0 },
	[C_DRIVER] = { "DRIVER", "driver", 0, 0 },
	[C_NAMES] = { "NAMES", "names", 0, 0 },
	[C_VFS] = { "VFS", "vfs", TABLE_RIGHT, 0 },
	[C_PF] = { "PF", "pf", 0, 0 },
	[C_CLASS] = { "CLASS", "class", 0, 0 },
	[C_VENDOR] = { "VENDOR", "vendor", 0, 0 },
};

const char device_default_columns[] =
	"ADDRESS,TYPE,NODE,CPUS,DRIVER,VFS,PF,NAMES";
const char device_json_columns[] =
	"ADDRESS,TYPE,NODE,CPUS,DRIVER,NAMES,VFS,PF,CLASS,VENDOR";

/* The names as text ("eth0,eth1") and as a JSON array. */
static void
set_names(struct table *tab, size_t row, const char *names,
	  struct strbuf *sb)
{
	const char *p;

	if (names == NULL) {
		table_set(tab, row, C_NAMES, NULL, "[]");
		return;
	}
	sb->len = 0;
	strbuf_add(sb, "[", 1);
	for (p = names; *p;) {
		size_t n = strcspn(p, ",");
		char one[256];

		snprintf(one, sizeof(one), "%.*s", (int)n, p);
		if (p != names)
			strbuf_add(sb, ",", 1);
		json_quote(sb, one);
		p += n;
		if (*p == ',')
			p++;
	}
	strbuf_puts(sb, "]");
	table_set(tab, row, C_NAMES, names, sb->buf);
}

int
device_table(const struct devices *d, struct table *tab)
{
	struct strbuf sb;
	char buf[64];
	int i;

	table_init(tab, device_columns, C_NCOLS, "  ");
	strbuf_init(&sb);
	for (i = 0; i < d->n; i++) {
		const struct device *dev = &d->devs[i];
		int row;
		char *list;

		if (!device_shown(dev))
			continue;
		if ((row = table_add_row(tab)) < 0)
			goto oom;
		if (dev->names) {
			snprintf(buf, sizeof(buf), "%.*s",
				 (int)strcspn(dev->names, ","), dev->names);
			table_set_str(tab, (size_t)row, C_DEVICE, buf);
		} else
			table_set_str(tab, (size_t)row, C_DEVICE, dev->addr);
		table_set_str(tab, (size_t)row, C_ADDRESS, dev->addr);
		table_set_str(tab, (size_t)row, C_TYPE,
			      device_kind_name(dev->kind));
		table_set_id(tab, (size_t)row, C_NODE, dev->node);
		if (dev->local_known) {
			if ((list = cpuset_to_list(&dev->local)) == NULL)
				goto oom;
			table_set_str(tab, (size_t)row, C_CPUS, list);
			free(list);
		}
		table_set_str(tab, (size_t)row, C_DRIVER,
			      dev->driver[0] ? dev->driver : NULL);
		set_names(tab, (size_t)row, dev->names, &sb);
		table_set_id(tab, (size_t)row, C_VFS, dev->numvfs);
		table_set_str(tab, (size_t)row, C_PF,
			      dev->physfn[0] ? dev->physfn : NULL);
		if (dev->class) {
			snprintf(buf, sizeof(buf), "0x%06x", dev->class);
			table_set_str(tab, (size_t)row, C_CLASS, buf);
		}
		if (dev->vendor || dev->id) {
			snprintf(buf, sizeof(buf), "%04x:%04x", dev->vendor,
				 dev->id);
			table_set_str(tab, (size_t)row, C_VENDOR, buf);
		}
	}
	if (sb.oom)
		goto oom;
	strbuf_free(&sb);
	table_select(tab, device_default_columns, NULL, 0);
	return 0;
oom:
	strbuf_free(&sb);
	table_free(tab);
	return -ENOMEM;
}
