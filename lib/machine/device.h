/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * PCI devices and where they sit: each device's NUMA node and local CPUs
 * as the kernel shows them in sys/bus/pci/devices/, with the names
 * operators know them by.
 *
 * Terminology:
 *   address     the PCI address, domain:bus:slot.function
 *               ("0000:3b:00.0"); "3b:00.0" means domain 0000.
 *   name        what the kernel calls something the device provides:
 *               a network interface (sys/class/net), an NVMe controller
 *               (sys/class/nvme), a block device (sys/block), a DRM card
 *               (sys/class/drm) or an RDMA device (sys/class/infiniband).
 *               Each of those sysfs entries links into the device's
 *               directory; the last PCI address on that link is the
 *               device (a virtio NIC's link runs through virtioN/, a
 *               SATA disk's through ataN/...).
 *   node        the device's numa_node; -1 when the firmware does not
 *               say (no _PXM), which is unknown, never node 0.
 *   local CPUs  its local_cpulist: the node's CPUs, or every CPU when the
 *               node is unknown.
 *   PF, VF      SR-IOV physical and virtual functions: a VF's physfn
 *               link names its PF; a PF's sriov_numvfs counts its VFs.
 */
#ifndef CPM_DEVICE_H
#define CPM_DEVICE_H

#include <stdbool.h>
#include <stddef.h>

#include "base/cpuset.h"
#include "base/json.h"
#include "base/strbuf.h"
#include "base/table.h"
#include "machine/sysroot.h"
#include "machine/topo.h"

#define DEVICE_ADDR_MAX 32

enum device_kind {
	DEVICE_OTHER,
	DEVICE_NET,		/* class 02: network controller */
	DEVICE_NVME,		/* class 01 08: non-volatile memory */
	DEVICE_STORAGE,		/* class 01, any other subclass */
	DEVICE_GPU,		/* class 03: display controller */
	DEVICE_ACCEL,		/* class 12 (processing accelerator) and
				 * 0b 40 (co-processor) */
	DEVICE_BRIDGE,		/* class 06 */
};

struct device {
	char addr[DEVICE_ADDR_MAX];
	unsigned int class;	/* the 24-bit class code, 0 unknown */
	unsigned int vendor, id;	/* 0 unknown */
	enum device_kind kind;
	int node;		/* -1 unknown */
	struct cpuset local;	/* local_cpulist */
	bool local_known;
	char driver[64];	/* "" none bound */
	char physfn[DEVICE_ADDR_MAX];	/* a VF's PF; "" not a VF */
	int numvfs;		/* sriov_numvfs; -1 no SR-IOV */
	char *names;		/* "eth0,eth1", sorted by class then name;
				 * NULL none */
};

struct devices {
	struct device *devs;	/* sorted by address */
	int n;
};

/*
 * True when s is a PCI address ("0000:3b:00.0" or "3b:00.0"); when addr
 * is not NULL, the full form ("0000:3b:00.0", lower case) goes there.
 */
bool device_parse_addr(const char *s, char addr[DEVICE_ADDR_MAX]);

/*
 * Every PCI device below root with its names.  A tree without
 * sys/bus/pci gives no devices.  Returns 0, -ENOMEM, or -errno when
 * sys/bus/pci/devices cannot be read (err says why).
 */
int device_list(struct devices *d, const struct sysroot *root, char *err,
		size_t errlen);
void devices_free(struct devices *d);

/*
 * The device named name (an address, an interface, nvme0, nvme0n1,
 * card0...), read without listing the others.  Returns 0; -ENOENT when
 * nothing has that name, -ENODEV when it is not a PCI device (lo, a
 * loop device), -EINVAL for a malformed name (err says which); -ENOMEM.
 * dev->names holds the name given.
 */
int device_find(struct device *dev, const struct sysroot *root,
		const char *name, char *err, size_t errlen);
void device_free(struct device *dev);

/* "net", "nvme", "storage", "gpu", "accel", "bridge", "other". */
const char *device_kind_name(enum device_kind k);

/*
 * The device's local CPUs that are online in t (the node's when
 * local_cpulist is missing).  Returns 0, -ENOENT when the device has no
 * known local CPUs online, -ENOMEM.
 */
int device_cpus(const struct device *dev, const struct topo *t,
		struct cpuset *out);

/*
 * The IRQs of the device at addr: its MSI and MSI-X vectors (the entries
 * of msi_irqs/), or its legacy interrupt line (irq) when it has none,
 * into irqs (a set of IRQ numbers).  Returns 0; -ENOENT when it has no
 * interrupt; -ENOMEM.
 */
int device_irqs(const struct sysroot *root, const char *addr,
		struct cpuset *irqs);

/* True for a dev:NAME selector. */
bool device_is_selector(const char *sel);

/*
 * Resolve dev:NAME: the device's local online CPUs (device_find(),
 * device_cpus()).  Returns 0; -EINVAL when NAME names no PCI device or
 * one without local CPUs online (err: "invalid selector 'dev:eth9': no
 * device 'eth9' ..."); -ENOMEM.
 */
int device_select(const struct sysroot *root, const struct topo *t,
		  const char *sel, struct cpuset *out, char *err,
		  size_t errlen);

/*
 * cpm-topo check --device: one "warning: ..." line into out per NUMA
 * node holding CPUs of cpus that are not local to dev, with the node's
 * distance from the device's node.  Returns the number of lines, or
 * -ENOMEM.
 */
int device_check_cpus(const struct device *dev, const struct topo *t,
		      const struct cpuset *cpus, struct strbuf *out);

/*
 * The devices an operator places work beside: networking, storage,
 * display and accelerator functions, and any that has a name.
 */
bool device_shown(const struct device *dev);

/*
 * The table of cpm-topo devices: one row per shown device.  Columns:
 * DEVICE (its first name, else its address) ADDRESS TYPE NODE CPUS
 * DRIVER NAMES VFS PF CLASS VENDOR.  Returns 0 or -ENOMEM.
 */
int device_table(const struct devices *d, struct table *tab);
extern const char device_default_columns[];
/* The columns of the JSON "devices" array. */
extern const char device_json_columns[];

#endif
