# shellcheck shell=bash
# crash: the process-level crash test of the persistent-memory memstore
# (HBASE-20003). On the local cluster of separate processes (cluster.sh),
# started with a pmem folder per RegionServer and retained assignment: load
# rows through a client JVM (test-harness/.../crash/CrashTool) that records a
# row's key in a ledger only after its put returned, kill -9 a RegionServer
# (rs mode) or every role (cluster mode), restart on the same folders, time
# until every region serves a get, and read every acknowledged row back. The
# rs-lost mode runs the rs phase, then kills the same RegionServer again and
# leaves it down (its host is gone for good): its regions must open on the
# other RegionServers with every acknowledged row.
# Also the helpers that bench recovery (bench_recovery.sh) shares.

CRASH_TABLE=harness_crash
# hbase.master.memstore.pmem.host.wait.ms of --mode rs-lost on the patched build.
CRASH_LOST_HOST_WAIT_MS=45000
CRASH_TOOL_CLASS=org.apache.hadoop.hbase.harness.crash.CrashTool

crash_usage() {
  cat <<'USAGE'
usage: scripts/harness crash [--mode rs|cluster|both|rs-lost] [--rows N] [--regions N]
         [--regionservers N] [--threads N] [--value-size N]
         [--durability SKIP_WAL|ASYNC_WAL|SYNC_WAL|FSYNC_WAL]
         [--build stock|patched] [--pmem [DIR] | --no-pmem]
         [--timeout SECONDS] [--keep-cluster] [--conf KEY=VALUE ...]
Defaults: --mode both, --rows 20000 per phase, --regions 8, --regionservers 3,
--threads 8, --value-size 1024, --durability SKIP_WAL, --build patched, --pmem
(folders under /dev/shm), --timeout 600. --mode rs-lost: the rs phase, then
the same RegionServer killed again and left down, so that its regions open
elsewhere (the patched master waits 45 s for it, unless --conf
hbase.master.memstore.pmem.host.wait.ms=MS says otherwise; a stock master is
restarted to stop waiting). Exit 0 when every
acknowledged row reads back with its value, 1 when one is lost or the run
fails, 2 on bad input.
USAGE
}

# crash_fail MESSAGE: dies with one line; the traps mark the run folder.
crash_fail() {
  CRASH_FAILURE=$1
  die "$1"
}

# crash_harness ARGS...: scripts/harness ARGS in a process of its own (the
# cluster commands take the cluster's lock); its lines are shown and kept in
# logs/cluster.log. On failure, dies with its error line.
crash_harness() {
  local log=$CRASH_RUN/logs/cluster.log st rc
  st=$(mktemp "$CRASH_RUN/.rc.XXXXXX")
  {
    rc=0
    "$HARNESS_ROOT/scripts/harness" "$@" </dev/null 2>&1 9>&- || rc=$?
    echo "$rc" >"$st"
  } | tee -a "$log" | { grep -v -E '^harness: (usage )?error: ' >&2 || true; }
  rc=$(cat "$st")
  rm -f "$st"
  if [[ $rc -ne 0 ]]; then
    local why
    why=$(sed -n -E 's/^harness: (usage )?error: //p' "$log" | tail -n 1)
    crash_fail "${why:-scripts/harness $* failed with status $rc (log: $log)}"
  fi
}

# crash_java: sets JCMD to the client JVM's command line, CrashTool to follow.
crash_java() {
  JCMD=("$JAVA_HOME/bin/java" -Xmx"${HARNESS_CRASH_CLIENT_HEAP:-1g}" -XX:+UseG1GC "${HARNESS_JVM_OPENS[@]}"
    -Dlog4j2.configurationFile="$CLUSTER_DIR/conf/log4j2.properties"
    -Dharness.log.file="$CRASH_RUN/logs/client.log" -cp "$CRASH_CP" "$CRASH_TOOL_CLASS")
}

