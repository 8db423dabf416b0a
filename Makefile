# cpm: CPU placement toolkit.  See README.
#
# This Makefile needs GNU make: it lists sources with $(wildcard) and
# $(sort) and builds them with % pattern rules.  .POSIX only asks GNU make
# for POSIX shell semantics in recipes (each runs as sh -e).
.POSIX:

VERSION   = 0.1.0
PREFIX    = /usr/local
BINPREFIX = $(PREFIX)/bin
MANPREFIX = $(PREFIX)/share/man
BASHCOMPDIR = $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR  = $(PREFIX)/share/zsh/vendor-completions
DOCDIR    = $(PREFIX)/share/doc/cpm

# CFLAGS, CPPFLAGS and LDFLAGS from the environment (dpkg-buildflags,
# say) are used as they are.
CC      = cc
# Not "?=": under .POSIX GNU make gives CFLAGS a default of its own (-O1),
# which "?=" would keep.
ifeq ($(origin CFLAGS),default)
CFLAGS  = -O2 -g
endif
CPPFLAGS ?=
LDFLAGS ?=
WARN    = -Wall -Wextra -Wshadow -Wformat=2 -Wno-unused-parameter
# sqrt() is one instruction when it need not set errno; with it, only
# the programs that convert weights (log2, pow) call libm, and only they
# load it (--as-needed): one shared object fewer to map and relocate in
# every cpm-alloc, cpm-pin and cpm-topo call.
OPT_CPM = -fno-math-errno
CPPFLAGS_CPM = -D_GNU_SOURCE -DCPM_VERSION=\"$(VERSION)\" -Ilib
# libcgroup is linked statically when its archive is installed (Debian's
# -dev package ships it): loading one more shared object and resolving its
# symbols cost cpm-pin more than all its own work before exec.  libnuma
# and libsystemd are not linked at all: lib/pin/numaload.c opens libnuma when
# a memory policy is first set, lib/cgroup/sdload.c opens libsystemd on the first
# sd-bus call.  libnuma calls its numa_error() and numa_warn() hooks by
# name, so the programs export cpm's own (LDFLAGS_CPM).
# 'make LIBS="-lcgroup -lm"' links libcgroup dynamically.
HAVE_STATIC := $(findstring /,$(shell $(CC) -print-file-name=libcgroup.a))
LIBS_STATIC = -Wl,-Bstatic -lcgroup -Wl,-Bdynamic -Wl,--as-needed -lm \
	      -Wl,--no-as-needed
LIBS_SHARED = -lcgroup -Wl,--as-needed -lm -Wl,--no-as-needed
LIBS    = $(if $(HAVE_STATIC),$(LIBS_STATIC),$(LIBS_SHARED))
LDFLAGS_CPM = -Wl,--export-dynamic-symbol=numa_error \
	      -Wl,--export-dynamic-symbol=numa_warn

