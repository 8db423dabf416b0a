# SPDX-License-Identifier: GPL-2.0-or-later
# make deps, have-deps, and the packages make demo and make check install
# for themselves (mk/deps.sh).  Packages are not really removed or
# installed here: dpkg-query, apt-get and id are stand-ins first in PATH,
# because this machine's packages are shared with other work and a real
# apt-get needs the network.  The stand-in dpkg-query answers from the
# file $T_TMP/installed, apt-get adds to it and logs each call, and id
# says the user is $FAKE_UID.
. "$(dirname "$0")/lib.sh"

F=$T_TMP/fake
mkdir "$F"
cat >"$F/dpkg-query" <<'EOF'
#!/bin/sh
p=$(for a; do :; done; echo "$a")
if grep -qx "$p" "$FAKE_DIR/installed"; then printf 'install ok installed'
else echo "dpkg-query: no packages found matching $p" >&2; exit 1; fi
EOF
cat >"$F/apt-get" <<'EOF'
#!/bin/sh
echo "apt-get $*" >>"$FAKE_DIR/apt.log"
[ "$1" = install ] || [ "$2" = install ] || exit 0
for a; do case $a in -*|install) ;; *) echo "$a" >>"$FAKE_DIR/installed" ;; esac; done
EOF
cat >"$F/id" <<'EOF'
#!/bin/sh
echo "$FAKE_UID"
EOF
chmod 755 "$F"/*
export FAKE_DIR=$T_TMP FAKE_UID=1000

ALL=$(make -s -C "$CPM_TOP" --no-print-directory -p -n have-deps 2>/dev/null |
    sed -n 's/^DEBIAN_\(BUILD\|TEST\)_DEPS *= *//p' | tr -s ' \\' '\n\n' | sed '/^$/d')
# installed ALL-BUT...: every package of the lists but these.
installed() {
	printf '%s\n' "$ALL" >"$T_TMP/installed.all"
	cp "$T_TMP/installed.all" "$T_TMP/installed"
	for p; do grep -vx "$p" "$T_TMP/installed" >"$T_TMP/i" || :; mv "$T_TMP/i" "$T_TMP/installed"; done
	: >"$T_TMP/apt.log"
}
# mk TARGET: make TARGET with the stand-ins; $out, $err, $rc.
mk() { run env PATH="$F:$PATH" make -s --no-print-directory -C "$CPM_TOP" "$@"; }

case $ALL in
*valgrind*lintian*) ok "the package lists are read from the Makefile" ;;
*) not_ok "the package lists are read from the Makefile" "$ALL" ;;
esac

installed
mk have-deps
assert "have-deps passes with every package installed" "$rc:$err" "0:"

# valgrind, lintian and zsh were claimed and never checked.
for p in valgrind lintian zsh libsystemd-dev; do
	installed "$p"
	mk have-deps
	if [ "$rc" != 0 ] && printf '%s' "$err" | grep -q "missing Debian packages: $p\$"; then
		ok "have-deps names a missing $p"
	else
		not_ok "have-deps names a missing $p" "$(show)"
	fi
done

# Not root: nothing installed, the one command named.
FAKE_UID=1000
installed libnuma-dev prometheus
mk demo-deps
if [ "$rc" != 0 ] && [ ! -s "$T_TMP/apt.log" ] &&
    printf '%s' "$err" | grep -qx "make demo: run as root: apt-get install libnuma-dev"; then
	ok "make demo not as root names the one command, for what the build needs"
else
	not_ok "make demo not as root names the one command, for what the build needs" "$(show)" "$(cat "$T_TMP/apt.log")"
fi
installed valgrind prometheus
mk demo-deps
assert "make demo needs neither prometheus nor valgrind" "$rc:$err:$(cat "$T_TMP/apt.log")" "0::"
mk check-deps
if [ "$rc" != 0 ] && printf '%s' "$err" | grep -qx "make check: run as root: apt-get install prometheus valgrind"; then
	ok "make check not as root names the one command"
else
	not_ok "make check not as root names the one command" "$(show)"
fi

# Root: what is missing is installed, saying so, through apt-get.
FAKE_UID=0
installed libnuma-dev valgrind
mk demo-deps
if [ "$rc" = 0 ] && printf '%s' "$err" | grep -q "installing .* libnuma-dev\$" &&
    [ "$(cat "$T_TMP/apt.log")" = "apt-get update -qq
apt-get install -y -qq libnuma-dev" ]; then
	ok "make demo as root installs what the build needs, and only that"
else
	not_ok "make demo as root installs what the build needs, and only that" "$(show)" "$(cat "$T_TMP/apt.log")"
fi
mk check-deps
if [ "$rc" = 0 ] && [ "$(cat "$T_TMP/apt.log")" = "apt-get update -qq
apt-get install -y -qq libnuma-dev
apt-get update -qq
apt-get install -y -qq valgrind" ]; then
	ok "make check as root installs the test packages missing"
else
	not_ok "make check as root installs the test packages missing" "$(show)" "$(cat "$T_TMP/apt.log")"
fi
mk check-deps
assert "make check installs nothing once all is there" "$rc:$err:$(cat "$T_TMP/apt.log" | wc -l)" "0::4"

installed
mk deps
assert "make deps installs the whole list" \
    "$rc:$(tail -1 "$T_TMP/apt.log" | tr ' ' '\n' | sed 1,4d | sort | tr '\n' ' ')" \
    "0:$(printf '%s\n' "$ALL" | sort | tr '\n' ' ')"

# make demo itself: the packages first, then the build and the machine.
installed hwloc-nox pkg-config
mk demo
if [ "$rc" = 0 ] && grep -qx "apt-get install -y -qq pkg-config" "$T_TMP/apt.log" &&
    printf '%s' "$out" | grep -q "CPU"; then
	ok "make demo as root installs, builds and shows the machine"
else
	not_ok "make demo as root installs, builds and shows the machine" "$(show)" "$(cat "$T_TMP/apt.log")"
fi
