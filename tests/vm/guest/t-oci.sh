# SPDX-License-Identifier: GPL-2.0-or-later
# cpm-alloc oci-hook with podman and crun on the systemd machine of
# tests/vm/run (systemd as PID 1 on a pure cgroup v2 tree, podman's
# systemd cgroup manager): the cases of tests/t-oci-hook.sh's podman part
# (tests/lib-podman.sh), containers in a slice of the test's own.  Skips
# itself under any other PID 1.
. /cpm/tests/vm/guest/common.sh
. /cpm/tests/lib-alloc.sh
if [ "$(cat /proc/1/comm 2>/dev/null)" != systemd ]; then
	skip "podman with crun" "PID 1 is not systemd"
	exit 0
fi
have cpm-alloc || exit 0
. /cpm/tests/lib-podman.sh
podman_cases crun systemd cpmvm-oci.slice
