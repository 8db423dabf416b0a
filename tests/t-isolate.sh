#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# cpm-pin --isolate and --isolate-restore.  Isolating the whole host would
# move every thread of the machine the tests share, so the whole-machine
# form runs here on a fake tree below --sysroot (proc threads, workqueue
# masks, per-CPU knobs, interrupts), where a thread's status file stands
# for it; live, only the process tree this test starts is isolated (-p),
# restored in a trap, and checked to have touched no other thread.
. "$(dirname "$0")/lib.sh"

S=$T_TMP/m
export CPM_ISOLATE_JOURNAL=$T_TMP/state/isolate.journal
export CPM_IRQ_JOURNAL=$T_TMP/state/irq.journal
python3 "$CPM_TOP/tests/gen-sysfs" "$CPM_TOP/tests/topologies/2s4n-smt.spec" "$S" ||
    { not_ok "gen-sysfs"; exit 1; }

# thread PID TID PPID COMM FLAGS CPUS
thread() {
	mkdir -p "$S/proc/$1/task/$2"
	st="$2 ($4) S $3 $1 $1 0 -1 $5 0 0 0 0 0 0 0 0 20 0 1 0 $((1000 + $2)) 0 0"
	printf '%s\n' "$st" >"$S/proc/$1/task/$2/stat"
	[ "$1" = "$2" ] && printf '%s\n' "$st" >"$S/proc/$1/stat"
	printf 'Name:\t%s\nCpus_allowed_list:\t%s\n' "$4" "$6" \
	    >"$S/proc/$1/task/$2/status"
}
thread 1 1 0 init 4194560 0-31
thread 2 2 0 kthreadd 2129984 0-31
thread 30 30 2 ksoftirqd/3 69238848 3
thread 100 100 1 server 4194560 0-31
thread 100 101 1 worker 4194368 2-3
WQ=$S/sys/devices/virtual/workqueue
# The IRQ journal writes what the kernel takes, without a newline.
mkdir -p "$WQ/writeback" "$S/proc/irq/24/virtio0" "$S/proc/irq/25/eth0"
printf 'ffffffff\n' >"$WQ/cpumask"
printf 'ffffffff\n' >"$WQ/writeback/cpumask"
printf 'ffffffff' >"$S/proc/irq/default_smp_affinity"
printf '0-31' >"$S/proc/irq/24/smp_affinity_list"
printf '2' >"$S/proc/irq/25/smp_affinity_list"
for c in 2 3; do
	mkdir -p "$S/sys/devices/system/cpu/cpu$c/power"
	printf '0\n' >"$S/sys/devices/system/cpu/cpu$c/power/pm_qos_resume_latency_us"
done
cp -a "$S" "$T_TMP/orig"

check "a dry run prints the plan" 0 "thread 100 (server): 0-31 -> 0-1,4-31" \
    sh -c "cpm-pin --sysroot '$S' --isolate 2-3 -n | grep '^thread 100 '"
assert "a dry run changes nothing" "$(diff -r "$T_TMP/orig" "$S" && echo same)" same
assert "a dry run writes no journal" "$(ls "$T_TMP/state" 2>/dev/null)" ""
run cpm-topo --sysroot "$S" check 2-3 --isolation
assert "check --isolation finds what reaches the CPUs" "$rc" 3
case $out in
*"2 threads (2 processes) may run on CPUs 2-3: init (1), server (100)"*) ok "user threads by name and PID" ;;
*) not_ok "user threads by name and PID" "$(show)" ;;
esac
case $out in
*"1 unbound kernel thread may run on CPUs 2-3: kthreadd (2)"*) ok "kernel threads apart" ;;
*) not_ok "kernel threads apart" "$(show)" ;;
esac
case $out in
*"note: 1 per-CPU kernel thread runs on CPUs 2-3 and cannot move"*) ok "per-CPU kernel threads as a note" ;;
*) not_ok "per-CPU kernel threads as a note" "$(show)" ;;
esac
case $out in
*"2 interrupts may be delivered to CPUs 2-3: virtio0 (IRQ 24), eth0 (IRQ 25)"*) ok "interrupts by name and number" ;;
*) not_ok "interrupts by name and number" "$(show)" ;;
esac
case $out in
*"workqueue mask ffffffff reaches"*) ok "the workqueue mask" ;;
*) not_ok "the workqueue mask" "$(show)" ;;
esac
case $out in
*"isolcpus=managed_irq,domain,2-3 nohz_full=2-3 rcu_nocbs=2-3"*) ok "boot parameters as advice" ;;
*) not_ok "boot parameters as advice" "$(show)" ;;
esac
case $out in
*"1 workqueue reaches CPUs 2-3: writeback ffffffff"*) ok "each workqueue's own mask" ;;
*) not_ok "each workqueue's own mask" "$(show)" ;;
esac
check "check --isolation --json: one finding an object" 0 "warning warning note warning warning warning note" \
    sh -c "cpm-topo --sysroot '$S' check 2-3 --isolation --json | python3 -c 'import json,sys; print(*[f[\"level\"] for f in json.load(sys.stdin)[\"findings\"]])'"
