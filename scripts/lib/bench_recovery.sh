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
# bench_recovery.sh owns 'scripts/harness bench recovery': how long a killed
# RegionServer's regions take to serve again, with the memstore rebuilt from
# persistent memory (HBASE-20003, SKIP_WAL puts) against WAL split and
# replay of the same edits (SYNC_WAL puts, no pmem). Same cluster layout for
# both: the local cluster with 2 RegionServers and retained assignment, every
# region of the table on rs1, hbase:meta and the rest on rs2; rs1 is killed
# with SIGKILL and restarted at once, and the time runs from the restart
# until a get succeeds on every region. The steps are crashrun.sh's.
#
# Global it owns, for one run: BENCH_RECOVERY_FAILURES (measurements that
# lost a row).

# The per-step breakdown's columns of results.csv, as RecoveryTimeline prints
# them (its FIELDS).
BENCH_RECOVERY_STEPS=serving_s,scan_s,scp_s,split_s,lease_s,split_end_s,opened_s,open_s,rebuild_s,flush_s,seen_s

bench_recovery_usage() {
  cat <<'USAGE'
usage: scripts/harness bench recovery [--sizes 128m,1g] [--modes pmem,wal]
         [--reps 1] [--regions 8] [--value-size 1024] [--threads 8]
         [--build stock|patched] [--rs-heap 6g] [--timeout 1800]
         [--conf KEY=VALUE ...] [--profile]
For each size (memstore data of the table, all on rs1): load it, kill -9
rs1, restart it, and time until every region serves a get.
  pmem  the persistent-memory option on, SKIP_WAL puts: memstore rebuilt
  wal   the option off, SYNC_WAL puts: WAL split and replay
--conf (repeatable) adds a setting to every server's hbase-site.xml, in
every mode, after the bench's own.
--profile records each restarted rs1 with Java Flight Recorder from its
start until every region serves (raw/rs1-TAG.jfr), and writes where its CPU
samples fall, by thread, by method running and by method on the stack
(profile-TAG.txt).
Results in work/bench/recovery/STAMP (results.csv, summary.md): the time
until every region serves, and where it went, step by step, from the logs
of the master and the RegionServers (RecoveryTimeline).
USAGE
}

