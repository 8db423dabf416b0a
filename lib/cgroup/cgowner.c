// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Who owns a cgroup v2 group; see cgowner.h.  The rules follow systemd's
 * cgroup delegation documentation: slices nest, every other unit's group
 * is a leaf of the unit tree, and a unit with Delegate=yes hands the
 * subtree below its group to its processes (systemd 252 marks the group
 * with the trusted.delegate and user.delegate extended attributes).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/xattr.h>

#include "base/macros.h"
#include "cgroup/cgowner.h"

static const char *const kind_names[] = {
	[CGOWNER_UNMANAGED] = "unmanaged",
	[CGOWNER_UNIT] = "unit",
	[CGOWNER_DELEGATED] = "delegated",
};

const char *
cgowner_kind_name(enum cgowner_kind k)
{
	if ((unsigned int)k >= ARRAY_SIZE(kind_names))
		return "?";
	return kind_names[k];
}

/* Unit types whose units have a cgroup of their own. */
static const char *const group_suffixes[] = {
	".slice", ".service", ".scope", ".socket", ".mount", ".swap",
};

/* The length of name's unit suffix if it has one of group_suffixes. */
static size_t
unit_suffix(const char *name, size_t len)
{
	size_t i, n;

	for (i = 0; i < ARRAY_SIZE(group_suffixes); i++) {
		n = strlen(group_suffixes[i]);
		if (len > n && memcmp(name + len - n, group_suffixes[i], n) == 0)
			return n;
	}
	return 0;
}

/* systemd's unit name characters (unit_name_is_valid()). */
static bool
unit_chars_ok(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		char ch = name[i];

		if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
		      (ch >= '0' && ch <= '9') || strchr(":_.-\\@", ch)))
			return false;
	}
	return true;
}

static bool
is_unit_component(const char *name, size_t len)
{
	size_t s;

	if (len == 0 || len >= CGOWNER_UNIT_MAX)
		return false;
	s = unit_suffix(name, len);
	return s > 0 && unit_chars_ok(name, len);
}

bool
cgowner_is_unit_name(const char *name)
{
	return is_unit_component(name, strlen(name));
}

static bool
is_slice(const char *name, size_t len)
{
	return len > 6 && memcmp(name + len - 6, ".slice", 6) == 0;
}

int
cgowner_unit_of_path(const char *group, char *unit, size_t unitlen,
		     size_t *glen)
{
	const char *p = group, *last = NULL;
	size_t lastlen = 0, end = 0;

	if (group[0] == '\0') {
		snprintf(unit, unitlen, "-.slice");
		*glen = 0;
		return 0;
	}
	while (*p) {
		const char *slash = strchr(p, '/');
		size_t len = slash ? (size_t)(slash - p) : strlen(p);

		if (!is_unit_component(p, len))
			break;
		last = p;
		lastlen = len;
		end = (size_t)(p - group) + len;
		if (!is_slice(p, len) || !slash)
			break;
		p = slash + 1;
	}
	if (last == NULL)
		return -ENOENT;
	snprintf(unit, unitlen, "%.*s", (int)lastlen, last);
	*glen = end;
	return 0;
}

bool
cgowner_systemd_host(const struct cg_hier *h)
{
	char buf[4096], *line, *save = NULL;
	enum cg_ctrl c;

	if (h->version != 2)
		return false;
	for (c = 0; c < CG_NCTRL && !cg_has(h, c); c++)
		;
	if (c == CG_NCTRL)
		return false;
	if (cg_read(h, c, "init.scope", "cgroup.procs", buf, sizeof(buf),
		    NULL, 0) < 0)
		return false;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		if (strcmp(line, "1") == 0)
			return true;
	return false;
}

/* Does the group open at fd carry systemd's delegation mark? */
static bool
delegate_marked(int fd)
{
	static const char *const names[] = { "trusted.delegate",
					     "user.delegate" };
	char v[8];
	ssize_t n;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		n = fgetxattr(fd, names[i], v, sizeof(v) - 1);
		if (n > 0) {
			v[n] = '\0';
			if (strcmp(v, "1") == 0)
				return true;
		}
	}
	return false;
}

