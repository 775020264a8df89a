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
# cluster.sh owns the command 'scripts/harness cluster': start, stop,
# status, kill and restart of the local cluster of separate processes. Its
# layout and configuration are in cluster_conf.sh, its processes in
# cluster_proc.sh, its persistent-memory folders in pmem.sh. Every command
# holds the cluster folder's lock (file descriptor 9) while it runs.
#
# Global it owns, for one start: CLUSTER_HEAP (the heap of each kind of
# role) and CLUSTER_ENV_SAVED (whether cluster.env.prev holds the last
# start's settings).
declare -gA CLUSTER_HEAP=()

cluster_usage() {
  cat <<'USAGE'
usage: scripts/harness cluster start [--build stock|patched] [--regionservers N]
                               [--pmem [DIR]] [--retain-assignment] [--conf KEY=VALUE ...]
       scripts/harness cluster stop [--keep-pmem]
       scripts/harness cluster status
       scripts/harness cluster kill ROLE|all
       scripts/harness cluster restart ROLE|all
       scripts/harness cluster pause ROLE
       scripts/harness cluster resume ROLE
A local cluster on loopback, each role a JVM of its own: zk, nn, dn1..dn3,
master, rs1..rsN (default 3, at most 20). --pmem gives each RegionServer a
persistent-memory folder (DIR/rsI, default under /dev/shm) and retained
assignment; 'stop' removes the folders unless --keep-pmem. kill is SIGKILL;
restart starts a role (or all) again on the same ports and folders; pause
stops a role's JVM with SIGSTOP, as a long GC pause or a partition would, and
resume continues it with SIGCONT.
Environment: HARNESS_CLUSTER_DIR (default work/cluster),
HARNESS_CLUSTER_PORT_BASE (17000; 1024-65400), HARNESS_CLUSTER_TIMEOUT
(180 s a role may take to start; 10-86400), HARNESS_CLUSTER_{ZK,NN,DN,MASTER,RS}_HEAP.
USAGE
}

cmd_cluster() {
  [[ $# -gt 0 ]] || usage_error "cluster needs start, stop, status, kill ROLE, restart ROLE, pause ROLE or resume ROLE"
  local sub=$1
  shift
  case $sub in
    -h | --help)
      cluster_usage
      return 0
      ;;
  esac
  if [[ " $* " == *" -h "* || " $* " == *" --help "* ]]; then
    cluster_usage
    return 0
  fi
  cluster_check_env
  case $sub in
    start) cluster_start "$@" ;;
    stop) cluster_stop "$@" ;;
    status) cluster_status "$@" ;;
    kill) cluster_kill "$@" ;;
    restart) cluster_restart "$@" ;;
    pause) cluster_signal pause STOP "$@" ;;
    resume) cluster_signal resume CONT "$@" ;;
    *) usage_error "unknown cluster command '$sub' (start, stop, status, kill ROLE|all, restart ROLE|all, pause ROLE, resume ROLE)" ;;
  esac
}

# cluster_lock: holds the cluster folder's lock on descriptor 9.
cluster_lock() {
  mkdir -p "$CLUSTER_DIR"
  exec 9>"$CLUSTER_DIR/.lock"
  flock -w 600 9 || die "cluster: another harness command holds $CLUSTER_DIR/.lock"
}

cluster_start() {
  local build="" n=3 pmem_on=0 pmem="" retain=0 kv
  local -a confs=()
  while [[ $# -gt 0 ]]; do
    case $1 in
      --build)
        need_value "cluster start: --build" $#
        parse_choice build "cluster start: --build" "$2" stock patched
        shift 2
        ;;
      --conf)
        need_value "cluster start: --conf" $#
        parse_conf kv "cluster start: --conf" "$2"
        # shellcheck disable=SC2153 # PMEM_KEY is pmem.sh's
        [[ ${kv%%=*} != "$PMEM_KEY" ]] || usage_error "--conf $PMEM_KEY: use --pmem [DIR], which gives each RegionServer a folder of its own"
        confs+=("$kv")
        shift 2
        ;;
      --regionservers)
        need_value "cluster start: --regionservers" $#
        parse_count n "cluster start: --regionservers" "$2" 1 20
        shift 2
        ;;
      --pmem)
        pmem_on=1
        if [[ $# -ge 2 && $2 != -* ]]; then
          [[ -n $2 ]] || usage_error "--pmem DIR: the folder is empty"
          pmem=$2
          shift
        fi
        shift
        ;;
      --retain-assignment)
        retain=1
        shift
        ;;
      *) usage_error "cluster start: unknown argument '$1'" ;;
    esac
  done
  require_java
  cluster_lock
  cluster_start_with "$build" "$n" "$pmem_on" "$pmem" "$retain" "${confs[@]}"
}

