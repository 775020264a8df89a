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
# crash.sh owns the command 'scripts/harness crash': the process-level crash
# test of the write path. On a fresh local cluster of separate processes in
# its run folder (by default with a pmem folder per RegionServer and retained
# assignment), each phase loads rows through the client tool, which records a
# row's key in a ledger only after its put returned; kills with SIGKILL a
# RegionServer (rs), every role (cluster), or the rs phase's RegionServer
# again for good (lost: its host is gone, its regions must open elsewhere);
# restarts on the same folders; times until every region serves; and reads
# back every acknowledged row of every phase so far. With --replicas N (mode
# secondary), the table's regions have N replicas fed synchronously (the
# series' SYNCHRONOUS_REGION_REPLICATION): every primary is moved off one
# RegionServer, which is killed under load and restarted; writes must go on
# without it, its secondaries must come back in sync, and every acknowledged
# row must read back from every replica (--mode cluster with --replicas:
# every role killed and restarted instead). With --pause-primaries, every
# primary is then gathered on one RegionServer, whose JVM is stopped under
# load until a secondary of each region took over, then continued: it must
# acknowledge nothing the new primaries lack, and abort. With --lose-host,
# every primary is then gathered on one RegionServer, which is killed under
# load, its pmem folder deleted and never restarted: a secondary of each
# region must take over. Each time every acknowledged row must read back from
# the new primaries, then from every secondary. The shared steps are in
# crashrun.sh.
#
# Globals it owns, for one run: CRASH_VICTIM (the rs phase's RegionServer,
# which the lost phase kills again), CRASH_KILLED (how the summary names
# the phase's victim), CRASH_LEDGERS (every phase's ledger so
# far), CRASH_ROWS (the summary's rows), CRASH_LOST (rows lost or wrong),
# CRASH_FAILS (what else failed the run, one line each) and CRASH_NOTES (the
# summary's lines after the rows); CRASH_DOWN_ACKED, CRASH_DOWN_S,
# CRASH_IN_SYNC_S, CRASH_PAUSED_S and CRASH_HOST_ONLINE_S are a phase's
# measurements.

CRASH_TABLE=harness_crash
# hbase.master.memstore.pmem.host.wait.ms of --mode rs-lost on the patched build.
CRASH_LOST_HOST_WAIT_MS=45000

crash_usage() {
  cat <<'USAGE'
usage: scripts/harness crash [--mode rs|cluster|both|rs-lost|secondary] [--rows N] [--regions N]
         [--regionservers N] [--replicas N [--pause-primaries] [--lose-host]]
         [--down SECONDS] [--threads N] [--value-size N]
         [--durability SKIP_WAL|ASYNC_WAL|SYNC_WAL|FSYNC_WAL]
         [--build stock|patched] [--pmem [DIR] | --no-pmem]
         [--timeout SECONDS] [--keep-cluster] [--conf KEY=VALUE ...]
Defaults: --mode both, --rows 20000 per phase, --regions 8, --regionservers 3,
--threads 8, --value-size 1024, --durability SKIP_WAL, --build patched, --pmem
(folders under /dev/shm), --timeout 600. --mode rs-lost: the rs phase, then
the same RegionServer killed again and left down, so that its regions open
elsewhere (the patched master waits 45 s for it, unless --conf
hbase.master.memstore.pmem.host.wait.ms=MS says otherwise; a stock master is
restarted to stop waiting).
--replicas N (3 to 10; the patched build; --mode secondary, which needs it,
or --mode cluster: every role killed and restarted, then every row read back
from each replica once every secondary is in sync again):
each region has N replicas, the secondaries fed synchronously, with the
default minimum of 2 in sync, so that writes go on without one secondary;
--regionservers defaults to N + 1. Every primary is moved off the RegionServer with the most
secondaries, which is killed during the load, left down --down seconds
(default 20) and restarted; then every secondary must be named in sync again,
and every acknowledged row must read back from each replica (TIMELINE gets).
--pause-primaries (with --replicas): then every primary is gathered on one
RegionServer without hbase:meta, every secondary off it; its JVM is stopped
(SIGSTOP) during a load until every region opened elsewhere, then continued
(SIGCONT): it must acknowledge no write the new primaries lack, and abort.
--lose-host (with --replicas): then every primary is gathered on one
RegionServer without hbase:meta, every secondary off it; it is killed during a
load of its own, its pmem folder deleted, and left down for good. Each region must
serve again from a secondary the master promoted, with every acknowledged row
of the run, and every secondary must be named in sync again.
Exit 0 when every acknowledged row reads back with its value, 1 when one is
lost or the run fails, 2 on bad input.
USAGE
}

