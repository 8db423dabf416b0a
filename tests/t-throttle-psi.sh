# SPDX-License-Identifier: GPL-2.0-or-later
# cpm-throttle's pressure (PSI) and burst counters on cgroup v2 trees made
# here with --cgroup-root and a node /proc/pressure made below
# CPM_SYSROOT: fake files written by this script, since this host's
# kernel (cgroup v1) has no per-group pressure files.  t-throttle-live.sh
# checks the host's own /proc/pressure and the v1 groups without them.
. "$(dirname "$0")/lib.sh"

TAB=$(printf '\t')

# grp ROOT GROUP CPU_MAX NR_PERIODS NR_THROTTLED NR_BURSTS BURST_USEC
grp() {
	mkdir -p "$1/$2"
	echo "$3" >"$1/$2/cpu.max"
	printf 'usage_usec 0\nuser_usec 0\nsystem_usec 0\nnr_periods %s\nnr_throttled %s\nthrottled_usec 0\nnr_bursts %s\nburst_usec %s\n' \
	    "$4" "$5" "$6" "$7" >"$1/$2/cpu.stat"
}

# psi FILE SOME_AVG10 SOME_TOTAL [FULL_AVG10 FULL_TOTAL]
psi() {
	printf 'some avg10=%s avg60=0.00 avg300=0.00 total=%s\n' "$2" "$3" >"$1"
	[ $# -lt 5 ] ||
		printf 'full avg10=%s avg60=0.00 avg300=0.00 total=%s\n' "$4" "$5" >>"$1"
}

V2=$T_TMP/v2
mkdir -p "$V2"
echo "cpu cpuset" >"$V2/cgroup.controllers"
grp "$V2" . "max 100000" 0 0 0 0
grp "$V2" a "50000 100000" 100 40 5 1000000
grp "$V2" b "20000 100000" 10 1 0 0
psi "$V2/a/cpu.pressure" 12.50 100000000 2.30 20000000
psi "$V2/a/memory.pressure" 1.00 5000000 0.50 1000000
psi "$V2/a/io.pressure" 3.00 7000000 0.00 0
# b: a kernel before 5.13, no full line for cpu, and no memory file
psi "$V2/b/cpu.pressure" 40.00 9000000
SYS=$T_TMP/sys
mkdir -p "$SYS/proc/pressure"
psi "$SYS/proc/pressure/cpu" 5.00 300000000 0.00 0
psi "$SYS/proc/pressure/memory" 0.10 1000 0.00 500
# no io file: an old kernel's, or a dump without it
export CPM_SYSROOT="$SYS"

check "without a window PSI_SOME and PSI_FULL are the kernel's avg10" 0 \
"GROUP${TAB}PSI_SOME${TAB}PSI_FULL${TAB}BURSTS${TAB}BURST_S
a${TAB}0.125${TAB}0.023${TAB}5${TAB}1.000
b${TAB}0.400${TAB}-${TAB}0${TAB}0.000" \
    cpm-throttle --cgroup-root "$V2" -o tsv -O group,psi_some,psi_full,bursts,burst_s

check "memory and io columns read those files; a missing one shows '-'" 0 \
"GROUP${TAB}PSI_MEM_SOME${TAB}PSI_MEM_FULL${TAB}PSI_IO_SOME${TAB}PSI_IO_FULL
a${TAB}0.010${TAB}0.005${TAB}0.030${TAB}0.000
b${TAB}-${TAB}-${TAB}-${TAB}-" \
    cpm-throttle --cgroup-root "$V2" -o tsv -O group,psi_mem_some,psi_mem_full,psi_io_some,psi_io_full

check "JSON carries bursts, cpu pressure and the node's pressure" 0 \
'{"version":2,"cumulative":true,"window_s":null,"node_pressure":{"cpu":{"some":0.050000,"some_total_s":300.000000,"full":0.000000,"full_total_s":0.000000},"memory":{"some":0.001000,"some_total_s":0.001000,"full":0.000000,"full_total_s":0.000500}},"groups":[{"group":"a","periods":100,"throttled":40,"ratio":0.400000,"throttled_s":0.000000000,"limit":0.500000,"usage":null,"reset":false,"pinned_throttled":false,"bursts":5,"burst_s":1.000000000,"psi_some":0.125000,"psi_full":0.023000},{"group":"b","periods":10,"throttled":1,"ratio":0.100000,"throttled_s":0.000000000,"limit":0.200000,"usage":null,"reset":false,"pinned_throttled":false,"bursts":0,"burst_s":0.000000000,"psi_some":0.400000,"psi_full":null}]}' \
    cpm-throttle --cgroup-root "$V2" --json

run cpm-throttle --cgroup-root "$V2" --json --pressure cpu,memory,io
case $out in
*'"psi_mem_some":0.010000,"psi_mem_full":0.005000,"psi_io_some":0.030000,"psi_io_full":0.000000}'*)
	ok "--pressure all adds the memory and io members" ;;
