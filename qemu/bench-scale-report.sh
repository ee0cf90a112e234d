#!/bin/bash
# Put make bench-scale's two runs side by side:
#   bench-scale-report.sh STOCK_RESULTS FORK_RESULTS
# Each file holds "METRIC N M VALUE" lines of perf-tests/bench-scale.sh.
# Times are ns of guest time, memory kB.  SCALE_CLOCK says which clock:
# icount (1 ns = 1 guest instruction) or wall (the guest's own clock).
set -eu
clock=${SCALE_CLOCK:-icount}
[ $# = 2 ] || { echo "usage: bench-scale-report.sh STOCK_RESULTS FORK_RESULTS" >&2; exit 2; }
awk -v clock="$clock" '
FNR == 1 { side++ }
{ v[side, $1, $2, $3] = $4; if (!(($2, $3) in seen)) { seen[$2, $3] = 1; key[++nk] = $2 " " $3 } }
function ms(x) { return x / 1e6 }
function ratio(f, s) { return s > 0 ? sprintf("%.3f", f / s) : "-" }
function row(label, n, m, s, f, unit, per) {
	printf "%-22s %5d %4d %12.2f %12.2f %7s", label, n, m, s, f, ratio(f, s)
	if (per != "")
		printf "   per %s: %.1f / %.1f", unit, s / per, f / per
	printf "\n"
}
END {
	print "probes at scale: N libc probes, M processes mapping libc; stock vs fork, guest ms"
	if (clock == "icount")
		print "(clock icount: 1 ns = 1 guest instruction, idle time skipped to the next timer)"
	else
		print "(clock wall: the guest clock without -icount, what TCG makes of the work)"
	printf "%-22s %5s %4s %12s %12s %7s\n", "what", "N", "M", "stock", "fork", "f/s"
	for (i = 1; i <= nk; i++) {
		split(key[i], k, " "); n = k[1]; m = k[2]
		if (!((1, "enable", n, m) in v))
			continue
		row("enable (ms)", n, m, ms(v[1, "enable", n, m]), ms(v[2, "enable", n, m]),
		    "probe*proc, us", n * m / 1000)
		row("disable (ms)", n, m, ms(v[1, "disable", n, m]), ms(v[2, "disable", n, m]),
		    "probe*proc, us", n * m / 1000)
		so = v[1, "exec-on", n, m] - v[1, "exec-off", n, m]
		fo = v[2, "exec-on", n, m] - v[2, "exec-off", n, m]
		row("exec overhead (ms)", n, m, ms(so), ms(fo), "probe, us", n / 1000)
		row("exec, probes off (ms)", n, m, ms(v[1, "exec-off", n, m]), ms(v[2, "exec-off", n, m]), "", "")
		row("anon kB per process", n, m, v[1, "anon-per-proc", n, m], v[2, "anon-per-proc", n, m], "", "")
		row("MemFree drop kB/proc", n, m, v[1, "memfree-drop-per-proc", n, m],
		    v[2, "memfree-drop-per-proc", n, m], "", "")
		row("anon kB after disable", n, m, v[1, "anon-after", n, m], v[2, "anon-after", n, m], "", "")
		row("add events (ms)", n, m, ms(v[1, "add", n, m]), ms(v[2, "add", n, m]), "probe, us", n / 1000)
		if (v[1, "enabled", n, m] != n || v[2, "enabled", n, m] != n)
			printf "  (enabled: stock %d, fork %d of %d)\n", v[1, "enabled", n, m], v[2, "enabled", n, m], n
	}
	for (i = 1; i <= nk; i++) {
		split(key[i], k, " "); n = k[1]; m = k[2]
		if ((1, "perf-probe-add", n, m) in v) {
			row("perf probe -a (ms)", n, m, ms(v[1, "perf-probe-add", n, m]),
			    ms(v[2, "perf-probe-add", n, m]), "function, ms", n)
			row("perf probe -d (ms)", n, m, ms(v[1, "perf-probe-del", n, m]),
			    ms(v[2, "perf-probe-del", n, m]), "", "")
		}
	}
	n = 1000; m = 50
	if ((1, "enable", n, m) in v) {
		print ""
		print "issue 34 targets (N=1000, M=50), fork/stock, clock " clock ":"
		printf "  enable   %s (target <= 0.25)\n", ratio(v[2, "enable", n, m], v[1, "enable", n, m])
		printf "  disable  %s (target <= 0.1)\n", ratio(v[2, "disable", n, m], v[1, "disable", n, m])
		printf "  exec overhead %s (target <= 0.25)\n",
		       ratio(v[2, "exec-on", n, m] - v[2, "exec-off", n, m], v[1, "exec-on", n, m] - v[1, "exec-off", n, m])
		printf "  memory per process %s: %d kB vs stock %d kB (target <= 0.1)\n",
		       ratio(v[2, "anon-per-proc", n, m], v[1, "anon-per-proc", n, m]),
		       v[2, "anon-per-proc", n, m], v[1, "anon-per-proc", n, m]
	}
}' "$1" "$2"
