# Shared by mkguest.sh and mkclients.sh: copy host files into a staging
# folder $stage (set by the caller) at the same paths, with the libraries
# they load.
# shellcheck shell=bash
: "${stage:?stage-lib.sh: set stage first}"
declare -A done_paths

# add PATH: copy a host file into the stage at the same path, following
# symlinks (recreated as symlinks) and, for ELF files, their libraries.
add() {
	local path=$1 dir target
	[ -n "${done_paths[$path]:-}" ] && return 0
	done_paths[$path]=1
	dir=$(dirname "$path")
	case "$dir" in
	/bin*|/sbin*|/lib*) dir=/usr$dir; path=/usr$path ;;
	esac
	mkdir -p "$stage$dir"
	if [ -L "$1" ]; then
		target=$(readlink "$1")
		ln -sfn "$target" "$stage$path"
		case "$target" in
		/*) add "$target" ;;
		*) add "$(dirname "$1")/$target" ;;
		esac
		return 0
	fi
	cp -f "$1" "$stage$path"
	if head -c 4 "$1" | grep -q ELF; then
		add_libs "$1"
	fi
}

add_libs() {
	local lib
	for lib in $(ldd "$1" 2>/dev/null | grep -o '/[^ ]*' | sort -u); do
		add "$lib"
	done
}

add_tree() {
	local f
	while IFS= read -r f; do
		add "$f"
	done < <(find "$1" \( -type f -o -type l \) "${@:2}")
}
