# perf-uprobes: kernel + perf from Debian's linux-source-6.1 with our series,
# booted under QEMU, tested with perf in the guest.  See README.md.
#
#   make demo            the seed's session on malloc-graph, in the guest, and
#                        its flame graphs of calls and bytes (build/demo/*.html)
#   make check           every test (TESTS=<globs> for some; EXTRA_TESTS=<dir> to add),
#                        then MM_TESTS again under KCONFIG=mm
#   make check-both      make check on fork, then on stock (each stock TODO must fail)
#   make golden          remake 72's and 73's golden copies on stock
#   make bench           fork vs stock, one run (BENCH_CLOCK=icount|wall)
#   make bench-scale     probes at scale (N libc probes, M processes):
#                        enable, disable, exec and memory, fork vs stock
#   make bench-perf      perf probe -F/-D and report speed, ours vs stock (host)
#   make bench-profile   where a hit's guest kernel instructions go, by
#                        function and `hits` class (KERNEL=fork|stock)
#   make perftest        perf's whole `perf test` suite vs the stock baseline
#                        (KERNEL=stock PERFTEST_UPDATE=1 rewrites the baseline)
#   make shell           an interactive guest
#   make stress          STRESS_SECONDS (600) of everything at once under
#                        KCONFIG=debug (perf-tests/soak/soak.sh)
# Variables: KERNEL=fork|stock  KCONFIG=normal|debug|mm  QEMU_ACCEL=tcg|kvm
#            TCG_THREADS=single|multi  TESTS=<globs>  MM_TESTS=<globs>
#            EXTRA_TESTS=<dir>

KERNEL ?= fork
# make stress is for the debug kernel unless told otherwise
ifeq ($(MAKECMDGOALS),stress)
KCONFIG ?= debug
endif
KCONFIG ?= normal
STRESS_SECONDS ?= 600
QEMU_ACCEL ?= tcg
TCG_THREADS ?= single
TESTS ?= *
MM_TESTS ?= 45-* 68-* 95-* 96-* 97-* 98-*
EXTRA_TESTS ?=
GUEST_TIMEOUT ?= 2400

TOP := $(CURDIR)
BUILD := $(TOP)/build
STOCK_SRC := $(BUILD)/src/linux-source-6.1
FORK_SRC := $(BUILD)/fork/linux

ifeq ($(filter $(KERNEL),fork stock),)
$(error KERNEL must be fork or stock, not '$(KERNEL)')
endif
ifeq ($(filter $(KCONFIG),normal debug mm),)
$(error KCONFIG must be normal, debug or mm, not '$(KCONFIG)')
endif

SRC_fork := $(FORK_SRC)
SRC_stock := $(STOCK_SRC)
SRC := $(SRC_$(KERNEL))
KSUFFIX := $(if $(filter-out normal,$(KCONFIG)),-$(KCONFIG))
FRAGMENTS := $(TOP)/kernel-patches/config \
	$(if $(filter debug,$(KCONFIG)),$(TOP)/kernel-patches/config-debug) \
	$(if $(filter mm,$(KCONFIG)),$(TOP)/kernel-patches/config-mm)
KOBJ = $(BUILD)/obj/kernel-$(1)$(KSUFFIX)
BZIMAGE = $(call KOBJ,$(1))/arch/x86/boot/bzImage
PERF_OBJ = $(BUILD)/obj/perf-$(1)
PERF_DEST = $(BUILD)/obj/perf-$(1)-install
GUEST_IMG = $(BUILD)/guest-$(1).cpio
WORKLOADS := $(BUILD)/workloads
CLIENTS_IMG := $(BUILD)/clients.img

RUN = $(TOP)/qemu/run.sh --accel $(QEMU_ACCEL) --tcg-threads $(TCG_THREADS) \
	--kconfig $(KCONFIG) --timeout $(GUEST_TIMEOUT)

DEB_PACKAGES := linux-source-6.1 gcc make bc bison flex libelf-dev libdw-dev \
	libunwind-dev libslang2-dev libssl-dev qemu-system-x86 busybox-static \
	cpio ccache binutils iputils-ping libcap-dev libzstd-dev liblzma-dev \
	libnuma-dev zlib1g-dev pkg-config python3 git xz-utils gawk file \
	coreutils findutils diffutils procps linux-perf g++ libc6-dbg \
	libiberty-dev systemtap-sdt-dev gcc-multilib bpftrace bpftool gdb \
	e2fsprogs clang-format python3-dev python3-setuptools curl chromium

