#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Interrupt isolation on a fake proc/irq tree below --sysroot.  These tests
# never touch the host's own interrupts (moving them would disturb the
# machine the tests run on); the VM tier (tests/vm/guest/irq.sh) moves a
# real kernel's virtio interrupts.  A "managed" IRQ, whose affinity the
# kernel refuses to change, is faked by a file that cpm-pin may not write:
# it runs without CAP_DAC_OVERRIDE and the file is read-only.
. "$(dirname "$0")/lib.sh"

KILL=$CPM_TOP/tests/helpers/kill-after
S=$T_TMP/m
J=$T_TMP/irq.journal
export CPM_IRQ_JOURNAL=$J
python3 "$CPM_TOP/tests/gen-sysfs" "$CPM_TOP/tests/topologies/2s4n-smt.spec" "$S" ||
    { not_ok "gen-sysfs"; exit 1; }

# mk_irq N LIST NAME: an IRQ with affinity LIST and action NAME.
mk_irq() {
	mkdir -p "$S/proc/irq/$1/$3"
	printf '%s\n' "$2" >"$S/proc/irq/$1/smp_affinity_list"
}
# A 32-CPU machine: 40 device IRQs spread as a kernel spreads them, some
# on every CPU, some on one; IRQ 0 is the timer, refused like a managed
# one; IRQ 9 has no action.
mkdir -p "$S/proc/irq"
printf 'ffffffff\n' >"$S/proc/irq/default_smp_affinity"
mk_irq 0 0-31 timer
chmod 0444 "$S/proc/irq/0/smp_affinity_list"
mkdir -p "$S/proc/irq/9"
printf '0-31\n' >"$S/proc/irq/9/smp_affinity_list"
i=24
while [ $i -lt 64 ]; do
	case $((i % 4)) in
	0) mk_irq $i 0-31 "virtio$((i - 24))-input.0" ;;
	1) mk_irq $i $((i % 32)) "virtio$((i - 24))-output.0" ;;
	2) mk_irq $i 2-3 "nvme0q$i" ;;
	3) mk_irq $i 2,6,10 "eth0-rx-$i" ;;
	esac
	i=$((i + 1))
done
# The oracle: the affinities as they were, read by the shell.
snapshot() {
	awk '{ f = FILENAME; sub("/smp_affinity_list$", "", f); sub(".*/", "", f)
	       if (f ~ /^[0-9]+$/) print f, $0; else d = $0 }
	     END { print "default", d }' \
	    "$S"/proc/irq/[0-9]*/smp_affinity_list "$S/proc/irq/default_smp_affinity" |
	    sort -n
}
snapshot >"$T_TMP/orig"

pin() { setpriv --bounding-set=-dac_override cpm-pin --sysroot "$S" "$@"; }

# ---- cpm-topo check --irqs ----
# /proc/interrupts with a column per CPU; the file does not change between
# the two samples, so no CPU shows load (the load lines themselves are
# tested on kernel texts in tests/unit/test-irq.c and live in the VM tier).
awk 'BEGIN { printf "     "; for (c = 0; c < 32; c++) printf "       CPU%d", c; print ""
	printf "LOC:"; for (c = 0; c < 32; c++) printf " %10d", 1000 + c; print "  Local timer interrupts" }' \
    >"$S/proc/interrupts"
# Core 10 (CPUs 10 and 26) is reached by the IRQs on every CPU (0, 9 and
# every fourth from 24) and those on 2,6,10 (every fourth from 27): all
# 22 are named, none cut off.
check "check --irqs names every IRQ that reaches the CPUs" 3 \
    "warning: 22 IRQs may be delivered to CPUs 10,26: 0 (timer), 9, 24 (virtio0-input.0), 27 (eth0-rx-27), 28 (virtio4-input.0), 31 (eth0-rx-31), 32 (virtio8-input.0), 35 (eth0-rx-35), 36 (virtio12-input.0), 39 (eth0-rx-39), 40 (virtio16-input.0), 43 (eth0-rx-43), 44 (virtio20-input.0), 47 (eth0-rx-47), 48 (virtio24-input.0), 51 (eth0-rx-51), 52 (virtio28-input.0), 55 (eth0-rx-55), 56 (virtio32-input.0), 59 (eth0-rx-59), 60 (virtio36-input.0), 63 (eth0-rx-63) (cpm-pin --irqs-away moves them)" \
    cpm-topo --sysroot "$S" check 10,26 --irqs --interval 0s
run cpm-topo --sysroot "$S" check 10,26 --irqs --interval 0s --json
assert "check --irqs --json lists every IRQ too" \
    "$(printf '%s' "$out" | python3 -c 'import json, sys
m = json.load(sys.stdin)["findings"][0]["message"]
print("63 (eth0-rx-63)" in m, "..." in m)')" "True False"
check_fail "check --interval without --irqs" 2 "^cpm-topo: --interval needs --irqs$" \
    cpm-topo --sysroot "$S" check 10-11 --interval 1s