# crash_tool STEP ARGS...: one CrashTool step against the local cluster. Its
# result lines go to $CRASH_RUN/tool.out (and logs/client.out), its progress
# lines to the terminal. Returns 0, or 3 when verify found a lost row; any
# other failure dies with the tool's error line.
crash_tool() {
  local step=$1 st rc out=$CRASH_RUN/tool.out
  shift
  crash_java
  st=$(mktemp "$CRASH_RUN/.rc.XXXXXX")
  {
    rc=0
    "${JCMD[@]}" "$step" "$CLUSTER_DIR/client/hbase-site.xml" "$CRASH_TABLE_NAME" "$@" 2>&1 >"$out" </dev/null 9>&- || rc=$?
    echo "$rc" >"$st"
  } | tee -a "$CRASH_RUN/logs/client.err" | { grep --line-buffered -E '^harness: [a-z]+: ' >&2 || true; }
  rc=$(cat "$st")
  rm -f "$st"
  cat "$out" >>"$CRASH_RUN/logs/client.out"
  [[ $rc -eq 0 || ($rc -eq 3 && $step == verify) ]] && return "$rc"
  local why
  why=$(sed -n 's/^harness: error: //p' "$CRASH_RUN/logs/client.err" | tail -n 1)
  crash_fail "${CRASH_KIND:-crash}: $step: ${why:-the client JVM exited with status $rc (log: $CRASH_RUN/logs/client.err)}"
}

# crash_field NAME: the value of NAME=VALUE in the last tool result.
crash_field() {
  sed -n -E "s/.*[ ]$1=([^ ]*).*/\\1/p" "$CRASH_RUN/tool.out" | tail -n 1
}

# crash_layout: "ENCODED SERVER" per region of the table, from the master's meta.
crash_layout() {
  crash_tool layout
  sed -n 's/^harness-crash region //p' "$CRASH_RUN/tool.out"
}

# crash_port_role PORT: the RegionServer role of an RPC port.
crash_port_role() {
  printf 'rs%d' $((($1 - $(cluster_port_base) - 50) / 2 + 1))
}

# crash_watch_start NAME: starts the watch (regions learnt, then waiting for
# the go file) in the background; returns once it is ready.
crash_watch_start() {
  local name=$1 i
  CRASH_WATCH_OUT=$CRASH_RUN/watch-$name.txt
  CRASH_WATCH_GO=$CRASH_RUN/.go-$name
  rm -f "$CRASH_WATCH_OUT" "$CRASH_WATCH_OUT.ready" "$CRASH_WATCH_GO"
  crash_java
  "${JCMD[@]}" watch "$CLUSTER_DIR/client/hbase-site.xml" "$CRASH_TABLE_NAME" --go "$CRASH_WATCH_GO" \
    --out "$CRASH_WATCH_OUT" --timeout "$CRASH_TIMEOUT" </dev/null >>"$CRASH_RUN/logs/client.out" \
    2>>"$CRASH_RUN/logs/client.err" 9>&- &
  CRASH_WATCH_PID=$!
  for ((i = 0; i < 1200; i++)); do
    [[ -f $CRASH_WATCH_OUT.ready ]] && return 0
    kill -0 "$CRASH_WATCH_PID" 2>/dev/null || break
    sleep 0.1
  done
  crash_fail "crash: the region watch did not start: $(sed -n 's/^harness: error: //p' "$CRASH_RUN/logs/client.err" | tail -n 1) (log: $CRASH_RUN/logs/client.err)"
}

# crash_kill_restart TAG ROLE: watches the table's regions (as TAG), kills ROLE
# (a RegionServer, or all) with SIGKILL, restarts it at once and waits until
# every region serves. Sets CRASH_UP_MS: from the start of the restart until
# the restart command returned; CRASH_ONLINE_MS comes from the watch.
crash_kill_restart() {
  local tag=$1 role=$2 t0
  crash_watch_start "$tag"
  crash_harness cluster kill "$role"
  t0=$(crash_go)
  crash_harness cluster restart "$role"
  CRASH_UP_MS=$(($(date +%s%3N) - t0))
  crash_watch_wait
}

# crash_kill_only TAG ROLE: watches the table's regions (as TAG), kills the
# RegionServer ROLE with SIGKILL and leaves it down; waits until every region
# serves again, elsewhere. CRASH_UP_MS is 0: nothing restarts.
crash_kill_only() {
  local tag=$1 role=$2
  crash_watch_start "$tag"
  crash_harness cluster kill "$role"
  crash_go >/dev/null
  CRASH_UP_MS=0
  crash_watch_wait
}

