# shellcheck shell=bash
# lifecycle_load KIND: run the lifecycle workload of KIND (threads, fork or
# exec) until ./stop appears, checking every run's exact result; print
# each wrong one and return non-zero if there was any.  Source it.
lifecycle_load() {
	local bad=0 out want bin=$WL/lifecycle
	while [ ! -e stop ]; do
		case $1 in
		threads) out=$("$bin" threads 4 3000); want=calls=12000 ;;
		fork) out=$("$bin" fork 3 1000); want=calls=3000 ;;
		exec) out=$("$bin" exec 2000); want=calls=2000 ;;
		esac
		[ "$out" = "$want" ] || { echo "$1: got '$out' want '$want'"; bad=1; }
	done
	return $bad
}
