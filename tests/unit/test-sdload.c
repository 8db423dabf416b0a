// SPDX-License-Identifier: GPL-2.0-or-later
/* lib/cgroup/sdload.c: libsystemd is opened on the first sd-bus call, not at start. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <systemd/sd-bus.h>

#include "unit.h"

int
main(void)
{
	sd_bus_error e = SD_BUS_ERROR_NULL;
	char *path = NULL;

	CHECK("libsystemd is not loaded at start", unit_lib_mapped("/libsystemd.so") == 0);
	/* Error helpers on an error nothing set need no library. */
	CHECK("an unset error is not set", sd_bus_error_is_set(&e) == 0);
	CHECK("an unset error has no name",
	      sd_bus_error_has_name(&e, "org.freedesktop.DBus.Error.Failed") == 0);
	sd_bus_error_free(&e);
	CHECK("the first call loads it",
	      sd_bus_path_encode("/org/freedesktop/systemd1/unit", "web.service",
				 &path) >= 0 && unit_lib_mapped("/libsystemd.so") == 1);
	CHECK_STR("and goes to libsystemd's own function", path,
		  "/org/freedesktop/systemd1/unit/web_2eservice");
	free(path);
	/* Once loaded, the error helpers are the library's. */
	e.name = "org.freedesktop.DBus.Error.Failed";
	CHECK("a set error is set", sd_bus_error_is_set(&e) > 0);
	CHECK("a set error has its name",
	      sd_bus_error_has_name(&e, "org.freedesktop.DBus.Error.Failed") > 0);
	return unit_failed;
}
