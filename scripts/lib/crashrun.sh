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
# crashrun.sh owns the steps that the crash test (crash.sh) and bench
# recovery (bench_recovery.sh) share: a run against a fresh local cluster in
# the run folder, driven through 'scripts/harness cluster' in processes of
# their own and through the client tool CrashTool
# (test-harness/.../harness/crash), whose result lines it reads.
#
# crashrun_begin sets up a run; then the caller starts the cluster
# (crashrun_cluster_start), runs CrashTool steps (crash_tool, crash_field,
# crash_layout), kills and restarts roles while a watch times the regions'
# return (crash_kill_restart, crash_kill_only: they set CRASH_UP_MS, from the
# restart until the restart command returned, and CRASH_ONLINE_MS, from the
# restart until a get succeeded on every region), and ends with run_finish
# (runs.sh). On any exit, crashrun_stop stops the watch and the cluster.
#
# Globals it owns (set by crashrun_begin unless said): CRASH_KIND (the
# command, in messages), CRASH_CP (the client's classpath), CRASH_TIMEOUT,
# CRASH_TABLE_NAME, CRASH_KEEP (leave the cluster running at the end),
# CRASH_STARTED (set by crashrun_cluster_start), CRASH_WATCH_* (the watch),
# and the two outputs CRASH_UP_MS and CRASH_ONLINE_MS.

CRASH_TOOL_CLASS=org.apache.hadoop.hbase.harness.crash.CrashTool

# crashrun_begin KIND RUN_KIND BUILD PMEM_ON REGIONSERVERS TIMEOUT TABLE KEEP:
# the build is installed (with the option when PMEM_ON) and the cluster's
# ports are free; resolves the client's classpath; makes the run folder
# $WORK/RUN_KIND/STAMP (run_begin), with crashrun_stop to run on any exit.
crashrun_begin() {
  CRASH_KIND=$1
  local run_kind=$2 build=$3 pmem_on=$4 rsn=$5
  CRASH_TIMEOUT=$6
  CRASH_TABLE_NAME=$7
  CRASH_KEEP=$8
  CRASH_STARTED=0
  CRASH_WATCH_PID=""
  export LC_NUMERIC=C
  require_java
  crash_preflight "$build" "$pmem_on" "$rsn"
  crash_classpath "$build"
  run_begin "$run_kind" "$CRASH_KIND" crashrun_stop
}

# crashrun_cluster_start DIR ARGS...: a fresh cluster in DIR, started with
# 'scripts/harness cluster start ARGS'.
crashrun_cluster_start() {
  crash_use_cluster "$1"
  shift
  CRASH_STARTED=1
  crash_harness cluster start "$@"
}

# crashrun_stop: stops the watch and, unless kept, the cluster. Runs once,
# from run_end.
crashrun_stop() {
  if [[ -n ${CRASH_BG_PID:-} ]]; then
    [[ ! -f ${CRASH_BG_JAVA:-} ]] || kill "$(cat "$CRASH_BG_JAVA")" 2>/dev/null || true
    wait "$CRASH_BG_PID" 2>/dev/null || true
    CRASH_BG_PID=""
  fi
  if [[ -n ${CRASH_WATCH_PID:-} ]]; then
    kill "$CRASH_WATCH_PID" 2>/dev/null || true
    wait "$CRASH_WATCH_PID" 2>/dev/null || true
    CRASH_WATCH_PID=""
  fi
  if [[ ${CRASH_STARTED:-0} -eq 1 ]]; then
    if [[ ${CRASH_KEEP:-0} -eq 1 ]]; then
      info "$CRASH_KIND: the cluster is left running; HARNESS_CLUSTER_DIR=$CLUSTER_DIR scripts/harness cluster stop removes it and its pmem folders"
    else
      crash_cluster_down
    fi
  fi
  rm -f "$RUN_DIR"/.rc.* "$RUN_DIR"/.go-* "$RUN_DIR"/.bg.pid "$RUN_DIR/tool.out" "$RUN_DIR"/tool-*.out
}

# crash_harness ARGS...: scripts/harness ARGS in a process of its own (the
# cluster commands take the cluster's lock); its lines are shown and kept in
# logs/cluster.log. On failure, dies with its error line.
crash_harness() {
  local log=$RUN_DIR/logs/cluster.log st rc
  st=$(mktemp "$RUN_DIR/.rc.XXXXXX")
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
    run_fail "${why:-scripts/harness $* failed with status $rc (log: $log)}"
  fi
}

