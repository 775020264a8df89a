# shellcheck shell=bash
# bench: the benchmarks. Each kind lives in a file of its own.

cmd_bench() {
  [[ $# -gt 0 ]] || usage_error "bench needs a kind: wal or write"
  local kind=$1
  shift
  case $kind in
    wal) bench_wal "$@" ;;
    write) bench_write "$@" ;;
    *) usage_error "unknown benchmark '$kind' (wal or write)" ;;
  esac
}