# The flame graphs of make demo: perf's flame graph report, run on the host
# by a perf with libpython built from the fork tree (the guest's has none),
# fills d3-flame-graph's template, pinned (5.0.0 no longer ships it).
PERF_PY := $(BUILD)/obj/perf-py
PERF_PY_DEST := $(BUILD)/obj/perf-py-install
D3FG_VERSION := 4.1.3
D3FG_SHA256 := 5b9fd58798daad7515db6e1a2224c1d939c11584f79da108706dbde3942363c4
D3FG_DIR := $(BUILD)/d3-flame-graph
FLAMEGRAPH_ENV = PERF=$(PERF_PY)/perf PERF_CORE=$(PERF_PY_DEST)/usr/libexec/perf-core \
	TEMPLATE=$(D3FG_DIR)/d3-flamegraph-base.html SYMFS=$(call GUEST_IMG,$(KERNEL)).d \
	WORKLOADS=$(WORKLOADS)

export CCACHE_DIR ?= $(HOME)/.ccache
export CCACHE_MAXSIZE ?= 5G

.PHONY: all deps prepare kernel perf perf-py flamegraph-tools workloads clients guest demo check \
	bench bench-scale bench-perf bench-profile check-both check-host checkpatch golden perftest shell stress clean \
	export-patches lint FORCE

all: guest

deps:
	@missing=$$(for p in $(DEB_PACKAGES); do \
		dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'install ok installed' || echo $$p; \
	done); \
	if [ -n "$$missing" ]; then \
		echo "DEPS installing:" $$missing; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
			apt-get install -y -qq --no-install-recommends $$missing > $(BUILD).deps.log 2>&1 || \
			{ tail -n 20 $(BUILD).deps.log; exit 1; }; \
	fi

# Stock is the pristine extract; fork is a git working copy with our series.
prepare: deps
	@$(TOP)/scripts/prepare-tree.sh

export-patches:
	@$(TOP)/scripts/export-patches.sh

# One tree, kernel and perf per flavour; the variables pick which.
kernel: prepare
	@$(TOP)/scripts/build-kernel.sh $(SRC) $(call KOBJ,$(KERNEL)) $(FRAGMENTS)

perf: prepare
	@$(TOP)/scripts/build-perf.sh $(SRC) $(call PERF_OBJ,$(KERNEL)) $(call PERF_DEST,$(KERNEL))

# perf with libpython, and the template: what scripts/flamegraphs.sh needs
perf-py: prepare
	@$(TOP)/scripts/build-perf.sh $(FORK_SRC) $(PERF_PY) $(PERF_PY_DEST) python
flamegraph-tools: perf-py
	@[ -f $(D3FG_DIR)/.version-$(D3FG_VERSION) ] && [ -f $(D3FG_DIR)/d3-flamegraph-base.html ] || \
		$(TOP)/scripts/fetch-d3-flame-graph.sh $(D3FG_VERSION) $(D3FG_SHA256) $(D3FG_DIR)
workloads: deps
	@$(MAKE) -s -C $(TOP)/workloads OUT=$(WORKLOADS)

# The clients disk (bpftrace, bpftool, gdb), one image for both kernels.
clients: deps
	@if [ ! -f $(CLIENTS_IMG) ] || \
	    [ -n "$$(find $(TOP)/qemu/mkclients.sh $(TOP)/qemu/stage-lib.sh \
			-newer $(CLIENTS_IMG) 2>/dev/null)" ]; then \
		$(TOP)/qemu/mkclients.sh $(CLIENTS_IMG); \
	fi

guest: perf workloads clients
	@if [ ! -f $(call GUEST_IMG,$(KERNEL)) ] || \
	    [ -n "$$(find $(call PERF_OBJ,$(KERNEL))/perf $(WORKLOADS) $(TOP)/qemu/init \
			$(TOP)/qemu/mkguest.sh $(TOP)/qemu/stage-lib.sh -newer $(call GUEST_IMG,$(KERNEL)) 2>/dev/null)" ]; then \
		$(TOP)/qemu/mkguest.sh $(call GUEST_IMG,$(KERNEL)) $(call PERF_DEST,$(KERNEL))/usr \
			$(SRC) $(WORKLOADS); \
	fi