# crash_retain_force true|false: sets hbase.master.scp.retain.assignment.force
# in the master's configuration, for its next start. With it, HBase 2.6 holds
# a crashed RegionServer's regions for it as long as it stays away.
crash_retain_force() {
  local conf=$CLUSTER_DIR/master/conf/hbase-site.xml key=hbase.master.scp.retain.assignment.force
  grep -qF "<name>$key</name>" "$conf" || crash_fail "crash: $key is not in $conf"
  sed -i -E "s|<name>$key</name><value>[^<]*</value>|<name>$key</name><value>$1</value>|" "$conf"
}

# crash_go: the restart starts now; prints the time (epoch ms).
crash_go() {
  local t
  t=$(date +%s%3N)
  printf '%s\n' "$t" >"$CRASH_WATCH_GO.tmp"
  mv "$CRASH_WATCH_GO.tmp" "$CRASH_WATCH_GO"
  printf '%s' "$t"
}

# crash_watch_wait: waits for the watch; sets CRASH_ONLINE_MS.
crash_watch_wait() {
  local rc=0
  wait "$CRASH_WATCH_PID" || rc=$?
  CRASH_WATCH_PID=
  CRASH_ONLINE_MS=$(sed -n -E 's/^harness-crash watch .*online_ms=(-?[0-9]+).*/\1/p' "$CRASH_WATCH_OUT" 2>/dev/null)
  if [[ $rc -ne 0 || -z $CRASH_ONLINE_MS || $CRASH_ONLINE_MS -lt 0 ]]; then
    crash_fail "crash: $(sed -n 's/^harness: error: //p' "$CRASH_RUN/logs/client.err" | tail -n 1 || echo "the region watch failed") (log: $CRASH_RUN/logs/client.err)"
  fi
}

# crash_secs MS: milliseconds as seconds with one decimal.
crash_secs() {
  awk -v m="$1" 'BEGIN { printf "%.1f", m / 1000 }'
}

# crash_run_dir KIND: makes $WORK/KIND/STAMP with an INCOMPLETE marker.
crash_run_dir() {
  local run
  run=$WORK/$1/$(date +%Y%m%d-%H%M%S)
  [[ ! -e $run ]] || run=$run-$$
  mkdir -p "$run/logs"
  printf 'This run has not finished (or was stopped before it did).\n' >"$run/INCOMPLETE"
  CRASH_RUN=$run
}

# crash_cleanup WHY: stops the watch and, unless kept, the cluster; marks an
# unfinished run. Runs once, from the traps.
crash_cleanup() {
  local why=$1
  [[ ${CRASH_CLEANED:-0} -eq 0 ]] || return 0
  CRASH_CLEANED=1
  trap - EXIT INT TERM HUP
  if [[ -n ${CRASH_WATCH_PID:-} ]]; then
    kill "$CRASH_WATCH_PID" 2>/dev/null || true
    wait "$CRASH_WATCH_PID" 2>/dev/null || true
  fi
  if [[ ${CRASH_STARTED:-0} -eq 1 ]]; then
    if [[ ${CRASH_KEEP:-0} -eq 1 ]]; then
      info "crash: the cluster is left running; HARNESS_CLUSTER_DIR=$CLUSTER_DIR scripts/harness cluster stop removes it and its pmem folders"
    else
      crash_cluster_down
    fi
  fi
  local run=${CRASH_RUN:-}
  [[ -n $run && -d $run ]] || return 0
  rm -f "$run"/.rc.* "$run"/.go-*
  if [[ ${CRASH_DONE:-0} -ne 1 ]]; then
    {
      printf 'This run did not finish: it %s.\n' "$why"
      [[ -z ${CRASH_FAILURE:-} ]] || printf '%s\n' "$CRASH_FAILURE"
      printf 'logs/ holds the client and cluster output; results.csv.partial the phases that finished.\n'
    } >"$run/INCOMPLETE"
    info "${CRASH_KIND:-crash}: run $why; marked $run/INCOMPLETE"
  fi
}

