# SPDX-License-Identifier: GPL-2.0-or-later
# cpm-throttle on cgroup trees made here with --cgroup-root: fake files
# written by this script (not a kernel), v1 and v2 layouts, kubepods trees
# of both kubelet drivers, counter wrap-around and recreated groups, and
# invalid input.  The real kernel is exercised by t-throttle-live.sh.
. "$(dirname "$0")/lib.sh"
# No node pressure: the host's /proc/pressure changes from run to run
# (t-throttle-psi.sh has fake ones).
mkdir -p "$T_TMP/nosys"
export CPM_SYSROOT="$T_TMP/nosys"

TAB=$(printf '\t')
HDR="GROUP${TAB}PERIODS${TAB}THROTTLED${TAB}RATIO${TAB}THROTTLED_S${TAB}LIMIT${TAB}USAGE"

# v1grp ROOT GROUP QUOTA NR_PERIODS NR_THROTTLED THROTTLED_NS USAGE_NS
v1grp() {
	_d=$1/cpu/$2
	[ "$2" = / ] && _d=$1/cpu
	mkdir -p "$_d" "$1/cpuacct/$2"
	echo "$3" >"$_d/cpu.cfs_quota_us"
	echo 100000 >"$_d/cpu.cfs_period_us"
	printf 'nr_periods %s\nnr_throttled %s\nthrottled_time %s\nnr_bursts 0\nburst_time 0\n' \
	    "$4" "$5" "$6" >"$_d/cpu.stat"
	echo "$7" >"$1/cpuacct/$2/cpuacct.usage"
}

# v2grp ROOT GROUP CPU_MAX NR_PERIODS NR_THROTTLED THROTTLED_USEC USAGE_USEC
v2grp() {
	_d=$1/$2
	mkdir -p "$_d"
	echo "$3" >"$_d/cpu.max"
	printf 'usage_usec %s\nuser_usec 0\nsystem_usec 0\nnr_periods %s\nnr_throttled %s\nthrottled_usec %s\nnr_bursts 0\nburst_usec 0\n' \
	    "$7" "$4" "$5" "$6" >"$_d/cpu.stat"
}

V1=$T_TMP/v1
v1grp "$V1" / -1 0 0 0 0
v1grp "$V1" a 50000 100 25 2000000000 5000000000
v1grp "$V1" a/x -1 0 0 0 100
v1grp "$V1" b -1 0 0 0 0
v1grp "$V1" c 20000 10 9 0 0

check "the default report lists limited groups by ratio" 0 \
"$HDR
c${TAB}10${TAB}9${TAB}0.900${TAB}0.000${TAB}0.2${TAB}-
a${TAB}100${TAB}25${TAB}0.250${TAB}2.000${TAB}0.5${TAB}-" \
    cpm-throttle --cgroup-root "$V1" -o tsv

check "CPM_CGROUP_ROOT selects the tree too" 0 "c
a" env CPM_CGROUP_ROOT="$V1" cpm-throttle -o names

check "--all lists unlimited groups and the root" 0 "c
a
/
a/x
b" cpm-throttle --cgroup-root "$V1" --all -o names

check "a GROUP reports itself and its descendants" 0 "a
a/x" cpm-throttle --cgroup-root "$V1" -o names a

check "--all with a GROUP is the same as the GROUP alone" 0 "a
a/x" cpm-throttle --cgroup-root "$V1" --all -o names a

check "--min-ratio hides groups below it" 0 "c" \
    cpm-throttle --cgroup-root "$V1" --min-ratio 0.5 -o names
check "--min-ratio takes a percentage" 0 "c
a" cpm-throttle --cgroup-root "$V1" --min-ratio 25% -o names
check "--top keeps the highest rows" 0 "c" \
    cpm-throttle --cgroup-root "$V1" --top 1 -o names

run cpm-throttle --cgroup-root "$V1" --fail-above 0.8 -o names
assert "--fail-above exits 3 when a group is above it and still reports" "$rc:$out" "3:c
a
"
assert "--fail-above names the groups above it on stderr" "$err" \
    "cpm-throttle: throttled above --fail-above 0.8: c (0.900)
