#!/bin/bash
# perf record -g at a probe on a function's entry, where the caller has not
# linked its frame yet: the unwinder adds the return address on top of the
# stack when the kernel confirms that the call before it targets the probed
# function.  Here the call goes through %r11 (41 ff d3) while %rbx holds
# another address: a check that reads the register from the last two bytes
# (ff d3, "call *%rbx") looks at the wrong register and loses the caller.
. /opt/perf-tests/lib/tap.sh
plan 6
. /opt/perf-tests/lib/callchain.sh
trap clear_probes EXIT

bin=$WL/sstep
n=50
check "perf probe -x sstep cc_callee" perf probe -q -x "$bin" cc_callee
check "perf record -g at cc_callee's entry" \
	perf record -q -o perf.data -e probe_sstep:cc_callee -g -- "$bin" r11 $n
chains perf.data > chains.txt
cp chains.txt "$RESULTS/"
is "$(count_prefix chains.txt 'cc_callee;cc_via_r11')" $n \
	"every sample has cc_via_r11 (call *%r11) as cc_callee's caller"

# The same through a CET PLT entry (endbr64; jmp *GOT(%rip)), as builds
# with -fcf-protection link them: the endbr64 must be recognised whatever
# the kernel's own IBT configuration (the kernel's is_endbr() is false
# without CONFIG_X86_KERNEL_IBT, and this guest has none).
check "perf probe -x libc getppid" perf probe -q -x "$LIBC" getppid
check "perf record -g at getppid's entry, called through a CET PLT entry" \
	perf record -q -o ibt.data -e probe_libc:getppid -g -- "$WL/ibtplt" $n
chains ibt.data > ibt-chains.txt
cp ibt-chains.txt "$RESULTS/"
# stock (measured): 0 of 50
known_stock_limit "stock drops the immediate caller at a function-entry probe"
is "$(awk -F';' '$2 == "ibt_caller" { n++ } END { print n + 0 }' ibt-chains.txt)" $n \
	"every sample has ibt_caller as getppid's caller (endbr64 PLT entry)"