*)	not_ok "--pressure all adds the memory and io members" "$(show)" ;;
esac
run cpm-throttle --cgroup-root "$V2" --json --pressure none
case $out in
*node_pressure*|*psi_some\":0.*) not_ok "--pressure none reads no pressure" "$(show)" ;;
*)	ok "--pressure none reads no pressure" ;;
esac

# Prometheus: cAdvisor's names with cpm's prefix, the node as its own family.
run cpm-throttle --cgroup-root "$V2" -o prom
printf '%s' "$out" >"$T_TMP/psi.prom"
assert "-o prom has the groups' pressure counters (some: waiting, full: stalled)" \
    "$(grep -E '^cpm_pressure_' "$T_TMP/psi.prom")" \
'cpm_pressure_cpu_waiting_seconds_total{cgroup="a",id="/a"} 100.000000
cpm_pressure_cpu_waiting_seconds_total{cgroup="b",id="/b"} 9.000000
cpm_pressure_cpu_stalled_seconds_total{cgroup="a",id="/a"} 20.000000'
assert "-o prom has the burst counters" \
    "$(grep -E '^cpm_cpu_cfs_burst' "$T_TMP/psi.prom")" \
'cpm_cpu_cfs_bursts_total{cgroup="a",id="/a"} 5
cpm_cpu_cfs_bursts_total{cgroup="b",id="/b"} 0
cpm_cpu_cfs_burst_seconds_total{cgroup="a",id="/a"} 1.000000000
cpm_cpu_cfs_burst_seconds_total{cgroup="b",id="/b"} 0.000000000'
assert "-o prom has the node's pressure as its own family" \
    "$(grep -E '^cpm_node_pressure_' "$T_TMP/psi.prom")" \
'cpm_node_pressure_cpu_waiting_seconds_total 300.000000
cpm_node_pressure_cpu_stalled_seconds_total 0.000000
cpm_node_pressure_memory_waiting_seconds_total 0.001000
cpm_node_pressure_memory_stalled_seconds_total 0.000500'
now=$(date +%s)
ts=$(sed -n 's/^cpm_throttle_last_run_timestamp_seconds \([0-9]*\)\..*/\1/p' "$T_TMP/psi.prom")
if [ -n "$ts" ] && [ $((ts - now)) -le 1 ] && [ $((now - ts)) -le 5 ]; then
	ok "-o prom says when the report was taken"
else
	not_ok "-o prom says when the report was taken" "$out"
fi
if grep -q '^cpm_throttle_window_seconds' "$T_TMP/psi.prom"; then
	not_ok "a cumulative report has no window metric" "$out"
else
	ok "a cumulative report has no window metric"
fi
if command -v promtool >/dev/null; then
	if promtool check metrics <"$T_TMP/psi.prom" >"$T_TMP/promtool.out" 2>&1; then
		ok "pressure metrics pass promtool check metrics"
	else
		not_ok "pressure metrics pass promtool check metrics" "$(cat "$T_TMP/promtool.out")"
	fi
else
	skip "pressure metrics pass promtool check metrics" "promtool not installed"
fi

# --since: shares from the totals over the window, bursts as differences.
SNAP=$T_TMP/psi.snap
run cpm-throttle --cgroup-root "$V2" --since "$SNAP" -o names
# memory and io only with --pressure: none here
assert "--since records the cpu pressure totals and bursts" \
    "$rc:$(grep -c '^node ' "$SNAP"):$(grep '^g a ' "$SNAP" | cut -d' ' -f11-)" \
    "0:2:5 1000000000 100000000 20000000 - - - -"