"
run cpm-throttle --cgroup-root "$V1" --fail-above 0.2 -o prom
assert "--fail-above names every group above it, whatever the output" "$rc:$err" \
    "3:cpm-throttle: throttled above --fail-above 0.2: c (0.900), a (0.250)
"
i=0
while [ $i -lt 12 ]; do v1grp "$T_TMP/many" "g$i" 50000 100 60 0 0; i=$((i + 1)); done
v1grp "$T_TMP/many" / -1 0 0 0 0
run cpm-throttle --cgroup-root "$T_TMP/many" --fail-above 0.5 -o names
assert "--fail-above names ten groups and counts the others" "$rc:$err" \
    "3:cpm-throttle: throttled above --fail-above 0.5: g0 (0.600), g1 (0.600), g10 (0.600), g11 (0.600), g2 (0.600), g3 (0.600), g4 (0.600), g5 (0.600), g6 (0.600), g7 (0.600) and 2 more
"
run cpm-throttle --cgroup-root "$V1" --fail-above 0.9 -o names
assert "--fail-above is strict: a ratio equal to it passes" "$rc" 0
run cpm-throttle --cgroup-root "$V1" --fail-above 0.5 --min-ratio 0.95 -o names
assert "--fail-above looks only at reported groups" "$rc:$out" "0:"

run cpm-throttle --cgroup-root "$V1"
case $out in
"GROUP  PERIODS  THROTTLED  RATIO  THROTTLED_S  LIMIT  USAGE
c           10          9  0.900        0.000    0.2      -
a          100         25  0.250        2.000    0.5      -
") ok "the table aligns its columns" ;;
*) not_ok "the table aligns its columns" "$(show)" ;;
esac

run cpm-throttle --cgroup-root "$V1" -o json
if [ "$rc" = 0 ] && printf '%s' "$out" | python3 -c '
import json, sys
d = json.load(sys.stdin)
g = {x["group"]: x for x in d["groups"]}
assert d["cumulative"] is True and d["window_s"] is None
assert [x["group"] for x in d["groups"]] == ["c", "a"]
assert g["a"]["periods"] == 100 and g["a"]["throttled"] == 25
assert abs(g["a"]["ratio"] - 0.25) < 1e-9 and abs(g["a"]["throttled_s"] - 2) < 1e-9
assert abs(g["a"]["limit"] - 0.5) < 1e-9 and g["a"]["usage"] is None
'; then ok "json is one document with null usage when cumulative"
else not_ok "json is one document with null usage when cumulative" "$(show)"; fi

# Column selection: -O/--columns, --raw, --noheadings.
check "-O picks columns in its order and any case" 0 "RATIO  GROUP
0.900  c
0.250  a" cpm-throttle --cgroup-root "$V1" -O ratio,Group
check "--columns with -o tsv and --noheadings" 0 "c${TAB}no
a${TAB}no" cpm-throttle --cgroup-root "$V1" --columns group,reset -o tsv --noheadings
mkdir -p "$V1/cpu/sp ace" "$V1/cpuacct/sp ace"
v1grp "$V1" "sp ace" 10000 4 1 0 0
check "--raw: one space between cells, spaces inside escaped" 0 "GROUP RATIO LIMIT
c 0.900 0.2
a 0.250 0.5
sp\\x20ace 0.250 0.1" cpm-throttle --cgroup-root "$V1" -O group,ratio,limit --raw
rm -r "$V1/cpu/sp ace" "$V1/cpuacct/sp ace"
check "-O names the Kubernetes columns without --k8s" 0 "c${TAB}-${TAB}-" \
    sh -c "cpm-throttle --cgroup-root '$V1' -o tsv -O group,qos,pod | sed -n 2p"
check "-O with json selects the members of the groups" 0 \
    '{"version":1,"cumulative":true,"window_s":null,"groups":[{"ratio":0.900000,"pinned_throttled":false},{"ratio":0.250000,"pinned_throttled":false}]}' \
    cpm-throttle --cgroup-root "$V1" --json -O ratio,PINNED_THROTTLED
