# Turn the guest's TAP stream into numbered host TAP lines.
#   "# file NAME"      starts test file NAME
#   "ok - D", "not ok - D"  one result; "# TODO" and "# SKIP" directives count
#                      as skipped (a TODO is a known limit, reported not hidden)
#   "# ..."            diagnostics, shown
# Variables: counts (file to write "N PASS FAIL SKIP" to at the end),
# flavour (fork or stock), skips (the file of skips allowed on fork).
# On fork a TODO fails, and so does a skip that skips does not list: one
# line per allowed skip, "TEST: DESCRIPTION PREFIX | REASON".  The skips
# of the run are listed at the end, each with its reason.  On stock a TODO
# must fail (the stock defect it names is real), unless it is a race
# (known_stock_race: "# TODO stock race, either way: ...").
BEGIN {
	nallowed = 0
	if (flavour == "fork" && skips != "") {
		while ((getline entry < skips) > 0) {
			if (entry ~ /^#/ || entry !~ /\|/)
				continue
			nallowed++
			allowed[nallowed] = entry
			sub(/ *\|.*/, "", allowed[nallowed])
			reason[nallowed] = entry
			sub(/^[^|]*\| */, "", reason[nallowed])
		}
		close(skips)
	}
}
/^# file / { file = $3; print "# --- " file; fflush(); next }
/^@@GUEST-DONE/ { exit }
/^(not )?ok( |$)/ {
	line = $0
	notok = (line ~ /^not ok/)
	sub(/^(not )?ok *[0-9]* *-? */, "", line)
	n++
	why = ""
	skipped = (line ~ /# *(SKIP|skip)/ || (notok && line ~ /# *TODO/))
	if (flavour == "fork" && line ~ /# *TODO/) {
		why = "a TODO on fork: only known_stock_limit makes one, on stock"
	} else if (flavour == "stock" && !notok && line ~ /# *TODO/ &&
		   line !~ /# *TODO stock race, either way:/) {
		why = "a TODO that passes on stock: the stock defect it names did not show"
	} else if (flavour == "fork" && skipped) {
		desc = file ": " line
		sub(/ *# *(SKIP|skip).*/, "", desc)
		listed = 0
		for (i = 1; i <= nallowed; i++)
			if (index(desc, allowed[i]) == 1)
				listed = i
		if (listed)
			ran_skips[++nskips] = desc " | " reason[listed]
		else
			why = "a skip on fork that perf-tests/skips-fork does not list"
	}
	if (why != "") {
		# not a directive any more: a TAP reader would skip the failure
		if (match(line, /# *(SKIP|skip|TODO)/))
			line = substr(line, 1, RSTART - 1) "(" substr(line, RSTART + 1)  ")"
		notok = 1
		fail++
	} else if (skipped) {
		skip++
	} else if (notok) {
		fail++
	} else {
		pass++
	}
	printf "%s %d - %s: %s\n", notok ? "not ok" : "ok", n, file, line
	if (why != "")
		printf "#   %s\n", why
	fflush()
	next
}
/^#/ { print; fflush(); next }
END {
	if (nskips) {
		print "# skips on fork, each listed in perf-tests/skips-fork:"
		for (i = 1; i <= nskips; i++)
			print "#   " ran_skips[i]
	}
	printf "%d %d %d %d\n", n, pass, fail, skip > counts
}
