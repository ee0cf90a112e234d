#!/bin/bash
# Host runner: boot a guest kernel under QEMU, run one mode, bring results back.
#
#   run.sh [options]
#     --kernel BZIMAGE --initrd BASE.cpio   what to boot (required)
#     --mode check|demo|bench|bench-scale|profile|perftest|shell
#     --out DIR          results land in DIR (guest /results), logs in DIR/logs
#     --tests GLOB       check: test names (file names less .sh) to run
#     --extra DIR        check: more test scripts, run exactly like ours
#     --flavour NAME     fork or stock (tests may mark known stock limits TODO)
#     --kconfig NAME     normal, debug or mm (mm: numa=fake=2, two nodes)
#     --timeout SECONDS  whole-guest limit (default 2400)
#     --accel tcg|kvm    default tcg; --tcg-threads single|multi (default single)
#     --icount 0|1       tcg: time by instructions executed (1 ns each), not
#                        by the host clock (default 0)
#     --stress-seconds N check: how long perf-tests/soak/soak.sh runs
#                        (make stress); each test may then take N+600 s
#     --plugin SPEC      tcg: load a QEMU plugin (-plugin SPEC), e.g.
#                        build/insn-profile.so,trigger=ADDR,out=FILE
#     --clients IMG      the ext4 image of qemu/mkclients.sh (bpftrace,
#                        bpftool, gdb), attached read-only (virtio serial
#                        "puclients"; the results disk is "puresults")
#     --set NAME=VALUE   export NAME=VALUE to the guest's mode script
#                        (repeatable), e.g. SCALE_PROBES='100 1000'
#     --data DIR         a fresh ext4 disk of DIR's files (virtio serial
#                        "pudata"), read-write; check mode then fails unless
#                        the guest left the file system clean and every file
#                        as it was put there
#
# check mode prints one TAP line per test, then "N passed, N failed, N skipped",
# and exits non-zero on any failure, a guest panic/oops/WARN, or a timeout.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
kernel='' initrd='' mode=check out='' tests='*' extra='' flavour=fork kconfig=normal
timeout_s=2400 accel=tcg tcg_threads=single mem=3G icount=0 stress_s=''
plugin=() clients=() data_dir="" guest_env=()
while [ $# -gt 0 ]; do
	case "$1" in
	--kernel) kernel=$2 ;;
	--initrd) initrd=$2 ;;
	--mode) mode=$2 ;;
	--out) out=$2 ;;
	--tests) tests=$2 ;;
	--extra) extra=$2 ;;
	--flavour) flavour=$2 ;;
	--kconfig) kconfig=$2 ;;
	--timeout) timeout_s=$2 ;;
	--accel) accel=$2 ;;
	--tcg-threads) tcg_threads=$2 ;;
	--icount) icount=$2 ;;
	--stress-seconds) stress_s=$2 ;;
	--plugin) plugin=(-plugin "$2") ;;
	--clients) clients=(-drive "file=$2,format=raw,if=none,id=clients,readonly=on"
			    -device "virtio-blk-pci,drive=clients,serial=puclients") ;;
	--data) data_dir=$2 ;;
	--set)
		case $2 in
		[A-Za-z_]*=*) guest_env+=("$2") ;;
		*) echo "run.sh: --set wants NAME=VALUE, not $2" >&2; exit 2 ;;
		esac ;;
	*) echo "run.sh: unknown option $1" >&2; exit 2 ;;
	esac
	shift 2
done
if [ -z "$kernel" ] || [ -z "$initrd" ] || [ -z "$out" ]; then
	echo "run.sh: --kernel, --initrd and --out are required" >&2
	exit 2
fi
[ -z "$extra" ] || [ -d "$extra" ] || {
	echo "run.sh: EXTRA_TESTS directory '$extra' does not exist" >&2
	exit 2
}

if [ "$mode" = shell ]; then
	# a shell session's /results add to those of the sessions before it
	rm -rf "$out/logs" "$out/run.d"
else
	rm -rf "$out"
fi
mkdir -p "$out/logs"
out=$(cd "$out" && pwd)
logs=$out/logs
run=$out/run.d

