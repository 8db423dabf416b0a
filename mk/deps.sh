#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The Debian packages cpm's make targets need, checked and installed from
# the one list the Makefile passes (DEBIAN_BUILD_DEPS, DEBIAN_TEST_DEPS).
#
#   sh mk/deps.sh check TARGET PACKAGE...    exit 1 naming what is missing
#   sh mk/deps.sh ensure TARGET PACKAGE...   install what is missing when
#                                            root, else name the command
#   sh mk/deps.sh install TARGET PACKAGE...  install them all (make deps)
#
# A package counts as present when dpkg-query says it is installed; on a
# system without dpkg-query nothing can be checked or installed, and the
# targets go on, so that the build says what it lacks.
set -u
mode=${1:?mode}
target=${2:?target}
shift 2

missing=
if command -v dpkg-query >/dev/null 2>&1; then
	for p in "$@"; do
		case $(dpkg-query -W -f='${Status}' "$p" 2>/dev/null) in
		*" ok installed") ;;
		*) missing="$missing $p" ;;
		esac
	done
elif [ "$mode" != install ]; then
	echo "make $target: dpkg-query not found: not a Debian system, packages not checked (README: Dependencies)" >&2
	exit 0
fi
missing=${missing# }

apt_install() {
	[ -n "$1" ] || return 0
	apt-get update -qq &&
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $1 >/dev/null
}

case $mode in
install)
	# shellcheck disable=SC2086 # one word a package
	apt_install "$*" || { echo "make $target: apt-get install failed" >&2; exit 1; }
	;;
check|ensure)
	[ -z "$missing" ] && exit 0
	if [ "$mode" = ensure ] && [ "$(id -u)" = 0 ]; then
		echo "make $target: installing the missing Debian packages (apt-get; the list 'make deps' installs): $missing" >&2
		apt_install "$missing" || { echo "make $target: apt-get install $missing failed" >&2; exit 1; }
		exit 0
	fi
	echo "make $target: missing Debian packages: $missing" >&2
	echo "make $target: run as root: apt-get install $missing" >&2
	exit 1
	;;
*)
	echo "mk/deps.sh: unknown mode $mode" >&2
	exit 2
	;;
esac
