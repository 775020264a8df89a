# shellcheck shell=bash
# bench wal: WALPerformanceEvaluation on a MiniDFSCluster, stock against patched.
#
# One run: a MiniDFSCluster of 3 DataNodes in a JVM of its own (MiniDfsServer),
# then one fresh client JVM per measurement (WalBenchClient, which runs HBase's
# WALPerformanceEvaluation against that HDFS), interleaved rep-major, then
# threads, then implementation, the implementation order rotating between reps.
# Everything goes to $WORK/bench/wal-<timestamp>/.

BENCH_WAL_IMPLS=(stock-fshlog patched-fshlog stock-asyncfs)
BENCH_WAL_PKG=org.apache.hadoop.hbase.harness.bench.wal
BENCH_WAL_SRC=test-harness/src/main/java/org/apache/hadoop/hbase/harness/bench/wal
BENCH_WAL_KEY_SIZE=120
BENCH_WAL_VALUE_SIZE=1024
BENCH_WAL_DATANODES=3

bench_wal_usage() {
  cat <<'USAGE'
usage: scripts/harness bench wal [--threads LIST] [--reps N] [--edits N]

  --threads LIST  comma-separated writer thread counts (default 1,4,16,64,128,256)
  --reps N        repetitions of every (threads, implementation) pair (default 3)
  --edits N       edits per measurement, split evenly across the threads (default 20000)

Measures stock-fshlog, patched-fshlog and stock-asyncfs with HBase's
WALPerformanceEvaluation on a MiniDFSCluster of 3 DataNodes (120-byte keys,
1024-byte values, one sync per edit). Writes results.csv, summary.md, chart.png
and the raw output of every run under work/bench/wal-<timestamp>/.
Environment: HARNESS_BENCH_TIMEOUT (seconds one measurement may take, default 600).
USAGE
}