# The per-run part of the initramfs: run settings, our tests, extra tests.
# The kernel unpacks concatenated cpio archives in order, so this overlays
# the base image without rebuilding it.
mkdir -p "$run/etc" "$run/opt/perf-tests" "$run/opt/extra-tests"
{
	printf 'MODE=%q\n' "$mode"
	printf 'TESTS=%q\n' "$tests"
	printf 'PU_KERNEL=%q\n' "$flavour"
	printf 'PU_KCONFIG=%q\n' "$kconfig"
	if [ -n "$stress_s" ]; then
		printf 'STRESS_SECONDS=%q\n' "$stress_s"
		printf 'PU_TEST_TIMEOUT=%q\n' "$((stress_s + 600))"
	fi
	for kv in "${guest_env[@]}"; do
		printf 'export %s=%q\n' "${kv%%=*}" "${kv#*=}"
	done
} > "$run/etc/pu-run.conf"
cp -a "$top/perf-tests/." "$run/opt/perf-tests/"
[ -z "$extra" ] || cp -a "$extra/." "$run/opt/extra-tests/"
(cd "$run" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) > "$out/run.cpio"
cat "$initrd" "$out/run.cpio" > "$out/initrd.cpio"
rm -rf "$run" "$out/run.cpio"

truncate -s 0 "$out/results.img"
truncate -s 2G "$out/results.img"
: > "$logs/console.log"
: > "$logs/tap.log"

append="console=ttyS0 panic_on_warn=1 oops=panic panic=-1 softlockup_panic=1"
append="$append rdinit=/init"
# KCONFIG=mm has NUMA emulation: two nodes, for page migration between them
[ "$kconfig" != mm ] || append="$append numa=fake=2"
icount_opt=() cpus=2
if [ "$accel" = tcg ] && [ "$icount" = 1 ]; then
	# Virtual time: 1 ns per guest instruction (sleep=off: idle time is
	# skipped), so timings count instructions and do not depend on the
	# host's load.  The TSC then runs at 1 GHz.
	# One vCPU: with two, the guest hangs bringing up the second one.
	icount_opt=(-icount "shift=0,sleep=off")
	cpus=1
	append="$append tsc_early_khz=1000000 tsc=reliable"
elif [ "$accel" = tcg ]; then
	# Give the guest the host TSC rate it cannot calibrate under TCG, so
	# its clocksource is the TSC rather than jiffies (see tsc-khz.c).
	tsc_khz_bin=$out/../.tsc-khz
	gcc -O2 -o "$tsc_khz_bin" "$top/qemu/tsc-khz.c"
	append="$append tsc_early_khz=$("$tsc_khz_bin") tsc=reliable"
fi
if [ "$accel" = kvm ]; then
	accel_opt=kvm cpu=host
else
	accel_opt="tcg,thread=$tcg_threads" cpu=max
fi
data=()
if [ -n "$data_dir" ]; then
	# the files' checksums now, to compare with what the guest leaves
	rm -f "$out/data.img"
	truncate -s 0 "$out/data.img"
	mkfs.ext4 -q -F -L pudata -d "$data_dir" "$out/data.img" \
		"$(($(du -sk "$data_dir" | cut -f1) * 2 + 16384))k"
	(cd "$data_dir" && find . -type f -print0 | sort -z | xargs -0 sha256sum) > "$out/data.sha256"
	data=(-drive "file=$out/data.img,format=raw,if=none,id=data"
	      -device "virtio-blk-pci,drive=data,serial=pudata")
fi
qemu=(qemu-system-x86_64 -accel "$accel_opt" -cpu "$cpu" -smp "$cpus" -m "$mem" "${icount_opt[@]}"
      -kernel "$kernel" -initrd "$out/initrd.cpio" -append "$append"
      -nographic -no-reboot -nodefaults
      -drive "file=$out/results.img,format=raw,if=none,id=results"
      -device "virtio-blk-pci,drive=results,serial=puresults" "${clients[@]}" "${data[@]}"
      "${plugin[@]}")

if [ "$mode" = shell ]; then
	qrc=0
	"${qemu[@]}" -serial mon:stdio -serial "file:$logs/tap.log" || qrc=$?
	rm -f "$out/initrd.cpio"
	# what the session left in the guest's /results: the guest writes
	# them when its shell exits (a disk of zeros is an empty tar)
	if tar -tf "$out/results.img" 2>/dev/null | grep -qv '^\./$' &&
	   tar -xf "$out/results.img" -C "$out" 2>/dev/null; then
		rm -f "$out/results.img"
		echo "the guest's /results are in $out"
	else
		mv "$out/results.img" "$out/results-unread.img" 2>/dev/null || true
		echo "run.sh: no results came back (the guest's shell did not exit?)" >&2
	fi
	exit "$qrc"
