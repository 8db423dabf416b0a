# SPDX-License-Identifier: GPL-2.0-or-later
# cpm-pin --isolate on a whole machine, which only a VM may give up: with
# irqbalance (Debian's, rescanning every second) and stress-ng on every
# CPU running first, the last CPU is isolated; no thread that can move
# stays there, irqbalance bans it, and the restore gives back every
# thread affinity, interrupt, workqueue mask and knob (tests/affsnap.py
# diffs a snapshot) and irqbalance's banned list.  systemd's top-level
# units get AllowedCPUs without the CPU (a new service starts off it),
# and the restore gives 'systemctl show' back as it was.
. /cpm/tests/vm/guest/common.sh
have cpm-pin && have cpm-topo || exit 0
for c in irqbalance stress-ng python3; do
	command -v $c >/dev/null || { skip "isolation" "$c is not installed"; exit 0; }
done
last=$(list_expand "$(exp_online)" | tr " " "\n" | grep . | tail -1)
export CPM_ISOLATE_JOURNAL=/tmp/isolate.journal CPM_IRQ_JOURNAL=/tmp/irq.journal
mkdir -p /run/irqbalance
stress-ng --cpu 0 --timeout 120 >/dev/null 2>&1 &
S=$!
irqbalance --foreground -t 1 >/tmp/irqbalance.log 2>&1 &
IB=$!
at_exit "kill $S $IB 2>/dev/null"
sleep 2
python3 /cpm/tests/affsnap.py snap /tmp/before
units="init.scope system.slice user.slice"
sd=false
[ -d /run/systemd/system ] && command -v systemd-run >/dev/null && sd=true
$sd && sd_before=$(systemctl show -p AllowedCPUs $units)
check "isolating CPU $last under stress-ng and irqbalance" 0 "" cpm-pin --isolate "$last"
sleep 2
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
check "the restore" 0 "" cpm-pin --isolate-restore
$sd && assert "the units' AllowedCPUs are as before" \
    "$(systemctl show -p AllowedCPUs $units)" "$sd_before"
kill $S $IB 2>/dev/null
wait $S $IB 2>/dev/null
# irqbalance moved interrupts itself: only the threads, masks and knobs.
assert "every thread, mask and knob is as before" \
    "$(python3 /cpm/tests/affsnap.py diff /tmp/before | grep -v -e '^F /proc/irq/' -e '^T [0-9:]* irq/')" ""
