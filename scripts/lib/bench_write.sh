# shellcheck shell=bash
# bench write: the write workload end to end, from a client JVM of its own.

bench_write() {
  die "bench write: not implemented yet"
}
