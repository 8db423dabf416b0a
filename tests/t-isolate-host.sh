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

# What the trap does, on any exit.
put_back() {
	[ -e "$CPM_ISOLATE_JOURNAL" ] && cpm-pin --isolate-restore
	[ -e "$SNAP" ] || return 0
	if ! left=$(snap restore "$SNAP"); then
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
assert "every thread, interrupt, mask and knob is as before ($moved threads moved)" \
    "$diff" ""
assert "and no journal is left" "$(ls "$T_TMP/state" | grep -v lock)" ""