crash_main() {
  local -A o=([mode]=both [rows]=20000 [regions]=8 [rsn]=3 [threads]=8 [value_size]=1024
    [durability]=SKIP_WAL [build]=patched [pmem_on]=1 [pmem]="" [timeout]=600 [keep]=0
    [replicas]=1 [down]=20 [lose_host]=0 [pause]=0 [mode_set]=0 [rsn_set]=0 [down_set]=0)
  local -a confs=() start=() phases=()
  crash_parse o confs "$@"
  crash_check_replicas o
  cluster_check_env
  if [[ ${o[mode]} == rs-lost && ${o[build]} == patched && " ${confs[*]} " != *" $HOST_WAIT_KEY="* ]]; then
    # Long enough for the rs phase's RegionServer to come back, short enough
    # for the lost phase to wait it out.
    confs+=(--conf "$HOST_WAIT_KEY=$CRASH_LOST_HOST_WAIT_MS")
  fi
  if [[ ${o[replicas]} -gt 1 ]] && build_installed patched && ! build_has_sync_replication patched; then
    die "crash: the patched build has no synchronous region replication ($SYNC_REPLICATION_ATTR is in none of its classes); build the series with its HBASE-20003 replication patches"
  fi
  crashrun_begin crash crash "${o[build]}" "${o[pmem_on]}" "${o[rsn]}" "${o[timeout]}" "$CRASH_TABLE" "${o[keep]}"
  start=(--build "${o[build]}" --regionservers "${o[rsn]}" --retain-assignment "${confs[@]}")
  if [[ ${o[pmem_on]} -eq 1 ]]; then
    start+=(--pmem)
    [[ -z ${o[pmem]} ]] || start+=("${o[pmem]}")
  fi
  crash_use_cluster "$RUN_DIR/cluster"
  crash_run_txt o "${start[*]}" >"$RUN_DIR/run.txt"
  info "crash: run folder $RUN_DIR"
  crashrun_cluster_start "$RUN_DIR/cluster" "${start[@]}"
  crash_tool create --regions "${o[regions]}" --replicas "${o[replicas]}"
  if [[ ${o[replicas]} -gt 1 ]]; then
    printf 'phase,killed,replica,rows_acked,reads_found,lost,wrong,acked_after_kill\n' \
      >"$RUN_DIR/results.csv.partial"
  else
    printf 'phase,killed,rows_acked,rows_read,lost,wrong,regions,regions_back,rs_up_s,all_online_s\n' \
      >"$RUN_DIR/results.csv.partial"
  fi
  case ${o[mode]} in
    rs) phases=(rs) ;;
    cluster) phases=(cluster) ;;
    both) phases=(rs cluster) ;;
    rs-lost) phases=(rs lost) ;;
    secondary) phases=(secondary) ;;
  esac
  [[ ${o[replicas]} -eq 1 || ${o[mode]} != cluster ]] || phases=(cluster-replicas)
  [[ ${o[pause]} -eq 0 ]] || phases+=(paused)
  [[ ${o[lose_host]} -eq 0 ]] || phases+=(host-lost)
  CRASH_VICTIM=""
  CRASH_LEDGERS=()
  CRASH_ROWS=""
  CRASH_LOST=0
  CRASH_NOTES=""
  CRASH_FAILS=()
  local phase
  for phase in "${phases[@]}"; do
    case $phase in
      secondary) crash_secondary_phase o ;;
      cluster-replicas) crash_cluster_replicas_phase o ;;
      paused) crash_paused_phase o ;;
      host-lost) crash_host_lost_phase o ;;
      *) crash_phase o "$phase" ;;
    esac
  done
  crash_summary o >"$RUN_DIR/summary.txt"
  echo
  cat "$RUN_DIR/summary.txt"
  echo "run folder: $RUN_DIR"
  local run=$RUN_DIR
  run_finish
  if [[ $CRASH_LOST -ne 0 ]]; then
    die "crash: $CRASH_LOST acknowledged rows lost or wrong (see $run/summary.txt)"
  fi
  if [[ ${#CRASH_FAILS[@]} -ne 0 ]]; then
    die "crash: ${CRASH_FAILS[0]} (see $run/summary.txt)"
  fi
}

# crash_parse OPTS CONFS ARGS...: the command line into the associative
# array OPTS and the array CONFS (--conf pairs); --help prints the usage and
# exits 0; anything wrong is a usage error.
# shellcheck disable=SC2034,SC2154 # cp_o (associative) is set through the parse_* functions
crash_parse() {
  local -n cp_o=$1 cp_confs=$2
  local kv
  shift 2
  while [[ $# -gt 0 ]]; do
    case $1 in
      --mode | --rows | --regions | --regionservers | --replicas | --down | --threads | --value-size | --durability | --build | --timeout | --conf)
        need_value "crash: $1" $#
        case $1 in
          --mode)
            parse_choice 'cp_o[mode]' "crash: --mode" "$2" rs cluster both rs-lost secondary
            cp_o[mode_set]=1
            ;;
          --rows) parse_count 'cp_o[rows]' "crash: --rows" "$2" 1 100000000 ;;
          --regions) parse_count 'cp_o[regions]' "crash: --regions" "$2" 1 1296 ;;
          --regionservers)
            parse_count 'cp_o[rsn]' "crash: --regionservers" "$2" 1 20
            cp_o[rsn_set]=1
            ;;
          # Three at least: the primary and a secondary stay in sync, the table's
          # minimum, while the other secondary is down.
          --replicas) parse_count 'cp_o[replicas]' "crash: --replicas" "$2" 3 10 ;;
          --down)
            parse_count 'cp_o[down]' "crash: --down" "$2" 1 3600
            cp_o[down_set]=1
            ;;
          --threads) parse_count 'cp_o[threads]' "crash: --threads" "$2" 1 1000 ;;
          --value-size) parse_count 'cp_o[value_size]' "crash: --value-size" "$2" 1 10485760 ;;
          --timeout) parse_count 'cp_o[timeout]' "crash: --timeout" "$2" 10 86400 ;;
          --durability)
            parse_choice 'cp_o[durability]' "crash: --durability" "$2" SKIP_WAL ASYNC_WAL SYNC_WAL FSYNC_WAL
            ;;
          --build) parse_choice 'cp_o[build]' "crash: --build" "$2" stock patched ;;
          --conf)
            parse_conf kv "crash: --conf" "$2"
            crash_check_conf "$kv"
            cp_confs+=(--conf "$kv")
            ;;
        esac
        shift 2
        ;;
      --pmem)
        cp_o[pmem_on]=1
        if [[ $# -ge 2 && $2 != -* ]]; then
          [[ -n $2 ]] || usage_error "crash: --pmem DIR: the folder is empty"
          cp_o[pmem]=$2
          shift
        fi
        shift
        ;;
      --no-pmem)
        cp_o[pmem_on]=0
        shift
        ;;
      --keep-cluster)
        cp_o[keep]=1
        shift
        ;;
      --lose-host)
        cp_o[lose_host]=1
        shift
        ;;
      --pause-primaries)
        cp_o[pause]=1
        shift
        ;;
      -h | --help)
        crash_usage
        exit 0
        ;;
      *) usage_error "crash: unknown option '$1'" ;;
    esac
  done
}