check_fail "an unknown column is refused with the valid ones" 2 \
    "^cpm-throttle: unknown column 'ratioo' \(valid: GROUP, PERIODS, THROTTLED, RATIO, THROTTLED_S, LIMIT, USAGE, RESET, PINNED_THROTTLED, QOS, POD, CONTAINER, UNIT, BURSTS, BURST_S, PSI_SOME, PSI_FULL, PSI_MEM_SOME, PSI_MEM_FULL, PSI_IO_SOME, PSI_IO_FULL\)\$" \
    cpm-throttle --cgroup-root "$V1" -O group,ratioo
check_fail "-O does not go with -o names" 2 "columns goes with" \
    cpm-throttle --cgroup-root "$V1" -O group -o names
check_fail "--raw does not go with -o tsv" 2 "raw goes with" \
    cpm-throttle --cgroup-root "$V1" --raw -o tsv
check_fail "--noheadings does not go with -o prom" 2 "noheadings goes with" \
    cpm-throttle --cgroup-root "$V1" --noheadings -o prom
S0=$T_TMP/cols.snap
check_fail "a bad column list is refused before the snapshot is touched" 2 \
    "unknown column" cpm-throttle --cgroup-root "$V1" --since "$S0" -O nope
[ ! -e "$S0" ] && ok "no snapshot was written for a bad column list" ||
    not_ok "no snapshot was written for a bad column list"

# Prometheus text, checked by promtool when it is installed.
run cpm-throttle --cgroup-root "$V1" -o prom
printf '%s' "$out" >"$T_TMP/out.prom"
if command -v promtool >/dev/null; then
	if promtool check metrics <"$T_TMP/out.prom" >"$T_TMP/promtool.out" 2>&1; then
		ok "-o prom passes promtool check metrics"
	else
		not_ok "-o prom passes promtool check metrics" "$(cat "$T_TMP/promtool.out")" "$out"
	fi
else
	skip "-o prom passes promtool check metrics" "promtool not installed"
fi
assert "-o prom has the counters of the contract" \
    "$(grep -c '^cpm_cpu_cfs_periods_total{cgroup="a",id="/a"} 100$
^cpm_cpu_cfs_throttled_periods_total{cgroup="a",id="/a"} 25$
^cpm_cpu_cfs_throttled_seconds_total{cgroup="a",id="/a"} 2\.0*$
^# TYPE cpm_cpu_cfs_periods_total counter$
^# HELP cpm_cpu_cfs_throttled_seconds_total ' "$T_TMP/out.prom")" 5
assert "-o prom has a limit gauge but no ratio gauge without a window" \
    "$(grep -c '^cpm_cpu_cfs_limit_cpus{cgroup="c",id="/c"} 0.2$' "$T_TMP/out.prom"):$(grep -c ratio "$T_TMP/out.prom")" "1:0"

# --prom-file: atomic, nothing on stdout unless -o is given.
mkdir "$T_TMP/textfile"
run cpm-throttle --cgroup-root "$V1" --prom-file "$T_TMP/textfile/cpm.prom"
assert "--prom-file writes the file and keeps stdout empty" \
    "$rc:$out:$(ls -A "$T_TMP/textfile")" "0::cpm.prom"
# but for the time of the run
assert "--prom-file holds the same text as -o prom" \
    "$(grep -v '^cpm_throttle_last_run' "$T_TMP/textfile/cpm.prom")" \
    "$(grep -v '^cpm_throttle_last_run' "$T_TMP/out.prom")"
run cpm-throttle --cgroup-root "$V1" --prom-file "$T_TMP/textfile/cpm.prom" -o names
assert "--prom-file with -o prints as well" "$rc:$out" "0:c
a
"

# --since: cumulative the first time, then the difference.
SNAP=$T_TMP/snap
run cpm-throttle --cgroup-root "$V1" --since "$SNAP" -o tsv
assert "--since without a snapshot reports cumulative counters and creates it" \
    "$rc:$(printf '%s' "$out" | sed -n 2p):$(head -1 "$SNAP")" \
    "0:c${TAB}10${TAB}9${TAB}0.900${TAB}0.000${TAB}0.2${TAB}-:cpm-throttle-snapshot 1"
