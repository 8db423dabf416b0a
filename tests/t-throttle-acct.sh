#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# cpm-throttle on a cgroup v1 tree that mounts cpuacct apart from cpu (as
# this kind of host does: /sys/fs/cgroup/cpu beside .../cpuacct): USAGE
# comes from the cpuacct group of the same path, and is '-' (null) for a
# group that has none there.  A tree of files stands in for the kernel's,
# so that the cpuacct counters can be set; t-throttle-live reads the real
# ones.
. "$(dirname "$0")/lib.sh"

R=$T_TMP/v1
mkdir -p "$R/cpu/g1/sub" "$R/cpu/g2/sub" "$R/cpuacct/g1/sub"
for g in "" g1 g1/sub g2 g2/sub; do
	printf 'nr_periods 10\nnr_throttled 2\nthrottled_time 1000\n' >"$R/cpu/$g/cpu.stat"
	echo 50000 >"$R/cpu/$g/cpu.cfs_quota_us"
	echo 100000 >"$R/cpu/$g/cpu.cfs_period_us"
done
for g in "" g1 g1/sub; do
	echo 5000000 >"$R/cpuacct/$g/cpuacct.usage"
done

run cpm-throttle --cgroup-root "$R" --interval 100ms --json
got=$(printf '%s' "$out" | python3 -c '
import json, sys
d = json.load(sys.stdin)
print(" ".join("%s:%s" % (g["group"], "null" if g["usage"] is None else "n")
               for g in d["groups"]))')
assert "usage from the cpuacct group of the same path, null where none" "$got" \
    "/:n g1:n g1/sub:n g2:null g2/sub:null"
run cpm-throttle --cgroup-root "$R" --interval 100ms -O group,usage
assert "USAGE is '-' for a group without a cpuacct group" \
    "$(printf '%s' "$out" | awk '$1 == "g2" { print $2 }')" "-"
rm "$R/cpuacct/g1/sub/cpuacct.usage"
run cpm-throttle --cgroup-root "$R" --interval 100ms -O group,usage
assert "a cpuacct group without cpuacct.usage has no usage" \
    "$(printf '%s' "$out" | awk '$1 == "g1/sub" { print $2 }')" "-"