# crash_check_replicas OPTS: --replicas goes with --mode secondary (its
# default) or cluster, on the patched build, with a RegionServer more than
# replicas (the default); --down, --pause-primaries and --lose-host only with
# --replicas and --mode secondary.
crash_check_replicas() {
  local -n ccr_o=$1
  if [[ ${ccr_o[replicas]} -eq 1 ]]; then
    [[ ${ccr_o[mode]} != secondary ]] || usage_error "crash: --mode secondary needs --replicas N (3 or more)"
    [[ ${ccr_o[down_set]} -eq 0 ]] || usage_error "crash: --down goes with --replicas N and --mode secondary"
    [[ ${ccr_o[lose_host]} -eq 0 ]] || usage_error "crash: --lose-host goes with --replicas N (3 or more); without replicas, --mode rs-lost loses a RegionServer"
    [[ ${ccr_o[pause]} -eq 0 ]] || usage_error "crash: --pause-primaries goes with --replicas N (3 or more)"
    return 0
  fi
  [[ ${ccr_o[mode_set]} -eq 0 || ${ccr_o[mode]} == secondary || ${ccr_o[mode]} == cluster ]] ||
    usage_error "crash: --replicas goes with --mode secondary (its default) or cluster, not --mode ${ccr_o[mode]}"
  [[ ${ccr_o[mode_set]} -eq 1 ]] || ccr_o[mode]=secondary
  if [[ ${ccr_o[mode]} == cluster ]]; then
    [[ ${ccr_o[down_set]} -eq 0 ]] || usage_error "crash: --down goes with --replicas N and --mode secondary"
    [[ ${ccr_o[pause]} -eq 0 && ${ccr_o[lose_host]} -eq 0 ]] ||
      usage_error "crash: --pause-primaries and --lose-host go with --mode secondary, not --mode cluster"
  fi
  [[ ${ccr_o[build]} == patched ]] ||
    usage_error "crash: --replicas needs the patched build: stock has no synchronous region replication"
  if [[ ${ccr_o[rsn_set]} -eq 0 ]]; then
    ccr_o[rsn]=$((ccr_o[replicas] + 1))
  elif [[ ${ccr_o[rsn]} -le ${ccr_o[replicas]} ]]; then
    usage_error "crash: --replicas ${ccr_o[replicas]} needs at least $((ccr_o[replicas] + 1)) RegionServers (one more than replicas), not --regionservers ${ccr_o[rsn]}"
  fi
}

# crash_check_conf KEY=VALUE: what 'cluster start' would refuse, refused
# here, before the run folder: the pmem folder key (--pmem gives each
# RegionServer its own), and a pmem size that is not a size.
# shellcheck disable=SC2034 # b takes the checked size
crash_check_conf() {
  local key=${1%%=*} b
  [[ $key != "$PMEM_KEY" ]] || usage_error "crash: --conf $PMEM_KEY: use --pmem [DIR], which gives each RegionServer a folder of its own"
  if [[ $key == "$PMEM_SIZE_KEY" ]]; then
    parse_size b "crash: --conf $PMEM_SIZE_KEY" "${1#*=}" 1 $((1 << 50))
  fi
}

# crash_run_txt OPTS START: what the run is, for run.txt.
crash_run_txt() {
  local -n crt_o=$1
  local pmem=off
  [[ ${crt_o[pmem_on]} -eq 0 ]] || pmem="on ${crt_o[pmem]:-(default folder)}"
  printf 'started: %s\nbuild: %s (%s)\nmode: %s\nrows per phase: %s\nregions: %s\nregionservers: %s\n' \
    "$(date '+%Y-%m-%d %H:%M:%S')" "${crt_o[build]}" "$(build_version "${crt_o[build]}")" "${crt_o[mode]}" \
    "${crt_o[rows]}" "${crt_o[regions]}" "${crt_o[rsn]}"
  if [[ ${crt_o[replicas]} -gt 1 ]]; then
    printf 'replicas: %s, synchronous\n' "${crt_o[replicas]}"
    [[ ${crt_o[mode]} != secondary ]] || printf 'down: %s s\n' "${crt_o[down]}"
    [[ ${crt_o[pause]} -eq 0 ]] || printf 'then: the RegionServer of every primary paused (SIGSTOP) until they opened elsewhere\n'
    [[ ${crt_o[lose_host]} -eq 0 ]] || printf 'then: the RegionServer of every primary lost for good\n'
  fi
  printf 'threads: %s\nvalue size: %s\ndurability: %s\npmem: %s\ncluster: %s\n' "${crt_o[threads]}" \
    "${crt_o[value_size]}" "${crt_o[durability]}" "$pmem" "$CLUSTER_DIR"
  printf 'command: scripts/harness cluster start %s\nmachine: %s\n' "$2" "$(run_machine)"
}