# crash_java: sets JCMD to the client JVM's command line, CrashTool to follow.
crash_java() {
  JCMD=("$JAVA_HOME/bin/java" -Xmx"${HARNESS_CRASH_CLIENT_HEAP:-1g}" -XX:+UseG1GC "${JVM_FLAGS[@]}"
    -Dlog4j2.configurationFile="$CLUSTER_DIR/conf/log4j2.properties"
    -Dharness.log.file="$RUN_DIR/logs/client.log" -cp "$CRASH_CP" "$CRASH_TOOL_CLASS")
}

# crash_tool STEP ARGS...: one CrashTool step against the local cluster. Its
# result lines go to $RUN_DIR/tool.out (and logs/client.out), its progress
# lines to the terminal. Returns 0, or 3 when verify found a lost row; any
# other failure dies with the tool's error line.
crash_tool() {
  local step=$1 st rc out=$RUN_DIR/tool.out
  shift
  crash_java
  st=$(mktemp "$RUN_DIR/.rc.XXXXXX")
  {
    rc=0
    "${JCMD[@]}" "$step" "$CLUSTER_DIR/client/hbase-site.xml" "$CRASH_TABLE_NAME" "$@" 2>&1 >"$out" </dev/null 9>&- || rc=$?
    echo "$rc" >"$st"
  } | tee -a "$RUN_DIR/logs/client.err" | { grep --line-buffered -E '^harness: [a-z]+: ' >&2 || true; }
  rc=$(cat "$st")
  rm -f "$st"
  cat "$out" >>"$RUN_DIR/logs/client.out"
  [[ $rc -eq 0 || ($rc -eq 3 && $step == verify) ]] && return "$rc"
  local why
  why=$(sed -n 's/^harness: error: //p' "$RUN_DIR/logs/client.err" | tail -n 1)
  run_fail "$CRASH_KIND: $step: ${why:-the client JVM exited with status $rc (log: $RUN_DIR/logs/client.err)}"
}

# crash_tool_bg STEP ARGS...: one CrashTool step in the background, as
# crash_tool runs it; crash_tool_bg_wait waits for it. One at a time; run_end
# stops it (crashrun_stop).
crash_tool_bg() {
  local step=$1
  shift
  crash_java
  CRASH_BG_STEP=$step
  CRASH_BG_OUT=$RUN_DIR/tool-$step.out
  CRASH_BG_RC=$RUN_DIR/.rc.bg
  CRASH_BG_JAVA=$RUN_DIR/.bg.pid
  rm -f "$CRASH_BG_RC" "$CRASH_BG_JAVA"
  {
    {
      "${JCMD[@]}" "$step" "$CLUSTER_DIR/client/hbase-site.xml" "$CRASH_TABLE_NAME" "$@" 2>&1 >"$CRASH_BG_OUT" </dev/null 9>&- &
      echo $! >"$CRASH_BG_JAVA"
      rc=0
      wait $! || rc=$?
      echo "$rc" >"$CRASH_BG_RC"
    } | tee -a "$RUN_DIR/logs/client.err" | { grep --line-buffered -E '^harness: [a-z]+: ' >&2 || true; }
  } &
  CRASH_BG_PID=$!
}

# crash_tool_bg_running: true while the background step runs.
crash_tool_bg_running() {
  [[ ! -f $CRASH_BG_RC ]]
}

# crash_tool_bg_wait: waits for the background step; its result lines become
# the last tool result (crash_field). A failure dies with its error line.
crash_tool_bg_wait() {
  wait "$CRASH_BG_PID" || true
  CRASH_BG_PID=""
  local rc
  rc=$(cat "$CRASH_BG_RC" 2>/dev/null || echo 1)
  rm -f "$CRASH_BG_RC" "$CRASH_BG_JAVA"
  cat "$CRASH_BG_OUT" >>"$RUN_DIR/logs/client.out"
  cp "$CRASH_BG_OUT" "$RUN_DIR/tool.out"
  [[ $rc -eq 0 ]] && return 0
  local why
  why=$(sed -n 's/^harness: error: //p' "$RUN_DIR/logs/client.err" | tail -n 1)
  run_fail "$CRASH_KIND: $CRASH_BG_STEP: ${why:-the client JVM exited with status $rc (log: $RUN_DIR/logs/client.err)}"
}

# crash_field NAME: the value of NAME=VALUE in the last tool result.
crash_field() {
  sed -n -E "s/.*[ ]$1=([^ ]*).*/\\1/p" "$RUN_DIR/tool.out" | tail -n 1
}