# the snapshot taken 1000 s ago: 200 s more of cpu some is a fifth
back=$(( $(sed -n 's/^time //p' "$SNAP") - 1000000000 ))
sed -i "s/^time .*/time $back/" "$SNAP"
grp "$V2" a "50000 100000" 200 40 8 1500000
psi "$V2/a/cpu.pressure" 99.00 300000000 50.00 70000000
psi "$V2/b/cpu.pressure" 0.00 9000000
psi "$SYS/proc/pressure/cpu" 0.00 400000000 0.00 0
cp "$SNAP" "$T_TMP/psi.snap.before"
rm -f "$SNAP.lock"
check "--dry-run reports the differences since the snapshot" 0 \
"GROUP${TAB}PSI_SOME${TAB}PSI_FULL${TAB}BURSTS${TAB}BURST_S
a${TAB}0.200${TAB}0.050${TAB}3${TAB}0.500
b${TAB}0.000${TAB}-${TAB}0${TAB}0.000" \
    cpm-throttle --cgroup-root "$V2" --since "$SNAP" --dry-run -o tsv -O group,psi_some,psi_full,bursts,burst_s
if cmp -s "$SNAP" "$T_TMP/psi.snap.before" && [ ! -e "$SNAP.lock" ]; then
	ok "--dry-run leaves the snapshot as it was, and takes no lock"
else
	not_ok "--dry-run leaves the snapshot as it was, and takes no lock" "$(ls -l "$T_TMP")"
fi
run cpm-throttle --cgroup-root "$V2" --since "$SNAP" --dry-run --json
case $out in
*'"node_pressure":{"cpu":{"some":0.099'[89]*) ok "--dry-run: the node's share from its totals" ;;
*)	not_ok "--dry-run: the node's share from its totals" "$(show)" ;;
esac
run cpm-throttle --cgroup-root "$V2" --since "$SNAP" --prom-file "$T_TMP/textfile.prom"
win=$(sed -n 's/^cpm_throttle_window_seconds \([0-9]*\)\..*/\1/p' "$T_TMP/textfile.prom")
if [ "$rc" = 0 ] && [ -n "$win" ] && [ "$win" -ge 1000 ] && [ "$win" -le 1005 ]; then
	ok "the textfile has the window since the previous snapshot"
else
	not_ok "the textfile has the window since the previous snapshot" "$(show)" "$(cat "$T_TMP/textfile.prom")"
fi
if command -v promtool >/dev/null; then
	promtool check metrics <"$T_TMP/textfile.prom" >"$T_TMP/promtool.out" 2>&1 &&
		ok "the textfile passes promtool check metrics" ||
		not_ok "the textfile passes promtool check metrics" "$(cat "$T_TMP/promtool.out")"
fi
if cmp -s "$SNAP" "$T_TMP/psi.snap.before"; then
	not_ok "without --dry-run the snapshot is replaced"
else
	ok "without --dry-run the snapshot is replaced"
fi
check "right after it, the window is short and nothing grew" 0 \
"GROUP${TAB}PSI_SOME${TAB}BURSTS
a${TAB}0.000${TAB}0
b${TAB}0.000${TAB}0" \
    cpm-throttle --cgroup-root "$V2" --since "$SNAP" -o tsv -O group,psi_some,bursts

# A recreated group: its totals since it came, not a negative share.
rm -rf "${V2:?}/a"
grp "$V2" a "50000 100000" 5 0 2 100
psi "$V2/a/cpu.pressure" 0.00 0
back=$(( $(sed -n 's/^time //p' "$SNAP") - 1000000000 ))
sed -i "s/^time .*/time $back/" "$SNAP"
check "a recreated group's counters and pressure count from its start" 0 \
"GROUP${TAB}RESET${TAB}PSI_SOME${TAB}BURSTS${TAB}BURST_S
a${TAB}yes${TAB}0.000${TAB}2${TAB}0.000
b${TAB}no${TAB}0.000${TAB}0${TAB}0.000" \
    cpm-throttle --cgroup-root "$V2" --since "$SNAP" -o tsv -O group,reset,psi_some,bursts,burst_s