/* Any controller's hierarchy: on v2 they are all one. */
static enum cg_ctrl
any_ctrl(const struct cg_hier *h)
{
	enum cg_ctrl c;

	for (c = 0; c < CG_NCTRL; c++)
		if (cg_has(h, c))
			return c;
	return CG_CPU;
}

int
cgowner_of(const struct cg_hier *h, const char *group, struct cgowner *o,
	   char *err, size_t errlen)
{
	enum cg_ctrl c = any_ctrl(h);
	char sub[CG_PATH_MAX];
	size_t glen, i, n;
	int fd, r;

	memset(o, 0, sizeof(*o));
	o->kind = CGOWNER_UNMANAGED;
	r = cg_path_check(group, NULL, 0, err, errlen);
	if (r < 0)
		return r;
	fd = cg_open_group(h, c, group, err, errlen);
	if (fd < 0 && fd != -ENOENT)
		return fd;
	o->exists = fd >= 0;
	if (fd >= 0)
		close(fd);
	o->systemd = cgowner_systemd_host(h);
	if (!o->systemd)
		return 0;
	if (cgowner_unit_of_path(group, o->unit, sizeof(o->unit), &glen) < 0) {
		o->unit[0] = '\0';
		return 0;
	}
	memcpy(o->unit_group, group, glen);
	o->unit_group[glen] = '\0';
	o->is_unit_group = group[glen] == '\0';
	o->kind = CGOWNER_UNIT;
	if (o->is_unit_group)
		return 0;
	/*
	 * Below the unit's group: delegated when the unit's group or any
	 * group between it and this one (a nested delegation) is marked.
	 * The group itself being marked delegates only what is below it.
	 */
	n = strlen(group);
	for (i = glen; i < n; i++) {
		if (i != glen && group[i] != '/')
			continue;
		memcpy(sub, group, i);
		sub[i] = '\0';
		fd = cg_open_group(h, c, sub, NULL, 0);
		if (fd < 0)
			continue;
		if (delegate_marked(fd)) {
			close(fd);
			o->kind = CGOWNER_DELEGATED;
			return 0;
		}
		close(fd);
	}
	return 0;
}

enum cgowner_route
cgowner_route(const struct cgowner *o, bool bus_ok, bool force)
{
	if (o->kind != CGOWNER_UNIT)
		return CGOWNER_WRITE_FILES;
	if (o->is_unit_group && o->exists && bus_ok)
		return CGOWNER_VIA_SYSTEMD;
	return force ? CGOWNER_FORCED : CGOWNER_REFUSE;
}

void
cgowner_refusal(const struct cgowner *o, const char *group, bool bus_ok,
		char *msg, size_t msglen)
{
	if (!o->exists)
		snprintf(msg, msglen, "cgroup '%s' would be made inside "
			 "systemd's unit tree (%s), which is not delegated: "
			 "start a unit with systemd-run or set Delegate=yes on "
			 "%s, or --force to make it anyway", cg_display(group),
			 o->unit, o->unit);
	else if (!o->is_unit_group)
		snprintf(msg, msglen, "cgroup '%s' lies in systemd unit %s, "
			 "which is not delegated: set Delegate=yes on %s, or "
			 "--force to write it anyway", cg_display(group),
			 o->unit, o->unit);
	else if (!bus_ok)
		snprintf(msg, msglen, "cgroup '%s' belongs to systemd unit %s "
			 "and systemd's bus is not reachable: use 'systemctl "
			 "set-property %s', or --force to write the files "
			 "(systemd puts its own values back on its next "
			 "reload)", cg_display(group), o->unit, o->unit);
	else
		snprintf(msg, msglen, "cgroup '%s' belongs to systemd unit %s",
			 cg_display(group), o->unit);
}
