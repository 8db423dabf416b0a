# SPDX-License-Identifier: GPL-2.0-or-later
# cpm-pin --isolate on a whole machine, which only a VM may give up: with
# irqbalance (Debian's, rescanning every second) and stress-ng on every
# CPU running first, the last CPU is isolated for a busy loop placed
# there; no thread that can move stays there, irqbalance bans it, and
# the restore gives back every thread affinity, interrupt, workqueue
# mask and knob (tests/affsnap.py diffs a snapshot) and irqbalance's
# banned list.  systemd's top-level units get AllowedCPUs without the
# CPU (a new service starts off it), and the restore gives 'systemctl
# show' and the kernel's cpusets back as they were; a unit holding work
# placed on the CPU keeps it.  The busy loop's preemptions are measured
# against tuna --isolate's.
. /cpm/tests/vm/guest/common.sh
have cpm-pin && have cpm-topo || exit 0
for c in irqbalance stress-ng python3; do
	command -v $c >/dev/null || { skip "isolation" "$c is not installed"; exit 0; }
done
last=$(list_expand "$(exp_online)" | tr " " "\n" | grep . | tail -1)
export CPM_ISOLATE_JOURNAL=/tmp/isolate.journal CPM_IRQ_JOURNAL=/tmp/irq.journal
mkdir -p /run/irqbalance
sd=false
[ -d /run/systemd/system ] && command -v systemd-run >/dev/null && sd=true

# stress: stress-ng, default affinity, two workers a CPU each busy a
# quarter of the time: every CPU loaded, the busy loop's CPU contended,
# and TCG's vCPUs left time to run the test itself (an integer method:
# the default one's instructions are not all emulated by TCG, and its
# workers die of SIGILL at once).
stress() {
	# (at nice 0 whatever this script's is)
	$scope nice -n $((0 - $(nice))) stress-ng --cpu $((2 * last + 2)) \
	    --cpu-load 25 --cpu-method int64 --timeout 120 >/dev/null 2>&1 &
	S=$!
	at_exit "kill $S 2>/dev/null"
	_i=0
	while [ $_i -lt 20 ] && [ "$(ps -e -o comm= | grep -c '^stress-ng')" -le $((2 * last + 2)) ]; do
		sleep 0.5
		_i=$((_i + 1))
	done
}
# The busy loop placed on the CPU, and the load, in a slice of their own
# when systemd runs: the work an isolation is for (a top-level unit
# holding it keeps the CPU), and a load it competes with in its group.
scope=
$sd && scope="systemd-run --quiet --scope --slice=cpmvm.slice"
$scope taskset -c "$last" sh -c 'while :; do :; done' &
B=$!
# Two more busy loops allowed on the CPU and the one before it: three
# tasks on two CPUs, so that the busy loop is contended until they are
# moved off (stress-ng's workers, free to go anywhere, are mostly kept
# off a busy CPU by the scheduler).
$scope taskset -c "$((last - 1)),$last" sh -c 'while :; do :; done' &
C1=$!
$scope taskset -c "$((last - 1)),$last" sh -c 'while :; do :; done' &
C2=$!
at_exit "kill $B $C1 $C2 2>/dev/null"
# measure: "SWITCHES WAIT%" of the busy loop over 3 s: its involuntary
# context switches, and the share of the time it waited runnable (its
# run-queue delay, /proc/PID/schedstat, which TCG's slow guest clock
# does not skew).
nvcsw() { awk '/^nonvoluntary_ctxt_switches/ { print $2 }' "/proc/$B/status"; }
measure() {
	set -- "$(nvcsw)" $(cat "/proc/$B/schedstat")
	sleep 3
	set -- "$@" "$(nvcsw)" $(cat "/proc/$B/schedstat")
	echo "$(($5 - $1)) $((($7 - $3) * 100 / ($6 - $2 + $7 - $3 + 1)))"
}

stress
# What this script runs from here on (cpm, the checks) goes before the
# load, or TCG takes minutes over it; the busy loop and stress-ng keep
# the same priority, which is what is measured.
renice -n -10 $$ >/dev/null
n=$(ps -e -o comm= | grep -c '^stress-ng')
[ "$n" -gt $((2 * last + 2)) ] && ok "stress-ng runs two workers a CPU" ||
    not_ok "stress-ng runs two workers a CPU" "$n stress-ng processes"
irqbalance --foreground -t 1 >/tmp/irqbalance.log 2>&1 &
IB=$!
at_exit "kill $IB 2>/dev/null"
sleep 1
set -- $(measure)
nv_none=$1 w_none=$2
python3 /cpm/tests/affsnap.py snap /tmp/before
units="init.scope system.slice user.slice"
# what the kernel grants, not only what systemd says (systemd stops
# writing cpuset.cpus when AllowedCPUs becomes empty again): every CPU
cg_cpus() {
	for u in $units; do
		[ -f "$CG/$u/cpuset.cpus.effective" ] || continue
		v=$(cat "$CG/$u/cpuset.cpus.effective")
		[ "$v" = "$(cat $CG/cpuset.cpus.effective)" ] || echo "$u=$v"
	done
}
$sd && sd_before=$(systemctl show -p AllowedCPUs $units)
run cpm-pin --isolate "$last"
assert "isolating CPU $last under stress-ng and irqbalance" "$rc" 0
if $sd; then
	case $err in
	*"note: cpmvm.slice keeps CPUs $last: work below it is pinned there"*)
		ok "cpmvm.slice keeps CPU $last for the busy loop placed there" ;;
	*) not_ok "cpmvm.slice keeps CPU $last for the busy loop placed there" "$err" ;;
	esac
