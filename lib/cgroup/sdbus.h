/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Talking to systemd (PID 1) over D-Bus with sd-bus: finding the unit of
 * a group, setting a unit's properties, starting a transient scope.
 *
 * As root the connection goes to systemd's private socket
 * (/run/systemd/private), as systemctl's does, so that cpm works on hosts
 * without a D-Bus daemon; otherwise, or when that fails, to the system
 * bus.  Every function returns 0 or a negative errno and fills err with
 * one line naming the unit and systemd's own message.
 */
#ifndef CPM_SDBUS_H
#define CPM_SDBUS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "cgroup/sdprop.h"

struct sdbus;

/* Connect.  Returns 0, or -errno when systemd cannot be reached. */
int sdbus_open(struct sdbus **out, char *err, size_t errlen);
void sdbus_close(struct sdbus *b);

/*
 * The unit whose group holds group (canonical, relative to the root):
 * Manager.GetUnitByControlGroup, then the unit's Id.  Returns 0, -ENOENT
 * when systemd knows no unit there, or -errno.
 */
int sdbus_unit_by_cgroup(struct sdbus *b, const char *group, char *unit,
			 size_t unitlen, char *err, size_t errlen);

/*
 * Manager.SetUnitProperties(unit, runtime, props).  runtime: the change
 * lasts until the next reboot only (a drop-in below /run).
 */
int sdbus_set_properties(struct sdbus *b, const char *unit, bool runtime,
			 const struct sdprops *props, char *err,
			 size_t errlen);

/*
 * Have systemd read its unit files and drop-ins again (what 'systemctl
 * daemon-reload' does), returning once it has.  Returns 0 or -errno.
 */
int sdbus_reload(struct sdbus *b, char *err, size_t errlen);

/*
 * Read a cpuset property (AllowedCPUs, AllowedMemoryNodes: a byte array)
 * of unit's cgroup interface (the interface of its type:
 * org.freedesktop.systemd1.Service, .Scope, .Slice, ...) into s; an
 * empty set is no restriction.
 */
int sdbus_get_set(struct sdbus *b, const char *unit, const char *prop,
		  struct cpuset *s, char *err, size_t errlen);

/*
 * Start the transient scope unit (its name ends in ".scope") holding
 * process pid, with description and props, and wait until systemd has
 * run the job.  Returns 0, -EEXIST when the unit exists already, or
 * -errno (err says what systemd answered).
 */
int sdbus_start_scope(struct sdbus *b, const char *unit, pid_t pid,
		      const char *description, const struct sdprops *props,
		      char *err, size_t errlen);

#endif
