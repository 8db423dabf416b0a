#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# What each tool makes the dynamic linker load before its own work: the
# tools called in tight loops (cpm-alloc, cpm-pin, cpm-topo, cpm-throttle)
# need nothing but libc.  libm only for cpm-quota's weight formulas;
# libnuma and libsystemd never (opened when first used); libcgroup not
# when its archive is installed (linked in).  A sanitizer's run-time
# library, in a build with -fsanitize, is not the tools' own.
. "$(dirname "$0")/lib.sh"

if ! command -v readelf >/dev/null 2>&1; then
	skip "shared objects of the tools" "no readelf"
	exit 0
fi
static_cgroup=$(${CC:-cc} -print-file-name=libcgroup.a)
for t in cpm-topo cpm-alloc cpm-quota cpm-throttle cpm-pin; do
	needed=$(readelf -d "$CPM_TOP/bin/$t" |
	    sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' |
	    grep -v -e '^libasan\.' -e '^libubsan\.' -e '^liblsan\.' -e '^libtsan\.' |
	    tr '\n' ' ')
	want="libc.so.6 "
	[ "$t" = cpm-quota ] && want="libm.so.6 libc.so.6 "
	# linked shared (no archive): whatever its soname, it is allowed
	case $static_cgroup in
	/*) ;;
	*) needed=$(echo "$needed" | sed 's/libcgroup\.so[.0-9]* //') ;;
	esac
	assert "$t loads only what it needs" "$needed" "$want"
done