# cluster_start_with BUILD N PMEM_ON PMEM_DIR RETAIN CONF...: starts every
# role (the lock is held). BUILD empty: patched if installed. PMEM_DIR empty:
# the default base under /dev/shm. The heaps come from the environment, or,
# with CLUSTER_REUSE_HEAPS=1, from the last start. Nothing is launched until
# every check passed; a start that fails leaves the settings of the last
# start and no pmem folder it made.
cluster_start_with() {
  local build=$1 n=$2 pmem_on=$3 pmem=$4 retain=$5
  shift 5
  local -a confs=("$@")
  cluster_refuse_running
  if [[ $pmem_on == 1 ]]; then
    pmem=$(cluster_pmem_base "$pmem")
    retain=1
  fi
  build=$(cluster_pick_build "$build")
  if [[ $pmem_on == 1 ]] && ! build_has_pmem "$build"; then
    info "cluster: warning: the $build build has no persistent-memory option ($PMEM_KEY); its RegionServers ignore their pmem folders and keep the memstore on the heap"
  fi
  cluster_heaps
  local t0 cpfile
  t0=$(now_s)
  cpfile=$(build_classpath "$build")
  cluster_save_env "$build" "$cpfile" "$n" "$pmem_on" "$pmem" "$retain" "${confs[@]}"
  cluster_check_ports
  PMEM_NEW=() # pmem.sh's: what this start made
  if [[ $pmem_on == 1 ]]; then
    pmem_prepare "$pmem" "$n" "${CLUSTER_HEAP[rs]}" "${confs[@]}"
  fi
  CLUSTER_ENV_SAVED=
  rm -f "$CLUSTER_DIR/cluster.env.prev"
  write_cluster_conf "${confs[@]}"
  info "cluster: starting the $build build ($(build_version "$build")) in $CLUSTER_DIR, ports $CLUSTER_PORT_BASE-$((CLUSTER_PORT_BASE + 49 + 2 * n))"
  if [[ $pmem_on == 1 ]]; then
    info "cluster: persistent memory: rs1..rs$n in $pmem (mode 0700); regions return to their RegionServer after a crash"
  elif [[ $retain == 1 ]]; then
    info "cluster: regions return to their RegionServer after a crash (retained assignment)"
  fi
  cluster_launch_all
  info "cluster: up in $(fmt_duration $(($(now_s) - t0))); client configuration: $CLUSTER_DIR/client/hbase-site.xml"
}