# bench_recovery_row_bytes TAG VALUE_SIZE: the memstore data of one row: a
# KeyValue of the key PP-TAG-SEQUENCE (RowKeys), family f, qualifier q and
# the value.
bench_recovery_row_bytes() {
  local key=$((2 + 1 + ${#1} + 1 + 12))
  printf '%s' $((4 + 4 + 2 + key + 1 + 1 + 1 + 8 + 1 + $2))
}

bench_recovery() {
  local -A o=([sizes]="128m,1g" [modes]="pmem,wal" [reps]=1 [regions]=8 [value_size]=1024 [threads]=8
    [build]=patched [rs_heap]=${HARNESS_BENCH_RECOVERY_RS_HEAP:-6g} [timeout]=1800 [conf]=""
    [profile]=0)
  local -a sizes=() modes=() size_b=()
  bench_recovery_parse o "$@"
  cluster_check_env
  local s b max_b=0 heap_b m pmem_wanted=0
  IFS=, read -r -a sizes <<<"${o[sizes]}"
  [[ ${#sizes[@]} -gt 0 ]] || usage_error "bench recovery: --sizes needs a list such as 128m,1g"
  [[ $(printf '%s\n' "${sizes[@]}" | sort | uniq -d) == "" ]] ||
    usage_error "bench recovery: --sizes '${o[sizes]}' names a size twice"
  for s in "${sizes[@]}"; do
    parse_size b "bench recovery: each of --sizes" "$s" $((1 << 20)) $((1 << 40))
    size_b+=("$b")
    [[ $b -le $max_b ]] || max_b=$b
  done
  IFS=, read -r -a modes <<<"${o[modes]}"
  [[ ${#modes[@]} -gt 0 ]] || usage_error "bench recovery: --modes needs pmem, wal or both"
  [[ $(printf '%s\n' "${modes[@]}" | sort | uniq -d) == "" ]] ||
    usage_error "bench recovery: --modes '${o[modes]}' names a mode twice"
  for m in "${modes[@]}"; do
    parse_choice m "bench recovery: each of --modes" "$m" pmem wal
    [[ $m != pmem ]] || pmem_wanted=1
  done
  parse_size heap_b "bench recovery: --rs-heap" "${o[rs_heap]}" $((256 << 20)) $((1 << 40))
  # The memstore must hold the largest size without a flush: 0.6 of the heap,
  # less a margin for the chunks' slack and the replay.
  if ((max_b * 2 > heap_b * 6 / 10)); then
    usage_error "bench recovery: --rs-heap ${o[rs_heap]} is too small for $((max_b >> 20)) MiB of memstore data (needs at least $(((max_b * 2 * 10 / 6 >> 30) + 1))g)"
  fi
  crashrun_begin "bench recovery" bench/recovery "${o[build]}" "$pmem_wanted" 2 "${o[timeout]}" harness_recovery 0
  # The whole table in the memstore of one RegionServer until the kill.
  local -a server=(--conf "hbase.hregion.memstore.flush.size=$((8 << 30))"
    --conf hbase.regionserver.global.memstore.size=0.6 --conf hfile.block.cache.size=0.1
    --conf hbase.regionserver.optionalcacheflushinterval=0 --conf hbase.regionserver.maxlogs=512
    --conf hbase.hregion.memstore.block.multiplier=4)
  local c
  while IFS= read -r c; do
    [[ -z $c ]] || server+=(--conf "$c")
  done <<<"${o[conf]}"
  local pmem_size=$((max_b * 2 + (1 << 30)))
  bench_recovery_run_txt o "${server[*]}" "$pmem_size" >"$RUN_DIR/run.txt"
  info "bench recovery: run folder $RUN_DIR"
  printf 'mode,size,rep,rows,memstore_mb,storefile_mb,load_s,rs_up_s,online_s,sampled,lost,%s\n' \
    "$BENCH_RECOVERY_STEPS" >"$RUN_DIR/results.csv.partial"
  export HARNESS_CLUSTER_RS_HEAP=${o[rs_heap]}
  if [[ ${o[profile]} -eq 1 ]]; then
    mkdir -p "$RUN_DIR/raw"
    export HARNESS_CLUSTER_RS_JFR=1
  fi
  BENCH_RECOVERY_FAILURES=0
  local i rep mode
  for mode in "${modes[@]}"; do
    local -a start=(--build "${o[build]}" --regionservers 2 --retain-assignment "${server[@]}")
    [[ $mode != pmem ]] || start+=(--pmem --conf "$PMEM_SIZE_KEY=$pmem_size")
    info "bench recovery: [$mode] starting the cluster"
    crashrun_cluster_start "$RUN_DIR/cluster-$mode" "${start[@]}"
    for ((i = 0; i < ${#sizes[@]}; i++)); do
      for ((rep = 1; rep <= o[reps]; rep++)); do
        bench_recovery_measure o "$mode" "${sizes[$i]}" "${size_b[$i]}" "$rep"
      done
    done
    info "bench recovery: [$mode] stopping the cluster"
    crash_cluster_down
  done
  local run=$RUN_DIR
  # The medians per mode and size, and the ratios (RecoveryReport).
  "$JAVA_HOME/bin/java" "${JVM_FLAGS[@]}" -cp "$CRASH_CP" org.apache.hadoop.hbase.harness.bench.recovery.RecoveryReport \
    --csv "$run/results.csv.partial" --summary "$run/summary.md" --sizes "${o[sizes]}" 2>>"$run/logs/report.log" ||
    run_fail "bench recovery: the summary failed (log: $run/logs/report.log)"
  run_finish
  echo
  cat "$run/summary.md"
  echo "run folder: $run"
  [[ $BENCH_RECOVERY_FAILURES -eq 0 ]] ||
    die "bench recovery: acknowledged rows were lost in $BENCH_RECOVERY_FAILURES measurements (lost column of $run/results.csv)"
}

# bench_recovery_parse OPTS ARGS...: the command line into the associative
# array OPTS; --help prints the usage and exits 0.
# shellcheck disable=SC2034 # brp_o is set through the parse_* functions
bench_recovery_parse() {
  local -n brp_o=$1
  local heap_b kv
  shift
  while [[ $# -gt 0 ]]; do
    case $1 in
      --sizes | --modes | --reps | --regions | --value-size | --threads | --build | --rs-heap | --timeout | --conf)
        need_value "bench recovery: $1" $#
        case $1 in
          --conf)
            parse_conf kv "bench recovery: --conf" "$2"
            brp_o[conf]+="$kv"$'\n'
            ;;
          --sizes) brp_o[sizes]=$2 ;;
          --modes) brp_o[modes]=$2 ;;
          --reps) parse_count 'brp_o[reps]' "bench recovery: --reps" "$2" 1 100 ;;
          --regions) parse_count 'brp_o[regions]' "bench recovery: --regions" "$2" 1 1296 ;;
          --value-size) parse_count 'brp_o[value_size]' "bench recovery: --value-size" "$2" 1 10485760 ;;
          --threads) parse_count 'brp_o[threads]' "bench recovery: --threads" "$2" 1 1000 ;;
          --timeout) parse_count 'brp_o[timeout]' "bench recovery: --timeout" "$2" 10 86400 ;;
          --build) parse_choice 'brp_o[build]' "bench recovery: --build" "$2" stock patched ;;
          --rs-heap)
            parse_size heap_b "bench recovery: --rs-heap" "$2" $((256 << 20)) $((1 << 40))
            brp_o[rs_heap]=$2
            ;;
        esac
        shift 2
        ;;
      --profile)
        brp_o[profile]=1
        shift
        ;;
      -h | --help)
        bench_recovery_usage
        exit 0
        ;;
      *) usage_error "bench recovery: unknown option '$1'" ;;
    esac
  done
}