v1grp "$V1" a 50000 140 26 2500000000 5500000000
v1grp "$V1" c 20000 60 59 1000000000 100000000
run cpm-throttle --cgroup-root "$V1" --since "$SNAP" -o json
if [ "$rc" = 0 ] && printf '%s' "$out" | python3 -c '
import json, sys
d = json.load(sys.stdin)
g = {x["group"]: x for x in d["groups"]}
assert d["cumulative"] is False
assert (g["c"]["periods"], g["c"]["throttled"]) == (50, 50), g["c"]
assert (g["a"]["periods"], g["a"]["throttled"]) == (40, 1), g["a"]
assert abs(g["a"]["throttled_s"] - 0.5) < 1e-9 and not g["a"]["reset"]
assert g["a"]["usage"] is not None and g["a"]["usage"] > 0
'; then ok "--since reports the difference from the snapshot"
else not_ok "--since reports the difference from the snapshot" "$(show)"; fi
check "--since replaced the snapshot: nothing new is reported twice" 0 \
"$HDR
a${TAB}0${TAB}0${TAB}0.000${TAB}0.000${TAB}0.5${TAB}0
c${TAB}0${TAB}0${TAB}0.000${TAB}0.000${TAB}0.2${TAB}0" \
    cpm-throttle --cgroup-root "$V1" --since "$SNAP" -o tsv

# Two runs at once report each period once between them.
v1grp "$V1" c 20000 110 109 1000000000 100000000
cpm-throttle --cgroup-root "$V1" --since "$SNAP" -o tsv c >"$T_TMP/par1" &
cpm-throttle --cgroup-root "$V1" --since "$SNAP" -o tsv c >"$T_TMP/par2"
wait
check "a --since run over some groups keeps the others' snapshot" 0 \
    "a${TAB}0${TAB}0${TAB}0.000${TAB}0.000${TAB}0.5${TAB}0" \
    sh -c "cpm-throttle --cgroup-root '$V1' --since '$SNAP' -o tsv | grep '^a'"
assert "concurrent --since runs do not report a period twice" \
    "$(cat "$T_TMP/par1" "$T_TMP/par2" | awk -F'\t' '$1 == "c" { n += $2 } END { print n }')" 50
# A fresh host has no /var/lib/cpm: --since makes it, as cpm-alloc makes
# its state's directory.
run sh -c "umask 022; cpm-throttle --cgroup-root '$V1' --since '$T_TMP/new/cpm/snap' -o tsv a"
assert "--since creates its missing directory, mode 0755" \
    "$rc:$(stat -c %a "$T_TMP/new/cpm" 2>&1):$(ls "$T_TMP/new/cpm" 2>&1 | tr '\n' ' ')" "0:755:snap snap.lock "
check_fail "a missing group with --since creates no directory" 1 "not found" \
    cpm-throttle --cgroup-root "$V1" --since "$T_TMP/new2/snap" nosuchgroup
assert "no directory is left after a missing group" "$(ls -d "$T_TMP/new2" 2>/dev/null)" ""
: >"$T_TMP/afile"
check_fail "--since where no directory can be made fails before reporting" 1 \
    "cannot create directory '$T_TMP/afile/d' for --since" \
    cpm-throttle --cgroup-root "$V1" --since "$T_TMP/afile/d/snap"
if is_root; then
	mkdir "$T_TMP/theirs"
	chown 65534 "$T_TMP/theirs"
	check_fail "a --since directory another user owns is refused" 1 \
	    "directory '$T_TMP/theirs' of --since is owned by another user" \
	    cpm-throttle --cgroup-root "$V1" --since "$T_TMP/theirs/snap"
	assert "nothing is written into it" "$(ls -A "$T_TMP/theirs")" ""
else
	skip "a --since directory another user owns is refused" "needs root to give it away"