LIB_SRC  = $(sort $(wildcard lib/*/*.c))
LIB_OBJ  = $(LIB_SRC:.c=.o)
LIB_HDR  = $(wildcard lib/*/*.h)
TOOLS    = $(patsubst %.c,%,$(sort $(wildcard bin/cpm-*.c)))
UNIT_SRC = $(sort $(wildcard tests/unit/*.c))
UNITS    = $(UNIT_SRC:.c=)
HELPERS_SRC = $(sort $(wildcard tests/helpers/*.c))
HELPERS  = $(HELPERS_SRC:.c=)
BENCH_SRC = $(sort $(wildcard tests/bench/*.c))
BENCH    = $(BENCH_SRC:.c=)
MANPAGES = $(wildcard man/*.1)
MANPAGES7 = $(wildcard man/*.7)
EXAMPLES = $(filter-out examples/oci-hooks.d examples/ansible,$(sort $(wildcard examples/*)))
# The Ansible role (examples/ansible): installed as it is, a tree.
ANSIBLE = $(sort $(shell find examples/ansible -type f 2>/dev/null))
# hooks.d files for podman and CRI-O: documentation, not enabled (an
# administrator copies one to /etc/containers/oci/hooks.d).
OCIHOOKS = $(sort $(wildcard examples/oci-hooks.d/*.json))

all: $(TOOLS)

lib/libcpm.a: $(LIB_OBJ)
	rm -f $@
	ar rcs $@ $(LIB_OBJ)

lib/%.o: lib/%.c $(LIB_HDR)
	$(CC) $(CPPFLAGS_CPM) $(CPPFLAGS) $(WARN) $(OPT_CPM) $(CFLAGS) -c -o $@ $<

bin/%: bin/%.c lib/libcpm.a $(LIB_HDR)
	$(CC) $(CPPFLAGS_CPM) $(CPPFLAGS) $(WARN) $(OPT_CPM) $(CFLAGS) $(LDFLAGS_CPM) $(LDFLAGS) -o $@ $< lib/libcpm.a $(LIBS)

tests/unit/%: tests/unit/%.c tests/unit/unit.h tests/unit/machine.h tests/unit/allocmachine.h tests/helpers/deny-openat2.h lib/libcpm.a $(LIB_HDR)
	$(CC) $(CPPFLAGS_CPM) $(CPPFLAGS) $(WARN) $(OPT_CPM) $(CFLAGS) $(LDFLAGS_CPM) $(LDFLAGS) -o $@ $< lib/libcpm.a $(LIBS)

tests/helpers/%: tests/helpers/%.c tests/helpers/deny-openat2.h
	$(CC) $(CPPFLAGS_CPM) $(CPPFLAGS) $(WARN) $(OPT_CPM) $(CFLAGS) $(LDFLAGS) -o $@ $< -lpthread $(LIBS)

tests/bench/%: tests/bench/%.c
	$(CC) $(CPPFLAGS_CPM) $(CPPFLAGS) $(WARN) $(OPT_CPM) $(CFLAGS) $(LDFLAGS) -o $@ $<

# Build and test dependencies on Debian, one list for every target:
# 'make deps' installs them all (as root); 'make demo' and 'make check'
# install, as root, what they need of them and is missing (demo only the
# build's), and otherwise name the apt-get command that would
# (mk/deps.sh).  'make have-deps' checks the whole list.
DEBIAN_BUILD_DEPS = build-essential pkg-config libnuma-dev libcgroup-dev \
		    libsystemd-dev
DEBIAN_TEST_DEPS  = util-linux hwloc-nox numactl cgroup-tools prometheus \
		    python3 bzip2 procps mandoc zsh bash-completion hyperfine \
		    valgrind debhelper fakeroot lintian xxhash podman runc crun \
		    busybox-static stress-ng chromium libxml2-utils tmux ansible-core \
		    irqbalance tuna rt-tests
DEPS = sh mk/deps.sh
deps:
	$(DEPS) install deps $(DEBIAN_BUILD_DEPS) $(DEBIAN_TEST_DEPS)

have-deps:
	@$(DEPS) check have-deps $(DEBIAN_BUILD_DEPS) $(DEBIAN_TEST_DEPS)

# The packages first, then the build: the steps run in this order, as
# recipe lines, even under -j.
demo-deps:
	@$(DEPS) ensure demo $(DEBIAN_BUILD_DEPS)

check-deps:
	@$(DEPS) ensure check $(DEBIAN_BUILD_DEPS) $(DEBIAN_TEST_DEPS)

demo: demo-deps
	$(MAKE) all
	./bin/cpm-topo

check: check-deps
	$(MAKE) test-progs
	sh tests/run

# The tools and every program the tests run (unit tests, helpers), for
# running single suites with 'sh tests/run t-NAME'.
test-progs: all $(UNITS) $(HELPERS)

# Benchmarks against peers and floors (tests/bench/run; several minutes,
# creates and removes cgroups named cpm-bench-PID); rewrites
# tests/bench/RESULTS.md.  Nothing here asserts a time.
bench: check-deps
	$(MAKE) all $(BENCH)
	sh tests/bench/run

# libFuzzer harnesses for the parsers (needs clang).
FUZZ_SRC = $(wildcard tests/fuzz/fuzz-*.c)
fuzz: $(FUZZ_SRC:.c=)
tests/fuzz/fuzz-%: tests/fuzz/fuzz-%.c $(LIB_SRC) $(LIB_HDR)
	clang $(CPPFLAGS_CPM) -g -O1 -fsanitize=fuzzer,address,undefined $(LDFLAGS_CPM) -o $@ $< $(LIB_SRC) $(LIBS)

check-vm: all
	sh tests/vm/run

# The Debian package, built from HEAD in a temporary directory, checked
# with lintian, installed with apt-get, tried and removed (as root).
check-deb:
	sh tests/deb/run

install: all
	mkdir -p $(DESTDIR)$(BINPREFIX) $(DESTDIR)$(MANPREFIX)/man1 \
		$(DESTDIR)$(MANPREFIX)/man7 $(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR) \
		$(DESTDIR)$(DOCDIR)/examples/oci-hooks.d
	for t in $(TOOLS); do cp -f $$t $(DESTDIR)$(BINPREFIX)/; chmod 755 $(DESTDIR)$(BINPREFIX)/$${t#bin/}; done
	for m in $(MANPAGES); do cp -f $$m $(DESTDIR)$(MANPREFIX)/man1/; chmod 644 $(DESTDIR)$(MANPREFIX)/man1/$${m#man/}; done
	for m in $(MANPAGES7); do cp -f $$m $(DESTDIR)$(MANPREFIX)/man7/; chmod 644 $(DESTDIR)$(MANPREFIX)/man7/$${m#man/}; done
	for c in completions/cpm-*; do cp -f $$c $(DESTDIR)$(BASHCOMPDIR)/; chmod 644 $(DESTDIR)$(BASHCOMPDIR)/$${c#completions/}; done
	for c in completions/_cpm-*; do cp -f $$c $(DESTDIR)$(ZSHCOMPDIR)/; chmod 644 $(DESTDIR)$(ZSHCOMPDIR)/$${c#completions/}; done
	# The units name the tools where this install puts them, and the
	# examples where they are (the files say /usr/bin and /usr/share).
	for e in $(EXAMPLES); do \
		sed -e 's|/usr/bin/cpm-|$(BINPREFIX)/cpm-|g' \
		    -e 's|/usr/share/doc/cpm/|$(DOCDIR)/|g' $$e \
		    >$(DESTDIR)$(DOCDIR)/examples/$${e#examples/}; \
		chmod 644 $(DESTDIR)$(DOCDIR)/examples/$${e#examples/}; \
	done
	for e in $(OCIHOOKS); do sed 's|"/usr/bin/cpm-alloc"|"$(BINPREFIX)/cpm-alloc"|' $$e >$(DESTDIR)$(DOCDIR)/$$e; chmod 644 $(DESTDIR)$(DOCDIR)/$$e; done
	for e in $(ANSIBLE); do mkdir -p $(DESTDIR)$(DOCDIR)/$$(dirname $$e); cp -f $$e $(DESTDIR)$(DOCDIR)/$$e; chmod 644 $(DESTDIR)$(DOCDIR)/$$e; done

uninstall:
	for t in $(TOOLS); do rm -f $(DESTDIR)$(BINPREFIX)/$${t#bin/}; done
	for m in $(MANPAGES); do rm -f $(DESTDIR)$(MANPREFIX)/man1/$${m#man/}; done
	for m in $(MANPAGES7); do rm -f $(DESTDIR)$(MANPREFIX)/man7/$${m#man/}; done
	for c in completions/cpm-*; do rm -f $(DESTDIR)$(BASHCOMPDIR)/$${c#completions/}; done
	for c in completions/_cpm-*; do rm -f $(DESTDIR)$(ZSHCOMPDIR)/$${c#completions/}; done
	for e in $(EXAMPLES); do rm -f $(DESTDIR)$(DOCDIR)/examples/$${e#examples/}; done
	for e in $(OCIHOOKS); do rm -f $(DESTDIR)$(DOCDIR)/$$e; done
	for e in $(ANSIBLE); do rm -f $(DESTDIR)$(DOCDIR)/$$e; done
	-find $(DESTDIR)$(DOCDIR)/examples/ansible -depth -type d -empty -delete 2>/dev/null
	-rmdir $(DESTDIR)$(DOCDIR)/examples/oci-hooks.d $(DESTDIR)$(DOCDIR)/examples $(DESTDIR)$(DOCDIR) 2>/dev/null

clean:
	rm -f lib/*/*.o lib/libcpm.a $(TOOLS) $(UNITS) $(HELPERS) $(BENCH) $(FUZZ_SRC:.c=)
	rm -rf tests/out

.PHONY: all deps have-deps demo-deps check-deps demo check test-progs check-vm check-deb bench fuzz install uninstall clean