# bench_recovery_run_txt OPTS SERVER_CONF PMEM_SIZE: what the run is, for run.txt.
bench_recovery_run_txt() {
  local -n brr_o=$1
  printf 'started: %s\nbuild: %s (%s)\nsizes: %s\nmodes: %s\nreps: %s\nregions: %s\n' \
    "$(date '+%Y-%m-%d %H:%M:%S')" "${brr_o[build]}" "$(build_version "${brr_o[build]}")" "${brr_o[sizes]}" \
    "${brr_o[modes]}" "${brr_o[reps]}" "${brr_o[regions]}"
  printf 'value size: %s\nthreads: %s\nRegionServer heap: %s\nserver settings: %s\npmem size per RegionServer: %s\n' \
    "${brr_o[value_size]}" "${brr_o[threads]}" "${brr_o[rs_heap]}" "$2" "$3"
  printf 'machine: %s\n' "$(run_machine)"
}

# bench_recovery_measure OPTS MODE LABEL BYTES REP: one measurement: load
# BYTES of memstore data onto rs1, kill -9 rs1, restart it, time until every
# region serves, read a sample of the acknowledged rows back; a row of
# results.csv.partial.
bench_recovery_measure() {
  local -n brm_o=$1
  local mode=$2 label=$3 bytes=$4 rep=$5 durability=SYNC_WAL port1 tag row_b rows
  [[ $mode != pmem ]] || durability=SKIP_WAL
  port1=$(role_port rs1)
  tag="$mode$label$rep"
  tag=${tag//[!A-Za-z0-9]/}
  row_b=$(bench_recovery_row_bytes "$tag" "${brm_o[value_size]}")
  rows=$(((bytes + row_b - 1) / row_b))
  local what="bench recovery: [$mode $label rep $rep]"
  info "$what $rows rows with $durability onto rs1"
  crash_tool create --regions "${brm_o[regions]}"
  crash_tool gather --port "$port1"
  crash_tool load --rows "$rows" --tag "$tag" --threads "${brm_o[threads]}" --batch 100 \
    --value-size "${brm_o[value_size]}" --durability "$durability" --ledger "$RUN_DIR/acked-$tag.txt"
  local load_s mem_b file_b off
  load_s=$(crash_field seconds)
  crash_tool memstore
  mem_b=$(crash_field bytes)
  file_b=$(crash_field storefile_bytes)
  [[ $file_b -eq 0 ]] || info "$what warning: $((file_b >> 20)) MiB were flushed during the load"
  crash_layout "$RUN_DIR/layout-$tag.txt"
  off=$(awk -v p=",$port1," 'index($2, p) == 0' "$RUN_DIR/layout-$tag.txt" | wc -l)
  [[ $off -eq 0 ]] || run_fail "$what $off regions of the table are not on rs1 before the kill"
  info "$what $((mem_b >> 20)) MiB in the memstore of rs1; kill -9 rs1, restart"
  # Where each log stands at the kill: the breakdown reads what follows.
  local -a logs_at=() role size
  for role in master rs1 rs2; do
    # A log read from its start would mix in the measurements before this one.
    size=$(stat -c %s "$(role_log "$role")" 2>/dev/null) ||
      run_fail "$what cannot read the size of $(role_log "$role")"
    logs_at+=("$(role_log "$role")@$size")
  done
  crash_kill_restart "$tag" rs1
  info "$what every region serves $(crash_secs "$CRASH_ONLINE_MS") s after the restart began (rs1 up after $(crash_secs "$CRASH_UP_MS") s)"
  [[ ${brm_o[profile]} -eq 0 ]] || bench_recovery_profile "$tag"
  local steps
  bench_recovery_timeline "$tag" "${logs_at[@]}"
  steps=$(sed -n 's/^harness-recovery timeline //p' "$RUN_DIR/timeline-$tag.txt")
  bench_recovery_steps_check "$steps"
  info "$what $(bench_recovery_steps_line "$steps")"
  local lost
  crash_tool verify --ledger "$RUN_DIR/acked-$tag.txt" --value-size "${brm_o[value_size]}" --sample 10000 \
    --missing "$RUN_DIR/lost-$tag.txt" || [[ $? -eq 3 ]] # 3: rows are lost, which the fields count
  lost=$(($(crash_field missing) + $(crash_field wrong)))
  if [[ $lost -ne 0 ]]; then
    BENCH_RECOVERY_FAILURES=$((BENCH_RECOVERY_FAILURES + 1))
    info "$what $lost of $(crash_field checked) sampled acknowledged rows are lost or wrong"
  fi
  printf '%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n' "$mode" "$label" "$rep" "$rows" "$((mem_b >> 20))" \
    "$((file_b >> 20))" "$load_s" "$(crash_secs "$CRASH_UP_MS")" "$(crash_secs "$CRASH_ONLINE_MS")" \
    "$(crash_field checked)" "$lost" "$(bench_recovery_steps_csv "$steps")" >>"$RUN_DIR/results.csv.partial"
  crash_tool drop
}

# bench_recovery_profile TAG: dumps the recording of rs1, which runs since its
# restart (role_jvm), into raw/rs1-TAG.jfr, and its summary into
# profile-TAG.txt.
bench_recovery_profile() {
  local tag=$1 pid jfr
  jfr=$RUN_DIR/raw/rs1-$tag.jfr
  pid=$(cat "$(role_dir rs1)/pid" 2>/dev/null) || run_fail "bench recovery: rs1 has no pid file to profile"
  "$JAVA_HOME/bin/jcmd" "$pid" JFR.dump name=harness filename="$jfr" >>"$RUN_DIR/logs/report.log" 2>&1 ||
    run_fail "bench recovery: jcmd could not dump the recording of rs1 (pid $pid; log: $RUN_DIR/logs/report.log)"
  "$JAVA_HOME/bin/jfr" print --events jdk.ExecutionSample --stack-depth 64 "$jfr" |
    bench_recovery_profile_summary "rs1 from its restart until every region served, $tag" \
      >"$RUN_DIR/profile-$tag.txt" 2>>"$RUN_DIR/logs/report.log" ||
    run_fail "bench recovery: the profile of $tag has no CPU sample (log: $RUN_DIR/logs/report.log)"
}

# bench_recovery_profile_summary TITLE: reads the output of 'jfr print
# --events jdk.ExecutionSample' on stdin and prints, in percent of all
# samples, the 25 largest: per thread (digits folded), per method running
# (self time) and per method anywhere on the stack (counted once a sample;
# the time in it and in what it calls). Line numbers are dropped.
bench_recovery_profile_summary() {
  awk -v title="$1" '
    function fold(name) { gsub(/[0-9]+/, "N", name); return name }
    function flush_sample(   k) {
      if (depth == 0) return
      total++
      threads[fold(thread)]++
      self[top]++
      for (k in seen) inclusive[k]++
      delete seen
      depth = 0
    }
    /^jdk\.ExecutionSample/ { flush_sample(); thread = ""; instack = 0 }
    /^[[:space:]]*sampledThread = / {
      thread = $0
      sub(/^[[:space:]]*sampledThread = "/, "", thread)
      sub(/" \(javaThreadId.*$/, "", thread)
      sub(/"$/, "", thread)
    }
    /^[[:space:]]*stackTrace = \[/ { instack = 1; next }
    instack == 1 && /^[[:space:]]*\]/ { instack = 0; next }
    instack == 1 {
      frame = $0
      sub(/^[[:space:]]+/, "", frame)
      sub(/[[:space:]]+line:.*$/, "", frame)
      if (frame == "...") next
      if (depth == 0) top = frame
      depth++
      seen[frame] = 1
    }
    END {
      flush_sample()
      if (total == 0) { print "no CPU samples" > "/dev/stderr"; exit 1 }
      printf "# %s: %d CPU samples\n\n## by thread\n\n", title, total
      for (k in threads) printf "%6.1f%%  %s\n", 100 * threads[k] / total, k | "sort -rn | head -n 25"
      close("sort -rn | head -n 25")
      printf "\n## by method running (self time)\n\n"
      for (k in self) printf "%6.1f%%  %s\n", 100 * self[k] / total, k | "sort -rn | head -n 25"
      close("sort -rn | head -n 25")
      printf "\n## by method on the stack (inclusive, stacks cut at 64 frames)\n\n"
      for (k in inclusive) printf "%6.1f%%  %s\n", 100 * inclusive[k] / total, k | "sort -rn | head -n 25"
      close("sort -rn | head -n 25")
    }'
}

# bench_recovery_timeline TAG MASTER_LOG@OFF RS1_LOG@OFF RS2_LOG@OFF: the
# breakdown of the last restart (RecoveryTimeline) into timeline-TAG.txt. A
# log that lacks a step fails the run. Runs in the caller's shell, so that a
# failure's reason reaches INCOMPLETE.
bench_recovery_timeline() {
  local rc=0 err why
  err=$(mktemp "$RUN_DIR/.timeline.XXXXXX")
  "$JAVA_HOME/bin/java" "${JVM_FLAGS[@]}" -cp "$CRASH_CP" org.apache.hadoop.hbase.harness.bench.recovery.RecoveryTimeline \
    --restart-ms "$CRASH_GO_MS" --online-ms "$CRASH_ONLINE_MS" --regions "$RUN_DIR/layout-$1.txt" \
    --master "$2" --restarted "$3" --other "$4" >"$RUN_DIR/timeline-$1.txt" 2>"$err" || rc=$?
  cat "$err" >>"$RUN_DIR/logs/report.log"
  why=$(sed -n -E 's/^harness: (usage )?error: //p' "$err" | tail -n 1)
  rm -f "$err"
  if [[ $rc -ne 0 ]]; then
    rm -f "$RUN_DIR/timeline-$1.txt"
    run_fail "bench recovery: the breakdown of $1 failed: ${why:-RecoveryTimeline exited with status $rc} (log: $RUN_DIR/logs/report.log)"
  fi
}

# bench_recovery_steps_check "name=s ...": fails the run unless every field of
# BENCH_RECOVERY_STEPS has a value.
bench_recovery_steps_check() {
  local f
  for f in ${BENCH_RECOVERY_STEPS//,/ }; do
    [[ " $1" == *" $f="[0-9-]* ]] || run_fail "bench recovery: the breakdown has no $f"
  done
}

# bench_recovery_step "name=s ..." NAME: the value of NAME.
bench_recovery_step() {
  local kv
  for kv in $1; do
    if [[ ${kv%%=*} == "$2" ]]; then
      printf '%s' "${kv#*=}"
      return 0
    fi
  done
}

# bench_recovery_steps_csv "name=s ...": the values, comma-separated, in the
# order of BENCH_RECOVERY_STEPS.
bench_recovery_steps_csv() {
  local f out=""
  for f in ${BENCH_RECOVERY_STEPS//,/ }; do
    out+=${out:+,}$(bench_recovery_step "$1" "$f")
  done
  printf '%s' "$out"
}

# bench_recovery_steps_line "name=s ...": the breakdown for a progress line.
bench_recovery_steps_line() {
  local s=$1
  printf 'rs1 serving at %s s (pmem scan %s s); crash procedure at %s s; WAL split %s s (longest WAL open, lease recovery included, %s s), done at %s s; regions open %s s later (rebuild %s s, flush %s s), the last at %s s; the client sees it %s s later' \
    "$(bench_recovery_step "$s" serving_s)" "$(bench_recovery_step "$s" scan_s)" "$(bench_recovery_step "$s" scp_s)" \
    "$(bench_recovery_step "$s" split_s)" "$(bench_recovery_step "$s" lease_s)" "$(bench_recovery_step "$s" split_end_s)" \
    "$(bench_recovery_step "$s" open_s)" "$(bench_recovery_step "$s" rebuild_s)" "$(bench_recovery_step "$s" flush_s)" \
    "$(bench_recovery_step "$s" opened_s)" "$(bench_recovery_step "$s" seen_s)"
}