fi

run cpm-throttle --cgroup-root "$V1" --since "$SNAP" -o prom
printf '%s' "$out" >"$T_TMP/since.prom"
assert "the ratio gauge appears when there is a window" \
    "$(grep -c '^cpm_cpu_cfs_throttled_ratio{cgroup="a",id="/a"} 0.000000$' "$T_TMP/since.prom")" 1
if command -v promtool >/dev/null; then
	if promtool check metrics <"$T_TMP/since.prom" >"$T_TMP/promtool.out" 2>&1; then
		ok "windowed -o prom passes promtool check metrics"
	else
		not_ok "windowed -o prom passes promtool check metrics" "$(cat "$T_TMP/promtool.out")"
	fi
fi

# 32-bit wrap: the kernel prints an int, so 2147483600 + 100 reads as
# -2147483596.
W=$T_TMP/wrap
v1grp "$W" g 10000 2147483600 2147483590 0 0
cpm-throttle --cgroup-root "$W" --since "$W.snap" -o names >/dev/null
v1grp "$W" g 10000 -2147483596 -2147483606 1000 1000
check "wrapped period counters give the true difference" 0 \
    "g${TAB}100${TAB}100${TAB}1.000" \
    sh -c "cpm-throttle --cgroup-root '$W' --since '$W.snap' -o tsv | sed 1d | cut -f1-4"
check "a wrapped cumulative counter is not negative" 0 \
    "g${TAB}2147483700${TAB}2147483690" \
    sh -c "cpm-throttle --cgroup-root '$W' -o tsv | sed 1d | cut -f1-3"

# A recreated group (another directory, smaller counters) is a reset.
R=$T_TMP/recreate
v1grp "$R" g 10000 5000 4000 9000000000 9000000000
cpm-throttle --cgroup-root "$R" --since "$R.snap" -o names >/dev/null
rm -rf "$R/cpu/g"
v1grp "$R" g 10000 7 3 1000 5000
run cpm-throttle --cgroup-root "$R" --since "$R.snap" -o json
if [ "$rc" = 0 ] && printf '%s' "$out" | python3 -c '
import json, sys
g = json.load(sys.stdin)["groups"][0]
assert (g["periods"], g["throttled"], g["reset"]) == (7, 3, True), g
'; then ok "a recreated group reports its new counters, flagged as a reset"
else not_ok "a recreated group reports its new counters, flagged as a reset" "$(show)"; fi
# Same directory, counters went backwards (the usage dropped).
v1grp "$R" g 10000 2 1 10 10
check "counters that went backwards are a reset, never negative" 0 \
    "g${TAB}2${TAB}1${TAB}0.500" \
    sh -c "cpm-throttle --cgroup-root '$R' --since '$R.snap' -o tsv | sed 1d | cut -f1-4"

# cgroup v2 tree.
V2=$T_TMP/v2
mkdir -p "$V2"
echo "cpuset cpu memory" >"$V2/cgroup.controllers"
printf 'usage_usec 100\nuser_usec 0\nsystem_usec 0\n' >"$V2/cpu.stat"
v2grp "$V2" web "50000 100000" 200 150 3000000 1000
v2grp "$V2" web/x "max 100000" 0 0 0 10
v2grp "$V2" db "max 100000" 0 0 0 10
check "a v2 tree reports cpu.max limits and usec counters" 0 \
"$HDR
web${TAB}200${TAB}150${TAB}0.750${TAB}3.000${TAB}0.5${TAB}-" \
    cpm-throttle --cgroup-root "$V2" -o tsv
check "an interval on an idle tree gives zero differences and a usage" 0 \
"$HDR
web${TAB}0${TAB}0${TAB}0.000${TAB}0.000${TAB}0.5${TAB}0" \
    cpm-throttle --cgroup-root "$V2" --interval 10ms -o tsv

