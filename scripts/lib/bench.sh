# shellcheck shell=bash
# bench: the benchmarks. Each kind lives in a file of its own.

cmd_bench() {
  [[ $# -gt 0 ]] || usage_error "bench needs a kind: wal, write or recovery"
  local kind=$1
  shift
  case $kind in
    wal) bench_wal "$@" ;;
    write) bench_write "$@" ;;
    recovery) bench_recovery "$@" ;;
    *) usage_error "unknown benchmark '$kind' (wal, write or recovery)" ;;
  esac
}
