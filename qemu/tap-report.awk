# Turn the guest's TAP stream into numbered host TAP lines.
#   "# file NAME"      starts test file NAME
#   "ok - D", "not ok - D"  one result; "# TODO" and "# SKIP" directives count
#                      as skipped (a TODO is a known limit, reported not hidden)
#   "# ..."            diagnostics, shown
# At the end writes "N PASS FAIL SKIP" to the file named by -v counts.
/^# file / { file = $3; print "# --- " file; fflush(); next }
/^@@GUEST-DONE/ { exit }
/^(not )?ok( |$)/ {
	line = $0
	notok = (line ~ /^not ok/)
	sub(/^(not )?ok *[0-9]* *-? */, "", line)
	n++
	if (line ~ /# *(SKIP|skip)/ || (notok && line ~ /# *TODO/)) {
		skip++
	} else if (notok) {
		fail++
	} else {
		pass++
	}
	printf "%s %d - %s: %s\n", notok ? "not ok" : "ok", n, file, line
	fflush()
	next
}
/^#/ { print; fflush(); next }
END { printf "%d %d %d %d\n", n, pass, fail, skip > counts }