check "isolating CPUs 2-3 of a fake machine" 0 "" cpm-pin --sysroot "$S" --isolate 2-3
assert "a process moves off" "$(grep list "$S/proc/100/task/100/status")" \
    "Cpus_allowed_list:	0-1,4-31"
assert "a thread inside stays" "$(grep list "$S/proc/100/task/101/status")" \
    "Cpus_allowed_list:	2-3"
assert "a per-CPU kernel thread stays" "$(grep list "$S/proc/30/task/30/status")" \
    "Cpus_allowed_list:	3"
assert "the workqueue mask" "$(cat "$WQ/cpumask")" fffffff3
assert "an interrupt, through the IRQ journal" \
    "$(cat "$S/proc/irq/24/smp_affinity_list")" 0-1,4-31
assert "the C-state knob" \
    "$(cat "$S/sys/devices/system/cpu/cpu3/power/pm_qos_resume_latency_us")" n/a
run cpm-topo --sysroot "$S" check 2-3 --isolation
assert "after it, check --isolation finds nothing movable" \
    "$rc:$(printf '%s' "$out" | grep -c '^warning')" 0:0
# irqbalance, running without the CPUs banned, would undo it.
thread 50 50 1 irqbalance 4194560 0-1,4-31
printf 'PATH=/bin\0' >"$S/proc/50/environ"
run cpm-topo --sysroot "$S" check 2-3 --isolation
case $rc:$out in
3:*"irqbalance (PID 50) runs and does not ban CPUs 2-3"*) ok "irqbalance without the CPUs banned is a finding" ;;
*) not_ok "irqbalance without the CPUs banned is a finding" "$(show)" ;;
esac
printf 'PATH=/bin\0IRQBALANCE_BANNED_CPULIST=2-3\0' >"$S/proc/50/environ"
check "irqbalance with them banned is not" 0 "" \
    sh -c "cpm-topo --sysroot '$S' check 2-3 --isolation | grep '^warning'; true"
rm -r "$S/proc/50"
# systemd's top-level units: their AllowedCPUs is their cpuset.cpus (a
# fake cgroup v2 tree: this host has no systemd).
mkdir -p "$S/sys/fs/cgroup/system.slice" "$S/sys/fs/cgroup/user.slice"
echo 0-1,4-31 >"$S/sys/fs/cgroup/system.slice/cpuset.cpus"
echo >"$S/sys/fs/cgroup/user.slice/cpuset.cpus"
run cpm-topo --sysroot "$S" check 2-3 --isolation
case $rc:$out in
3:*"note: system.slice keeps off CPUs 2-3 (AllowedCPUs=0-1,4-31)"*"warning: user.slice may run on CPUs 2-3 (AllowedCPUs=all)"*)
	ok "a slice off the CPUs is a note, one on every CPU a finding" ;;
*) not_ok "a slice off the CPUs is a note, one on every CPU a finding" "$(show)" ;;
esac
rm -r "$S/sys/fs"
check "the restore" 0 "" cpm-pin --sysroot "$S" --isolate-restore
assert "puts back every value exactly" \
    "$(diff -r "$T_TMP/orig" "$S" && echo same)" same