# crash_cluster_down: stops the run's cluster (and removes its pmem folders),
# then deletes its data; its configuration and logs stay in the run folder.
crash_cluster_down() {
  "$HARNESS_ROOT/scripts/harness" cluster stop </dev/null >>"$CRASH_RUN/logs/cluster.log" 2>&1 9>&- ||
    info "${CRASH_KIND:-crash}: 'cluster stop' failed (log: $CRASH_RUN/logs/cluster.log)"
  if [[ -z $(cluster_stray_pids) ]]; then
    rm -rf "$CLUSTER_DIR"/*/data
  fi
}

# crash_use_cluster DIR: the cluster commands of this run (here and in the
# scripts/harness processes it starts) use a fresh cluster folder DIR, so
# that nothing of an earlier cluster (tables, procedures waiting for a
# RegionServer that never returns) weighs on the test.
crash_use_cluster() {
  export HARNESS_CLUSTER_DIR=$1
  CLUSTER_DIR=$1
  mkdir -p "$CLUSTER_DIR"
}

# crash_preflight BUILD PMEM_ON REGIONSERVERS: the build is installed (and
# has the option when PMEM_ON), and the cluster's ports are free.
crash_preflight() {
  local build=$1 pmem_on=$2 n=$3 what=${CRASH_KIND:-crash} b=$CLUSTER_PORT_BASE p i
  build_installed "$build" || die "$what: the $build build ($(build_version "$build")) is not installed; run 'scripts/harness build' first"
  if [[ $pmem_on -eq 1 ]] && ! build_has_pmem "$build"; then
    die "$what: the $build build has no persistent-memory option ($PMEM_KEY is in none of its classes); build the series with the HBASE-20003 patch, or run with --no-pmem"
  fi
  local -a ports=("$b" $((b + 10)) $((b + 11)) $((b + 40)) $((b + 41)))
  for ((i = 20; i < 29; i++)); do ports+=($((b + i))); done
  for ((i = 0; i < 2 * n; i++)); do ports+=($((b + 50 + i))); done
  for p in "${ports[@]}"; do
    if port_open "$p"; then
      die "$what: port $p is in use (a cluster of 'scripts/harness cluster' running?); stop it, or set HARNESS_CLUSTER_PORT_BASE: the $what starts a cluster of its own"
    fi
  done
}

# crash_classpath BUILD: sets CRASH_CP, the client's classpath (harness classes first).
crash_classpath() {
  local classes cpfile
  cpfile=$(build_classpath "$1")
  classes=$(harness_classes)
  CRASH_CP=$classes:$(cat "$cpfile")
}

crash_main() {
  local mode=both rows=20000 regions=8 rsn=3 threads=8 value_size=1024 durability=SKIP_WAL
  local build=patched pmem_on=1 pmem="" timeout=600 keep=0
  local -a confs=()
  while [[ $# -gt 0 ]]; do
    case $1 in
      --mode | --rows | --regions | --regionservers | --threads | --value-size | --durability | --build | --timeout | --conf)
        [[ $# -ge 2 ]] || usage_error "crash: $1 needs a value"
        case $1 in
          --mode)
            [[ $2 =~ ^(rs|cluster|both|rs-lost)$ ]] || usage_error "crash: --mode must be rs, cluster, both or rs-lost, not '$2'"
            mode=$2
            ;;
          --rows) parse_count rows "crash: --rows" "$2" 1 100000000 ;;
          --regions) parse_count regions "crash: --regions" "$2" 1 1296 ;;
          --regionservers) parse_count rsn "crash: --regionservers" "$2" 1 20 ;;
          --threads) parse_count threads "crash: --threads" "$2" 1 1000 ;;
          --value-size) parse_count value_size "crash: --value-size" "$2" 1 10485760 ;;
          --timeout) parse_count timeout "crash: --timeout" "$2" 10 86400 ;;
          --durability)
            [[ $2 =~ ^(SKIP_WAL|ASYNC_WAL|SYNC_WAL|FSYNC_WAL)$ ]] || usage_error "crash: --durability must be SKIP_WAL, ASYNC_WAL, SYNC_WAL or FSYNC_WAL, not '$2'"
            durability=$2
            ;;
          --build)
            [[ $2 == stock || $2 == patched ]] || usage_error "crash: unknown build '$2' (stock or patched)"
            build=$2
            ;;
          --conf)
            [[ $2 =~ ^[A-Za-z0-9_.-]+=.* ]] || usage_error "crash: --conf '$2' is not KEY=VALUE"
            confs+=(--conf "$2")
            ;;
        esac
        shift 2
        ;;
      --pmem)
        pmem_on=1
        if [[ $# -ge 2 && $2 != -* ]]; then
          [[ -n $2 ]] || usage_error "crash: --pmem DIR: the folder is empty"
          pmem=$2
          shift
        fi
        shift
        ;;
      --no-pmem)
        pmem_on=0
        shift
        ;;
      --keep-cluster)
        keep=1
        shift
        ;;
      -h | --help)
        crash_usage
        return 0
        ;;
      *) usage_error "crash: unknown option '$1'" ;;
    esac
  done
  cluster_check_env
  if [[ $mode == rs-lost && $build == patched && " ${confs[*]} " != *" $HOST_WAIT_KEY="* ]]; then
    # Long enough for the rs phase's RegionServer to come back, short enough
    # for the lost phase to wait it out.
    confs+=(--conf "$HOST_WAIT_KEY=$CRASH_LOST_HOST_WAIT_MS")
  fi
  export LC_NUMERIC=C
  require_java
  CRASH_KIND=crash
  crash_preflight "$build" "$pmem_on" "$rsn"
  crash_classpath "$build"
  CRASH_TIMEOUT=$timeout
  CRASH_TABLE_NAME=$CRASH_TABLE
  CRASH_KEEP=$keep
  crash_run_dir crash
  local run=$CRASH_RUN
  crash_use_cluster "$run/cluster"
  trap 'crash_cleanup "failed (exit status $?)"' EXIT
  trap 'crash_cleanup "was interrupted"; exit 130' INT
  trap 'crash_cleanup "was terminated"; exit 143' TERM HUP

  local -a start=(cluster start --build "$build" --regionservers "$rsn" --retain-assignment "${confs[@]}")
  if [[ $pmem_on -eq 1 ]]; then
    start+=(--pmem)
    [[ -z $pmem ]] || start+=("$pmem")
  fi
  local pmem_desc="off (memstore on the heap)"
  {
    printf 'started: %s\nbuild: %s (%s)\nmode: %s\nrows per phase: %s\nregions: %s\nregionservers: %s\n' \
      "$(date '+%Y-%m-%d %H:%M:%S')" "$build" "$(build_version "$build")" "$mode" "$rows" "$regions" "$rsn"
    printf 'threads: %s\nvalue size: %s\ndurability: %s\npmem: %s\ncluster: %s\ncommand: scripts/harness %s\n' \
      "$threads" "$value_size" "$durability" "$([[ $pmem_on -eq 1 ]] && echo "on ${pmem:-(default folder)}" || echo off)" \
      "$CLUSTER_DIR" "${start[*]}"
    printf 'load average at the start: %s\n' "$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
  } >"$run/run.txt"
  info "crash: run folder $run"
  CRASH_STARTED=1
  crash_harness "${start[@]}"
  if [[ $pmem_on -eq 1 ]]; then
    pmem_desc="on, $(cluster_setting PMEM)/rs1..rs$rsn"
  fi
  crash_tool create --regions "$regions"

  printf 'phase,killed,rows_acked,rows_read,lost,wrong,regions,regions_back,rs_up_s,all_online_s\n' >"$run/results.csv.partial"
  local -a ledgers=() phases=()
  case $mode in
    rs) phases=(rs) ;;
    cluster) phases=(cluster) ;;
    both) phases=(rs cluster) ;;
    rs-lost) phases=(rs lost) ;;
  esac
  local phase lost_total=0 summary_rows="" victim=""
  for phase in "${phases[@]}"; do
    local ledger=$run/acked-$phase.txt
    info "crash: [$phase] loading $rows rows with $durability ($threads writers)"
    crash_tool load --rows "$rows" --tag "$phase" --threads "$threads" --value-size "$value_size" \
      --durability "$durability" --ledger "$ledger"
    ledgers+=("$ledger")
    local before killed t_up
    before=$(crash_layout)
    printf '%s\n' "$before" >"$run/layout-$phase-before.txt"
    if [[ $phase == lost ]]; then
      # The RegionServer of the rs phase, which has the table's regions back, dies for good.
      killed="$victim (not restarted)"
      if [[ $build == stock ]]; then
        # Stock waits for as long as the host stays away.
        info "crash: [$phase] the master stops waiting for a crashed RegionServer to come back"
        crash_retain_force false
        crash_harness cluster restart master
      else
        info "crash: [$phase] the master holds its regions for it up to $HOST_WAIT_KEY, then opens them elsewhere"
      fi
      info "crash: [$phase] kill -9 $victim again and leave it down"
    elif [[ $phase == rs ]]; then
      # The RegionServer that holds the most regions of the table.
      local port n
      read -r n port < <(awk '{ split($2, a, ","); c[a[2]]++ } END { for (p in c) print c[p], p }' <<<"$before" | sort -rn | head -n 1)
      victim=$(crash_port_role "$port")
      killed="$victim ($n of $regions regions)"
      info "crash: [$phase] kill -9 $victim, which holds $n of the $regions regions"
    else
      victim=all
      killed="all roles (zk nn dn master rs)"
      info "crash: [$phase] kill -9 every role of the cluster: ZooKeeper, HDFS, the master and the RegionServers"
    fi
    if [[ $phase == lost ]]; then
      crash_kill_only "$phase" "$victim"
    else
      crash_kill_restart "$phase" "$victim"
    fi
    t_up=$CRASH_UP_MS
    info "crash: [$phase] every region serves $(crash_secs "$CRASH_ONLINE_MS") s after the restart began"
    local after back total
    after=$(crash_layout)
    printf '%s\n' "$after" >"$run/layout-$phase-after.txt"
    # Regions back on the host:port they had before the crash (start codes differ).
    back=$(awk 'NR == FNR { split($2, a, ","); h[$1] = a[1] "," a[2]; next }
      { split($2, a, ","); if (h[$1] == a[1] "," a[2]) n++ } END { print n + 0 }' \
      <(printf '%s\n' "$before") <(printf '%s\n' "$after"))
    total=$(wc -l <<<"$before")
    local ledger_list rc=0
    ledger_list=$(
      IFS=,
      echo "${ledgers[*]}"
    )
    info "crash: [$phase] reading back every acknowledged row"
    crash_tool verify --ledger "$ledger_list" --value-size "$value_size" --missing "$run/lost-$phase.txt" || rc=$?
    local acked nread missing wrong
    acked=$(crash_field acked)
    nread=$(crash_field read)
    missing=$(crash_field missing)
    wrong=$(crash_field wrong)
    lost_total=$((lost_total + missing + wrong))
    printf '%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n' "$phase" "${killed// (*/}" "$acked" "$nread" "$missing" "$wrong" \
      "$total" "$back" "$(crash_secs "$t_up")" "$(crash_secs "$CRASH_ONLINE_MS")" >>"$run/results.csv.partial"
    summary_rows+=$(printf '%-8s %-32s %11s %15s %6s %6s %10s %17s\n' "$phase" "$killed" "$acked" "$nread" \
      "$missing" "$wrong" "$(crash_secs "$CRASH_ONLINE_MS") s" "$back of $total")$'\n'
    info "crash: [$phase] acknowledged $acked, read back $nread, lost $missing, wrong $wrong"
  done
  mv "$run/results.csv.partial" "$run/results.csv"
  local result
  if [[ $lost_total -eq 0 ]]; then
    result="PASS: every acknowledged row read back with its value"
  else
    result="FAIL: acknowledged rows were lost (keys in lost-*.txt)"
  fi
  {
    printf 'crash test: %s build, pmem %s, %s puts, %s regions on %s RegionServers, %s rows per phase\n\n' \
      "$build" "$pmem_desc" "$durability" "$regions" "$rsn" "$rows"
    printf '%-8s %-32s %11s %15s %6s %6s %10s %17s\n' phase killed "rows acked" "rows read back" lost wrong \
      "all online" "regions on same host"
    printf '%s' "$summary_rows"
    printf '\n"all online": from the start of the restart until a get succeeded on every region.\n'
    printf 'result: %s\n' "$result"
  } >"$run/summary.txt"
  echo
  cat "$run/summary.txt"
  echo "run folder: $run"
  CRASH_DONE=1
  rm -f "$run/INCOMPLETE" "$run/tool.out"
  crash_cleanup "done"
  if [[ $lost_total -ne 0 ]]; then
    die "crash: $lost_total acknowledged rows lost or wrong (see $run/summary.txt)"
  fi
}
