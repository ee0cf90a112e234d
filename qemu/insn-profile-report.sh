#!/bin/bash
# insn-profile-report.sh SYSTEM.MAP OUT [TOP]
# For each window of a `make bench-profile` run in OUT (OUT/profile/windows,
# "NAME CALLS" lines, and the plugin's snapshots OUT/snap.N, two a window):
# guest kernel instructions per call by function (a block counts for the
# symbol it starts in), the TOP (default 25) largest, and the total.
# Kernel text is in the top 4 GiB: addresses are compared by their low 32
# bits, which awk's doubles hold exactly.
set -eu
map=$1 out=$2 top=${3:-25}
i=0
while read -r name calls; do
	before=$out/snap.$((2 * i)) after=$out/snap.$((2 * i + 1))
	i=$((i + 1))
	if [ ! -f "$before" ] || [ ! -f "$after" ]; then
		echo "insn-profile-report: no snapshots for window $name" >&2
		exit 1
	fi
	echo "== $name: guest kernel instructions per call"
	gawk -v calls="$calls" -v top="$top" '
	FILENAME == ARGV[1] {
		if ($2 ~ /^[tTwW]$/) {
			nsym++
			addr[nsym] = strtonum("0x" substr($1, 9))
			name[nsym] = $3
		}
		next
	}
	FILENAME == ARGV[2] { base[$1 " " $2] = $3; next }
	{
		d = $3 - base[$1 " " $2]
		if (d <= 0)
			next
		v = strtonum("0x" substr($1, length($1) - 7))
		lo = 1; hi = nsym
		while (lo < hi) {
			mid = int((lo + hi + 1) / 2)
			if (addr[mid] <= v) lo = mid; else hi = mid - 1
		}
		fn = addr[lo] <= v ? name[lo] : "?"
		per[fn] += d * $2
		total += d * $2
	}
	END {
		PROCINFO["sorted_in"] = "@val_num_desc"
		n = 0
		for (f in per) {
			if (++n > top) break
			printf "%10.1f  %s\n", per[f] / calls, f
		}
		printf "%10.1f  total\n", total / calls
	}' <(LC_ALL=C sort -k1,1 "$map") "$before" "$after"
done < "$out/profile/windows"