# While kernel-patches/series is empty the fork kernel is the stock kernel,
# so the tests hold it to stock's known limits; the first patch of our core
# makes them count in full.
SERIES_EMPTY := $(if $(strip $(shell sed 's/\#.*//' $(TOP)/kernel-patches/series)),,yes)
FLAVOUR := $(if $(SERIES_EMPTY),stock,$(KERNEL))
BOOT = --kernel $(call BZIMAGE,$(KERNEL)) --initrd $(call GUEST_IMG,$(KERNEL)) \
	--flavour $(FLAVOUR) --clients $(CLIENTS_IMG) --data $(WORKLOADS)

# perf probe's user-space targets on the host: the differential test
# against Debian's stock perf, and the scenarios of tests-host/probe-*.sh.
check-host: perf workloads
	@echo "HOST perf probe tests (ours vs /usr/bin/perf, and scenarios)"
	@OURS=$(call PERF_OBJ,$(KERNEL))/perf WORKLOADS=$(WORKLOADS) \
		$(TOP)/tests-host/run.sh $(BUILD)/check-host

# The host test checks our perf; KERNEL=stock builds stock's, so it is skipped.
# Then, on fork, the flame graphs of the guest's 22-malloc-profile in
# headless Chromium (tests-host/flamegraph-browser.sh; PNGs in build/demo/check).
# The whole suite under the normal config is followed by the tests of probed
# text pages (MM_TESTS) again under KCONFIG=mm, a kernel with the
# memory-management paths a distribution kernel has on (issue 34).
check: $(if $(filter fork,$(KERNEL)),$(if $(CHECK_NO_HOST),,check-host)) kernel guest
	@$(RUN) $(BOOT) --mode check --out $(BUILD)/check-$(KERNEL)$(KSUFFIX) \
		--tests '$(TESTS)' $(if $(EXTRA_TESTS),--extra $(abspath $(EXTRA_TESTS)))
ifeq ($(KERNEL)$(KCONFIG),forknormal)
	@data=$(BUILD)/check-$(KERNEL)$(KSUFFIX)/22-malloc-profile; \
	if [ -f $$data/profile/perf.data ]; then \
		$(MAKE) -s flamegraph-tools && \
		echo "HOST flame graphs of the guest's malloc profile, in Chromium" && \
		$(FLAMEGRAPH_ENV) $(TOP)/tests-host/flamegraph-browser.sh $$data $(BUILD)/demo/check; \
	else \
		echo "HOST flame graphs: skipped, TESTS='$(TESTS)' left out 22-malloc-profile"; \
	fi
endif
ifeq ($(KCONFIG)$(TESTS),normal*)
	@echo "CHECK again under KCONFIG=mm: $(MM_TESTS)"
	@$(MAKE) -s KCONFIG=mm TESTS='$(MM_TESTS)' CHECK_NO_HOST=1 check
endif

# Both kernels' checks: fork's as above, then stock's, where every TODO
# (known_stock_limit) must fail, so the stock defects our tests claim are
# shown to be real (qemu/tap-report.awk).  Not in CI: it doubles the time.
check-both:
	@$(MAKE) -s KERNEL=fork check
	@$(MAKE) -s KERNEL=stock check

# 72's and 73's golden copies, remade on stock (review the diff).
golden:
	@$(MAKE) -s KERNEL=stock kernel guest
	@$(TOP)/scripts/regen-golden.sh $(call BZIMAGE,stock) $(call GUEST_IMG,stock) \
		$(CLIENTS_IMG)

# The soak test, run like a check; the runner fails on any kernel report.
stress: kernel guest
	@$(RUN) --timeout $$(($(STRESS_SECONDS) + 1200)) $(BOOT) --mode check \
		--out $(BUILD)/stress-$(KERNEL)$(KSUFFIX) --tests soak \
		--extra $(TOP)/perf-tests/soak --stress-seconds $(STRESS_SECONDS)

