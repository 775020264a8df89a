# shellcheck shell=bash
#
# Licensed to the Apache Software Foundation (ASF) under one
# or more contributor license agreements.  See the NOTICE file
# distributed with this work for additional information
# regarding copyright ownership.  The ASF licenses this file
# to you under the Apache License, Version 2.0 (the
# "License"); you may not use this file except in compliance
# with the License.  You may obtain a copy of the License at
#
#     http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.
#
# bench_write.sh owns 'scripts/harness bench write': the write workload end
# to end, from a client JVM of its own. The driver
# (test-harness/.../bench/write/WriteBench) checks the configurations,
# starts the embedded mini cluster per configuration (or restarts the local
# cluster through 'scripts/harness cluster'), and writes the run folder
# $WORK/bench/write/STAMP (STAMP.partial while it runs, STAMP.failed if it
# fails; 'latest' points at the last finished run).
#
# The options' values are checked here first, with the same bounds as the
# driver's, so that a bad one is refused in one line before Maven resolves a
# classpath or javac compiles the driver: the numbers, the durability, the
# target, the table name, and the configuration names against the table of
# test-harness/README.md (which TestWriteConfigsDocumented holds to the
# driver's registry, WriteConfigs). What needs the driver (a configuration
# the target or the build cannot run) it refuses itself.

bench_write_usage() {
  cat <<'USAGE'
usage: scripts/harness bench write [--target embedded|cluster|HBASE_SITE_XML]
         [--threads 100] [--rows N] [--key-size 120] [--value-size 1024]
         [--regions N] [--durability SYNC_WAL|FSYNC_WAL|ASYNC_WAL|SKIP_WAL]
         [--configs NAME[+NAME],...] [--duration 60] [--verify] [--profile]
         [--table NAME] [--regionservers 3] [--conf KEY=VALUE ...]
Configurations: see test-harness/README.md (default, stock, patched,
wal-fshlog, wal-asyncfs, sync-wal, fsync-wal, async-wal, skip-wal,
client-tuned, splits-off, compactions-off, blocking-raised, pmem-skip-wal,
pmem-sync-wal, stock-sync-wal, walless-replicas, stock-async-replicas).
--profile (--target cluster): a JFR recording of each RegionServer while a
configuration runs, summarized in profile-CONFIG.txt of the run folder.
USAGE
}

# bench_write_check ARGS...: every option is known and its value in range;
# --help prints the usage and exits 0.
bench_write_check() {
  # shellcheck disable=SC2034 # v takes each checked value; the driver parses them again
  local v
  while [[ $# -gt 0 ]]; do
    case $1 in
      -h | --help)
        bench_write_usage
        exit 0
        ;;
      --verify | --profile)
        shift
        continue
        ;;
      --target | --threads | --rows | --key-size | --value-size | --regions | --regionservers | --duration | \
        --durability | --configs | --table | --conf) need_value "bench write: $1" $# ;;
      *) usage_error "bench write: unknown option '$1'" ;;
    esac
    case $1 in
      --threads) parse_count v "bench write: --threads" "$2" 1 5000 ;;
      --rows) parse_count v "bench write: --rows" "$2" 1 999999999999999999 ;;
      --key-size) parse_count v "bench write: --key-size" "$2" 8 32767 ;;
      --value-size) parse_count v "bench write: --value-size" "$2" 1 67108864 ;;
      --regions) parse_count v "bench write: --regions" "$2" 1 1296 ;;
      --regionservers) parse_count v "bench write: --regionservers" "$2" 1 10 ;;
      --duration) parse_count v "bench write: --duration" "$2" 1 604800 ;;
      --durability) parse_choice v "bench write: --durability" "${2^^}" SYNC_WAL FSYNC_WAL ASYNC_WAL SKIP_WAL ;;
      --conf) parse_conf v "bench write: --conf" "$2" ;;
      --target)
        [[ $2 == embedded || $2 == cluster || -f $2 ]] ||
          usage_error "bench write: --target '$2' is neither embedded, cluster nor an hbase-site.xml file"
        ;;
      --table)
        [[ $2 =~ ^([A-Za-z0-9_][A-Za-z0-9_.-]*:)?[A-Za-z0-9_][A-Za-z0-9_.-]*$ ]] ||
          usage_error "bench write: --table '$2' is not a table name"
        ;;
      --configs) bench_write_check_configs "$2" ;;
    esac
    shift 2
  done
}

# bench_write_check_configs LIST: NAME[+NAME],... of known names, no entry twice.
bench_write_check_configs() {
  local list=$1 entry part known
  local -a entries=() parts=()
  # shellcheck disable=SC2016 # the backquotes are the table's, not a command
  known=" $(sed -n '/<!-- write-configs:begin -->/,/<!-- write-configs:end -->/s/^| `\([a-z0-9-]*\)` |.*/\1/p' \
    "$HARNESS_ROOT/test-harness/README.md" | tr '\n' ' ')"
  [[ -n $list && $list != ,* && $list != *, && $list != *,,* ]] ||
    usage_error "bench write: --configs must be a comma-separated list such as stock,patched, not '$list'"
  IFS=, read -r -a entries <<<"$list"
  [[ $(printf '%s\n' "${entries[@]}" | sort | uniq -d) == "" ]] ||
    usage_error "bench write: --configs '$list' names a configuration twice"
  for entry in "${entries[@]}"; do
    IFS=+ read -r -a parts <<<"$entry"
    for part in "${parts[@]}"; do
      [[ $known == *" $part "* ]] ||
        usage_error "bench write: unknown configuration '$part' (known: $(sed 's/^ //; s/ $//; s/ /, /g' <<<"$known"))"
    done
  done
}

bench_write() {
  bench_write_check "$@"
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
  "$JAVA_HOME/bin/java" -Xmx"${HARNESS_BENCH_CLIENT_HEAP:-1g}" -XX:+UseG1GC "${JVM_FLAGS[@]}" \
    "${props[@]}" -cp "$classes:$(cat "$stock_cp")" \
    org.apache.hadoop.hbase.harness.bench.write.WriteBench --out "$out" "$@" </dev/null 9>&-
}