# crash_phase OPTS PHASE: one phase: load, kill, restart (or not), read back
# every acknowledged row of the run so far; a row of results.csv.partial.
crash_phase() {
  local -n cph_o=$1
  local phase=$2 ledger=$RUN_DIR/acked-$2.txt before after
  info "crash: [$phase] loading ${cph_o[rows]} rows with ${cph_o[durability]} (${cph_o[threads]} writers)"
  crash_tool load --rows "${cph_o[rows]}" --tag "$phase" --threads "${cph_o[threads]}" \
    --value-size "${cph_o[value_size]}" --durability "${cph_o[durability]}" --ledger "$ledger"
  CRASH_LEDGERS+=("$ledger")
  crash_layout "$RUN_DIR/layout-$phase-before.txt"
  before=$(cat "$RUN_DIR/layout-$phase-before.txt")
  crash_pick_victim "$phase" "$before" "${cph_o[regions]}" "${cph_o[build]}"
  if [[ $phase == lost ]]; then
    crash_kill_only "$phase" "$CRASH_VICTIM"
  else
    crash_kill_restart "$phase" "$CRASH_VICTIM"
  fi
  info "crash: [$phase] every region serves $(crash_secs "$CRASH_ONLINE_MS") s after the restart began"
  crash_layout "$RUN_DIR/layout-$phase-after.txt"
  after=$(cat "$RUN_DIR/layout-$phase-after.txt")
  crash_read_back "$phase" "$CRASH_KILLED" "${cph_o[value_size]}" "$before" "$after"
}

# crash_secondary_phase OPTS: the phase of --replicas: every primary off the
# RegionServer with the most secondaries; the load starts; once a tenth of
# its rows are acknowledged that server is killed with SIGKILL and left down
# for --down seconds and until the load ended. Still without it, every
# acknowledged row is read back from each secondary the in-sync records name
# (what a write waits for), before any later flush could bring a missing one
# back. Then it restarts; once every secondary is named in sync again, every
# acknowledged row is read back from each replica. A row of
# results.csv.partial per read-back.
crash_secondary_phase() {
  local -n csp_o=$1
  local phase=secondary ledger=$RUN_DIR/acked-secondary.txt port victim held c0 c1 t0 t1 i rows
  rows=${csp_o[rows]}
  crash_tool isolate
  port=$(crash_field port)
  held=$(crash_field secondaries)
  victim=$(crash_port_role "$port")
  info "crash: [$phase] $victim holds $held secondaries and no primary of $CRASH_TABLE"
  crash_layout "$RUN_DIR/layout-$phase-before.txt"
  CRASH_LEDGERS+=("$ledger")
  info "crash: [$phase] loading $rows rows with ${csp_o[durability]} (${csp_o[threads]} writers)"
  crash_tool_bg load --rows "$rows" --tag "$phase" --threads "${csp_o[threads]}" \
    --value-size "${csp_o[value_size]}" --durability "${csp_o[durability]}" --ledger "$ledger"
  until [[ $(crash_ledger_rows "$ledger") -ge $((rows / 10)) ]]; do
    crash_tool_bg_running || run_fail "crash: [$phase] the load ended before a tenth of its rows were acknowledged (log: $RUN_DIR/logs/client.err)"
    sleep 0.2
  done
  crash_harness cluster kill "$victim"
  t0=$(date +%s%3N)
  c0=$(crash_ledger_rows "$ledger")
  info "crash: [$phase] kill -9 $victim under load, $c0 rows acknowledged; it stays down ${csp_o[down]} s"
  for ((i = 0; i < csp_o[down] * 5; i++)); do
    sleep 0.2
  done
  crash_tool_bg_wait
  c1=$(crash_ledger_rows "$ledger")
  CRASH_DOWN_ACKED=$((c1 - c0))
  info "crash: [$phase] the load ended; $CRASH_DOWN_ACKED rows acknowledged after the kill"
  crash_read_back_replica "$phase" "$victim ($held secondaries)" "${csp_o[value_size]}" in-sync
  t1=$(date +%s%3N)
  CRASH_DOWN_S=$(crash_secs $((t1 - t0)))
  info "crash: [$phase] restarting $victim, down for $CRASH_DOWN_S s"
  crash_harness cluster restart "$victim"
  info "crash: [$phase] waiting for every secondary to be named in sync again"
  crash_tool insync --since "$t1" --timeout "$CRASH_TIMEOUT"
  CRASH_IN_SYNC_S=$(crash_secs "$(crash_field ms)")
  info "crash: [$phase] every secondary is in sync again $CRASH_IN_SYNC_S s after the restart began"
  crash_layout "$RUN_DIR/layout-$phase-after.txt"
  for ((i = 0; i < csp_o[replicas]; i++)); do
    crash_read_back_replica "$phase" "$victim ($held secondaries)" "${csp_o[value_size]}" "$i"
  done
  CRASH_NOTES+=$(printf 'secondary: rows acknowledged after the kill, the RegionServer down: %s (down %s s)' \
    "$CRASH_DOWN_ACKED" "$CRASH_DOWN_S")$'\n'
  CRASH_NOTES+=$(printf 'secondary: every secondary named in sync again %s s after its restart began' \
    "$CRASH_IN_SYNC_S")$'\n'
}

# crash_primaries_under_load PHASE OPTS TAG LEDGER: how the paused and
# host-lost phases begin: every primary of the table onto one RegionServer
# without hbase:meta and every secondary off it (CrashTool primaries); once
# every secondary is named in sync, a load in the background (rows tagged
# TAG, acknowledged ones in LEDGER), until a tenth of its rows are
# acknowledged. Sets CRASH_VICTIM (that server's role), CRASH_VICTIM_SN (its
# server name), CRASH_VICTIM_N (how many primaries it holds) and CRASH_CELLS0
# (the cells taken over so far in promotions from it).
crash_primaries_under_load() {
  local phase=$1 tag=$3 ledger=$4 rows first
  local -n cpu_o=$2
  rows=${cpu_o[rows]}
  first=$((rows / 10 > 0 ? rows / 10 : 1))
  crash_tool primaries
  CRASH_VICTIM_SN=$(crash_field server)
  CRASH_VICTIM_N=$(crash_field primaries)
  CRASH_VICTIM=$(crash_port_role "$(crash_field port)")
  info "crash: [$phase] $CRASH_VICTIM holds all $CRASH_VICTIM_N primaries of $CRASH_TABLE and no secondary"
  crash_tool insync --timeout "$CRASH_TIMEOUT"
  crash_layout "$RUN_DIR/layout-$phase-before.txt"
  read -r _ CRASH_CELLS0 < <(crash_promotions "$CRASH_VICTIM_SN")
  CRASH_LEDGERS+=("$ledger")
  info "crash: [$phase] loading $rows rows with ${cpu_o[durability]} (${cpu_o[threads]} writers)"
  crash_tool_bg load --rows "$rows" --tag "$tag" --threads "${cpu_o[threads]}" \
    --value-size "${cpu_o[value_size]}" --durability "${cpu_o[durability]}" --ledger "$ledger"
  until [[ $(crash_ledger_rows "$ledger") -ge $first ]]; do
    crash_tool_bg_running || run_fail "crash: [$phase] the load ended before a tenth of its rows were acknowledged (log: $RUN_DIR/logs/client.err)"
    sleep 0.2
  done
}

