#!/bin/bash
# Build the guest's root file system as an initramfs (newc cpio).
#
#   mkguest.sh OUT.cpio PERF_PREFIX SRC_TREE WORKLOADS_DIR
#
# PERF_PREFIX is a `make install` prefix of perf (bin/perf, libexec/perf-core);
# SRC_TREE the kernel tree the guest runs (for ftracetest).  The host's own
# binaries (bash, coreutils, grep, binutils, ping, gcc for perf's shell tests)
# are copied with every shared library they need, at the same paths, so the
# guest's /lib64/libc.so.6 is the host's real glibc.  The tests themselves are
# added per run (qemu/run.sh), so editing a test needs no rebuild of this.
set -eu

out=$1
perf_prefix=$2
src_tree=$3
workloads=$4
top=$(cd "$(dirname "$0")/.." && pwd)
stage=$out.d

rm -rf "$stage"
mkdir -p "$stage"/{usr/bin,usr/lib64,usr/lib32,usr/lib/x86_64-linux-gnu,etc,proc,sys,dev,tmp,run,root,opt,results,mnt}
ln -s usr/bin "$stage/bin"
ln -s bin "$stage/usr/sbin"
ln -s usr/bin "$stage/sbin"
ln -s usr/lib "$stage/lib"
ln -s usr/lib64 "$stage/lib64"
ln -s usr/lib32 "$stage/lib32"
chmod 1777 "$stage/tmp"

# shellcheck source=qemu/stage-lib.sh
. "$top/qemu/stage-lib.sh"

echo "GUEST busybox, shell and tools"
cp /bin/busybox "$stage/usr/bin/busybox"
for applet in $(/bin/busybox --list); do
	[ -e "$stage/usr/bin/$applet" ] || ln -s busybox "$stage/usr/bin/$applet"
done

host_tools="bash sh grep egrep fgrep sed gawk awk cat cp mv rm ln ls mkdir rmdir
	head tail sort uniq wc cut tr tee sleep timeout stat sha256sum md5sum
	mktemp seq readlink realpath basename dirname env printf echo test
	true false touch chmod date id nproc yes expr dd find xargs diff cmp
	nm readelf objdump addr2line strings strip objcopy as ld ld.bfd
	gcc gcc-12 cc ping ping6 file ps pkill pgrep kill mount umount
	stty setsid nice numfmt comm join paste fold od tac which less
	uname hostname ip setpriv gzip"
for t in $host_tools; do
	p=$(PATH=/usr/bin:/usr/sbin:/bin:/sbin command -v "$t" 2>/dev/null) || continue
	case "$p" in /*) ;; *) continue ;; esac
	# Replace busybox's applet, but not a tool an earlier symlink brought.
	if [ "$(readlink "$stage/usr/bin/$t" 2>/dev/null)" = busybox ]; then
		rm -f "$stage/usr/bin/$t"
	fi
	add "$p"
done
# `ping` on the host is setcap'd; the guest runs everything as root anyway.

echo "GUEST gcc (perf's test_uprobe_from_different_cu.sh compiles a program)"
gccdir=/usr/lib/gcc/x86_64-linux-gnu/12
for f in cc1 collect2 lto1 lto-wrapper liblto_plugin.so crtbegin.o crtbeginS.o \
	 crtend.o crtendS.o libgcc.a libgcc_eh.a libgcc_s.so; do
	[ -e "$gccdir/$f" ] && add "$gccdir/$f"
done
add_tree "$gccdir/include"
for f in crt1.o Scrt1.o crti.o crtn.o libc.so libc_nonshared.a libm.so \
	 libpthread.a libdl.a; do
	[ -e "/usr/lib/x86_64-linux-gnu/$f" ] && add "/usr/lib/x86_64-linux-gnu/$f"
done
for f in /usr/lib/x86_64-linux-gnu/libm.so.6 /usr/lib/x86_64-linux-gnu/libmvec.so.1 \
	 /usr/lib/x86_64-linux-gnu/libgcc_s.so.1; do
	[ -e "$f" ] && add "$f"
done

echo "GUEST perf from $perf_prefix"
mkdir -p "$stage/usr/libexec"
cp -a "$perf_prefix/libexec/perf-core" "$stage/usr/libexec/"
install -m 755 "$perf_prefix/bin/perf" "$stage/usr/bin/perf"
strip --strip-debug "$stage/usr/bin/perf"
add_libs "$perf_prefix/bin/perf"
if [ -d "$perf_prefix/share/doc/perf-tip" ]; then
	mkdir -p "$stage/usr/share/doc"
	cp -a "$perf_prefix/share/doc/perf-tip" "$stage/usr/share/doc/"
fi
if [ -d "$perf_prefix/lib64/traceevent" ]; then
	cp -a "$perf_prefix/lib64/traceevent" "$stage/usr/lib64/"
fi

echo "GUEST glibc as /lib64/libc.so.6"
add /usr/lib/x86_64-linux-gnu/libc.so.6
ln -sfn ../lib/x86_64-linux-gnu/libc.so.6 "$stage/usr/lib64/libc.so.6"
add /lib64/ld-linux-x86-64.so.2

echo "GUEST fincore (what of a file is in the page cache: 91-disk)"
add "$(PATH=/usr/bin:/usr/sbin:/bin:/sbin command -v fincore)"

echo "GUEST 32-bit glibc (gcc-multilib's libc6-i386) for 32-bit workloads"
add /lib/ld-linux.so.2
for f in libc.so.6 libm.so.6; do
	add "/usr/lib32/$f"
done

echo "GUEST ftracetest from $src_tree"
mkdir -p "$stage/opt/ftrace"
cp -a "$src_tree/tools/testing/selftests/ftrace/." "$stage/opt/ftrace/"

echo "GUEST workloads"
mkdir -p "$stage/opt/workloads"
cp -a "$workloads/." "$stage/opt/workloads/"

cat > "$stage/etc/passwd" <<'PASSWD'
root:x:0:0:root:/root:/bin/bash
nobody:x:65534:65534:nobody:/nonexistent:/bin/false
PASSWD
cat > "$stage/etc/group" <<'GROUP'
root:x:0:
nogroup:x:65534:
GROUP
printf '127.0.0.1 localhost\n::1 localhost ip6-localhost\n' > "$stage/etc/hosts"
printf 'hosts: files\n' > "$stage/etc/nsswitch.conf"
printf '/usr/lib/x86_64-linux-gnu\n' > "$stage/etc/ld.so.conf"
ldconfig -r "$stage" 2>/dev/null || true
install -m 755 "$top/qemu/init" "$stage/init"

echo "GUEST packing $out"
(cd "$stage" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) > "$out.tmp"
mv "$out.tmp" "$out"
du -sh "$out"