check_fail "check --irqs --interval junk" 2 "^cpm-topo: invalid --interval 'soon'" \
    cpm-topo --sysroot "$S" check 10-11 --irqs --interval soon

# ---- moving away ----
run pin --irqs-away 2-3,6
assert "irqs-away succeeds" "$rc" 0
case $err in
*"warning: IRQ 0 (timer) cannot be moved: Permission denied (stays on 0-31)"*)
	ok "the refused IRQ is reported by number and name" ;;
*) not_ok "the refused IRQ is reported by number and name" "$(show)" ;;
esac
# No IRQ except the refused one may still reach 2, 3 or 6; each keeps what
# it had outside them, or falls back to every other online CPU.
bad=
while read -r n was; do
	[ "$n" = default ] && continue
	now=$(cat "$S/proc/irq/$n/smp_affinity_list")
	if [ "$n" = 0 ]; then want=$was
	else
		want=$(cpm-topo --sysroot "$S" cpus "$was" --not 2-3,6)
		[ -n "$want" ] || want=$(cpm-topo --sysroot "$S" cpus online --not 2-3,6)
	fi
	[ "$now" = "$want" ] || bad="$bad irq$n:$now(want $want)"
done <"$T_TMP/orig"
assert "every movable IRQ left 2-3,6 and kept the rest" "$bad" ""
assert "default_smp_affinity leaves 2-3,6" \
    "$(cat "$S/proc/irq/default_smp_affinity")" "ffffffb3"
assert "irq 26 had only 2-3: it goes to the other online CPUs" \
    "$(cat "$S/proc/irq/26/smp_affinity_list")" "0-1,4-5,7-31"
assert "the journal holds the originals" "$(head -1 "$J")" "cpm-irq-journal 1"

# A second call replaces cpm-pin's set; originals stay the first ones.
run pin --irqs-away 8
assert "a second --irqs-away succeeds" "$rc" 0
assert "irq 26 is back on 2-3, only 8 is avoided" \
    "$(cat "$S/proc/irq/26/smp_affinity_list")" "2-3"
assert "irq 27 keeps 2,6, loses 10? no: loses only 8" \
    "$(cat "$S/proc/irq/27/smp_affinity_list")" "2,6,10"
assert "irq 32 (on 0-31) loses 8" "$(cat "$S/proc/irq/32/smp_affinity_list")" "0-7,9-31"

# ---- restoring ----
run pin --irqs-restore
assert "irqs-restore succeeds" "$rc" 0
snapshot >"$T_TMP/now"
check "restore brings back every affinity exactly" 0 "" \
    diff "$T_TMP/orig" "$T_TMP/now"
[ ! -e "$J" ] && ok "restore removes the journal" || not_ok "restore removes the journal"
run pin --irqs-restore
assert "restore without a journal is a no-op" "$rc:$err" "0:"

# ---- bad input changes nothing ----
check_fail "irqs-away every online CPU" 2 \
    "^cpm-pin: cannot move interrupts off every online CPU$" pin --irqs-away 0-31
check_fail "irqs-away a CPU that does not exist" 2 "^cpm-pin: .*64.*" \
    pin --irqs-away 64
check_fail "irqs-away junk" 2 "^cpm-pin: .*" pin --irqs-away 1-x
check_fail "irqs-away with a command" 2 "^cpm-pin: --irqs-away and --irqs-restore go alone" \
    pin --irqs-away 2 -- true
check_fail "irqs-away and restore" 2 "^cpm-pin: --irqs-away and --irqs-restore cannot be combined$" \
    pin --irqs-away 2 --irqs-restore
snapshot >"$T_TMP/now"
check "bad input moved nothing" 0 "" diff "$T_TMP/orig" "$T_TMP/now"
[ ! -e "$J" ] && ok "bad input wrote no journal" || not_ok "bad input wrote no journal"

# A damaged journal is refused, nothing moves.
printf 'cpm-irq-journal 1\nchecksum fnv1a64:0000000000000000\nirq 24 0-31\n' >"$J"
check_fail "a damaged journal is refused" 1 "^cpm-pin: journal '.*' is damaged: checksum mismatch$" \
    pin --irqs-away 2
snapshot >"$T_TMP/now"
check "a damaged journal moved nothing" 0 "" diff "$T_TMP/orig" "$T_TMP/now"
rm -f "$J"

# ---- SIGKILL at random instants ----
# Each round kills --irqs-away (or --irqs-restore) at a random instant;
# a restore must then bring back every original affinity exactly.
if [ -x "$KILL" ]; then
	bad= r=0 killed=0
	while [ $r -lt 30 ]; do
		setpriv --bounding-set=-dac_override "$KILL" 60000 \
		    cpm-pin --sysroot "$S" --irqs-away "$((r % 30))-$((r % 30 + 1))" &&
		    killed=$((killed + 1))
		if [ $((r % 3)) = 0 ]; then
			setpriv --bounding-set=-dac_override "$KILL" 60000 \
			    cpm-pin --sysroot "$S" --irqs-restore &&
			    killed=$((killed + 1))
		fi
		pin --irqs-restore 2>/dev/null || bad="$bad round$r:restore-failed"
		snapshot >"$T_TMP/now"
		cmp -s "$T_TMP/orig" "$T_TMP/now" || bad="$bad round$r:differs"
		[ -e "$J" ] && bad="$bad round$r:journal-left"
		r=$((r + 1))
	done
	assert "after SIGKILL at random instants, restore brings every affinity back ($killed kills)" \
	    "$bad" ""