# crash_host_lost_phase OPTS: the phase of --lose-host: every primary of the
# table onto one RegionServer without hbase:meta and every secondary off it
# (the primaries step); once every secondary is named in sync, the load
# starts; once a tenth of its rows are acknowledged that server is killed
# with SIGKILL, its pmem folder deleted (its host is gone) and it is never
# restarted. A watch times until a get succeeds on every region again. The
# master's log must name a promotion for each of its regions (else
# CRASH_NOT_PROMOTED counts the others); every acknowledged row of the run is
# read back from the primaries, then, once every secondary is named in sync
# again, from each secondary.
crash_host_lost_phase() {
  local -n chl_o=$1
  local phase=host-lost ledger=$RUN_DIR/acked-host-lost.txt victim sn n c0 c1 t0 i pmem promoted
  local cells cells0
  # Waits for the kill's go, whenever it starts.
  crash_watch_start "$phase"
  crash_primaries_under_load "$phase" chl_o hostlost "$ledger"
  victim=$CRASH_VICTIM sn=$CRASH_VICTIM_SN n=$CRASH_VICTIM_N cells0=$CRASH_CELLS0
  crash_harness cluster kill "$victim"
  t0=$(crash_go)
  crash_tool_bg_running || run_fail "crash: [$phase] the load ended before the kill: use more --rows"
  c0=$(crash_ledger_rows "$ledger")
  info "crash: [$phase] kill -9 $victim under load, $c0 rows acknowledged; it is not restarted"
  if [[ ${chl_o[pmem_on]} -eq 1 ]]; then
    pmem=$(cluster_setting PMEM)/$victim
    rm -rf -- "$pmem"
    info "crash: [$phase] deleted $victim's pmem folder $pmem: its host is lost"
  fi
  crash_watch_wait
  CRASH_HOST_ONLINE_S=$(crash_secs "$CRASH_ONLINE_MS")
  info "crash: [$phase] every region serves again $CRASH_HOST_ONLINE_S s after the kill"
  crash_tool_bg_wait
  c1=$(crash_ledger_rows "$ledger")
  CRASH_DOWN_ACKED=$((c1 - c0))
  info "crash: [$phase] the load ended; $CRASH_DOWN_ACKED rows acknowledged after the kill"
  crash_layout "$RUN_DIR/layout-$phase-after.txt"
  read -r promoted cells < <(crash_promotions "$sn")
  cells=$((cells - cells0))
  crash_check_failover "$phase" "$victim" "$n" "$promoted"
  info "crash: [$phase] the master promoted a secondary of $promoted of the $n regions; they took over $cells cells"
  crash_read_back_replica "$phase" "$victim (host lost, $n primaries)" "${chl_o[value_size]}" 0
  info "crash: [$phase] waiting for every secondary to be named in sync again"
  crash_tool insync --since "$t0" --timeout "$CRASH_TIMEOUT"
  CRASH_IN_SYNC_S=$(crash_secs "$(crash_field ms)")
  for ((i = 1; i < chl_o[replicas]; i++)); do
    crash_read_back_replica "$phase" "$victim (host lost, $n primaries)" "${chl_o[value_size]}" "$i"
  done
  CRASH_NOTES+=$(printf 'host-lost: rows acknowledged after the kill, the RegionServer lost: %s' "$CRASH_DOWN_ACKED")$'\n'
  CRASH_NOTES+=$(printf 'host-lost: every region served again %s s after the kill; promoted a secondary: %s of %s regions, %s cells taken over' \
    "$CRASH_HOST_ONLINE_S" "$promoted" "$n" "$cells")$'\n'
  CRASH_NOTES+=$(printf 'host-lost: every secondary named in sync again %s s after the kill' "$CRASH_IN_SYNC_S")$'\n'
}

# crash_cluster_replicas_phase OPTS: the phase of --replicas N --mode
# cluster: loads, kills every role with SIGKILL (a power cut of the machine:
# every replica's server at once), restarts them all, and once every region
# serves reads every acknowledged row back from the primaries; once every
# secondary is named in sync again, from each secondary.
crash_cluster_replicas_phase() {
  local -n ccp_o=$1
  local phase=cluster ledger=$RUN_DIR/acked-cluster.txt i
  info "crash: [$phase] loading ${ccp_o[rows]} rows with ${ccp_o[durability]} (${ccp_o[threads]} writers)"
  crash_tool load --rows "${ccp_o[rows]}" --tag "$phase" --threads "${ccp_o[threads]}" \
    --value-size "${ccp_o[value_size]}" --durability "${ccp_o[durability]}" --ledger "$ledger"
  CRASH_LEDGERS+=("$ledger")
  crash_layout "$RUN_DIR/layout-$phase-before.txt"
  info "crash: [$phase] kill -9 every role of the cluster: ZooKeeper, HDFS, the master and the RegionServers"
  crash_kill_restart "$phase" all
  info "crash: [$phase] every region serves $(crash_secs "$CRASH_ONLINE_MS") s after the restart began"
  crash_layout "$RUN_DIR/layout-$phase-after.txt"
  CRASH_DOWN_ACKED=0
  crash_read_back_replica "$phase" "all roles" "${ccp_o[value_size]}" 0
  info "crash: [$phase] waiting for every secondary to be named in sync again"
  crash_tool insync --since "$CRASH_GO_MS" --timeout "$CRASH_TIMEOUT"
  CRASH_IN_SYNC_S=$(crash_secs "$(crash_field ms)")
  for ((i = 1; i < ccp_o[replicas]; i++)); do
    crash_read_back_replica "$phase" "all roles" "${ccp_o[value_size]}" "$i"
  done
  CRASH_NOTES+=$(printf 'cluster: every region served again %s s after the restart began; every secondary named in sync again %s s after it' \
    "$(crash_secs "$CRASH_ONLINE_MS")" "$CRASH_IN_SYNC_S")$'\n'
}

