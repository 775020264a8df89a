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
# bench_wal.sh owns 'scripts/harness bench wal': HBase's
# WALPerformanceEvaluation on a MiniDFSCluster, stock FSHLog against the
# patched one and stock AsyncFSWAL.
#
# One run: a MiniDFSCluster of 3 DataNodes in a JVM of its own (MiniDfsServer),
# then one fresh client JVM per measurement (WalBenchClient, which runs
# WALPerformanceEvaluation against that HDFS), interleaved rep-major, then
# threads, then implementation, the implementation order rotating between
# reps. The run folder is $WORK/bench/wal/STAMP (runs.sh).
#
# Globals it owns, for one run: BENCH_WAL_DFS_PID and BENCH_WAL_CLIENT_PID
# (what bench_wal_stop stops), BENCH_WAL_JVM (the JVM flags of both),
# BENCH_WAL_CLK_TCK (the kernel's clock ticks per second, for the client's
# reading of the DataNodes' CPU time from /proc),
# BENCH_WAL_CP_* (the classpaths and the compiled classes).

BENCH_WAL_IMPLS=(stock-fshlog patched-fshlog stock-asyncfs)
BENCH_WAL_PKG=org.apache.hadoop.hbase.harness.bench.wal
BENCH_WAL_KEY_SIZE=120
BENCH_WAL_VALUE_SIZE=1024
BENCH_WAL_DATANODES=3