# crash_layout FILE: "ENCODED SERVER" per region of the table, from the
# master's meta, into FILE. Runs in the caller's shell (not in a $(...)), so
# that a failure's reason reaches INCOMPLETE; a table without regions fails.
crash_layout() {
  crash_tool layout
  sed -n 's/^harness-crash region //p' "$RUN_DIR/tool.out" >"$1"
  [[ -s $1 ]] || run_fail "$CRASH_KIND: the master lists no region of $CRASH_TABLE_NAME"
}

# crash_port_role PORT: the RegionServer role of an RPC port.
crash_port_role() {
  printf 'rs%d' $((($1 - $(cluster_port_base) - 50) / 2 + 1))
}

# crash_watch_start NAME: starts the watch (regions learnt, then waiting for
# the go file) in the background; returns once it is ready.
crash_watch_start() {
  local name=$1 i
  CRASH_WATCH_OUT=$RUN_DIR/watch-$name.txt
  CRASH_WATCH_GO=$RUN_DIR/.go-$name
  rm -f "$CRASH_WATCH_OUT" "$CRASH_WATCH_OUT.ready" "$CRASH_WATCH_GO"
  crash_java
  "${JCMD[@]}" watch "$CLUSTER_DIR/client/hbase-site.xml" "$CRASH_TABLE_NAME" --go "$CRASH_WATCH_GO" \
    --out "$CRASH_WATCH_OUT" --timeout "$CRASH_TIMEOUT" </dev/null >>"$RUN_DIR/logs/client.out" \
    2>>"$RUN_DIR/logs/client.err" 9>&- &
  CRASH_WATCH_PID=$!
  for ((i = 0; i < 1200; i++)); do
    [[ -f $CRASH_WATCH_OUT.ready ]] && return 0
    kill -0 "$CRASH_WATCH_PID" 2>/dev/null || break
    sleep 0.1
  done
  run_fail "$CRASH_KIND: the region watch did not start: $(sed -n 's/^harness: error: //p' "$RUN_DIR/logs/client.err" | tail -n 1) (log: $RUN_DIR/logs/client.err)"
}

# crash_kill_restart TAG ROLE: watches the table's regions (as TAG), kills ROLE
# (a RegionServer, or all) with SIGKILL, restarts it at once and waits until
# every region serves. Sets CRASH_GO_MS (when the restart began, epoch ms) and
# CRASH_UP_MS: from the start of the restart until the restart command
# returned; CRASH_ONLINE_MS comes from the watch.
crash_kill_restart() {
  local tag=$1 role=$2 t0
  crash_watch_start "$tag"
  crash_harness cluster kill "$role"
  t0=$(crash_go)
  # shellcheck disable=SC2034 # an output, read by the callers
  CRASH_GO_MS=$t0
  crash_harness cluster restart "$role"
  # shellcheck disable=SC2034 # an output, read by the callers
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
  # shellcheck disable=SC2034 # an output, read by the callers
  CRASH_UP_MS=0
  crash_watch_wait
}

# crash_retain_force true|false: sets hbase.master.scp.retain.assignment.force
# in the master's configuration, for its next start. With it, HBase 2.6 holds
# a crashed RegionServer's regions for it as long as it stays away.
crash_retain_force() {
  local conf=$CLUSTER_DIR/master/conf/hbase-site.xml key=hbase.master.scp.retain.assignment.force
  grep -qF "<name>$key</name>" "$conf" || run_fail "$CRASH_KIND: $key is not in $conf"
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
    run_fail "$CRASH_KIND: $(sed -n 's/^harness: error: //p' "$RUN_DIR/logs/client.err" | tail -n 1 || echo "the region watch failed") (log: $RUN_DIR/logs/client.err)"
  fi
}

# crash_secs MS: milliseconds as seconds with one decimal.
crash_secs() {
  awk -v m="$1" 'BEGIN { printf "%.1f", m / 1000 }'
}

# crash_cluster_down: stops the run's cluster (and removes its pmem folders),
# then deletes its data; its configuration and logs stay in the run folder.
crash_cluster_down() {
  "$HARNESS_ROOT/scripts/harness" cluster stop </dev/null >>"$RUN_DIR/logs/cluster.log" 2>&1 9>&- ||
    info "$CRASH_KIND: 'cluster stop' failed (log: $RUN_DIR/logs/cluster.log)"
  CRASH_STARTED=0
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
  local build=$1 pmem_on=$2 n=$3 what=$CRASH_KIND b=$CLUSTER_PORT_BASE p i
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
