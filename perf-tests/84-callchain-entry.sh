#!/bin/bash
# perf record -g at a probe on a function's entry, where the caller has not
# linked its frame yet: the unwinder adds the return address on top of the
# stack when the kernel confirms that the call before it targets the probed
# function.  Here the call goes through %r11 (41 ff d3) while %rbx holds
# another address: a check that reads the register from the last two bytes
# (ff d3, "call *%rbx") looks at the wrong register and loses the caller.
. /opt/perf-tests/lib/tap.sh
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