run cpm-throttle --cgroup-root "$V2" --since "$T_TMP/none.snap" --dry-run -o names
assert "--dry-run without a snapshot reports cumulative and creates nothing" \
    "$rc:$(ls "$T_TMP" | grep -c none.snap)" "0:0"
check_fail "--dry-run needs --since" 2 "dry-run needs --since" \
    cpm-throttle --cgroup-root "$V2" --dry-run
check_fail "--dry-run writes no --prom-file" 2 "not with --prom-file" \
    cpm-throttle --cgroup-root "$V2" --since "$SNAP" --dry-run --prom-file "$T_TMP/x.prom"

# A snapshot of an older cpm (ten fields) still serves as the start.
printf 'cpm-throttle-snapshot 1\nversion 2\nhierarchy %s\ntime 1\ng a 1 50000 100000 1 5 0 0 -\nend 1\n' \
    "$V2" >"$T_TMP/old.snap"
run cpm-throttle --cgroup-root "$V2" --since "$T_TMP/old.snap" -o names
assert "a snapshot without bursts and pressure is read" "$rc:$out" "0:b
a
"

# Thresholds.
psi "$V2/a/cpu.pressure" 30.00 1000
check "--min-pressure hides groups below it" 0 "a" \
    cpm-throttle --cgroup-root "$V2" --min-pressure 20% -o names
run cpm-throttle --cgroup-root "$V2" --fail-above pressure=0.25 -o names
assert "--fail-above pressure=P exits 3 naming the group" "$rc:${err%
}" \
    "3:cpm-throttle: pressure above --fail-above pressure=0.25: a (pressure 0.300)"
run cpm-throttle --cgroup-root "$V2" --fail-above pressure=0.5,ratio=0.9 -o names
assert "--fail-above below both thresholds exits 0" "$rc" 0
run cpm-throttle --cgroup-root "$V2" --fail-above 0.01,pressure=0.9 -o names
assert "--fail-above R,pressure=P still checks the ratio" "$rc" 3
for bad in pressure=2 pressure= ratio=x 0.5, ,0.5 cpu=0.5; do
	check_fail "--fail-above '$bad' is refused" 2 "invalid ratio" \
	    cpm-throttle --cgroup-root "$V2" --fail-above "$bad"
done
check_fail "--min-pressure above 1 is refused" 2 "invalid pressure" \
    cpm-throttle --cgroup-root "$V2" --min-pressure 1.5
check_fail "--pressure with an unknown resource is refused" 2 "invalid --pressure" \
    cpm-throttle --cgroup-root "$V2" --pressure cpu,disk

# Malformed pressure files are refused as a malformed cpu.stat is.
cp "$SNAP" "$T_TMP/psi.snap.before"
printf 'some avg10=x avg60=0.00 avg300=0.00 total=1\n' >"$V2/a/cpu.pressure"
check_fail "a malformed cpu.pressure is an error naming the file" 2 \
    "^cpm-throttle: cpu.pressure of a: unexpected content\$" \
    cpm-throttle --cgroup-root "$V2" --since "$SNAP" -o names
cmp -s "$SNAP" "$T_TMP/psi.snap.before" &&
	ok "the snapshot is untouched after a malformed pressure file" ||
	not_ok "the snapshot is untouched after a malformed pressure file"
check "a table without pressure columns does not read pressure files" 0 "b
a" cpm-throttle --cgroup-root "$V2" -o names --pressure none
psi "$V2/a/cpu.pressure" 0.00 1000
printf 'some total=1\n' >"$SYS/proc/pressure/memory"
check_fail "a malformed /proc/pressure file is an error" 2 \
    "proc/pressure/memory: unexpected content\$" \
    cpm-throttle --cgroup-root "$V2" --json
rm -f "$SYS/proc/pressure/memory"
# an empty sysroot: no node pressure, no error
mkdir -p "$T_TMP/empty"
run env CPM_SYSROOT="$T_TMP/empty" cpm-throttle --cgroup-root "$V2" -o prom
case $rc:$out in
0:*cpm_node_pressure*) not_ok "without /proc/pressure there is no node family" "$(show)" ;;
0:*cpm_pressure_cpu_waiting*) ok "without /proc/pressure there is no node family" ;;
*)	not_ok "without /proc/pressure there is no node family" "$(show)" ;;
esac