# The seed's session, then malloc-graph's allocation profile made into
# flame graphs of calls and of bytes, checked and shot in Chromium.
# On stock every chain lacks its immediate caller (20-malloc-graph-fp), so
# the browser check's widths cannot hold there: shown, not fatal.
demo: kernel guest flamegraph-tools
	@$(RUN) $(BOOT) --mode demo --out $(BUILD)/demo
	@$(FLAMEGRAPH_ENV) $(TOP)/tests-host/flamegraph-browser.sh $(BUILD)/demo/demo \
		$(BUILD)/demo > $(BUILD)/demo/flamegraph-check.txt || \
		{ cat $(BUILD)/demo/flamegraph-check.txt; \
		  $(if $(filter fork,$(KERNEL)),exit 1,echo "(stock: expected)"); }
	@cat $(BUILD)/demo/bytes-top10.txt
	@echo "perf.data and report.txt are in $(BUILD)/demo/demo/"
	@echo "flame graphs: $(BUILD)/demo/flamegraph-calls.html $(BUILD)/demo/flamegraph-bytes.html"
	@echo "bytes table: $(BUILD)/demo/bytes-top10.txt; screenshots: $(BUILD)/demo/flamegraph-*.png"

# perf probe -F/-D speed on big binaries, ours vs stock perf, on the host.
bench-perf: perf
	@$(MAKE) -s KERNEL=stock perf
	@OURS=$(call PERF_OBJ,$(KERNEL))/perf STOCK=$(call PERF_OBJ,stock)/perf \
		DEBIAN=/usr/bin/perf $(TOP)/tests-host/bench-perf-probe.sh

PERFTEST_BASELINE := $(TOP)/perf-tests/perftest-baseline-stock.txt
perftest: kernel guest
	@$(RUN) $(BOOT) --mode perftest --out $(BUILD)/perftest-$(KERNEL)$(KSUFFIX)
	@$(TOP)/qemu/perftest-compare.sh $(PERFTEST_BASELINE) \
		$(BUILD)/perftest-$(KERNEL)$(KSUFFIX)/perftest/results.txt \
		$(if $(PERFTEST_UPDATE),--update)

shell: kernel guest
	@$(RUN) $(BOOT) --mode shell --out $(BUILD)/shell

# Both flavours are built and measured in one run.  BENCH_CLOCK=icount (the
# default) times by guest instructions (QEMU -icount, 1 ns each): one boot
# per kernel, the same figures on every run whatever the host's load.
# BENCH_CLOCK=wall times by the host clock (what TCG makes of the work,
# traps and self-modifying code included), BENCH_BOOTS boots per kernel
# alternated, each class's lowest time; single boots vary by up to 2x here.
BENCH_CLOCK ?= icount
BENCH_BOOTS ?= $(if $(filter icount,$(BENCH_CLOCK)),1,2)
bench: prepare workloads
	@$(MAKE) -s KERNEL=stock kernel guest
	@$(MAKE) -s KERNEL=fork kernel guest
	@rm -rf $(BUILD)/bench-stock* $(BUILD)/bench-fork*
	@for i in $$(seq $(BENCH_BOOTS)); do for k in stock fork; do \
		$(RUN) --icount $(if $(filter icount,$(BENCH_CLOCK)),1,0) \
			--kernel $(call BZIMAGE,$$k) --initrd $(call GUEST_IMG,$$k) \
			--flavour $$k --mode bench --out $(BUILD)/bench-$$k-$$i || exit 1; \
	done; done
	@BENCH_CLOCK=$(BENCH_CLOCK) $(TOP)/qemu/bench-report.sh \
		$(BUILD)/bench-stock-*/bench -- $(BUILD)/bench-fork-*/bench