# crash_paused_phase OPTS: the phase of --pause-primaries: every primary of
# the table onto one RegionServer without hbase:meta and every secondary off
# it; once every secondary is named in sync, the load starts; once a tenth of
# its rows are acknowledged that server's JVM is stopped with SIGSTOP, as a
# long GC pause or a partition would stop it, until meta shows every region
# of the table elsewhere: its ZooKeeper session expired and the master
# promoted a secondary of each. Then it is resumed with SIGCONT, with the
# clients' writes still queued at it, and must acknowledge none that the new
# primaries lack: every acknowledged row of the run is read back from the
# primaries. It must abort (its session is gone); it is then restarted on its
# folders, and once every secondary is named in sync again every row is read
# back from each secondary.
crash_paused_phase() {
  local -n cpp_o=$1
  local phase=paused ledger=$RUN_DIR/acked-paused.txt victim sn n c0 c1 t0 t1 i promoted
  local cells cells0 left=$RUN_DIR/layout-paused-now.txt deadline aborted why log lines0 refused t2
  crash_primaries_under_load "$phase" cpp_o paused "$ledger"
  victim=$CRASH_VICTIM sn=$CRASH_VICTIM_SN n=$CRASH_VICTIM_N cells0=$CRASH_CELLS0
  crash_harness cluster pause "$victim"
  t0=$(date +%s%3N)
  crash_tool_bg_running || run_fail "crash: [$phase] the load ended before the pause: use more --rows"
  c0=$(crash_ledger_rows "$ledger")
  info "crash: [$phase] paused $victim (SIGSTOP) under load, $c0 rows acknowledged; waiting until meta shows its regions elsewhere"
  deadline=$((t0 + CRASH_TIMEOUT * 1000))
  while :; do
    crash_layout "$left"
    grep -qF " $sn" "$left" || break
    [[ $(date +%s%3N) -lt $deadline ]] ||
      run_fail "crash: [$phase] regions of $CRASH_TABLE are still on the paused $victim after $CRASH_TIMEOUT s (layout: $left)"
    sleep 1
  done
  t1=$(date +%s%3N)
  c1=$(crash_ledger_rows "$ledger")
  CRASH_PAUSED_S=$(crash_secs $((t1 - t0)))
  info "crash: [$phase] every region of $CRASH_TABLE is elsewhere $CRASH_PAUSED_S s after the pause; $((c1 - c0)) rows acknowledged meanwhile; resuming $victim"
  log=$CLUSTER_DIR/$victim/logs/$victim.log
  lines0=$(wc -l <"$log")
  crash_harness cluster resume "$victim"
  t2=$(date +%s%3N)
  # Its ZooKeeper session expired while it was stopped: it must abort.
  aborted=""
  for ((i = 0; i < 600; i++)); do
    if ! role_pid "$victim" >/dev/null; then
      aborted=$(crash_secs $(($(date +%s%3N) - t2)))
      break
    fi
    sleep 0.2
  done
  # Read without a pipe that could end early (pipefail): the abort's line,
  # and the old primary's batches that a secondary refused for their epoch
  # (the gate's epoch check; one RemoteWithExtrasException line each).
  why=$(awk -v n="$lines0" 'NR > n && /ABORTING region server / { sub(/.*ABORTING/, "ABORTING"); print substr($0, 1, 300); exit }' "$log")
  refused=$(awk -v n="$lines0" 'NR > n && /^org\.apache\.hadoop\.hbase\.ipc\.RemoteWithExtrasException: .*refuses a batch of epoch / { c++ } END { print c + 0 }' "$log")
  if [[ $refused -eq 0 ]]; then
    CRASH_FAILS+=("paused: no batch of the old primary $victim met the fence after its resume (none refused for its epoch), so the phase tested nothing")
  fi
  if [[ -z $aborted ]]; then
    info "crash: [$phase] $victim still runs 120 s after its resume; killing it"
    crash_harness cluster kill "$victim"
    aborted="no (killed 120 s after the resume)"
    CRASH_FAILS+=("paused: the old primary $victim still ran 120 s after its resume; it should have aborted")
  else
    info "crash: [$phase] $victim exited $aborted s after its resume: ${why:-no ABORTING line in its log}"
    aborted="$aborted s after the resume"
  fi
  crash_tool_bg_wait
  CRASH_DOWN_ACKED=$(($(crash_ledger_rows "$ledger") - c0))
  info "crash: [$phase] the load ended; $CRASH_DOWN_ACKED rows acknowledged after the pause"
  crash_layout "$RUN_DIR/layout-$phase-after.txt"
  read -r promoted cells < <(crash_promotions "$sn")
  cells=$((cells - cells0))
  crash_check_failover "$phase" "$victim" "$n" "$promoted"
  info "crash: [$phase] the master promoted a secondary of $promoted of the $n regions; they took over $cells cells"
  crash_read_back_replica "$phase" "$victim (paused, $n primaries)" "${cpp_o[value_size]}" 0
  info "crash: [$phase] restarting $victim on its folders"
  crash_harness cluster restart "$victim"
  t0=$(date +%s%3N)
  crash_tool insync --since "$t0" --timeout "$CRASH_TIMEOUT"
  CRASH_IN_SYNC_S=$(crash_secs "$(crash_field ms)")
  crash_layout "$RUN_DIR/layout-$phase-restarted.txt"
  # Replica 0 again: the old server is back with its persistent memory, whose
  # chunks of these regions must not come back.
  for ((i = 0; i < cpp_o[replicas]; i++)); do
    crash_read_back_replica "$phase" "$victim (paused, then back)" "${cpp_o[value_size]}" "$i"
  done
  CRASH_NOTES+=$(printf 'paused: every region elsewhere %s s after the SIGSTOP; rows acknowledged after it: %s; promoted a secondary: %s of %s regions, %s cells taken over' \
    "$CRASH_PAUSED_S" "$CRASH_DOWN_ACKED" "$promoted" "$n" "$cells")$'\n'
  CRASH_NOTES+=$(printf 'paused: the old primary exited: %s; %s' "$aborted" "${why:-no ABORTING line in its log}")$'\n'
  CRASH_NOTES+=$(printf 'paused: batches of the old primary a secondary refused for their old epoch after the resume: %s' "$refused")$'\n'
  CRASH_NOTES+=$(printf 'paused: every secondary named in sync again %s s after its restart' "$CRASH_IN_SYNC_S")$'\n'
}

