# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced by every test that runs inside the VM: the functions of
# tests/lib.sh, the expected topology (from the QEMU command line, see
# tests/vm/topo.sh) and a few functions of its own.
CPM_TOP=/cpm
. /cpm/tests/lib.sh
. /cpm/tests/vm/topo.sh
topo_load "$CPMVM_EXPECT" /cpm/tests/vm/topologies || exit 1
# Answers precomputed on the host: forks are slow under TCG.
[ -f /cpm/tests/vm/expect/$CPMVM_EXPECT.sh ] &&
    topo_use_shvars /cpm/tests/vm/expect/$CPMVM_EXPECT.sh
SYS=/sys/devices/system
CG=/sys/fs/cgroup

# have TOOL: true when bin/TOOL was built; otherwise one skip line.
have() {
	command -v "$1" >/dev/null 2>&1 && return 0
	skip "$1 tests" "$1 is not built"
	return 1
}

# kfile PATH: a sysfs file's first line, or "missing".
kfile() { head -n 1 "$1" 2>/dev/null || echo missing; }

# each_online CMD: run CMD with the CPU number for every online CPU.
each_online() {
	for _e in $(list_expand "$(exp_online)"); do "$@" "$_e"; done
}

# cg_rm GROUP...: remove cgroups (deepest first), moving their processes
# to the root first.
cg_rm() {
	for _g in "$@"; do
		[ -d "$CG/$_g" ] || continue
		find "$CG/$_g" -depth -type d | while read -r _d; do
			for _p in $(cat "$_d/cgroup.procs" 2>/dev/null); do
				echo "$_p" >"$CG/cgroup.procs" 2>/dev/null
			done
			rmdir "$_d" 2>/dev/null
		done
	done
}
