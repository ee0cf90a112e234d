#!/bin/bash
# A lookup by name never misses a symbol stock perf finds, however the
# name is demangled.  Our perf demangles, for a pattern, only the symbols
# whose mangled name holds the pattern's longest word, unless that word
# is one a demangler writes by itself ("function" in "TLS init function
# for", "_Float16" for DF16_, "closure" in a Rust v0 "{closure#0}").
# Each lookup's -D output, exit status and first line of stderr must be
# stock's:
#  - a fixture library with such names;
#  - every word the demangler adds to the names of libstdc++ (found here
#    with nm and c++filt, the same demangler), as *WORD*.
#
# Usage: probe-cxx-key.sh   (env: OURS, STOCK)
set -eu
# shellcheck source=tests-host/lib.sh
. "$(dirname "$0")/lib.sh"

libstdcxx=/usr/lib/x86_64-linux-gnu/libstdc++.so.6

# same_as_stock DESC BIN PROBE
same_as_stock() {
	run_probe "$STOCK" "$tmp/s" -q -x "$2" --max-probes 100000 -D "$3"
	run_probe "$OURS" "$tmp/o" -q -x "$2" --max-probes 100000 -D "$3"
	for f in s o; do
		cat "$tmp/$f.rc" >> "$tmp/$f"
		head -n 1 "$tmp/$f.err" >> "$tmp/$f"
	done
	if cmp -s "$tmp/s" "$tmp/o"; then
		result 0 "$1: $(grep -c '^[pr]:' "$tmp/o" || true) probes as stock, exit $(cat "$tmp/o.rc")"
	else
		result 1 "$1: not as stock"
		diff "$tmp/s" "$tmp/o" | head -n 8 | sed 's/^/#   /'
	fi
}

cat > "$tmp/k.cc" <<'CC'
#include <string>
thread_local std::string tls_name = std::to_string(42);
template <typename T> T __attribute__((noinline)) twice(T x) { return x + x; }
template _Float16 twice<_Float16>(_Float16);
template int twice<int>(int);
int use_tls(void) { return (int)tls_name.size(); }
extern "C" int rust_closure(int) __asm__("_RNCNvCs1a2b3c4d5e_7mycrate4main0B3_");
int rust_closure(int x) { return x + 1; }
/* legacy Rust names: plain, with an LLVM suffix, and a look-alike */
extern "C" int rust_legacy(int) __asm__("_ZN7mycrate6legacy17h0123456789abcdefE");
int rust_legacy(int x) { return x + 2; }
extern "C" int rust_llvm(int) __asm__("_ZN7mycrate4llvm17hfedcba9876543210E.llvm.4711");
int rust_llvm(int x) { return x + 3; }
extern "C" int rust_like(int) __asm__("_ZN7mycrate4like17h0123456789abcdeXE");
int rust_like(int x) { return x + 4; }
CC
g++ -O1 -shared -fPIC -o "$tmp/libk.so" "$tmp/k.cc"
# words from cp-demangle's operators and types: float __vector(4) (Dv),
# const_cast (cc), beside a C name holding the same word, so that a
# keyed lookup that finds the C name would not look further
cat > "$tmp/v.cc" <<'CC'
typedef float v4sf __attribute__((vector_size(16)));
template <typename T> T __attribute__((noinline)) tfoo(T x) { return x + x; }
template v4sf tfoo<v4sf>(v4sf);
template <typename T> struct A { T __attribute__((noinline)) get(T x) { return x; } };
template struct A<v4sf>;
template <typename T> auto __attribute__((noinline)) cc(T t) -> decltype(const_cast<int *>(t)) { return const_cast<int *>(t); }
template int *cc<const int *>(const int *);
extern "C" int my__vector_count(int x) { return x + 2; }
extern "C" int my_const_cast_count(int x) { return x + 3; }
namespace a { int __attribute__((noinline)) foo(int x) { return x + 5; } }
namespace b { int __attribute__((noinline)) foo_x(int x) { return x + 6; } }
namespace c { int __attribute__((noinline)) fooabc(int x) { return x + 7; } }
#include <string>
std::string __attribute__((noinline)) abi_one(int x) { return std::to_string(x); }
std::string __attribute__((noinline)) abi_two(int x) { return std::to_string(x + 1); }
std::string __attribute__((noinline)) abcdefgh_x(int x) { return std::to_string(x + 2); }
CC
g++ -O1 -shared -fPIC -o "$tmp/libv.so" "$tmp/v.cc"

# The demangler's own words, from the string literals of libiberty's
# cp-demangle.o and rust-demangle.o (the demangler perf links): a lookup
# for *WORD* must not be keyed on WORD
libiberty=$(find /usr/lib -name libiberty.a 2> /dev/null | head -n 1)
: > "$tmp/vocab"
if [ -n "$libiberty" ]; then
	(cd "$tmp" && ar x "$libiberty" cp-demangle.o rust-demangle.o)
	for o in "$tmp/cp-demangle.o" "$tmp/rust-demangle.o"; do
		for sec in $(objdump -h "$o" | awk '$2 ~ /^\.rodata/ { print $2 }'); do
			objcopy -O binary --only-section="$sec" "$o" "$tmp/sec.bin"
			tr '\0' '\n' < "$tmp/sec.bin"
		done
	done | grep -oE '[A-Za-z_][A-Za-z0-9_]{2,}' | sort -u > "$tmp/vocab"
