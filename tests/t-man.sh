# SPDX-License-Identifier: GPL-2.0-or-later
# Every manual page rendered as a reader sees it: mandoc -T lint has
# nothing to say, man -l renders it without a warning, and the text
# mandoc -T utf8 prints has no Fl macro that took words for options
# ("--systemd, -on -by -itself"), no nested or unclosed quotes and no
# unbalanced parentheses (tests/man-check.py).  Pages made here with one
# defect each show that the check finds every kind.
. "$(dirname "$0")/lib.sh"

if ! command -v mandoc >/dev/null || ! command -v python3 >/dev/null; then
	skip "the manual pages" "mandoc or python3 not installed"
	exit 0
fi

# render PAGE: PAGE's text as mandoc -T utf8 prints it, without overstrikes.
render() { mandoc -T utf8 "$1" | LC_ALL=C.UTF-8 col -b >"$T_TMP/rendered"; }

for m in "$CPM_TOP"/man/*.[17]; do
	p=${m##*/}
	run mandoc -T lint -W warning "$m"
	assert "$p: mandoc -T lint is clean" "$rc:$out$err" "0:"
	if command -v man >/dev/null; then
		run env MANWIDTH=80 MAN_KEEP_STDERR=1 man --warnings -l "$m"
		assert "$p: man -l renders it without a warning" "$rc:$err" "0:"
	fi
	render "$m"
	run python3 "$CPM_TOP/tests/man-check.py" "$m" "$T_TMP/rendered"
	assert "$p: no Fl takes words, quotes and parentheses balance" "$rc:$out" "0:"
done

# The check itself: one page a defect, each as the manuals had it.
page() {
	printf '.Dd May 1, 2026\n.Dt CPM-X 1\n.Os\n.Sh NAME\n.Nm cpm-x\n.Nd x\n.Sh DESCRIPTION\n%s\n' "$1" >"$T_TMP/x.1"
}
# caught NAME WHAT MDOC: man-check.py finds WHAT in a page of MDOC.
caught() {
	page "$3"
	render "$T_TMP/x.1"
	run python3 "$CPM_TOP/tests/man-check.py" "$T_TMP/x.1" "$T_TMP/rendered"
	if [ "$rc" = 1 ] && printf '%s' "$out" | grep -q -- "$2"; then
		ok "the check finds $1"
	else
		not_ok "the check finds $1" "$(show)" "rendered: $(cat "$T_TMP/rendered")"
	fi
}
caught "an Fl that takes words for options" 'Fl takes "on"' \
    "A label
.Pq Fl -systemd , on by itself on such hosts ."
caught "an Fl that takes a word at the end of a Pq" 'Fl takes "tree"' \
    "The tree
.Pq or the Fl -sysroot tree
that it reads."
caught "nested quotes" "quotes nested" \
    "When systemd touches the unit
.Pq Ql systemctl daemon-reload , a restart, Ql systemctl set-property ,
it puts its values back."
caught "a parenthesis closed that was not opened" ") closed that was not opened" \
    "Print
.Pq Li cpus , pid ,
the file names,
.Li attach ) ,
and change nothing."
caught "a parenthesis left open" "( left open" \
    "Print the owner (unit, delegated or unmanaged and nothing else."
caught "a quote left open" "‘ left open" \
    "Run