bench_wal_usage() {
  cat <<'USAGE'
usage: scripts/harness bench wal [--threads LIST] [--reps N] [--edits N] [--warmup N]
                                 [--profile]

  --threads LIST  comma-separated writer thread counts, 1 to 100000 each
                  (default 1,2,4,8,16,64,256)
  --reps N        repetitions of every (threads, implementation) pair, 1 to 1000 (default 3)
  --edits N       edits per measurement, split evenly across the threads (default: 10000
                  times the square root of the thread count, rounded up, so that every
                  measurement lasts several seconds on a small machine)
  --warmup N      edits of an unmeasured run before each measurement, in the same JVM
                  and split the same way, so that the measured run does not share the
                  machine with the JIT compiler (default: as many as the measurement's;
                  0: none)
  --profile       record every measured run (not its warm-up) with Java Flight Recorder
                  (raw/*.jfr) and write where its CPU samples fall (raw/*.profile.txt,
                  and profile.md)

Measures stock-fshlog, patched-fshlog and stock-asyncfs with HBase's
WALPerformanceEvaluation on a MiniDFSCluster of 3 DataNodes (120-byte keys,
1024-byte values, one sync per edit): throughput with its spread over the
repetitions, p50 and p99 latency, CPU time per edit of the WAL's JVM and of
the DataNodes' JVM, and edits per filesystem sync. Writes results.csv, summary.md, chart.png and the raw
output of every run under work/bench/wal/<timestamp>/.
Environment: HARNESS_BENCH_TIMEOUT (seconds one measurement, its warm-up included, may take,
default 600).
USAGE
}

bench_wal() {
  local -a threads=()
  local reps=3 edits=0 warmup=-1 timeout_s=${HARNESS_BENCH_TIMEOUT:-600} threads_arg=1,2,4,8,16,64,256 max_t=0 t
  BENCH_WAL_PROFILE=0
  while [[ $# -gt 0 ]]; do
    case $1 in
      --threads | --reps | --edits | --warmup)
        need_value "bench wal: $1" $#
        case $1 in
          --threads) threads_arg=$2 ;;
          --reps) parse_count reps "bench wal: --reps" "$2" 1 1000 ;;
          --edits) parse_count edits "bench wal: --edits" "$2" 1 1000000000 ;;
          --warmup) parse_count warmup "bench wal: --warmup" "$2" 0 1000000000 ;;
        esac
        shift 2
        ;;
      --profile)
        BENCH_WAL_PROFILE=1
        shift
        ;;
      -h | --help)
        bench_wal_usage
        return 0
        ;;
      *) usage_error "bench wal: unknown option '$1'" ;;
    esac
  done
  # Everything is checked before anything slow starts.
  parse_count_list threads "bench wal: --threads" "$threads_arg" 1 100000
  for t in "${threads[@]}"; do
    [[ $t -le $max_t ]] || max_t=$t
  done
  [[ $edits -eq 0 || $edits -ge $max_t ]] ||
    usage_error "bench wal: --edits $edits is fewer than $max_t threads; every thread needs at least one edit"
  [[ $warmup -le 0 || $warmup -ge $max_t ]] ||
    usage_error "bench wal: --warmup $warmup is fewer than $max_t threads; every thread needs at least one edit (0: no warm-up)"
  parse_count timeout_s HARNESS_BENCH_TIMEOUT "$timeout_s" 1 86400
  export LC_NUMERIC=C
  require_java
  require_mvn
  cmd_build
  bench_wal_prepare
  run_begin bench/wal "bench wal" bench_wal_stop \
    "results.csv.partial holds the measurements made before; raw/ every measurement's output, logs/ the MiniDFSCluster's."
  local run=$RUN_DIR total=$((reps * ${#threads[@]} * ${#BENCH_WAL_IMPLS[@]}))
  mkdir -p "$run/raw" "$run/conf"
  bench_wal_start_dfs
  bench_wal_run_txt "$reps" "$edits" "$warmup" "${threads[@]}" >"$run/run.txt"
  info "bench wal: $total measurements (${#threads[@]} thread counts x ${#BENCH_WAL_IMPLS[@]} implementations x $reps reps) on $(cat "$run/dfs.uri")"
  info "bench wal: results in $run"
  printf 'impl,threads,rep,ops_per_sec,p50_us,p99_us,seconds,wal_cpu_us_per_edit,dfs_cpu_us_per_edit,edits_per_sync\n' \
    >"$run/results.csv.partial"
  local rep k n=0
  for ((rep = 1; rep <= reps; rep++)); do
    for t in "${threads[@]}"; do
      for ((k = 0; k < ${#BENCH_WAL_IMPLS[@]}; k++)); do
        n=$((n + 1))
        # shellcheck disable=SC2034 # runs.sh's, said in INCOMPLETE
        RUN_PROGRESS="after $((n - 1)) of $total measurements"
        bench_wal_measure "${BENCH_WAL_IMPLS[(k + rep - 1) % ${#BENCH_WAL_IMPLS[@]}]}" "$t" "$rep" \
          $(($(bench_wal_edits "$edits" "$t") / t)) "$(bench_wal_warmup_iterations "$warmup" "$edits" "$t")" \
          "$timeout_s" "$n" "$total"
      done
    done
  done
  # shellcheck disable=SC2034 # runs.sh's
  RUN_PROGRESS="after every measurement"
  bench_wal_stop_dfs
  rm -rf "$run/dfs"
  bench_wal_report "$reps" "$edits" "$warmup"
  [[ $BENCH_WAL_PROFILE -eq 0 ]] || bench_wal_profile_report >"$run/profile.md"
  run_finish
  cat "$run/summary.md"
  echo
  info "bench wal: done; results.csv, summary.md, chart.png and raw/ in:"
  printf '%s\n' "$run"
}

# bench_wal_edits EDITS THREADS: the edits of one measurement at THREADS
# threads: EDITS when given (not 0), else 10000 x ceil(sqrt(THREADS)).
bench_wal_edits() {
  local edits=$1 t=$2 r=1
  if [[ $edits -gt 0 ]]; then
    printf '%s' "$edits"
    return 0
  fi
  while [[ $((r * r)) -lt $t ]]; do
    r=$((r + 1))
  done
  printf '%s' $((10000 * r))
}

# bench_wal_warmup_iterations WARMUP EDITS THREADS: the warm-up's iterations
# per thread before a measurement at THREADS threads: WARMUP's share when
# given (not -1), else the measurement's own (EDITS as bench_wal_edits
# reads it); 0 for none.
bench_wal_warmup_iterations() {
  local warmup=$1 edits=$2 t=$3
  if [[ $warmup -lt 0 ]]; then
    warmup=$(bench_wal_edits "$edits" "$t")
  fi
  printf '%s' $((warmup / t))
}

# bench_wal_profile_summary TITLE: reads the output of 'jfr print --events
# jdk.ExecutionSample --stack-depth 1' on stdin and prints where the samples
# fall: per thread (digits folded, so that WALPE's writer threads are one
# line) and per top frame (the method running, line numbers dropped), the
# 25 largest of each, in percent of all samples.
bench_wal_profile_summary() {
  awk -v title="$1" '
    function fold(name) { gsub(/[0-9]+/, "N", name); return name }
    /^jdk\.ExecutionSample/ { thread = ""; want = 0 }
    /^[[:space:]]*sampledThread = / {
      thread = $0
      sub(/^[[:space:]]*sampledThread = "/, "", thread)
      sub(/" \(javaThreadId.*$/, "", thread)
      sub(/"$/, "", thread)
    }
    /^[[:space:]]*stackTrace = \[/ { want = 1; next }
    want == 1 {
      frame = $0
      sub(/^[[:space:]]+/, "", frame)
      sub(/[[:space:]]+line:.*$/, "", frame)
      total++
      threads[fold(thread)]++
      frames[frame]++
      want = 0
    }
    END {
      if (total == 0) { print "no CPU samples" > "/dev/stderr"; exit 1 }
      printf "# %s: %d CPU samples\n\n## by thread\n\n", title, total
      for (k in threads) printf "%6.1f%%  %s\n", 100 * threads[k] / total, k | "sort -rn | head -n 25"
      close("sort -rn | head -n 25")
      printf "\n## by method running (self time)\n\n"
      for (k in frames) printf "%6.1f%%  %s\n", 100 * frames[k] / total, k | "sort -rn | head -n 25"
      close("sort -rn | head -n 25")
    }'
}

# bench_wal_profile_report: profile.md, every measurement's profile, in run
# order.
bench_wal_profile_report() {
  local f
  printf '# Where the CPU samples of each client JVM fall\n\n'
  printf 'Java Flight Recorder (settings=profile) on every client JVM of the run; samples of threads running Java code, top frame only. The recordings are raw/*.jfr.\n\n'
  for f in "$RUN_DIR"/raw/*.profile.txt; do
    [[ -e $f ]] || continue
    sed -e 's/^# /## /' -e 's/^## by/### by/' "$f"
    printf '\n'
  done
}

# bench_wal_prepare: the classpaths of the two builds (the patched one is
# the stock one with the patched HBase jars swapped in, so that the runs
# differ in the code under test only, not in how Maven mediated third-party
# versions), the compiled harness classes, and the JVM flags.
bench_wal_prepare() {
  local patched_mvn stock_file patched_file
  stock_file=$(build_classpath stock)
  patched_file=$(build_classpath patched)
  BENCH_WAL_CP_STOCK=$(cat "$stock_file")
  patched_mvn=$(cat "$patched_file")
  BENCH_WAL_CP_PATCHED=$(classpath_swap "$BENCH_WAL_CP_STOCK" "$patched_mvn")
  BENCH_WAL_CLASSES=$(harness_classes)
  # The flags of the series' own tests; WALPE formats its numbers with the
  # default locale, and the harness parses them.
  read -r -a BENCH_WAL_JVM <<<"$SUREFIRE_ARGLINE"
  BENCH_WAL_CLK_TCK=$(getconf CLK_TCK)
  BENCH_WAL_JVM+=(-Duser.language=en -Duser.country=US)
}

# bench_wal_start_dfs: the MiniDFSCluster, in a JVM of its own, until it
# wrote its URI to dfs.uri. Started in the background, it ignores SIGINT;
# bench_wal_stop stops it, and it stops by itself when this shell is gone.
bench_wal_start_dfs() {
  local run=$RUN_DIR i
  printf '%s\n' "$BENCH_WAL_CP_STOCK" | tr ':' '\n' >"$run/conf/classpath-stock.txt"
  printf '%s\n' "$BENCH_WAL_CP_PATCHED" | tr ':' '\n' >"$run/conf/classpath-patched.txt"
  bench_wal_log4j "$run/conf/log4j2-client.properties" INFO
  bench_wal_log4j "$run/conf/log4j2-dfs.properties" WARN
  info "bench wal: starting a MiniDFSCluster of $BENCH_WAL_DATANODES DataNodes (log: $run/logs/dfs.log)"
  (cd "$run" && exec "$JAVA_HOME/bin/java" "${BENCH_WAL_JVM[@]}" \
    -Dtest.build.data.basedirectory="$run/dfs" \
    -Dlog4j2.configurationFile="$run/conf/log4j2-dfs.properties" \
    -cp "$BENCH_WAL_CLASSES:$BENCH_WAL_CP_STOCK" "$BENCH_WAL_PKG.MiniDfsServer" \
    "$run/dfs.uri" "$BENCH_WAL_DATANODES" "$$" </dev/null >"$run/logs/dfs.log" 2>&1) &
  BENCH_WAL_DFS_PID=$!
  for ((i = 0; i < 900; i++)); do
    [[ ! -s $run/dfs.uri ]] || return 0
    kill -0 "$BENCH_WAL_DFS_PID" 2>/dev/null ||
      run_fail "bench wal: the MiniDFSCluster did not start: $(grep -m1 -E 'Exception|Error' "$run/logs/dfs.log" || echo "see $run/logs/dfs.log")"
    sleep 0.2
  done
  run_fail "bench wal: the MiniDFSCluster did not start in 180 s (see $run/logs/dfs.log)"
}

# bench_wal_tree_head: the work tree's commit, for run.txt and the report.
bench_wal_tree_head() {
  local head
  head=$(git -C "$TREE" rev-parse --short HEAD 2>/dev/null || echo unknown)
  if [[ -n $(git -C "$TREE" status --porcelain 2>/dev/null | head -n 1) ]]; then
    head+=" plus uncommitted changes"
  fi
  printf '%s' "$head"
}

# bench_wal_run_txt REPS EDITS WARMUP THREADS...: what the run is, for run.txt.
bench_wal_run_txt() {
  local reps=$1 edits=$2 warmup=$3 t list
  shift 3
  list=$(
    IFS=,
    echo "$*"
  )
  printf 'command: scripts/harness bench wal --threads %s --reps %s%s%s\n' "$list" "$reps" \
    "$([[ $edits -eq 0 ]] || printf ' --edits %s' "$edits")" \
    "$([[ $warmup -lt 0 ]] || printf ' --warmup %s' "$warmup")"
  printf 'started: %s\n' "$(date '+%Y-%m-%d %H:%M:%S')"
  printf 'machine: %s (%s)\n' "$(run_machine)" "$(hostname)"
  printf 'java: %s\n' "$("$JAVA_HOME/bin/java" -version 2>&1 | head -n 1)"
  printf 'jvm flags: %s\n' "${BENCH_WAL_JVM[*]}"
  printf 'stock-fshlog:   hbase-server %s, hbase.wal.provider=filesystem\n' "$(stock_version)"
  printf 'patched-fshlog: hbase-server %s (work tree at %s), hbase.wal.provider=filesystem\n' \
    "$(patched_version)" "$(bench_wal_tree_head)"
  printf 'stock-asyncfs:  hbase-server %s, hbase.wal.provider=asyncfs\n' "$(stock_version)"
  printf 'patched classpath: the stock one with the -patched HBase jars swapped in (conf/classpath-patched.txt)\n'
  printf 'hdfs: %s, %s DataNodes (MiniDFSCluster, its own JVM)\n' "$(cat "$RUN_DIR/dfs.uri")" "$BENCH_WAL_DATANODES"
  printf 'workload: WALPerformanceEvaluation, %s-byte keys, %s-byte values, 1 region, 1 family, 1 qualifier, sync after every edit\n' \
    "$BENCH_WAL_KEY_SIZE" "$BENCH_WAL_VALUE_SIZE"
  local e w
  for t in "$@"; do
    e=$(bench_wal_edits "$edits" "$t")
    w=$(bench_wal_warmup_iterations "$warmup" "$edits" "$t")
    printf '  %s threads: %s edits each, %s in all, %s\n' "$t" $((e / t)) $((e / t * t)) \
      "$(if [[ $w -eq 0 ]]; then echo "no warm-up"; else echo "after a warm-up of $w each in the same JVM"; fi)"
  done
}

# bench_wal_measure IMPL THREADS REP ITERATIONS WARMUP TIMEOUT N TOTAL:
# measurement N of TOTAL in a fresh client JVM, after a warm-up run of WARMUP
# iterations per thread there (0: none); a row of results.csv.partial.
bench_wal_measure() {
  local impl=$1 t=$2 rep=$3 iters=$4 warm=$5 timeout_s=$6 n=$7 total=$8 run=$RUN_DIR cp version provider raw rc=0
  case $impl in
    stock-fshlog) cp=$BENCH_WAL_CP_STOCK version=$(stock_version) provider=filesystem ;;
    patched-fshlog) cp=$BENCH_WAL_CP_PATCHED version=$(patched_version) provider=filesystem ;;
    stock-asyncfs) cp=$BENCH_WAL_CP_STOCK version=$(stock_version) provider=asyncfs ;;
  esac
  raw=$run/raw/$(printf '%0*d' "${#total}" "$n")-rep$rep-t$t-$impl.log
  local uri
  local -a jfr=()
  uri=$(cat "$run/dfs.uri")
  # The client records the measured run only, not the warm-up.
  [[ $BENCH_WAL_PROFILE -eq 0 ]] || jfr=(--jfr "${raw%.log}.jfr")
  kill -0 "$BENCH_WAL_DFS_PID" 2>/dev/null || run_fail "bench wal: the MiniDFSCluster died (see $run/logs/dfs.log)"
  (cd "$run" && exec "$JAVA_HOME/bin/java" "${BENCH_WAL_JVM[@]}" \
    -Dlog4j2.configurationFile="$run/conf/log4j2-client.properties" \
    -cp "$BENCH_WAL_CLASSES:$cp" "$BENCH_WAL_PKG.WalBenchClient" \
    --expect-jar "hbase-server-$version" --expect-edits $((iters * t)) \
    --timeout-s "$timeout_s" --parent-pid "$$" --warmup-iterations "$warm" \
    --dfs-pid "$BENCH_WAL_DFS_PID" --clk-tck "$BENCH_WAL_CLK_TCK" "${jfr[@]}" -- \
    -Dhbase.wal.provider="$provider" -Dfs.defaultFS="$uri" -Dhbase.rootdir="$uri/hbase" \
    -threads "$t" -iterations "$iters" -keySize "$BENCH_WAL_KEY_SIZE" \
    -valueSize "$BENCH_WAL_VALUE_SIZE" -path "$uri/bench/$n-$impl-t$t") \
    </dev/null >"$raw" 2>&1 &
  BENCH_WAL_CLIENT_PID=$!
  wait "$BENCH_WAL_CLIENT_PID" || rc=$?
  BENCH_WAL_CLIENT_PID=
  local what="bench wal: $impl with $t threads (rep $rep)"
  if [[ $rc -eq 3 ]]; then
    run_fail "$what took longer than ${timeout_s}s; its thread dump is in $raw"
  elif [[ $rc -ne 0 ]]; then
    run_fail "$what failed (exit $rc): $(grep -m1 -E 'harness-wal: ERROR|Exception' "$raw" || echo "see $raw")"
  fi
  kill -0 "$BENCH_WAL_DFS_PID" 2>/dev/null || run_fail "bench wal: the MiniDFSCluster died (see $run/logs/dfs.log)"
  # WALPE's own throughput line, and the client's latency and CPU line.
  local summary_line result ops p50 p99 secs cpu_ms dfs_cpu_ms syncs edits=$((iters * t)) wal_cpu dfs_cpu per_sync
  # The measured run's line comes after the warm-up's, which may have as many iterations.
  summary_line=$(grep -E "Summary: threads=$t, iterations=$iters, .* took [0-9.]+s [0-9.]+ops/s" "$raw" | tail -n 1 || true)
  result=$(grep -m1 -E '^harness-wal-result ' "$raw" || true)
  [[ -n $summary_line && -n $result ]] || run_fail "bench wal: no result from $impl with $t threads (rep $rep); see $raw"
  ops=$(sed -E 's/.* took [0-9.]+s ([0-9.]+)ops\/s.*/\1/' <<<"$summary_line")
  secs=$(sed -E 's/.* took ([0-9.]+)s [0-9.]+ops\/s.*/\1/' <<<"$summary_line")
  p50=$(sed -E 's/.* p50_us=([0-9.]+).*/\1/' <<<"$result")
  p99=$(sed -E 's/.* p99_us=([0-9.]+).*/\1/' <<<"$result")
  [[ $result =~ \ cpu_ms=([0-9.]+) ]] || run_fail "bench wal: no CPU time from $impl with $t threads (rep $rep); see $raw"
  cpu_ms=${BASH_REMATCH[1]}
  [[ $result =~ \ dfs_cpu_ms=([0-9.]+) ]] || run_fail "bench wal: no DataNode CPU time from $impl with $t threads (rep $rep); see $raw"
  dfs_cpu_ms=${BASH_REMATCH[1]}
  if ! [[ $result =~ \ syncs=([0-9]+) ]] || [[ ${BASH_REMATCH[1]} -le 0 ]]; then
    run_fail "bench wal: no count of filesystem syncs from $impl with $t threads (rep $rep); see $raw"
  fi
  syncs=${BASH_REMATCH[1]}
  per_sync=$(awk -v s="$syncs" -v n="$edits" 'BEGIN { printf "%.2f", n / s }')
  wal_cpu=$(awk -v ms="$cpu_ms" -v n="$edits" 'BEGIN { printf "%.1f", ms * 1000 / n }')
  dfs_cpu=$(awk -v ms="$dfs_cpu_ms" -v n="$edits" 'BEGIN { printf "%.1f", ms * 1000 / n }')
  printf '%s,%s,%s,%.1f,%s,%s,%s,%s,%s,%s\n' "$impl" "$t" "$rep" "$ops" "$p50" "$p99" "$secs" "$wal_cpu" "$dfs_cpu" "$per_sync" \
    >>"$run/results.csv.partial"
  if [[ $BENCH_WAL_PROFILE -eq 1 ]]; then
    [[ -s ${raw%.log}.jfr ]] || run_fail "bench wal: no flight recording from $impl with $t threads (rep $rep); see $raw"
    "$JAVA_HOME/bin/jfr" print --events jdk.ExecutionSample --stack-depth 1 "${raw%.log}.jfr" |
      bench_wal_profile_summary "$impl, $t threads, rep $rep" >"${raw%.log}.profile.txt" ||
      run_fail "bench wal: could not read the flight recording ${raw%.log}.jfr"
  fi
  printf '[%*d/%d] rep %d  threads %4d  %-15s %9s ops/s  p99 %7s us  cpu %5s + %5s us/edit  %6s edits/sync  %5ss\n' \
    "${#total}" "$n" "$total" "$rep" "$t" "$impl" "$(bench_wal_grouped "$ops")" "$(bench_wal_grouped "$p99")" \
    "$wal_cpu" "$dfs_cpu" "$per_sync" "$secs" >&2
}

# bench_wal_report REPS EDITS WARMUP: summary.md and chart.png from the results,
# written under temporary names and renamed only when both are there.
bench_wal_report() {
  local reps=$1 edits=$2 warmup=$3 run=$RUN_DIR log=$RUN_DIR/logs/report.log
  "$JAVA_HOME/bin/java" "${JVM_FLAGS[@]}" -cp "$BENCH_WAL_CLASSES:$BENCH_WAL_CP_STOCK" "$BENCH_WAL_PKG.WalBenchReport" \
    --csv "$run/results.csv.partial" --summary "$run/summary.md.tmp" --chart "$run/chart.png.tmp" \
    --title "WAL benchmark $(basename "$run")" \
    --note "HBase's WALPerformanceEvaluation on a MiniDFSCluster of $BENCH_WAL_DATANODES DataNodes (its own JVM, loopback), one fresh client JVM per measurement; $BENCH_WAL_KEY_SIZE-byte keys, $BENCH_WAL_VALUE_SIZE-byte values, one region, a sync after every edit; $(if [[ $edits -eq 0 ]]; then echo "10,000 x ceil(sqrt(threads)) edits per measurement"; else echo "$edits edits per measurement"; fi) split across the threads, $(if [[ $warmup -lt 0 ]]; then echo "each after an unmeasured warm-up of as many edits in the same JVM"; elif [[ $warmup -eq 0 ]]; then echo "with no warm-up"; else echo "each after an unmeasured warm-up of $warmup edits in the same JVM"; fi); $reps repetition$([[ $reps -eq 1 ]] || echo s), interleaved (rep, then threads, then implementation, the order of the implementations rotating between reps)." \
    --note "stock-fshlog: hbase-server $(stock_version), hbase.wal.provider=filesystem. patched-fshlog: hbase-server $(patched_version) (work tree at $(bench_wal_tree_head)), filesystem. stock-asyncfs: hbase-server $(stock_version), asyncfs." \
    --note "Throughput is WALPE's own figure (edits over the wall time of its writer threads). Latency is WALPE's own per-edit timing (building the edit, WAL.appendData and WAL.sync), recorded over every edit in an HdrHistogram. CPU per edit: the client JVM's CPU time (its OperatingSystemMXBean) and the DataNodes' JVM's (from /proc), both over WALPE's measured run, divided by its edits. Machine: $(run_machine) at the end." \
    >"$log" 2>&1 || run_fail "bench wal: the report failed: $(grep -m1 -E 'WalBenchReport|Exception' "$log" || echo "see $log")"
  mv "$run/chart.png.tmp" "$run/chart.png"
  mv "$run/summary.md.tmp" "$run/summary.md"
}

# bench_wal_stop: stops the client and the MiniDFSCluster; runs once, from run_end.
bench_wal_stop() {
  if [[ -n ${BENCH_WAL_CLIENT_PID:-} ]]; then
    stop_pid "$BENCH_WAL_CLIENT_PID" 5
    BENCH_WAL_CLIENT_PID=
  fi
  bench_wal_stop_dfs
  rm -rf "$RUN_DIR/dfs" "$RUN_DIR/summary.md.tmp" "$RUN_DIR/chart.png.tmp" "$RUN_DIR/chart.png.tmp.tmp"
}

# bench_wal_stop_dfs: asks MiniDfsServer to stop (its stop file), then
# SIGTERM, then SIGKILL.
bench_wal_stop_dfs() {
  local pid=${BENCH_WAL_DFS_PID:-} i
  [[ -n $pid ]] || return 0
  BENCH_WAL_DFS_PID=
  if kill -0 "$pid" 2>/dev/null; then
    info "bench wal: stopping the MiniDFSCluster (pid $pid)"
    : >"$RUN_DIR/dfs.uri.stop"
    for ((i = 0; i < 150; i++)); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.2
    done
  fi
  stop_pid "$pid" 10
  rm -f "$RUN_DIR/dfs.uri.stop"
}

# bench_wal_grouped N: 1234567 -> 1,234,567 (N rounded to an integer first).
bench_wal_grouped() {
  local n out=""
  n=$(printf '%.0f' "$1")
  while [[ ${#n} -gt 3 ]]; do
    out=",${n: -3}$out"
    n=${n:0:${#n}-3}
  done
  printf '%s%s' "$n" "$out"
}

# bench_wal_log4j FILE LEVEL_OF_WALPE: a log4j2 configuration on stderr.
bench_wal_log4j() {
  cat >"$1" <<EOF
# Written by scripts/harness bench wal.
status = error
dest = err
appender.console.type = Console
appender.console.name = Console
appender.console.target = SYSTEM_ERR
appender.console.layout.type = PatternLayout
appender.console.layout.pattern = %d{ISO8601} %-5p [%t] %c{1}: %m%n
rootLogger = WARN,Console
logger.walpe.name = org.apache.hadoop.hbase.wal.WALPerformanceEvaluation
logger.walpe.level = $2
logger.wal.name = org.apache.hadoop.hbase.regionserver.wal
logger.wal.level = $2
logger.harness.name = org.apache.hadoop.hbase.harness
logger.harness.level = INFO
EOF
}