fi

echo "BOOT $(basename "$kernel") ($flavour, $kconfig, $accel/$tcg_threads), mode $mode, limit ${timeout_s}s"
start=$(date +%s)
timeout -k 10 "$timeout_s" "${qemu[@]}" \
	-serial "file:$logs/console.log" -serial "file:$logs/tap.log" &
qpid=$!

# Follow the guest's output live.
parser="$top/qemu/tap-report.awk"
if [ "$mode" = check ]; then
	tail -n +1 -F --pid="$qpid" "$logs/tap.log" 2>/dev/null |
		tr -d '\r' | awk -f "$parser" -v counts="$out/counts" \
			-v flavour="$flavour" -v skips="$top/perf-tests/skips-fork"
else
	tail -n +1 -F --pid="$qpid" "$logs/tap.log" 2>/dev/null |
		tr -d '\r' | grep -v '^@@GUEST-DONE$' || true
fi
qrc=0
wait "$qpid" || qrc=$?
elapsed=$(( $(date +%s) - start ))

tar -xf "$out/results.img" -C "$out" 2>/dev/null || true
rm -f "$out/results.img" "$out/initrd.cpio"

# Verdicts the guest cannot give: it finished, and the kernel stayed healthy.
problems=$(grep -E -n 'Kernel panic|BUG:|Oops|WARNING:|general protection|KASAN|UBSAN|lockdep is turned off|DEBUG_LOCKS_WARN_ON|possible (recursive|circular) locking|INFO: task .* blocked|rcu_.*stall|soft lockup|hard LOCKUP|Call Trace' \
	"$logs/console.log" | head -n 20 || true)
finished=0
grep -q '^@@GUEST-DONE' "$logs/tap.log" && [ "$qrc" = 0 ] && finished=1

if [ "$mode" != check ]; then
	echo "guest ran ${elapsed}s; console log $logs/console.log"
	if [ -n "$problems" ]; then
		echo "kernel reported problems:"; echo "$problems"; exit 1
	fi
	[ "$finished" = 1 ] || { echo "guest did not finish (qemu status $qrc)"; exit 1; }
	exit 0
fi

read -r n pass fail skip < "$out/counts" 2>/dev/null || { n=0 pass=0 fail=0 skip=0; }
verdict() {
	n=$((n + 1))
	if [ "$1" = ok ]; then
		pass=$((pass + 1))
		echo "ok $n - $2"
	else
		fail=$((fail + 1))
		echo "not ok $n - $2"
		[ -z "${3:-}" ] || printf '%s\n' "$3" | sed 's/^/#   /'
	fi
}
if [ -n "$data_dir" ]; then
	if fsck_out=$(e2fsck -fn "$out/data.img" 2>&1); then
		verdict ok "data disk: the guest left its file system clean"
	else
		verdict fail "data disk: the guest left its file system clean" "$fsck_out"
	fi
	rm -rf "$out/data-after"
	mkdir -p "$out/data-after"
	sums=
	if debugfs -R "rdump / $out/data-after" "$out/data.img" > /dev/null 2>&1 &&
	   sums=$(cd "$out/data-after" && sha256sum -c --quiet "$out/data.sha256" 2>&1); then
		verdict ok "data disk: every file reads as it was put there"
	else
		verdict fail "data disk: every file reads as it was put there" "${sums:-debugfs rdump failed}"
	fi
	rm -rf "$out/data-after" "$out/data.img"
fi
if [ "$finished" = 1 ]; then
	verdict ok "guest: ran every test and powered off (${elapsed}s)"
else
	verdict fail "guest: ran every test and powered off" \
		"expected @@GUEST-DONE; qemu exited with $qrc after ${elapsed}s (124 = timeout); see $logs/console.log"
fi
if [ -z "$problems" ]; then
	verdict ok "kernel log: no panic, oops, WARN, lockdep or KASAN report"
else
	verdict fail "kernel log: no panic, oops, WARN, lockdep or KASAN report" "$problems"
fi
echo "1..$n"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" = 0 ]