# Pinned but throttled: exclusive cpuset and a quota.
P=$T_TMP/pinned
v1grp "$P" db 20000 10 8 0 0
mkdir -p "$P/cpuset/db"
echo 1 >"$P/cpuset/db/cpuset.cpu_exclusive"
run cpm-throttle --cgroup-root "$P" -o json
if [ "$rc" = 0 ] && printf '%s' "$err" | grep -q "warning: 'db' has exclusive CPUs but is still throttled" &&
    printf '%s' "$out" | python3 -c '
import json, sys
assert json.load(sys.stdin)["groups"][0]["pinned_throttled"] is True'; then
	ok "a pinned but throttled group is flagged"
else
	not_ok "a pinned but throttled group is flagged" "$(show)"
fi
echo 0 >"$P/cpuset/db/cpuset.cpu_exclusive"
run cpm-throttle --cgroup-root "$P" -o json
assert "a group without an exclusive cpuset is not flagged" \
    "$rc:$err:$(printf '%s' "$out" | grep -c '"pinned_throttled":true')" "0::0"

# Kubernetes paths, cgroupfs driver.
K=$T_TMP/k8s-cgroupfs
v1grp "$K" kubepods -1 0 0 0 0
v1grp "$K" kubepods/burstable -1 0 0 0 0
v1grp "$K" kubepods/burstable/pod11111111-2222-3333-4444-555555555555 100000 40 20 0 0
v1grp "$K" kubepods/burstable/pod11111111-2222-3333-4444-555555555555/abcdef0123 50000 40 30 0 0
v1grp "$K" kubepods/pod99999999-0000-0000-0000-000000000000 200000 10 1 0 0
check "--k8s adds qos, pod and container columns (cgroupfs driver)" 0 \
"QOS${TAB}POD${TAB}CONTAINER
Burstable${TAB}11111111-2222-3333-4444-555555555555${TAB}abcdef0123
Burstable${TAB}11111111-2222-3333-4444-555555555555${TAB}-
Guaranteed${TAB}99999999-0000-0000-0000-000000000000${TAB}-" \
    sh -c "cpm-throttle --cgroup-root '$K' --k8s -o tsv | cut -f8-"

# systemd driver, on v2.
S=$T_TMP/k8s-systemd
mkdir -p "$S"
echo "cpu" >"$S/cgroup.controllers"
POD=kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod0aa1_bb2.slice
v2grp "$S" kubepods.slice "max 100000" 0 0 0 0
v2grp "$S" kubepods.slice/kubepods-besteffort.slice "max 100000" 0 0 0 0
v2grp "$S" "$POD" "100000 100000" 10 5 0 0
v2grp "$S" "$POD/cri-containerd-beef42.scope" "50000 100000" 10 6 0 0
v2grp "$S" system.slice "50000 100000" 10 0 0 0
check "--k8s recognises the systemd driver" 0 \
"kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod0aa1_bb2.slice/cri-containerd-beef42.scope${TAB}BestEffort${TAB}0aa1-bb2${TAB}beef42
kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod0aa1_bb2.slice${TAB}BestEffort${TAB}0aa1-bb2${TAB}-
system.slice${TAB}-${TAB}-${TAB}-" \
    sh -c "cpm-throttle --cgroup-root '$S' --k8s -o tsv | sed 1d | cut -f1,8-"
run cpm-throttle --cgroup-root "$S" --k8s -o prom
printf '%s' "$out" >"$T_TMP/k8s.prom"
assert "--k8s adds Prometheus labels" \
    "$(grep -c '^cpm_cpu_cfs_periods_total{cgroup="[^"]*cri-containerd-beef42.scope",id="/[^"]*cri-containerd-beef42.scope",qos="BestEffort",pod="0aa1-bb2",uid="0aa1-bb2",container="beef42"} 10$' "$T_TMP/k8s.prom")" 1
if command -v promtool >/dev/null; then
	if promtool check metrics <"$T_TMP/k8s.prom" >"$T_TMP/promtool.out" 2>&1; then
		ok "--k8s -o prom passes promtool check metrics"
	else
		not_ok "--k8s -o prom passes promtool check metrics" "$(cat "$T_TMP/promtool.out")"
	fi
fi