# cluster_refuse_running: dies if a role of this cluster folder is alive.
cluster_refuse_running() {
  local -a up=() strays=()
  mapfile -t up < <(cluster_up_roles)
  mapfile -t strays < <(cluster_stray_pids)
  if [[ ${#up[@]} -gt 0 || ${#strays[@]} -gt 0 ]]; then
    die "cluster: already running in $CLUSTER_DIR (up: ${up[*]:-pids ${strays[*]}}); run 'scripts/harness cluster stop' first"
  fi
}

# cluster_pmem_base DIR: the absolute pmem base folder (DIR empty: the default).
cluster_pmem_base() {
  local pmem=$1
  if [[ -z $pmem ]]; then
    [[ -d /dev/shm ]] || die "cluster: --pmem without a folder uses /dev/shm, which this machine does not have; pass --pmem DIR"
    pmem=$(pmem_default_base)
  fi
  [[ $pmem == /* ]] || pmem=$PWD/$pmem
  printf '%s' "${pmem%/}"
}

# cluster_pick_build BUILD: BUILD, or (empty) patched when installed, else stock.
cluster_pick_build() {
  if [[ -n $1 ]]; then
    printf '%s' "$1"
  elif build_installed patched; then
    printf patched
  else
    info "cluster: the patched build is not installed ('scripts/harness build'); starting the stock build"
    printf stock
  fi
}

# cluster_heaps: sets CLUSTER_HEAP, the heap of each kind of role (zk nn dn
# master rs): the environment's, the defaults, or with CLUSTER_REUSE_HEAPS=1
# the last start's.
cluster_heaps() {
  local role
  CLUSTER_HEAP=()
  if [[ ${CLUSTER_REUSE_HEAPS:-0} == 1 ]]; then
    for role in zk nn dn master rs; do
      CLUSTER_HEAP[$role]=$(role_heap "$role")
    done
  fi
  CLUSTER_HEAP[zk]=${CLUSTER_HEAP[zk]:-${HARNESS_CLUSTER_ZK_HEAP:-256m}}
  CLUSTER_HEAP[nn]=${CLUSTER_HEAP[nn]:-${HARNESS_CLUSTER_NN_HEAP:-512m}}
  CLUSTER_HEAP[dn]=${CLUSTER_HEAP[dn]:-${HARNESS_CLUSTER_DN_HEAP:-384m}}
  CLUSTER_HEAP[master]=${CLUSTER_HEAP[master]:-${HARNESS_CLUSTER_MASTER_HEAP:-768m}}
  CLUSTER_HEAP[rs]=${CLUSTER_HEAP[rs]:-${HARNESS_CLUSTER_RS_HEAP:-2g}}
}

# cluster_save_env BUILD CPFILE N PMEM_ON PMEM RETAIN CONF...: writes
# cluster.env, the settings of this start, keeping the last start's in
# cluster.env.prev until the start is past its checks (cluster_env_restore).
cluster_save_env() {
  local build=$1 cpfile=$2 n=$3 pmem_on=$4 pmem=$5 retain=$6 kv
  shift 6
  if [[ -f $CLUSTER_DIR/cluster.env ]]; then
    cp -p "$CLUSTER_DIR/cluster.env" "$CLUSTER_DIR/cluster.env.prev"
    CLUSTER_ENV_SAVED=saved
  else
    CLUSTER_ENV_SAVED=none
  fi
  {
    printf 'BUILD=%s\nVERSION=%s\nCLASSPATH=%s\nPORT_BASE=%s\nREGIONSERVERS=%s\n' "$build" \
      "$(build_version "$build")" "$cpfile" "$CLUSTER_PORT_BASE" "$n"
    printf 'ZK_HEAP=%s\nNN_HEAP=%s\nDN_HEAP=%s\nMASTER_HEAP=%s\nRS_HEAP=%s\n' "${CLUSTER_HEAP[zk]}" \
      "${CLUSTER_HEAP[nn]}" "${CLUSTER_HEAP[dn]}" "${CLUSTER_HEAP[master]}" "${CLUSTER_HEAP[rs]}"
    if [[ $pmem_on == 1 ]]; then
      printf 'PMEM=%s\n' "$pmem"
    fi
    printf 'RETAIN=%s\n' "$retain"
    for kv in "$@"; do
      printf 'CONF=%s\n' "$kv"
    done
  } >"$CLUSTER_DIR/cluster.env"
}

# cluster_env_restore: a start refused before it launched anything leaves
# the settings of the cluster's last start as they were.
cluster_env_restore() {
  case ${CLUSTER_ENV_SAVED:-} in
    none) rm -f "$CLUSTER_DIR/cluster.env" ;;
    saved) mv -f "$CLUSTER_DIR/cluster.env.prev" "$CLUSTER_DIR/cluster.env" ;;
  esac
  CLUSTER_ENV_SAVED=
}

# cluster_check_ports: no port of any role is in use.
cluster_check_ports() {
  local role p
  for role in $(cluster_roles); do
    for p in $(role_ports "$role"); do
      if port_open "$p"; then
        cluster_env_restore
        die "cluster: port $p ($role) is in use by another process; set HARNESS_CLUSTER_PORT_BASE to move the cluster (now $CLUSTER_PORT_BASE)"
      fi
    done
  done
}

# cluster_launch_all: ZooKeeper, HDFS (formatted on the first start), then
# the master and the RegionServers; each waits for the ones before. A role
# that fails stops everything and removes the pmem folders this start made.
cluster_launch_all() {
  local role
  local -a dns=() hb=(master)
  CLUSTER_ON_FAIL=all
  trap 'info "cluster: interrupted"; stop_everything >/dev/null 2>&1; pmem_discard_new; exit 130' INT TERM
  launch zk
  wait_ready zk
  if [[ ! -f $CLUSTER_DIR/nn/data/name/current/VERSION ]]; then
    info "cluster: formatting HDFS"
    role_jvm nn
    if ! "${JCMD[@]}" org.apache.hadoop.hdfs.server.namenode.NameNode -format -nonInteractive -clusterid harness \
      </dev/null >>"$(role_dir nn)/logs/nn.out" 2>&1 3>&- 9>&-; then
      role_failed nn "the NameNode format failed"
    fi
  fi
  launch nn
  wait_ready nn
  for role in $(cluster_roles); do
    case $role in
      dn*) dns+=("$role") ;;
      rs*) hb+=("$role") ;;
    esac
  done
  launch "${dns[@]}"
  wait_ready "${dns[@]}"
  wait_datanodes "${#dns[@]}"
  launch "${hb[@]}"
  wait_ready "${hb[@]}"
  trap - INT TERM
  # shellcheck disable=SC2034 # pmem.sh's: the start succeeded, nothing to discard
  PMEM_NEW=()
}

cluster_stop() {
  local keep=0
  while [[ $# -gt 0 ]]; do
    case $1 in
      --keep-pmem)
        keep=1
        shift
        ;;
      *) usage_error "cluster stop: unknown argument '$1' (only --keep-pmem)" ;;
    esac
  done
  cluster_lock
  local t0
  t0=$(now_s)
  if [[ -z $(cluster_up_roles) && -z $(cluster_stray_pids) ]]; then
    info "cluster: nothing is running in $CLUSTER_DIR"
  else
    require_java
    stop_everything
    info "cluster: stopped in $(fmt_duration $(($(now_s) - t0))); no process of $CLUSTER_DIR is left"
  fi
  if [[ $keep -eq 1 ]]; then
    local base
    base=$(cluster_setting PMEM)
    [[ -z $base || ! -d $base ]] || info "cluster: kept the RegionServers' pmem folders in $base"
  else
    pmem_remove
  fi
}

# require_role ROLE: a role of the started cluster ('all' with ALL=1).
require_role() {
  [[ -f $CLUSTER_DIR/cluster.env ]] || die "cluster: no cluster in $CLUSTER_DIR; run 'scripts/harness cluster start' first"
  [[ ${2:-} == all-ok && $1 == all ]] && return 0
  valid_role "$1" || die "cluster: unknown role '$1' (roles: $(cluster_roles | paste -sd' ' -)${2:+, or all})"
}

cluster_kill() {
  [[ $# -eq 1 ]] || usage_error "cluster kill needs one ROLE (e.g. rs1) or all"
  local role=$1 pid
  require_role "$role" all-ok
  cluster_lock
  if [[ $role == all ]]; then
    # Every role at once, as a power cut of the machine would end them.
    local -a pids=() names=()
    for role in $(cluster_roles); do
      if pid=$(role_pid "$role"); then
        pids+=("$pid")
        names+=("$role")
      fi
    done
    [[ ${#pids[@]} -gt 0 ]] || die "cluster: nothing is running in $CLUSTER_DIR"
    kill -KILL "${pids[@]}" 2>/dev/null || true
    wait_pids_gone "$(($(now_s) + 15))" "${pids[@]}" || die "cluster: processes are still alive after SIGKILL: ${pids[*]}"
    for role in "${names[@]}"; do
      rm -f "$(role_dir "$role")/pid"
      # shellcheck disable=SC2046
      ports_free 30 $(role_ports "$role") || die "cluster: $role's ports are still open 30s after SIGKILL"
    done
    info "cluster: killed ${names[*]} with SIGKILL"
    return 0
  fi
  pid=$(role_pid "$role") || die "cluster: $role is not running"
  kill -KILL "$pid"
  wait_pids_gone "$(($(now_s) + 15))" "$pid" || die "cluster: $role (pid $pid) is still alive after SIGKILL"
  rm -f "$(role_dir "$role")/pid"
  # shellcheck disable=SC2046
  ports_free 30 $(role_ports "$role") || die "cluster: $role's ports are still open 30s after SIGKILL"
  info "cluster: killed $role (pid $pid) with SIGKILL"
}

# cluster_signal pause|resume STOP|CONT ROLE: stops or continues one running
# role's JVM, and waits until the kernel shows it stopped or running.
cluster_signal() {
  local cmd=$1 sig=$2 pid i
  shift 2
  [[ $# -eq 1 ]] || usage_error "cluster $cmd needs one ROLE (e.g. rs1)"
  local role=$1
  require_role "$role"
  cluster_lock
  pid=$(role_pid "$role") || die "cluster: $role is not running"
  if [[ $cmd == pause ]]; then
    ! role_paused "$pid" || die "cluster: $role (pid $pid) is paused already"
  else
    role_paused "$pid" || die "cluster: $role (pid $pid) is not paused"
  fi
  kill "-$sig" "$pid" 2>/dev/null || die "cluster: $role (pid $pid) exited before SIG$sig"
  for ((i = 0; i < 100; i++)); do
    if [[ $cmd == pause ]] && role_paused "$pid"; then
      info "cluster: paused $role (pid $pid) with SIGSTOP; 'cluster resume $role' continues it"
      return 0
    elif [[ $cmd == resume ]] && ! role_paused "$pid"; then
      info "cluster: resumed $role (pid $pid) with SIGCONT"
      return 0
    fi
    sleep 0.1
  done
  die "cluster: $role (pid $pid) did not $cmd within 10s of SIGSTOP/SIGCONT"
}

cluster_restart() {
  [[ $# -eq 1 ]] || usage_error "cluster restart needs one ROLE (e.g. rs1) or all"
  local role=$1 t0
  require_role "$role" all-ok
  require_java
  cluster_lock
  t0=$(now_s)
  if [[ $role == all ]]; then
    cluster_restart_all
    return 0
  fi
  [[ -f $(cluster_setting CLASSPATH /nonexistent) ]] || die "cluster: the classpath of the last start is gone; run 'scripts/harness cluster start' again"
  if role_pid "$role" >/dev/null; then
    stop_roles 60 "$role"
  fi
  local p
  for p in $(role_ports "$role"); do
    if ! ports_free 15 "$p"; then
      die "cluster: port $p of $role is in use by another process"
    fi
  done
  pmem_ensure_role "$role"
  # shellcheck disable=SC2034 # cluster_proc.sh's: a failed restart stops the role only
  CLUSTER_ON_FAIL=role
  launch "$role"
  wait_ready "$role"
  info "cluster: $role restarted in $(fmt_duration $(($(now_s) - t0))) on the same ports and folders"
}

# cluster_restart_all: every role again with the settings of the last start
# (build, RegionServers, ports, heaps, --conf, pmem folders with their chunks);
# what still runs is stopped first, gracefully.
cluster_restart_all() {
  local -a confs=() up=()
  mapfile -t up < <(cluster_up_roles)
  if [[ ${#up[@]} -gt 0 || -n $(cluster_stray_pids) ]]; then
    stop_everything
  fi
  mapfile -t confs < <(sed -n 's/^CONF=//p' "$CLUSTER_DIR/cluster.env")
  local pmem pmem_on=0
  pmem=$(cluster_setting PMEM)
  [[ -z $pmem ]] || pmem_on=1
  CLUSTER_PORT_BASE=$(cluster_setting PORT_BASE "$CLUSTER_PORT_BASE")
  CLUSTER_REUSE_HEAPS=1 cluster_start_with "$(cluster_setting BUILD)" "$(cluster_rs_count)" "$pmem_on" "$pmem" \
    "$(cluster_setting RETAIN 0)" "${confs[@]}"
}

cluster_status() {
  [[ $# -eq 0 ]] || usage_error "cluster status takes no arguments"
  if [[ ! -f $CLUSTER_DIR/cluster.env ]]; then
    echo "no cluster in $CLUSTER_DIR (never started)"
    return 3
  fi
  local role pid state down=0
  printf 'cluster %s: %s build (%s)\n' "$CLUSTER_DIR" "$(cluster_setting BUILD)" "$(cluster_setting VERSION)"
  printf '%-7s %-6s %-8s %-18s %s\n' ROLE STATE PID PORTS LOG
  for role in $(cluster_roles); do
    if pid=$(role_pid "$role"); then
      state=up
      ! role_paused "$pid" || state=paused
    else
      state=down
      pid=-
      down=1
    fi
    printf '%-7s %-6s %-8s %-18s %s\n' "$role" "$state" "$pid" "$(role_ports "$role" | tr ' ' ,)" "$(role_log "$role")"
  done
  if role_pid master >/dev/null; then
    require_java
    local classes cpfile out line rc=0
    classes=$(harness_classes)
    cpfile=$(cluster_setting CLASSPATH)
    out=$("$JAVA_HOME/bin/java" -Xmx256m -XX:TieredStopAtLevel=1 "${JVM_FLAGS[@]}" \
      -Dlog4j2.configurationFile="$CLUSTER_DIR/conf/log4j2.properties" \
      -Dharness.log.file="$CLUSTER_DIR/client/tool.log" -cp "$classes:$(cat "$cpfile")" \
      org.apache.hadoop.hbase.harness.cluster.ClusterTool servers "$CLUSTER_DIR/client/hbase-site.xml" 20 2>&1) || rc=$?
    echo "the master's view:"
    while IFS= read -r line; do
      printf '  %s\n' "$line"
    done <<<"$out"
    [[ $rc -eq 0 ]] || down=1
  fi
  [[ $down -eq 0 ]] || return 3
}