# Probes at scale, fork and stock in one run, timed by both clocks:
# guest instructions (-icount, like make bench) and the guest's own clock
# (no -icount: what TCG makes of the work, traps and TLB flushes included,
# so it varies more), perf-tests/bench-scale.sh.  SCALE_PROBES, SCALE_PROCS
# and SCALE_EXECS narrow or widen the matrix (SCALE_WALL_* for the second
# clock, whose runs are longer).
SCALE_PROBES ?= 100 1000 3000
SCALE_PROCS ?= 1 50 200
SCALE_EXECS ?= 20
SCALE_WALL_PROBES ?= 1000
SCALE_WALL_PROCS ?= 50
bench-scale: prepare workloads
	@$(MAKE) -s KERNEL=stock kernel guest
	@$(MAKE) -s KERNEL=fork kernel guest
	@rm -rf $(BUILD)/bench-scale-*
	@for clock in icount wall; do for k in stock fork; do \
		if [ $$clock = icount ]; then \
			probes='$(SCALE_PROBES)' procs='$(SCALE_PROCS)'; ic=1; \
		else \
			probes='$(SCALE_WALL_PROBES)' procs='$(SCALE_WALL_PROCS)'; ic=0; \
		fi; \
		$(RUN) --icount $$ic --kernel $(call BZIMAGE,$$k) \
			--initrd $(call GUEST_IMG,$$k) --flavour $$k --mode bench-scale \
			--set "SCALE_PROBES=$$probes" --set "SCALE_PROCS=$$procs" \
			--set SCALE_EXECS=$(SCALE_EXECS) \
			--out $(BUILD)/bench-scale-$$k-$$clock || exit 1; \
	done; done
	@for clock in icount wall; do \
		SCALE_CLOCK=$$clock $(TOP)/qemu/bench-scale-report.sh \
			$(BUILD)/bench-scale-stock-$$clock/bench-scale/results.txt \
			$(BUILD)/bench-scale-fork-$$clock/bench-scale/results.txt; \
		echo; \
	done | tee $(BUILD)/bench-scale-report.txt

# Guest kernel instructions per probed call, by function: QEMU's TCG
# plugin qemu/insn-profile.c counts instructions per translation block and
# writes a snapshot each time the guest kernel runs ksys_sync(), which
# perf-tests/profile.sh calls around each window of calls.  -icount makes
# the run the same as make bench's.
PROFILE_TOP ?= 25
bench-profile: kernel guest workloads
	@gcc -Wall -Wextra -O2 -shared -fPIC -o $(BUILD)/insn-profile.so \
		$(TOP)/qemu/insn-profile.c
	@sync_at=$$(awk '$$3 == "ksys_sync" { print "0x" $$1 }' \
		$(call KOBJ,$(KERNEL))/System.map); \
	$(RUN) --icount 1 --kernel $(call BZIMAGE,$(KERNEL)) \
		--initrd $(call GUEST_IMG,$(KERNEL)) --flavour $(KERNEL) \
		--mode profile --out $(BUILD)/profile-$(KERNEL) \
		--plugin $(BUILD)/insn-profile.so,trigger=$$sync_at,out=$(BUILD)/profile-$(KERNEL)/snap
	@$(TOP)/qemu/insn-profile-report.sh $(call KOBJ,$(KERNEL))/System.map \
		$(BUILD)/profile-$(KERNEL) $(PROFILE_TOP) | tee $(BUILD)/profile-$(KERNEL)/report.txt

# checkpatch --strict on every patch of both series.  The patches are read
# from stdin: given a file git tracks, checkpatch checks it as source code.
checkpatch: prepare
	@bad=0; for p in kernel-patches/*.patch tools-perf-patches/*.patch; do \
		sum=$$($(STOCK_SRC)/scripts/checkpatch.pl --strict --no-tree --terse - < $$p 2>/dev/null | tail -n 1); \
		echo "$$p: $${sum:-clean}"; \
		case $$sum in ""|*" 0 errors"*) ;; *) bad=1 ;; esac; \
	done; exit $$bad

lint: checkpatch
	shellcheck -x qemu/*.sh scripts/*.sh perf-tests/*.sh perf-tests/lib/*.sh perf-tests/soak/*.sh tests-host/*.sh .ci/run
	$(MAKE) -C workloads OUT=$(BUILD)/lint-workloads
	gcc -Wall -Wextra -Werror -fsyntax-only qemu/insn-profile.c qemu/tsc-khz.c \
		tests-host/fixtures/*.c
	python3 -c 'import sys; [compile(open(f).read(), f, "exec") for f in sys.argv[1:]]' \
		scripts/malloc-bytes.py tests-host/flamegraph-dom.py tests-host/png-colors.py \
		tests-host/malloc-bytes-cases.py

clean:
	rm -rf $(BUILD)
