# shellcheck shell=bash
# bench wal: WALPerformanceEvaluation on a MiniDFSCluster, stock against patched.

bench_wal() {
  die "bench wal: not implemented yet"
}