.Ql cpm-topo
and \\(oqcpm-alloc list."
page2() {
	printf '.Dd May 1, 2026\n.Dt CPM-X 1\n.Os\n.Sh NAME\n.Nm cpm-x\n.Nd x\n.Sh SYNOPSIS\n%s\n.Sh DESCRIPTION\nx\n' "$1" >"$T_TMP/x.1"
}
page2 ".Nm
.Fl -irqs-to Ar device cpulist
.Fl -set-weights Ar weights | Fl -restore-weights
.Nm
.Fl -scope
.Ar cpulist
.Fl -
.Ar command"
render "$T_TMP/x.1"
run python3 "$CPM_TOP/tests/man-check.py" "$T_TMP/x.1" "$T_TMP/rendered"
case $rc:$out in
1:*"synopsis forms run together: -irqs-to -set-weights"*) ok "the check finds two synopsis forms run together, and not a form's --" ;;
*) not_ok "the check finds two synopsis forms run together, and not a form's --" "$(show)" ;;
esac
page ".Fl -top , -prom-file , -min-ratio ;
don\\(cqt (or do) say
.Ql it
.Pq Ql x ."
render "$T_TMP/x.1"
run python3 "$CPM_TOP/tests/man-check.py" "$T_TMP/x.1" "$T_TMP/rendered"
assert "the check passes options listed after one Fl, apostrophes and quotes in parentheses" "$rc:$out" "0:"

# cpm(7)'s ENVIRONMENT names every variable the tools read, and its FILES
# every default file below /var/lib/cpm with its lock.
vars=$(cat "$CPM_TOP"/lib/*/*.[ch] "$CPM_TOP"/bin/*.c | grep -oE '"CPM_[A-Z_]+"' | tr -d '"' | sort -u)
files=$(cat "$CPM_TOP"/lib/*/*.[ch] "$CPM_TOP"/bin/*.c | grep -oE '"/var/lib/cpm/[a-z._]+"' | tr -d '"' | sort -u)
render "$CPM_TOP/man/cpm.7"
sed -n '/^ENVIRONMENT/,/^[A-Z]/p' "$T_TMP/rendered" >"$T_TMP/env"
sed -n '/^FILES/,/^[A-Z]/p' "$T_TMP/rendered" >"$T_TMP/files"
for v in $vars; do
	if grep -q "^     $v" "$T_TMP/env"; then ok "cpm(7) ENVIRONMENT has $v"
	else not_ok "cpm(7) ENVIRONMENT has $v" "$(cat "$T_TMP/env")"; fi
done
for f in $files; do
	case $f in */alloc.state|*/burst.journal|*/burst.groups|*/irq.journal|*/isolate.journal) l=", ${f##*/}.lock" ;; *) l= ;; esac
	if grep -qx "     $f$l" "$T_TMP/files"; then ok "cpm(7) FILES has $f$l"
	else not_ok "cpm(7) FILES has $f$l" "$(cat "$T_TMP/files")"; fi
done

# The locks as the tools take them: FILE.lock for cpm-throttle --since
# (not the snapshot's directory), the state's path with .lock for
# cpm-alloc, read as a sentence.
render "$CPM_TOP/man/cpm-throttle.1"
tr -s ' \t\n' '   ' <"$T_TMP/rendered" >"$T_TMP/flat"
if grep -q "for the snapshot's lock, FILE.lock, then exit 1" "$T_TMP/flat" &&
    ! grep -q "lock the snapshot's directory" "$T_TMP/flat"; then
	ok "cpm-throttle(1) names the lock --since takes and --wait waits for"
else
	not_ok "cpm-throttle(1) names the lock --since takes and --wait waits for" "$(grep -o '.\{80\}lock.\{80\}' "$T_TMP/flat")"
fi
render "$CPM_TOP/man/cpm-alloc.1"
tr -s ' \t\n' '   ' <"$T_TMP/rendered" >"$T_TMP/flat"
if grep -q "for the state's lock (its path with .lock appended)" "$T_TMP/flat" &&
    ! grep -q "state, file.lock" "$T_TMP/flat"; then
	ok "cpm-alloc(1) --wait names the state's lock"
else
	not_ok "cpm-alloc(1) --wait names the state's lock" "$(grep -o '.\{80\}file.lock.\{40\}' "$T_TMP/flat")"
fi

# The FILES entry for the device classes ends where it should, and the
# node entry says what the memory report reads there (they ran together).
render "$CPM_TOP/man/cpm-topo.1"
sed -n '/^FILES/,/^[A-Z]/p' "$T_TMP/rendered" | tr -s ' \t\n' '   ' >"$T_TMP/files"
if grep -q 'each a link into its PCI device /sys/devices/' "$T_TMP/files" &&
    grep -q '/sys/devices/system/node/ NUMA nodes, their CPUs, memory and distances; with memory' "$T_TMP/files"; then
	ok "cpm-topo(1) FILES: one entry a path, none run into the next"
else
	not_ok "cpm-topo(1) FILES: one entry a path, none run into the next" "$(cat "$T_TMP/files")"
fi
# cpm-pin(1) counts its forms as its sections describe them.
render "$CPM_TOP/man/cpm-pin.1"
if grep -q 'has seven forms' "$T_TMP/rendered"; then ok "cpm-pin(1) says how many forms it has"
else not_ok "cpm-pin(1) says how many forms it has" "$(grep -n forms "$T_TMP/rendered")"; fi