fi
sleep 1
set -- $(measure)
nv_cpm=$1 w_cpm=$2
out=$(cpm-topo check "$last" --isolation)
# (a kernel thread made since, by kthreadd, may get every CPU: not cpm's)
case $out in
*"process"*"may run on CPUs $last:"*) not_ok "no process stays on CPU $last" "$out" ;;
*) ok "no process stays on CPU $last" ;;
esac
case $out in
*"note: irqbalance (PID $IB) runs and bans CPUs"*) ok "irqbalance bans CPU $last" ;;
*) not_ok "irqbalance bans CPU $last" "$out" ;;
esac
if $sd; then
	case $out in
	*"note: system.slice keeps off CPUs $last"*) ok "check sees system.slice off CPU $last" ;;
	*) not_ok "check sees system.slice off CPU $last" "$out" ;;
	esac
	bad=
	for u in $units; do
		v=$(systemctl show -P AllowedCPUs $u)
		case " $(list_expand "$v") " in
		"  "|*" $last "*) bad="$bad $u=$v" ;;
		esac
	done
	assert "init.scope, system.slice and user.slice leave CPU $last out" "$bad" ""
	v=$(systemd-run --quiet --wait --pipe grep Cpus_allowed_list /proc/self/status | awk '{print $2}')
	case " $(list_expand "$v") " in
	"  "|*" $last "*) not_ok "a new service starts off CPU $last" "$v" ;;
	*) ok "a new service starts off CPU $last" ;;
	esac
fi
# (TCG runs every command slowly while stress-ng loads each vCPU)
kill $S 2>/dev/null
wait $S 2>/dev/null
check "the restore" 0 "" cpm-pin --isolate-restore
$sd && assert "the units' AllowedCPUs are as before" \
    "$(systemctl show -p AllowedCPUs $units)" "$sd_before"
$sd && assert "the units' effective CPUs are every CPU again" "$(cg_cpus)" ""

# A service placed on the CPU (AllowedCPUs) keeps it: system.slice
# keeps the CPU, or cgroup v2 would cut the service's CPUs to the
# slice's, and cpm says so.
if $sd && systemd-run --quiet --unit=cpm-pinned -p AllowedCPUs="$last" sleep 300; then
	at_exit "systemctl stop cpm-pinned 2>/dev/null"
	run cpm-pin --isolate "$last"
	case $err in
	*"note: system.slice keeps CPUs $last: work below it is pinned there"*)
		ok "isolating says system.slice keeps CPU $last for the service pinned there" ;;
	*) not_ok "isolating says system.slice keeps CPU $last for the service pinned there" "exit $rc" "$err" ;;
	esac
	p=$(systemctl show -P MainPID cpm-pinned)
	assert "the pinned service stays on CPU $last" \
	    "$(awk '/^Cpus_allowed_list/ {print $2}' /proc/$p/status)" "$last"
	v=$(systemctl show -P AllowedCPUs user.slice)
	case " $(list_expand "$v") " in
	"  "|*" $last "*) not_ok "user.slice still leaves CPU $last out" "$v" ;;
	*) ok "user.slice still leaves CPU $last out" ;;
	esac
	check "the restore with the pinned service" 0 "" cpm-pin --isolate-restore
	systemctl stop cpm-pinned
fi
kill $IB 2>/dev/null
wait $IB 2>/dev/null
# irqbalance moved interrupts itself: only the threads, masks and knobs.
assert "every thread, mask and knob is as before" \
    "$(python3 /cpm/tests/affsnap.py diff /tmp/before | grep -v -e '^F /proc/irq/' -e '^T [0-9:]* irq/')" ""

# tuna --isolate keeps no record of what it moved, so it comes last:
# nothing runs in this VM after it.
if command -v tuna >/dev/null; then
	stress
	tuna --cpus="$last" --isolate >/dev/null 2>&1
	sleep 1
	set -- $(measure)
	nv_tuna=$1 w_tuna=$2
	kill $S 2>/dev/null
	wait $S 2>/dev/null
	echo "# a busy loop on CPU $last over 3 s, involuntary switches and % of the time waiting: nothing $nv_none $w_none%, cpm $nv_cpm $w_cpm%, tuna $nv_tuna $w_tuna%"
	name="the busy loop waits no longer under cpm's isolation than under tuna's"
	if [ "$w_none" -lt 10 ]; then
		not_ok "$name" "the busy loop was not contended to begin with (waited $w_none%)"
	elif [ "$w_cpm" -le $((w_tuna + 5)) ] && [ "$nv_cpm" -le $((2 * nv_tuna + 10)) ]; then
		ok "$name"
	else
		not_ok "$name" "nothing $nv_none $w_none%, cpm $nv_cpm $w_cpm%, tuna $nv_tuna $w_tuna%"
	fi
fi
kill $B $C1 $C2 2>/dev/null
wait $B $C1 $C2 2>/dev/null || :