fi

# the demangler's own words in libstdc++'s names
nm -D --defined-only "$libstdcxx" | awk '$3 ~ /^_Z/ { print $3 }' > "$tmp/mangled"
c++filt < "$tmp/mangled" > "$tmp/demangled"
paste -d '\n' "$tmp/mangled" "$tmp/demangled" | awk '
	NR % 2 { m = $0; next }
	{
		s = $0
		while (match(s, /[A-Za-z_][A-Za-z0-9_][A-Za-z0-9_]+/)) {
			w = substr(s, RSTART, RLENGTH)
			s = substr(s, RSTART + RLENGTH)
			if (index(m, w) == 0)
				seen[w] = 1
		}
	}
	END { for (w in seen) print w }' | sort > "$tmp/words"

plan $((16 + $(wc -l < "$tmp/words")))

# funcs_as_stock DESC BIN: the -F --funcs='*' lists (stock's each name once)
funcs_as_stock() {
	"$STOCK" probe -q -x "$2" --funcs='*' 2>&1 | uniq > "$tmp/fs" || true
	"$OURS" probe -q -x "$2" --funcs='*' > "$tmp/fo" 2>&1 || true
	if [ -s "$tmp/fo" ] && cmp -s "$tmp/fs" "$tmp/fo"; then
		result 0 "$1: $(wc -l < "$tmp/fo") names as stock"
	else
		result 1 "$1: not as stock"
		diff "$tmp/fs" "$tmp/fo" | head -n 8 | sed 's/^/#   /'
	fi
}

same_as_stock "libk.so *function* (TLS init function)" "$tmp/libk.so" 'e1=*function*'
same_as_stock "libk.so *_Float16*" "$tmp/libk.so" 'e2=*_Float16*'
same_as_stock "libk.so *closure* (Rust v0)" "$tmp/libk.so" 'e3=*closure*'
same_as_stock "libk.so *mycrate* (Rust v0)" "$tmp/libk.so" 'e4=*mycrate*'
same_as_stock "libk.so *twice*" "$tmp/libk.so" 'e5=*twice*'
same_as_stock "libk.so twice<_Float16>" "$tmp/libk.so" 'twice<_Float16>'
funcs_as_stock "libk.so -F (C++, Rust v0 and legacy, LLVM suffix)" "$tmp/libk.so"
funcs_as_stock "libstdc++ -F" "$libstdcxx"
same_as_stock "libk.so *legacy* (Rust)" "$tmp/libk.so" 'e8=*legacy*'
same_as_stock "libv.so *__vector*" "$tmp/libv.so" 'e6=*__vector*'
same_as_stock "libv.so *const_cast*" "$tmp/libv.so" 'e7=*const_cast*'
# ']' right after '[' is a member of the class, not its end: the key
# is "foo", not "abc"
same_as_stock "libv.so []abc]\\:\\:foo* (']' first in a class)" "$tmp/libv.so" 'e9=[]abc]\:\:foo*'
# an escaped '[' is no class: "abcdefgh" is a class's, not a key, which
# would find abcdefgh_x[abi:cxx11] alone
same_as_stock "libv.so *\\\\[[]abcdefgh]bi\\:cxx11] (escaped '[')" "$tmp/libv.so" 'e11=*\\[[]abcdefgh]bi\:cxx11]'
# a word no symbol holds: the error of a miss, not of a stripped file
run_probe "$STOCK" "$tmp/s" -x "$tmp/libv.so" -D 'e10=zzzfoo'
run_probe "$OURS" "$tmp/o" -x "$tmp/libv.so" -D 'e10=zzzfoo'
if [ "$(head -n 1 "$tmp/s.err")" = "$(head -n 1 "$tmp/o.err")" ] &&
   [ "$(cat "$tmp/s.rc")" = "$(cat "$tmp/o.rc")" ]; then
	result 0 "libv.so zzzfoo (no symbol holds the word): '$(head -n 1 "$tmp/o.err")' as stock"
else
	result 1 "libv.so zzzfoo (no symbol holds the word): not as stock"
	show "$tmp/s.err" "$tmp/o.err"
fi
while read -r w; do
	same_as_stock "libstdc++ *$w*" "$libstdcxx" "w=*$w*"
done < "$tmp/words"

# every word of the demangler's vocabulary: no keyed lookup on it
if [ -s "$tmp/vocab" ]; then
	keyed=
	while read -r w; do
		"$OURS" probe -v -x "$tmp/libk.so" -D "w=*$w*" > /dev/null 2> "$tmp/v.err" || true
		grep -q 'only the symbols that may hold' "$tmp/v.err" && keyed="$keyed $w"
	done < "$tmp/vocab"
	check "none of the demangler's $(wc -l < "$tmp/vocab") words is a key${keyed:+ (keyed on:$keyed)}" \
		test -z "$keyed"
	"$OURS" probe -v -x "$tmp/libk.so" -D 'w=*mycrate*' > /dev/null 2> "$tmp/v.err" || true
	check "  ... while a word of the program's own is (*mycrate*)" \
		grep -q 'only the symbols that may hold "mycrate"' "$tmp/v.err"
else
	result 1 "no libiberty.a: cannot read the demangler's words"
	result 1 "no libiberty.a"
fi
done_testing