# --watch prints rounds until stopped.
if command -v timeout >/dev/null; then
	timeout 3 cpm-throttle --cgroup-root "$V1" --watch --interval 100ms -o names \
	    >"$T_TMP/watch.out" 2>"$T_TMP/watch.err"
	n=$(grep -c '^c$' "$T_TMP/watch.out")
	if [ "$n" -ge 1 ] && [ "$(grep -vc '^[ac]$' "$T_TMP/watch.out")" = 0 ] &&
	    [ ! -s "$T_TMP/watch.err" ]; then
		ok "--watch -o names prints one group per line each round"
	else
		not_ok "--watch -o names prints one group per line each round" \
		    "$(cat "$T_TMP/watch.out" "$T_TMP/watch.err")"
	fi
fi

# Each --watch round of the table and of JSON says when it was taken.
if command -v timeout >/dev/null; then
	timeout 3 cpm-throttle --cgroup-root "$V1" --watch --interval 200ms c \
	    >"$T_TMP/watch.out" 2>&1
	stamps=$(grep -cE '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}[+-][0-9]{4}$' "$T_TMP/watch.out")
	heads=$(grep -c '^GROUP ' "$T_TMP/watch.out")
	if [ "$heads" -ge 2 ] && [ "$stamps" = "$heads" ] &&
	    [ "$(sed -n 2p "$T_TMP/watch.out" | cut -c1-6)" = "GROUP " ]; then
		ok "--watch puts the round's time above each table"
	else
		not_ok "--watch puts the round's time above each table" "$(cat "$T_TMP/watch.out")"
	fi
	timeout 3 cpm-throttle --cgroup-root "$V1" --watch --interval 200ms -o json c \
	    >"$T_TMP/watch.out" 2>&1
	if [ "$(wc -l <"$T_TMP/watch.out")" -ge 2 ] &&
	    ! grep -vqE '"window_s":[0-9.]+,"time":"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}[+-][0-9]{4}","groups":' "$T_TMP/watch.out"; then
		ok "--watch -o json gives each round a time member"
	else
		not_ok "--watch -o json gives each round a time member" "$(cat "$T_TMP/watch.out")"
	fi
	run cpm-throttle --cgroup-root "$V1" -o json c
	case $out in *'"time"'*) not_ok "a single report has no time member" "$out" ;;
	*) ok "a single report has no time member" ;; esac
fi

# Invalid input: exit 2, nothing printed, nothing changed.
check_fail "a duration needs a unit" 2 "invalid interval '5'" \
    cpm-throttle --cgroup-root "$V1" --interval 5
check_fail "a zero interval is refused" 2 "invalid interval" \
    cpm-throttle --cgroup-root "$V1" --interval 0s
check_fail "a ratio above 1 is refused" 2 "invalid ratio '1.5'" \
    cpm-throttle --cgroup-root "$V1" --min-ratio 1.5
check_fail "a negative ratio is refused" 2 "invalid ratio" \
    cpm-throttle --cgroup-root "$V1" --fail-above -0.1
check_fail "a ratio with junk is refused" 2 "invalid ratio" \
    cpm-throttle --cgroup-root "$V1" --fail-above 0.5x
check_fail "--top 0 is refused" 2 "invalid --top" \
    cpm-throttle --cgroup-root "$V1" --top 0
check_fail "an unknown output format is refused" 2 "invalid output format 'xml' \\(want table, tsv, json, prom or names\\)$" \
    cpm-throttle --cgroup-root "$V1" -o xml
check_fail "column names given to -o point to -O" 2 \
    "invalid output format 'group,ratio' .*; columns are chosen with -O group,ratio$" \
    cpm-throttle --cgroup-root "$V1" -o group,ratio
check_fail "one column name given to -o points to -O" 2 "columns are chosen with -O RATIO$" \
    cpm-throttle --cgroup-root "$V1" -o RATIO
check_fail "an unknown option is a usage error" 2 "unrecognized option|invalid option" \
    cpm-throttle --frobnicate
check_fail "a missing option argument is a usage error" 2 "requires an argument" \
    cpm-throttle --interval
