#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# cpm-pin --isolate on this very host, for real: every thread, the
# workqueue masks, the per-CPU knobs and every interrupt move off the last
# CPU, and --isolate-restore puts each back exactly.  A snapshot taken
# before (tests/affsnap.py) is compared after: threads present in both,
# by TID and start time, so that threads exiting or starting meanwhile do
# not count.  A trap restores (--isolate-restore, then whatever still
# differs from the snapshot) and says so if anything stays changed, even
# when a test fails half-way.
. "$(dirname "$0")/lib.sh"

if ! is_root; then
	skip "isolating a CPU of the host" "not root"
	exit 0
fi
last=$(cpm-topo cpus online | tr ',' '\n' | tail -1)
last=${last##*-}
if [ "$(nproc --all)" -lt 2 ] || [ "$last" = 0 ]; then
	skip "isolating a CPU of the host" "fewer than 2 online CPUs"
	exit 0
fi
export CPM_ISOLATE_JOURNAL=$T_TMP/state/isolate.journal
export CPM_IRQ_JOURNAL=$T_TMP/state/irq.journal
SNAP=$T_TMP/before
snap() { python3 "$CPM_TOP/tests/affsnap.py" "$@"; }

# What the trap does, on any exit: after a failure every value the
# snapshot holds (all); once cpm's restore proved exact, nothing, or with
# irqbalance running the interrupts it moved (files): a thread another
# test changed meanwhile is not this test's to change back.
restore=all
put_back() {
	[ -e "$CPM_ISOLATE_JOURNAL" ] && cpm-pin --isolate-restore
	[ -e "$SNAP" ] && [ $restore != none ] || return 0
	if ! left=$(snap "restore${restore#all}" "$SNAP"); then
		echo "not ok - the trap could not put the host back"
		printf '%s\n' "$left" | sed 's/^/# /'
	fi
}
at_exit put_back

snap snap "$SNAP" || { not_ok "a snapshot of the host"; exit 1; }
check "isolating CPU $last of the whole host" 0 "" cpm-pin --isolate "$last"
run cpm-topo check "$last" --isolation
case $out in
*"thread"*"may run on CPUs $last:"*)
	not_ok "no thread that can move stays on CPU $last" "$(show)" ;;
*) ok "no thread that can move stays on CPU $last" ;;
esac
case $out in
*"workqueue mask"*) not_ok "the workqueue mask is off CPU $last" "$(show)" ;;
*) ok "the workqueue mask is off CPU $last" ;;
esac
moved=$(awk '$1 == "task"' "$CPM_ISOLATE_JOURNAL" | wc -l)
check "the restore" 0 "" cpm-pin --isolate-restore
diff=$(snap diff "$SNAP")
# A host's own irqbalance moves interrupts meanwhile, as it always does.
if pgrep -x irqbalance >/dev/null; then
	diff=$(printf '%s\n' "$diff" | grep -v -e '^F /proc/irq/' -e '^T [0-9:]* irq/')
fi
assert "every thread, interrupt, mask and knob is as before ($moved threads moved)" \
    "$diff" ""
[ -z "$diff" ] && restore=none
assert "and no journal is left" "$(ls "$T_TMP/state" | grep -v lock)" ""

# irqbalance (Debian's, started here: never one the host runs) must not
# undo the isolation: cpm bans the CPUs over its socket, journaled, and
# gives the old banned list back.  It rescans every second (-t 1), so a
# setting shows within two seconds.
if ! command -v irqbalance >/dev/null; then
	skip "irqbalance bans the isolated CPUs" "irqbalance is not installed"
	exit 0
fi
if pgrep -x irqbalance >/dev/null || ls /run/irqbalance/*.sock >/dev/null 2>&1; then
	skip "irqbalance bans the isolated CPUs" "an irqbalance runs already"
	exit 0
fi
# irqbalance moves interrupts itself: the trap puts back this snapshot.
snap snap "$SNAP"
restore=all
[ -d /run/irqbalance ] || { mkdir /run/irqbalance && at_exit "rmdir /run/irqbalance"; }
env -u IRQBALANCE_BANNED_CPULIST -u IRQBALANCE_BANNED_CPUS \
    irqbalance --foreground -t 1 >"$T_TMP/irqbalance.log" 2>&1 &
IB=$!
at_exit "kill $IB 2>/dev/null; wait $IB 2>/dev/null"
SOCK=/run/irqbalance/irqbalance$IB.sock
i=0
while [ ! -S "$SOCK" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
[ -S "$SOCK" ] || { not_ok "irqbalance listens on $SOCK" "$(cat "$T_TMP/irqbalance.log")"; exit 1; }
# until SECONDS WORDS: wait for check --isolation to say WORDS
until_check() {
	i=0
	while [ $i -lt $(($1 * 10)) ]; do
		out=$(cpm-topo check "$last" --isolation)
		case $out in *"$2"*) return 0 ;; esac
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}
if until_check 3 "irqbalance (PID $IB) runs and does not ban CPUs $last: it moves interrupts back onto them (banned: none"; then
	ok "check --isolation reports irqbalance and its banned list"
else
	not_ok "check --isolation reports irqbalance and its banned list" "$out"
fi
check "isolating CPU $last with irqbalance running" 0 "" cpm-pin --isolate "$last"
assert "the journal holds irqbalance's old banned list" \
    "$(grep "^file run/irqbalance/irqbalance$IB.sock " "$CPM_ISOLATE_JOURNAL" | cut -d' ' -f3)" "="
if until_check 3 "note: irqbalance (PID $IB) runs and bans CPUs $last"; then
	ok "irqbalance bans the isolated CPU"
else
	not_ok "irqbalance bans the isolated CPU" "$out"
fi
run cpm-pin --isolate-restore
# (it may say that irqbalance moved an interrupt since: left to it)
if [ $rc = 0 ] && [ ! -e "$CPM_ISOLATE_JOURNAL" ]; then
	ok "the restore with irqbalance running"
	restore=-files
else
	not_ok "the restore with irqbalance running" "$(show)"
fi
if until_check 3 "irqbalance (PID $IB) runs and does not ban CPUs $last: it moves interrupts back onto them (banned: none"; then
	ok "irqbalance gets its old banned list back"
else
	not_ok "irqbalance gets its old banned list back" "$out"
fi
kill -0 $IB 2>/dev/null && ok "irqbalance still runs" || not_ok "irqbalance still runs" "$(cat "$T_TMP/irqbalance.log")"
