#!/bin/bash
# Configure (when the fragments changed) and build a guest kernel.
#   build-kernel.sh SRC_TREE OBJ_DIR FRAGMENT...
# The config is allnoconfig with the fragments forced on (KCONFIG_ALLCONFIG);
# every option the fragments ask for is checked to have landed, so a missing
# dependency fails here rather than as a puzzling guest.
set -eu

src=$1
obj=$2
shift 2
mkdir -p "$obj"
cat "$@" > "$obj/fragment.new"
if [ ! -f "$obj/.config" ] || ! cmp -s "$obj/fragment.new" "$obj/fragment.config"; then
	echo "KERNEL configuring $obj (allnoconfig + $*)"
	make -s -C "$src" O="$obj" KCONFIG_ALLCONFIG="$obj/fragment.new" allnoconfig
	bad=0
	while IFS='=' read -r key value; do
		case "$key" in CONFIG_*) ;; *) continue ;; esac
		if [ "$value" = n ]; then
			if grep -q "^$key=" "$obj/.config"; then
				echo "config: $key=n requested but set" >&2; bad=1
			fi
		elif ! grep -qx "$key=$value" "$obj/.config"; then
			echo "config: $key=$value requested but not set (missing dependency?)" >&2
			bad=1
		fi
	done < "$obj/fragment.new"
	if [ "$bad" = 1 ]; then
		rm -f "$obj/.config"
		exit 1
	fi
	mv "$obj/fragment.new" "$obj/fragment.config"
fi
rm -f "$obj/fragment.new"
echo "KERNEL building $obj/arch/x86/boot/bzImage"
start=$(date +%s)
make -C "$src" O="$obj" CC="ccache gcc" -j"$(($(nproc) + 1))" bzImage > "$obj/build.log" 2>&1 || {
	grep -E -B2 -A8 'error|Error' "$obj/build.log" | head -n 60
	echo "KERNEL build failed; full log in $obj/build.log" >&2
	exit 1
}
echo "KERNEL done in $(( $(date +%s) - start ))s"