assert "and removes the journals" "$(ls "$T_TMP/state" | grep -v lock)" ""

# Someone changes a value meanwhile: left alone, and said.
cpm-pin --sysroot "$S" --isolate 2-3
printf '0\n' >"$WQ/cpumask"
run cpm-pin --sysroot "$S" --isolate-restore
assert "a value changed since is left alone" "$(cat "$WQ/cpumask")" 0
case $err in
*"workqueue/cpumask was changed since"*) ok "and the restore says so" ;;
*) not_ok "and the restore says so" "$(show)" ;;
esac

# An allocation isolates its CPUs until its release.
rm -r "$S/proc/100/task/102" 2>/dev/null
cp -a "$T_TMP/orig/." "$S/"
export CPM_STATE=$T_TMP/alloc.state
run cpm-alloc --sysroot "$S" take fast 2 --isolate
taken=$out
taken=${taken%
}
case $(grep list "$S/proc/100/task/100/status") in
*"	0-31"|"") not_ok "take --isolate moves threads off the CPUs taken" "$taken" "$(show)" ;;
*) ok "take --isolate moves threads off the CPUs taken" ;;
esac
assert "and the allocation's CPUs are kept out of deep C-states" \
    "$(cat "$S/sys/devices/system/cpu/cpu${taken%%[-,]*}/power/pm_qos_resume_latency_us" 2>/dev/null || echo none)" \
    "$([ -e "$S/sys/devices/system/cpu/cpu${taken%%[-,]*}/power/pm_qos_resume_latency_us" ] && echo n/a || echo none)"
check "release" 0 "" cpm-alloc --sysroot "$S" release fast
rm -f "$CPM_STATE" "$CPM_STATE.lock"
assert "release puts back every value" \
    "$(diff -r "$T_TMP/orig" "$S" && echo same)" same

check_fail "--isolate needs a CPU list" 2 "requires an argument|needs" cpm-pin --isolate
check_fail "a bad CPU list" 2 "." cpm-pin --sysroot "$S" --isolate x-
check_fail "every online CPU is refused" 2 "leaves none" \
    cpm-pin --sysroot "$S" --isolate 0-31
check_fail "--isolate goes alone" 2 "go alone" cpm-pin --isolate 1 --mem local
check_fail "--isolate-restore takes no CPU list" 2 "go alone" \
    cpm-pin --isolate-restore 1
check_fail "both cannot be combined" 2 "combined|cannot" \
    cpm-pin --isolate 1 --isolate-restore
check_fail "-p of no process" 2 "no process" cpm-pin --isolate 1 -p 999999999
assert "bad input writes no journal" "$(ls "$T_TMP/state" | grep -v lock)" ""

# Live: only a process tree started here, on a host of at least 2 CPUs.
if [ "$(nproc)" -lt 2 ]; then
	skip "live isolation of a process tree" "one CPU"
	exit 0
fi
sh -c 'sleep 300 & sleep 300 & wait' &
P=$!
at_exit "cpm-pin --isolate-restore; kill $P \$(pgrep -P $P) 2>/dev/null"
sleep 0.2
tids() { for c in $P $(pgrep -P $P); do ls /proc/$c/task; done | sort -n; }
aff() { for t in $(tids); do grep list /proc/$t/status | cut -f2; done | tr '\n' ' '; }
before=$(aff)
last=$(cpm-topo cpus online | tr ',' '\n' | tail -1)
last=${last##*-}
check "isolating the last CPU from a process tree" 0 "" \
    cpm-pin --isolate "$last" -p $P
case $(aff) in
*"$last"*) not_ok "every thread of the tree is off the CPU" "$(aff)" ;;
*) ok "every thread of the tree is off the CPU" ;;
esac
assert "the journal names the tree's threads and no other" \
    "$(awk '$1 == "task" { print $2 }' "$CPM_ISOLATE_JOURNAL" | sort -n | tr '\n' ' ')" \
    "$(tids | tr '\n' ' ')"
check "the restore" 0 "" cpm-pin --isolate-restore
assert "puts back every thread's affinity" "$(aff)" "$before"
assert "and leaves no journal" "$(ls "$T_TMP/state" | grep -v lock)" ""
