# shellcheck shell=bash
# bench write: the write workload end to end, from a client JVM of its own.
# The driver (test-harness/.../bench/write/WriteBench) checks the options,
# starts the embedded mini cluster per configuration (or restarts the local
# cluster through 'scripts/harness cluster'), and writes the run folder
# $WORK/bench/write/STAMP (STAMP.partial while it runs, STAMP.failed if it
# fails; 'latest' points at the last finished run).

bench_write() {
  local arg
  for arg in "$@"; do
    case $arg in
      -h | --help)
        cat <<'USAGE'
usage: scripts/harness bench write [--target embedded|cluster|HBASE_SITE_XML]
         [--threads 100] [--rows N] [--key-size 120] [--value-size 1024]
         [--regions N] [--durability SYNC_WAL|FSYNC_WAL|ASYNC_WAL|SKIP_WAL]
         [--configs NAME[+NAME],...] [--duration 60] [--verify]
         [--table NAME] [--regionservers 3] [--conf KEY=VALUE ...]
Configurations: see the README (default, stock, patched, wal-fshlog,
wal-asyncfs, sync-wal, fsync-wal, async-wal, skip-wal, client-tuned,
splits-off, compactions-off, blocking-raised, pmem-skip-wal, pmem-sync-wal,
stock-sync-wal).
USAGE
        return 0
        ;;
    esac
  done
  require_java
  local stock_cp patched_cp="" classes default_build=stock default_configs=stock
  stock_cp=$(build_classpath stock)
  if build_installed patched; then
    patched_cp=$(build_classpath patched)
    default_build=patched
    default_configs=stock,patched
  fi
  classes=$(harness_classes)
  local out
  out=$WORK/bench/write/$(date +%Y%m%d-%H%M%S)
  mkdir -p "$WORK/bench/write"
  local -a props=(-Dharness.classpath.stock="$stock_cp" -Dharness.classes="$classes"
    -Dharness.default.build="$default_build" -Dharness.default.configs="$default_configs"
    -Dharness.cluster.dir="$CLUSTER_DIR" -Dharness.script="$HARNESS_ROOT/scripts/harness"
    -Dharness.embedded.heap="${HARNESS_BENCH_EMBEDDED_HEAP:-4g}")
  [[ -z $patched_cp ]] || props+=(-Dharness.classpath.patched="$patched_cp")
  # The builds that have the persistent-memory option (configurations pmem-*).
  local b pmem_builds=""
  for b in stock patched; do
    if build_installed "$b" && build_has_pmem "$b"; then
      pmem_builds+=${pmem_builds:+,}$b
    fi
  done
  props+=(-Dharness.pmem.builds="$pmem_builds")
  local rc=0
  "$JAVA_HOME/bin/java" -Xmx"${HARNESS_BENCH_CLIENT_HEAP:-1g}" -XX:+UseG1GC "${HARNESS_JVM_OPENS[@]}" \
    "${props[@]}" -cp "$classes:$(cat "$stock_cp")" \
    org.apache.hadoop.hbase.harness.bench.write.WriteBench --out "$out" "$@" </dev/null 9>&- || rc=$?
  return "$rc"
}