# bench_wal_count VAR NAME VALUE: VALUE is a positive decimal integer; sets
# VAR to it without leading zeros. A usage error otherwise.
bench_wal_count() {
  local var=$1 name=$2 value=$3
  [[ -n $value ]] || usage_error "bench wal: $name needs a value"
  [[ $value =~ ^[0-9]+$ ]] || usage_error "bench wal: $name must be a whole number, not '$value'"
  [[ ${#value} -le 9 ]] || usage_error "bench wal: $name $value is too large"
  value=$((10#$value))
  [[ $value -ge 1 ]] || usage_error "bench wal: $name must be at least 1, not $value"
  printf -v "$var" '%s' "$value"
}

# bench_wal_threads LIST: validates a thread list into BENCH_WAL_THREADS.
bench_wal_threads() {
  local list=$1 t seen=" " items=()
  BENCH_WAL_THREADS=()
  [[ -n $list ]] || usage_error "bench wal: --threads needs a comma-separated list of thread counts, e.g. 1,4,16"
  [[ $list != ,* && $list != *, && $list != *,,* ]] ||
    usage_error "bench wal: --threads '$list' has an empty entry"
  IFS=, read -r -a items <<<"$list"
  for t in "${items[@]}"; do
    [[ $t =~ ^[0-9]+$ ]] || usage_error "bench wal: --threads '$list': '$t' is not a whole number"
    [[ ${#t} -le 6 ]] || usage_error "bench wal: --threads '$list': $t threads is too many"
    t=$((10#$t))
    [[ $t -ge 1 ]] || usage_error "bench wal: --threads '$list': thread counts must be at least 1"
    [[ $seen != *" $t "* ]] || usage_error "bench wal: --threads '$list' names $t twice"
    seen+="$t "
    BENCH_WAL_THREADS+=("$t")
  done
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

# bench_wal_classpath VERSION: the runtime classpath of test-harness/pom.xml
# with hbase.version=VERSION, resolved by Maven and cached under $WORK/bench.
# Drops non-jar entries (a pom) and the reload4j binding of slf4j, so that
# logging goes through log4j2 and the configuration the benchmark writes.
bench_wal_classpath() {
  local version=$1 key cache raw log entry ok=1
  key=$({
    cat "$HARNESS_ROOT/test-harness/pom.xml"
    printf '%s %s %s\n' "$version" "$(stock_version)" "$(patched_version)"
  } | git hash-object --stdin)
  cache=$WORK/bench/classpath/$version-${key:0:12}.txt
  if [[ -s $cache ]]; then
    while IFS= read -r entry; do
      [[ -f $entry ]] || ok=0
    done < <(tr ':' '\n' <"$cache")
    if [[ $ok -eq 1 ]]; then
      cat "$cache"
      return 0
    fi
  fi
  mkdir -p "$WORK/bench/classpath"
  raw=$cache.mvn
  log=$LOGS/bench-wal-classpath-$version.log
  info "bench wal: resolving the classpath of hbase-server $version (log: $log)"
  mvn_run "$log" -f "$HARNESS_ROOT/test-harness/pom.xml" dependency:build-classpath \
    -Dhbase.version="$version" -Dhbase.stock.version="$(stock_version)" \
    -Dhbase.patched.version="$(patched_version)" \
    -Dmdep.includeScope=runtime -Dmdep.outputFile="$raw" ||
    mvn_fail_die "$log" "bench wal: cannot resolve the classpath of hbase-server $version"
  tr ':' '\n' <"$raw" | grep -E '\.jar$' | grep -v -E '/(slf4j-reload4j|reload4j|slf4j-log4j12)-[^/]*\.jar$' |
    paste -sd: - >"$cache.tmp"
  rm -f "$raw"
  local jar
  for jar in "hbase-server-$version.jar" "hbase-server-$version-tests.jar"; do
    tr ':' '\n' <"$cache.tmp" | grep -q "/$jar\$" ||
      die "bench wal: the classpath of hbase-server $version has no $jar (log: $log)"
  done
  mv "$cache.tmp" "$cache"
  cat "$cache"
}

# bench_wal_swap STOCK_CP PATCHED_CP: the stock classpath with every -patched
# HBase jar of PATCHED_CP in place of its stock twin, so that the two runs
# differ in the code under test only, not in how Maven mediated third-party
# versions on the way.
bench_wal_swap() {
  local stock_cp=$1 patched_cp=$2 stock patched jar twin out
  stock=$(stock_version)
  patched=$(patched_version)
  out=":$stock_cp:"
  while IFS= read -r jar; do
    [[ $(basename "$jar") == *-"$patched".jar || $(basename "$jar") == *-"$patched"-tests.jar ]] || continue
    twin=$(basename "$jar")
    twin=${twin/-$patched/-$stock}
    twin=$(tr ':' '\n' <<<"$stock_cp" | grep -m1 "/$twin\$" || true)
    if [[ -n $twin ]]; then
      out=${out/":$twin:"/":$jar:"}
    else
      out+="$jar:"
    fi
  done < <(tr ':' '\n' <<<"$patched_cp")
  out=${out#:}
  printf '%s' "${out%:}"
}

# bench_wal_classes CP: compiles the benchmark's Java (MiniDfsServer,
# WalBenchClient, WalBenchReport) into a cached directory and prints it. It
# is compiled here, not by Maven in test-harness/target, so a benchmark never
# races a concurrent 'scripts/harness test'.
bench_wal_classes() {
  local cp=$1 key dir log=$LOGS/bench-wal-javac.log
  key=$({
    cat "$HARNESS_ROOT/$BENCH_WAL_SRC"/*.java
    printf '%s' "$cp"
    "$JAVA_HOME/bin/javac" -version 2>&1
  } | git hash-object --stdin)
  dir=$WORK/bench/classes/${key:0:12}
  if [[ ! -f $dir/.done ]]; then
    rm -rf "$dir"
    mkdir -p "$dir" "$LOGS"
    "$JAVA_HOME/bin/javac" --release 17 -encoding UTF-8 -Xlint:all,-path,-processing -d "$dir" \
      -cp "$cp" "$HARNESS_ROOT/$BENCH_WAL_SRC"/*.java >"$log" 2>&1 ||
      die "bench wal: compiling $BENCH_WAL_SRC failed: $(grep -m1 -E 'error:' "$log" || echo "see $log")"
    : >"$dir/.done"
  fi
  printf '%s' "$dir"
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
EOF
}

# bench_wal_stop_pid PID SECONDS: SIGTERM, then SIGKILL after SECONDS.
bench_wal_stop_pid() {
  local pid=$1 grace=$2 i
  kill -0 "$pid" 2>/dev/null || return 0
  kill -TERM "$pid" 2>/dev/null || true
  for ((i = 0; i < grace * 5; i++)); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.2
  done
  if kill -0 "$pid" 2>/dev/null; then
    kill -KILL "$pid" 2>/dev/null || true
  fi
  wait "$pid" 2>/dev/null || true
}

# bench_wal_stop_dfs: asks MiniDfsServer to stop (its stop file), then
# SIGTERM, then SIGKILL.
bench_wal_stop_dfs() {
  local pid=${BENCH_WAL_DFS_PID:-} i
  [[ -n $pid ]] || return 0
  BENCH_WAL_DFS_PID=
  if kill -0 "$pid" 2>/dev/null; then
    info "bench wal: stopping the MiniDFSCluster (pid $pid)"
    : >"$BENCH_WAL_RUN/dfs.uri.stop"
    for ((i = 0; i < 150; i++)); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.2
    done
  fi
  bench_wal_stop_pid "$pid" 10
  rm -f "$BENCH_WAL_RUN/dfs.uri.stop"
}

# bench_wal_cleanup WHY: stops the client and the MiniDFSCluster, and marks an
# unfinished run as such. Runs once, from the traps.
bench_wal_cleanup() {
  local why=$1
  [[ ${BENCH_WAL_CLEANED:-0} -eq 0 ]] || return 0
  BENCH_WAL_CLEANED=1
  trap - EXIT INT TERM HUP
  if [[ -n ${BENCH_WAL_CLIENT_PID:-} ]]; then
    bench_wal_stop_pid "$BENCH_WAL_CLIENT_PID" 5
  fi
  bench_wal_stop_dfs
  local run=${BENCH_WAL_RUN:-}
  [[ -n $run && -d $run ]] || return 0
  rm -rf "$run/dfs"
  if [[ ${BENCH_WAL_DONE:-0} -ne 1 ]]; then
    rm -f "$run/summary.md.tmp" "$run/chart.png.tmp" "$run/chart.png.tmp.tmp"
    {
      printf 'This run did not finish: it %s after %d of %d measurements.\n' \
        "$why" "${BENCH_WAL_DONE_COUNT:-0}" "${BENCH_WAL_TOTAL:-0}"
      [[ -z ${BENCH_WAL_FAILURE:-} ]] || printf '%s\n' "$BENCH_WAL_FAILURE"
      printf 'The measurements it made are in results.csv.partial; raw/ holds every run'"'"'s output.\n'
    } >"$run/INCOMPLETE"
    info "bench wal: run $why; marked $run/INCOMPLETE"
  fi
}

# bench_wal_fail MESSAGE: die, and say why in the run's INCOMPLETE file too.
bench_wal_fail() {
  BENCH_WAL_FAILURE=$1
  die "$1"
}

bench_wal() {
  local threads_arg=1,4,16,64,128,256 reps=3 edits=20000
  while [[ $# -gt 0 ]]; do
    case $1 in
      --threads | --reps | --edits)
        [[ $# -ge 2 ]] || usage_error "bench wal: $1 needs a value"
        case $1 in
          --threads) threads_arg=$2 ;;
          --reps) reps=$2 ;;
          --edits) edits=$2 ;;
        esac
        shift 2
        ;;
      -h | --help)
        bench_wal_usage
        return 0
        ;;
      *) usage_error "bench wal: unknown option '$1'" ;;
    esac
  done
  local threads=() t max_t=0
  # Validate everything before anything slow starts.
  bench_wal_threads "$threads_arg"
  threads=("${BENCH_WAL_THREADS[@]}")
  bench_wal_count reps --reps "$reps"
  bench_wal_count edits --edits "$edits"
  for t in "${threads[@]}"; do
    [[ $t -le $max_t ]] || max_t=$t
  done
  [[ $edits -ge $max_t ]] ||
    usage_error "bench wal: --edits $edits is fewer than $max_t threads; every thread needs at least one edit"
  local timeout_s=${HARNESS_BENCH_TIMEOUT:-600}
  [[ $timeout_s =~ ^[0-9]+$ && $timeout_s -ge 1 ]] ||
    usage_error "bench wal: HARNESS_BENCH_TIMEOUT must be a number of seconds, not '$timeout_s'"
  export LC_NUMERIC=C

  require_java
  require_mvn
  cmd_build

  local stock patched stock_cp patched_mvn_cp patched_cp classes
  stock=$(stock_version)
  patched=$(patched_version)
  stock_cp=$(bench_wal_classpath "$stock")
  patched_mvn_cp=$(bench_wal_classpath "$patched")
  patched_cp=$(bench_wal_swap "$stock_cp" "$patched_mvn_cp")
  classes=$(bench_wal_classes "$stock_cp")

  # The run folder.
  local run
  run=$WORK/bench/wal-$(date +%Y%m%d-%H%M%S)
  [[ ! -e $run ]] || run=$run-$$
  mkdir -p "$run/raw" "$run/conf"
  BENCH_WAL_RUN=$run
  BENCH_WAL_TOTAL=$((reps * ${#threads[@]} * ${#BENCH_WAL_IMPLS[@]}))
  BENCH_WAL_DONE_COUNT=0
  printf 'This run has not finished (or was stopped before it did).\n' >"$run/INCOMPLETE"
  trap 'bench_wal_cleanup "failed (exit status $?)"' EXIT
  trap 'bench_wal_cleanup "was interrupted"; exit 130' INT
  trap 'bench_wal_cleanup "was terminated"; exit 143' TERM HUP

  printf '%s\n' "$stock_cp" | tr ':' '\n' >"$run/conf/classpath-stock.txt"
  printf '%s\n' "$patched_cp" | tr ':' '\n' >"$run/conf/classpath-patched.txt"
  printf '%s\n' "$patched_mvn_cp" | tr ':' '\n' >"$run/conf/classpath-patched-maven.txt"
  bench_wal_log4j "$run/conf/log4j2-client.properties" INFO
  bench_wal_log4j "$run/conf/log4j2-dfs.properties" WARN
  local jvm=()
  read -r -a jvm <<<"$SUREFIRE_ARGLINE"
  # WALPE formats its numbers with the default locale; the harness parses them.
  jvm+=(-Duser.language=en -Duser.country=US)

  # The MiniDFSCluster, in a JVM of its own. Started in the background, it
  # ignores SIGINT; the traps stop it (bench_wal_stop_dfs), and it stops by
  # itself when this shell is gone.
  info "bench wal: starting a MiniDFSCluster of $BENCH_WAL_DATANODES DataNodes (log: $run/dfs.log)"
  (cd "$run" && exec "$JAVA_HOME/bin/java" "${jvm[@]}" \
    -Dtest.build.data.basedirectory="$run/dfs" \
    -Dlog4j2.configurationFile="$run/conf/log4j2-dfs.properties" \
    -cp "$classes:$stock_cp" "$BENCH_WAL_PKG.MiniDfsServer" \
    "$run/dfs.uri" "$BENCH_WAL_DATANODES" "$$" </dev/null >"$run/dfs.log" 2>&1) &
  BENCH_WAL_DFS_PID=$!
  local i
  for ((i = 0; i < 900; i++)); do
    [[ ! -s $run/dfs.uri ]] || break
    kill -0 "$BENCH_WAL_DFS_PID" 2>/dev/null ||
      bench_wal_fail "bench wal: the MiniDFSCluster did not start: $(grep -m1 -E 'Exception|Error' "$run/dfs.log" || echo "see $run/dfs.log")"
    sleep 0.2
  done
  [[ -s $run/dfs.uri ]] || bench_wal_fail "bench wal: the MiniDFSCluster did not start in 180 s (see $run/dfs.log)"
  local uri
  uri=$(head -n 1 "$run/dfs.uri")

  local tree_head
  tree_head=$(git -C "$TREE" rev-parse --short HEAD 2>/dev/null || echo unknown)
  if [[ -n $(git -C "$TREE" status --porcelain 2>/dev/null | head -n 1) ]]; then
    tree_head+=" plus uncommitted changes"
  fi
  {
    printf 'command: scripts/harness bench wal --threads %s --reps %s --edits %s\n' \
      "$(
        IFS=,
        echo "${threads[*]}"
      )" "$reps" "$edits"
    printf 'started: %s\n' "$(date -Iseconds)"
    printf 'host: %s, %s cores, load average %s\n' "$(hostname)" "$(nproc)" "$(cut -d' ' -f1-3 /proc/loadavg)"
    printf 'java: %s\n' "$("$JAVA_HOME/bin/java" -version 2>&1 | head -n 1)"
    printf 'jvm flags: %s\n' "$SUREFIRE_ARGLINE"
    printf 'stock-fshlog:   hbase-server %s, hbase.wal.provider=filesystem\n' "$stock"
    printf 'patched-fshlog: hbase-server %s (work tree at %s), hbase.wal.provider=filesystem\n' "$patched" "$tree_head"
    printf 'stock-asyncfs:  hbase-server %s, hbase.wal.provider=asyncfs\n' "$stock"
    printf 'patched classpath: the stock one with the -patched HBase jars swapped in (conf/classpath-patched.txt);\n'
    printf '  Maven alone resolves conf/classpath-patched-maven.txt\n'
    printf 'hdfs: %s, %s DataNodes (MiniDFSCluster, its own JVM)\n' "$uri" "$BENCH_WAL_DATANODES"
    printf 'workload: WALPerformanceEvaluation, %s-byte keys, %s-byte values, 1 region, 1 family, 1 qualifier, sync after every edit\n' \
      "$BENCH_WAL_KEY_SIZE" "$BENCH_WAL_VALUE_SIZE"
    for t in "${threads[@]}"; do
      printf '  %s threads: %s edits each, %s in all\n' "$t" $((edits / t)) $((edits / t * t))
    done
  } >"$run/run.txt"

  info "bench wal: $BENCH_WAL_TOTAL measurements (${#threads[@]} thread counts x ${#BENCH_WAL_IMPLS[@]} implementations x $reps reps) on $uri"
  info "bench wal: results in $run"
  printf 'impl,threads,rep,ops_per_sec,p50_us,p99_us\n' >"$run/results.csv.partial"

  local rep k impl n=0 width=${#BENCH_WAL_TOTAL} iters total raw cp version provider rc
  local summary_line result ops p50 p99
  for ((rep = 1; rep <= reps; rep++)); do
    for t in "${threads[@]}"; do
      for ((k = 0; k < ${#BENCH_WAL_IMPLS[@]}; k++)); do
        impl=${BENCH_WAL_IMPLS[(k + rep - 1) % ${#BENCH_WAL_IMPLS[@]}]}
        n=$((n + 1))
        iters=$((edits / t))
        total=$((iters * t))
        case $impl in
          stock-fshlog) cp=$stock_cp version=$stock provider=filesystem ;;
          patched-fshlog) cp=$patched_cp version=$patched provider=filesystem ;;
          stock-asyncfs) cp=$stock_cp version=$stock provider=asyncfs ;;
        esac
        raw=$run/raw/$(printf '%0*d' "$width" "$n")-rep$rep-t$t-$impl.log
        rc=0
        (cd "$run" && exec "$JAVA_HOME/bin/java" "${jvm[@]}" \
          -Dlog4j2.configurationFile="$run/conf/log4j2-client.properties" \
          -cp "$classes:$cp" "$BENCH_WAL_PKG.WalBenchClient" \
          --expect-jar "hbase-server-$version" --expect-edits "$total" \
          --timeout-s "$timeout_s" --parent-pid "$$" -- \
          -Dhbase.wal.provider="$provider" -Dfs.defaultFS="$uri" -Dhbase.rootdir="$uri/hbase" \
          -threads "$t" -iterations "$iters" -keySize "$BENCH_WAL_KEY_SIZE" \
          -valueSize "$BENCH_WAL_VALUE_SIZE" -path "$uri/bench/$n-$impl-t$t") \
          </dev/null >"$raw" 2>&1 &
        BENCH_WAL_CLIENT_PID=$!
        wait "$BENCH_WAL_CLIENT_PID" || rc=$?
        BENCH_WAL_CLIENT_PID=
        if [[ $rc -eq 3 ]]; then
          bench_wal_fail "bench wal: $impl with $t threads (rep $rep) took longer than ${timeout_s}s; its thread dump is in $raw"
        elif [[ $rc -ne 0 ]]; then
          bench_wal_fail "bench wal: $impl with $t threads (rep $rep) failed (exit $rc): $(grep -m1 -E 'harness-wal: ERROR|Exception' "$raw" || echo "see $raw")"
        fi
        kill -0 "$BENCH_WAL_DFS_PID" 2>/dev/null ||
          bench_wal_fail "bench wal: the MiniDFSCluster died (see $run/dfs.log)"
        # WALPE's own throughput line, and the client's latency line.
        summary_line=$(grep -m1 -E "Summary: threads=$t, iterations=$iters, .* took [0-9.]+s [0-9.]+ops/s" "$raw" || true)
        result=$(grep -m1 -E '^harness-wal-result ' "$raw" || true)
        [[ -n $summary_line && -n $result ]] ||
          bench_wal_fail "bench wal: no result from $impl with $t threads (rep $rep); see $raw"
        ops=$(sed -E 's/.* took [0-9.]+s ([0-9.]+)ops\/s.*/\1/' <<<"$summary_line")
        p50=$(sed -E 's/.* p50_us=([0-9.]+).*/\1/' <<<"$result")
        p99=$(sed -E 's/.* p99_us=([0-9.]+).*/\1/' <<<"$result")
        printf '%s,%s,%s,%.1f,%s,%s\n' "$impl" "$t" "$rep" "$ops" "$p50" "$p99" >>"$run/results.csv.partial"
        BENCH_WAL_DONE_COUNT=$n
        printf '[%*d/%d] rep %d  threads %4d  %-15s %9s ops/s  p99 %7s us\n' "$width" "$n" \
          "$BENCH_WAL_TOTAL" "$rep" "$t" "$impl" "$(bench_wal_grouped "$ops")" \
          "$(bench_wal_grouped "$p99")" >&2
      done
    done
  done

  bench_wal_stop_dfs
  rm -rf "$run/dfs"

  # The report: written under temporary names, renamed only when all is there.
  local log=$run/report.log
  "$JAVA_HOME/bin/java" -Djava.awt.headless=true -cp "$classes:$stock_cp" "$BENCH_WAL_PKG.WalBenchReport" \
    --csv "$run/results.csv.partial" --summary "$run/summary.md.tmp" --chart "$run/chart.png.tmp" \
    --title "WAL benchmark $(basename "$run")" \
    --note "HBase's WALPerformanceEvaluation on a MiniDFSCluster of $BENCH_WAL_DATANODES DataNodes (its own JVM, loopback), one fresh client JVM per measurement; $BENCH_WAL_KEY_SIZE-byte keys, $BENCH_WAL_VALUE_SIZE-byte values, one region, a sync after every edit; $edits edits per measurement split across the threads; $reps repetition$([[ $reps -eq 1 ]] || echo s), interleaved (rep, then threads, then implementation, the order of the implementations rotating between reps)." \
    --note "stock-fshlog: hbase-server $stock, hbase.wal.provider=filesystem. patched-fshlog: hbase-server $patched (work tree at $tree_head), filesystem. stock-asyncfs: hbase-server $stock, asyncfs." \
    --note "Throughput is WALPE's own figure (edits over the wall time of its writer threads). Latency is WALPE's own per-edit timing (building the edit, WAL.appendData and WAL.sync), recorded over every edit in an HdrHistogram. Machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at the end." \
    >"$log" 2>&1 || bench_wal_fail "bench wal: the report failed: $(grep -m1 -E 'WalBenchReport|Exception' "$log" || echo "see $log")"
  mv "$run/results.csv.partial" "$run/results.csv"
  mv "$run/chart.png.tmp" "$run/chart.png"
  mv "$run/summary.md.tmp" "$run/summary.md"
  [[ -s $log ]] || rm -f "$log"
  printf 'finished: %s\n' "$(date -Iseconds)" >>"$run/run.txt"
  BENCH_WAL_DONE=1
  rm -f "$run/INCOMPLETE"
  bench_wal_cleanup done
  cat "$run/summary.md"
  echo
  info "bench wal: done; results.csv, summary.md, chart.png and raw/ in:"
  printf '%s\n' "$run"
}