# crash_check_failover PHASE VICTIM N PROMOTED: a failure of the run
# (CRASH_FAILS) when fewer than N regions of VICTIM opened from a promoted
# secondary, or when no row was acknowledged after the kill or pause (the
# failover was then not tested under load).
crash_check_failover() {
  local phase=$1 victim=$2 n=$3 promoted=$4
  if [[ $promoted -lt $n ]]; then
    CRASH_FAILS+=("$phase: only $promoted of the $n regions of $victim opened from a promoted secondary")
  fi
  if [[ $CRASH_DOWN_ACKED -eq 0 ]]; then
    CRASH_FAILS+=("$phase: no row was acknowledged after $victim stopped, so the failover was not tested under load")
  fi
}

# crash_promotions SERVER: "PROMOTED CELLS": how many regions the master
# promoted a secondary of once SERVER (host,port,start code) crashed, from its
# log (TransitRegionStateProcedure, patch 0032: "<region>, whose server
# <server> crashed, opens on <server>, where its replica <id> is, ..."), and
# the cells every new primary took over so far, from the RegionServers' logs
# (SyncRegionReplicationPromotion: "<region> took over <n> cells up to ...").
crash_promotions() {
  local promoted cells
  promoted=$({ cat "$CLUSTER_DIR"/master/logs/*.log 2>/dev/null || true; } |
    { grep -F ", whose server $1 crashed, opens on " || true; } |
    sed -E 's/.* ([^ ]+), whose server .*/\1/' | sort -u | wc -l)
  cells=$({ cat "$CLUSTER_DIR"/rs*/logs/*.log 2>/dev/null || true; } |
    sed -n -E 's/.* took over ([0-9]+) cells up to sequence id .*/\1/p' | awk '{ s += $1 } END { print s + 0 }')
  printf '%s %s\n' "$promoted" "$cells"
}

# crash_read_back_replica PHASE KILLED VALUE_SIZE REPLICA: reads back every
# acknowledged row from one replica (0 is the primary), or from every
# secondary the in-sync records name (in-sync); a row of results.csv.partial
# and of the summary. "read" counts reads that found the row: with in-sync,
# one per named secondary of its region.
crash_read_back_replica() {
  local phase=$1 killed=$2 value_size=$3 replica=$4 ledgers acked nread missing wrong
  ledgers=$(
    IFS=,
    echo "${CRASH_LEDGERS[*]}"
  )
  info "crash: [$phase] reading back every acknowledged row from replica $replica"
  crash_tool verify --ledger "$ledgers" --value-size "$value_size" --replica-id "$replica" \
    --missing "$RUN_DIR/lost-$phase-replica$replica.txt" ||
    [[ $? -eq 3 ]] # 3: rows are lost, which the fields below count
  acked=$(crash_field acked)
  nread=$(crash_field read)
  missing=$(crash_field missing)
  wrong=$(crash_field wrong)
  CRASH_LOST=$((CRASH_LOST + missing + wrong))
  printf '%s,%s,%s,%s,%s,%s,%s,%s\n' "$phase" "${killed// (*/}" "$replica" "$acked" "$nread" \
    "$missing" "$wrong" "$CRASH_DOWN_ACKED" >>"$RUN_DIR/results.csv.partial"
  CRASH_ROWS+=$(printf '%-9s %-28s %7s %11s %15s %6s %6s' "$phase" "$killed" "$replica" "$acked" \
    "$nread" "$missing" "$wrong")$'\n'
  info "crash: [$phase] replica $replica: acknowledged $acked, read back $nread, lost $missing, wrong $wrong"
}

# crash_ledger_rows FILE: the rows a ledger holds so far (whole lines).
crash_ledger_rows() {
  if [[ -f $1 ]]; then
    wc -l <"$1"
  else
    echo 0
  fi
}

# crash_pick_victim PHASE LAYOUT REGIONS BUILD: sets CRASH_VICTIM to the role
# the phase kills, and CRASH_KILLED to how the summary names it. rs: the RegionServer
# that holds the most regions of the table; cluster: all; lost: the rs
# phase's RegionServer again (a stock master first stops waiting for it).
crash_pick_victim() {
  local phase=$1 layout=$2 regions=$3 build=$4 n port
  case $phase in
    rs)
      read -r n port < <(awk '{ split($2, a, ","); c[a[2]]++ } END { for (p in c) print c[p], p }' <<<"$layout" |
        sort -rn | head -n 1)
      CRASH_VICTIM=$(crash_port_role "$port")
      info "crash: [$phase] kill -9 $CRASH_VICTIM, which holds $n of the $regions regions"
      CRASH_KILLED="$CRASH_VICTIM ($n of $regions regions)"
      ;;
    cluster)
      CRASH_VICTIM=all
      info "crash: [$phase] kill -9 every role of the cluster: ZooKeeper, HDFS, the master and the RegionServers"
      CRASH_KILLED="all roles (zk nn dn master rs)"
      ;;
    lost)
      if [[ $build == stock ]]; then
        # Stock waits for as long as the host stays away.
        info "crash: [$phase] the master stops waiting for a crashed RegionServer to come back"
        crash_retain_force false
        crash_harness cluster restart master
      else
        info "crash: [$phase] the master holds its regions for it up to $HOST_WAIT_KEY, then opens them elsewhere"
      fi
      info "crash: [$phase] kill -9 $CRASH_VICTIM again and leave it down"
      CRASH_KILLED="$CRASH_VICTIM (not restarted)"
      ;;
  esac
}

# crash_read_back PHASE KILLED VALUE_SIZE BEFORE AFTER: reads back every
# acknowledged row so far; a row of results.csv.partial and of the summary.
crash_read_back() {
  local phase=$1 killed=$2 value_size=$3 before=$4 after=$5 back total ledgers
  # Regions back on the host:port they had before the crash (start codes differ).
  back=$(awk 'NR == FNR { split($2, a, ","); h[$1] = a[1] "," a[2]; next }
    { split($2, a, ","); if (h[$1] == a[1] "," a[2]) n++ } END { print n + 0 }' \
    <(printf '%s\n' "$before") <(printf '%s\n' "$after"))
  total=$(wc -l <<<"$before")
  ledgers=$(
    IFS=,
    echo "${CRASH_LEDGERS[*]}"
  )
  info "crash: [$phase] reading back every acknowledged row"
  crash_tool verify --ledger "$ledgers" --value-size "$value_size" --missing "$RUN_DIR/lost-$phase.txt" ||
    [[ $? -eq 3 ]] # 3: rows are lost, which the fields below count
  local acked nread missing wrong online up
  acked=$(crash_field acked)
  nread=$(crash_field read)
  missing=$(crash_field missing)
  wrong=$(crash_field wrong)
  online=$(crash_secs "$CRASH_ONLINE_MS")
  up=$(crash_secs "$CRASH_UP_MS")
  CRASH_LOST=$((CRASH_LOST + missing + wrong))
  printf '%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n' "$phase" "${killed// (*/}" "$acked" "$nread" "$missing" "$wrong" \
    "$total" "$back" "$up" "$online" >>"$RUN_DIR/results.csv.partial"
  CRASH_ROWS+=$(printf '%-8s %-32s %11s %15s %6s %6s %10s %17s' "$phase" "$killed" "$acked" "$nread" \
    "$missing" "$wrong" "$online s" "$back of $total")$'\n'
  info "crash: [$phase] acknowledged $acked, read back $nread, lost $missing, wrong $wrong"
}

# crash_summary OPTS: the run's summary.txt.
crash_summary() {
  local -n cs_o=$1
  local pmem="off (memstore on the heap)" result
  [[ ${cs_o[pmem_on]} -eq 0 ]] || pmem="on, $(cluster_setting PMEM)/rs1..rs${cs_o[rsn]}"
  if [[ $CRASH_LOST -eq 0 && ${#CRASH_FAILS[@]} -eq 0 ]]; then
    result="PASS: every acknowledged row read back with its value"
  elif [[ $CRASH_LOST -eq 0 ]]; then
    result="FAIL: ${CRASH_FAILS[0]}"
  else
    result="FAIL: acknowledged rows were lost (keys in lost-*.txt)"
  fi
  if [[ ${cs_o[replicas]} -gt 1 ]]; then
    printf 'crash test: %s build, pmem %s, %s puts, %s regions with %s synchronous replicas on %s RegionServers, %s rows\n\n' \
      "${cs_o[build]}" "$pmem" "${cs_o[durability]}" "${cs_o[regions]}" "${cs_o[replicas]}" "${cs_o[rsn]}" "${cs_o[rows]}"
    printf '%-9s %-28s %7s %11s %15s %6s %6s\n' phase killed replica "rows acked" "reads found" lost wrong
    printf '%s' "$CRASH_ROWS"
    printf '\n%s' "$CRASH_NOTES"
    if [[ ${cs_o[mode]} == secondary ]]; then
      printf 'in-sync: read before the restart, from every secondary the in-sync record of the row'"'"'s region named.\n'
    fi
    printf 'replica 0 is the primary; the others were read with TIMELINE gets that name them.\n'
    if [[ ${cs_o[lose_host]} -eq 1 || ${cs_o[pause]} -eq 1 ]]; then
      printf 'paused, host-lost: replica 0 read as soon as the load ended, the others once every secondary was in sync again.\n'
    fi
    printf 'result: %s\n' "$result"
    return 0
  fi
  printf 'crash test: %s build, pmem %s, %s puts, %s regions on %s RegionServers, %s rows per phase\n\n' \
    "${cs_o[build]}" "$pmem" "${cs_o[durability]}" "${cs_o[regions]}" "${cs_o[rsn]}" "${cs_o[rows]}"
  printf '%-8s %-32s %11s %15s %6s %6s %10s %17s\n' phase killed "rows acked" "rows read back" lost wrong \
    "all online" "regions on same host"
  printf '%s' "$CRASH_ROWS"
  printf '\n"all online": from the start of the restart until a get succeeded on every region.\n'
  printf 'result: %s\n' "$result"
}