else
	skip "SIGKILL at random instants" "tests/helpers/kill-after not built"
fi

# ---- cpm-alloc take --isolate-irqs, release ----
export CPM_STATE=$T_TMP/alloc.state
alloc() { setpriv --bounding-set=-dac_override cpm-alloc --sysroot "$S" "$@"; }
run alloc take db 4 --isolate-irqs
db=${out%
}
assert "take --isolate-irqs succeeds" "$rc" 0
bad=
for f in "$S"/proc/irq/[1-9]*/smp_affinity_list; do
	[ -n "$(cpm-topo --sysroot "$S" cpus "$(cat "$f")" --and "$db")" ] &&
	    bad="$bad $f"
done
assert "no movable IRQ reaches the allocation's CPUs $db" "$bad" ""
run alloc take web 2 --isolate-irqs
web=${out%
}
run alloc release db
assert "release of one isolating allocation succeeds" "$rc" 0
assert "the other one's CPUs stay free of IRQ 32" \
    "$(cpm-topo --sysroot "$S" cpus "$(cat "$S/proc/irq/32/smp_affinity_list")" --and "$web")" ""
run alloc release web
snapshot >"$T_TMP/now"
check "releasing the last brings back every affinity" 0 "" diff "$T_TMP/orig" "$T_TMP/now"
[ ! -e "$J" ] && ok "the last release removes the journal" ||
    not_ok "the last release removes the journal"
check_fail "take --isolate-irqs of every online CPU" 2 \
    "^cpm-alloc: cannot move interrupts off every online CPU$" alloc take all 32 --isolate-irqs
check "a refused take recorded nothing" 0 "" sh -c "cpm-alloc --sysroot '$S' list | tail -n +2"
run alloc take plain 2
alloc release plain
snapshot >"$T_TMP/now"
check "a take without --isolate-irqs moves nothing" 0 "" diff "$T_TMP/orig" "$T_TMP/now"

# ---- a tree others may write ----
# A replayed tree's proc/irq files are written through no planted link
# and only when they are ordinary files: a link from IRQ 25's file to
# another file (which would take the new affinity in its place) is
# refused by name, and the rest still moved.  Read, the link resolves
# with the tree as the root: "/victim" is the tree's own, and a link to
# a file outside the tree leads to nothing.
H=$T_TMP/hostile
J2=$T_TMP/irq2.journal
python3 "$CPM_TOP/tests/gen-sysfs" "$CPM_TOP/tests/topologies/2s4n-smt.spec" "$H" ||
    { not_ok "gen-sysfs"; exit 1; }
for n in 24 25 26; do
	mkdir -p "$H/proc/irq/$n/dev$n"
	printf '0-31\n' >"$H/proc/irq/$n/smp_affinity_list"
done
printf 'ffffffff\n' >"$H/proc/irq/default_smp_affinity"
printf '0-31\n' >"$T_TMP/victim"
printf '0-31\n' >"$H/victim"
rm "$H/proc/irq/25/smp_affinity_list"
ln -s /victim "$H/proc/irq/25/smp_affinity_list"
run sh -c "CPM_IRQ_JOURNAL='$J2' cpm-pin --sysroot '$H' --irqs-away 2-3 2>&1"
case $out in
*"IRQ 25 (dev25) cannot be moved: Too many levels of symbolic links"*)
	ok "a linked IRQ file is refused by name" ;;
*) not_ok "a linked IRQ file is refused by name" "$(show)" ;;
esac
assert "nothing is written through the link" "$(cat "$H/victim")" "0-31"
assert "the IRQ beside it is moved" "$(cat "$H/proc/irq/24/smp_affinity_list")" \
    "0-1,4-31"
rm -f "$J2"
printf '0-31\n' >"$H/proc/irq/24/smp_affinity_list"
rm "$H/proc/irq/25/smp_affinity_list"
ln -s "$T_TMP/victim" "$H/proc/irq/25/smp_affinity_list"
run sh -c "CPM_IRQ_JOURNAL='$J2' cpm-pin --sysroot '$H' --irqs-away 2-3 2>&1"
assert "a link out of the tree leads to nothing: read or written" \
    "$rc $(cat "$T_TMP/victim") $(cat "$H/proc/irq/24/smp_affinity_list")" \
    "0 0-31 0-1,4-31"
rm "$H/proc/irq/25/smp_affinity_list"
printf '0-31\n' >"$H/proc/irq/25/smp_affinity_list"
rm -f "$J2"
