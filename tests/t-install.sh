# SPDX-License-Identifier: GPL-2.0-or-later
# make install into a DESTDIR: everything where PREFIX says, and the
# example units naming the tools and examples where this install put
# them (the files in examples/ say /usr/bin and /usr/share/doc/cpm, the
# Debian package's layout).
. "$(dirname "$0")/lib.sh"

D=$T_TMP/dest
# tools_in UNIT...: the paths of the cpm tools the units run.
tools_in() {
	grep -hoE "/[a-z/]*/cpm-(topo|alloc|quota|throttle|pin)([ ']|\$)" "$@"
}
inst() {
	rm -rf "$D"
	run make -s --no-print-directory -C "$CPM_TOP" install DESTDIR="$D" "$@"
}

inst
assert "make install succeeds" "$rc:$err" "0:"
for f in bin/cpm-topo bin/cpm-alloc share/man/man1/cpm-pin.1 share/man/man7/cpm.7 \
    share/doc/cpm/examples/cpm-throttle-report.service \
    share/doc/cpm/examples/cpm-throttle-report.timer \
    share/doc/cpm/examples/cpm-burst.service share/doc/cpm/examples/cpm.rules.yml; do
	if [ -f "$D/usr/local/$f" ]; then ok "PREFIX /usr/local: $f is installed"
	else not_ok "PREFIX /usr/local: $f is installed" "$(cd "$D" && find . -type f)"; fi
done
u=$D/usr/local/share/doc/cpm/examples
assert "the installed units run the tools from /usr/local/bin" \
    "$(tools_in "$u"/*.service | sed -E 's|/cpm-[a-z]+.?$||' | sort -u)" "/usr/local/bin"
assert "the installed units name the examples where they are" \
    "$(grep -ho '/[a-z/]*/doc/cpm/examples' "$u"/*.service | sort -u)" "/usr/local/share/doc/cpm/examples"
assert "the units in the tree keep the Debian paths" \
    "$(tools_in "$CPM_TOP"/examples/*.service | sed -E 's|/cpm-[a-z]+.?$||' | sort -u)" "/usr/bin"
assert "the rest of a unit is copied as it is" \
    "$(sed 's|/usr/local/|/usr/|g' "$u/cpm-burst.service")" "$(cat "$CPM_TOP/examples/cpm-burst.service")"

inst PREFIX=/usr
assert "PREFIX=/usr (the Debian package) installs the units unchanged" \
    "$rc:$(cat "$D/usr/share/doc/cpm/examples/cpm-throttle-report.service")" \
    "0:$(cat "$CPM_TOP/examples/cpm-throttle-report.service")"
inst PREFIX=/opt/cpm BINPREFIX=/opt/cpm/sbin
assert "BINPREFIX is what the units run" \
    "$(tools_in "$D/opt/cpm/share/doc/cpm/examples"/*.service | sed -E 's|/cpm-[a-z]+.?$||' | sort -u)" "/opt/cpm/sbin"
if command -v systemd-analyze >/dev/null; then
	inst
	# systemd-analyze verify checks that the commands exist: the tools
	# are where the units now say, below DESTDIR.
	sed "s|/usr/local/bin/|$D/usr/local/bin/|g" "$u/cpm-burst.service" >"$T_TMP/cpm-burst.service"
	run systemd-analyze verify --man=no "$T_TMP/cpm-burst.service"
	assert "systemd-analyze verify accepts an installed unit" "$rc" 0
fi
