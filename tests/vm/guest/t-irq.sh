# SPDX-License-Identifier: GPL-2.0-or-later
# Interrupt isolation on a real kernel: cpm-pin --irqs-away moves the
# guest's IRQs (the virtio-serial device's MSI-X vectors among them) off
# CPUs, what the kernel shows afterwards is read here by the shell, and a
# restore after SIGKILL at random instants brings back every affinity
# exactly.  The guest is thrown away after the run, so moving its
# interrupts disturbs nothing.
. /cpm/tests/vm/guest/common.sh
have cpm-pin || exit 0
export CPM_IRQ_JOURNAL=/tmp/irq.journal

# snapshot: "N LIST" for every IRQ with an affinity file, then the default.
snapshot() {
	for f in /proc/irq/[0-9]*/smp_affinity_list; do
		n=${f#/proc/irq/}; n=${n%%/*}
		echo "$n $(cat "$f" 2>/dev/null)"
	done | sort -n
	echo "default $(cat /proc/irq/default_smp_affinity)"
}
snapshot >/tmp/irq.orig

online=$(exp_online)
first=${online%%[-,]*}
# Keep interrupts off every online CPU but the first.
away=$(cpm-topo cpus online --not "$first")
if [ -z "$away" ]; then
	skip "irqs-away" "one online CPU: nowhere to move interrupts"
	exit 0
fi
virtio=$(awk '/virtio/ { sub(":", "", $1); print $1 }' /proc/interrupts)
moved_before=
for n in $virtio; do
	[ -n "$(cpm-topo cpus "$(cat /proc/irq/$n/smp_affinity_list)" --and "$away")" ] &&
	    moved_before="$moved_before $n"
done

run cpm-pin --irqs-away "$away"
assert "cpm-pin --irqs-away $away succeeds" "$rc" 0
printf '%s\n' "$err" >/tmp/irq.err
# Refused IRQs are named on stderr; every other one has left $away.
bad= refused=
while read -r n was; do
	[ "$n" = default ] && continue
	now=$(cat /proc/irq/$n/smp_affinity_list)
	[ -z "$(cpm-topo cpus "$now" --and "$away")" ] && continue
	if grep -q "IRQ $n .*cannot be moved" /tmp/irq.err; then
		refused="$refused $n"
	else
		bad="$bad irq$n=$now"
	fi
done </tmp/irq.orig
assert "every IRQ the kernel let move has left CPUs $away (refused:${refused:- none})" "$bad" ""
if [ -n "$virtio" ]; then
	still=
	for n in $virtio; do
		[ -n "$(cpm-topo cpus "$(cat /proc/irq/$n/smp_affinity_list)" --and "$away")" ] &&
		    still="$still $n"
	done
	assert "the virtio IRQs ($(echo $virtio)) were on $away and are off it now (before:${moved_before:- none})" \
	    "${moved_before:+yes}$still" "yes"
else
	skip "virtio IRQs moved" "no virtio device has interrupts in this guest"
fi
# New IRQs may go only to the CPU left: default_smp_affinity is the mask
# of CPU $first alone (hex words, commas and leading zeros dropped).
got=$(tr -d ',\n' </proc/irq/default_smp_affinity | sed 's/^0*//')
assert "default_smp_affinity for new IRQs is CPU $first alone" "$got" \
    "$(printf '%x' $((1 << first)))"

run cpm-pin --irqs-restore
assert "cpm-pin --irqs-restore succeeds" "$rc" 0
snapshot >/tmp/irq.now
if cmp -s /tmp/irq.orig /tmp/irq.now; then ok "restore brings back every affinity exactly"
else not_ok "restore brings back every affinity exactly" "$(diff /tmp/irq.orig /tmp/irq.now)"; fi

# SIGKILL at random instants of --irqs-away and --irqs-restore.
bad= r=0
while [ $r -lt 8 ]; do
	cpm-pin --irqs-away "$away" 2>/dev/null &
	p=$!
	usleep $((RANDOM % 150000))
	kill -9 $p 2>/dev/null
	wait $p 2>/dev/null
	if [ $((r % 2)) = 1 ]; then
		cpm-pin --irqs-restore 2>/dev/null &
		p=$!
		usleep $((RANDOM % 100000))
		kill -9 $p 2>/dev/null
		wait $p 2>/dev/null
	fi
	cpm-pin --irqs-restore 2>/dev/null || bad="$bad round$r:restore-failed"
	snapshot >/tmp/irq.now
	cmp -s /tmp/irq.orig /tmp/irq.now || bad="$bad round$r:$(diff /tmp/irq.orig /tmp/irq.now | grep '^[<>]' | tr '\n' ' ')"
	r=$((r + 1))
done
assert "after SIGKILL at random instants, restore brings back every affinity" "$bad" ""
[ ! -e "$CPM_IRQ_JOURNAL" ] && ok "no journal is left behind" ||
    not_ok "no journal is left behind"