check_fail "--interval and --since do not combine" 2 "cannot be combined" \
    cpm-throttle --cgroup-root "$V1" --interval 1s --since "$T_TMP/x"
check_fail "a group with .. is refused" 2 "'\.\.' components are not allowed" \
    cpm-throttle --cgroup-root "$V1" a/../../etc
ln -s "$T_TMP" "$V1/cpu/escape"
check_fail "a group through a symbolic link is refused" 2 "symbolic link" \
    cpm-throttle --cgroup-root "$V1" escape/v1/cpu
run cpm-throttle --cgroup-root "$V1" --all -o names
assert "the walk does not follow a symbolic link" \
    "$rc:$(printf '%s' "$out" | grep -c escape)" "0:0"
rm "$V1/cpu/escape"
check_fail "a missing group fails with exit 1" 1 "cgroup 'nope' not found" \
    cpm-throttle --cgroup-root "$V1" nope
check_fail "a cgroup root that is not a directory is refused" 2 "cannot open cgroup root" \
    cpm-throttle --cgroup-root "$T_TMP/none"

# Output that cannot be written is an error, whether the table went out
# a slice at a time (text) or whole (JSON).
for f in table tsv json prom; do
	cpm-throttle --cgroup-root "$V1" -o $f >/dev/full 2>"$T_TMP/full.err"
	rc=$?
	if [ "$rc" = 1 ] && grep -q "cannot write to stdout" "$T_TMP/full.err"; then
		ok "-o $f to a full device: exit 1, said so"
	else
		not_ok "-o $f to a full device: exit 1, said so" "exit $rc: $(cat "$T_TMP/full.err")"
	fi
done

printf 'cpm-throttle-snapshot 1\nversion 1\ngarbage here\n' >"$T_TMP/bad.snap"
cp "$T_TMP/bad.snap" "$T_TMP/bad.orig"
check_fail "a corrupt snapshot is refused" 2 "corrupt snapshot '.*bad.snap': line 3" \
    cpm-throttle --cgroup-root "$V1" --since "$T_TMP/bad.snap"
cmp -s "$T_TMP/bad.snap" "$T_TMP/bad.orig" && ok "a corrupt snapshot is left untouched" ||
    not_ok "a corrupt snapshot is left untouched"
head -n -1 "$SNAP" >"$T_TMP/trunc.snap"
cp "$T_TMP/trunc.snap" "$T_TMP/trunc.orig"
check_fail "a truncated snapshot is refused" 2 "corrupt snapshot .*incomplete" \
    cpm-throttle --cgroup-root "$V1" --since "$T_TMP/trunc.snap"
cmp -s "$T_TMP/trunc.snap" "$T_TMP/trunc.orig" && ok "a truncated snapshot is left untouched" ||
    not_ok "a truncated snapshot is left untouched"
cp "$SNAP" "$T_TMP/other.snap"
check_fail "a snapshot of another hierarchy is refused" 2 "another cgroup hierarchy" \
    cpm-throttle --cgroup-root "$V2" --since "$T_TMP/other.snap"
cmp -s "$SNAP" "$T_TMP/other.snap" && ok "a foreign snapshot is left untouched" ||
    not_ok "a foreign snapshot is left untouched"

B=$T_TMP/badstat
v1grp "$B" g 10000 1 1 0 0
printf 'nr_periods one\n' >"$B/cpu/g/cpu.stat"
check_fail "a malformed cpu.stat is invalid input" 2 "cpu.stat of g" \
    cpm-throttle --cgroup-root "$B" --since "$B.snap"
assert "nothing is written after a malformed cpu.stat" "$(ls "$B.snap" 2>/dev/null)" ""

check "--help goes to stdout and exits 0" 0 "Usage: cpm-throttle [GROUP...] [--interval D | --since FILE] [--all]" \
    sh -c 'cpm-throttle --help | head -1'
check "--version prints the name and version" 0 "cpm-throttle $(sed -n 's/^VERSION *= *//p' "$CPM_TOP/Makefile")" \
    cpm-throttle --version
