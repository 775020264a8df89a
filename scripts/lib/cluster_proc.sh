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
# cluster_proc.sh owns the processes the harness starts. Mostly the local
# cluster's roles: launching a role's JVM in a session of its own, knowing
# whether it lives (its pid file must point at a process that carries the
# role's marker), waiting until it serves, and stopping or killing it. A
# failed start shows the tail of the role's log and cleans up
# (CLUSTER_ON_FAIL: everything, or the one role). Also stop_pid, for the
# other JVMs the harness starts as its children.

# What a failed start cleans up: "all" (start) or the role (restart).
CLUSTER_ON_FAIL=all
# Where each launched role's log stood at its launch (launch, wait_ready).
declare -gA LOG_OFF=()

# pid_alive PID: the process exists and is not a zombie.
pid_alive() {
  local st
  [[ -r /proc/$1/stat ]] || return 1
  st=$(sed -E 's/^[0-9]+ \(.*\) ([A-Za-z]).*/\1/' "/proc/$1/stat" 2>/dev/null) || return 1
  [[ -n $st && $st != Z && $st != X ]]
}

# proc_cmdline PID: the process's command line, arguments separated by spaces.
proc_cmdline() {
  { tr '\0' ' ' <"/proc/$1/cmdline"; } 2>/dev/null || true
}

# role_pid ROLE: the pid of the role's live process, or fails. The pid file
# must point at a process that carries the role's marker.
role_pid() {
  local f pid
  f=$(role_dir "$1")/pid
  [[ -f $f ]] || return 1
  pid=$(cat "$f" 2>/dev/null) || return 1
  [[ $pid =~ ^[0-9]+$ ]] || return 1
  pid_alive "$pid" || return 1
  [[ $(proc_cmdline "$pid") == *"$(role_marker "$1") "* ]] || return 1
  printf '%s' "$pid"
}

# role_paused PID: true while the process is stopped by a signal (state T in
# /proc/PID/stat; the field after the command, whose parentheses may hold
# spaces).
role_paused() {
  local stat
  stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
  stat=${stat##*) }
  [[ ${stat%% *} == T ]]
}

# cluster_stray_pids: live processes of this cluster folder, pid file or not.
cluster_stray_pids() {
  local f pid cmd
  for f in /proc/[0-9]*/cmdline; do
    pid=${f#/proc/}
    pid=${pid%/cmdline}
    cmd=$(proc_cmdline "$pid")
    if [[ $cmd == *"-Dharness.cluster.role="*"@$CLUSTER_DIR "* ]] && pid_alive "$pid"; then
      echo "$pid"
    fi
  done
}

# cluster_up_roles: the roles whose process is alive.
cluster_up_roles() {
  local role
  for role in $(cluster_roles); do
    role_pid "$role" >/dev/null && echo "$role"
  done
  return 0
}

# port_open PORT: something listens on 127.0.0.1:PORT.
port_open() {
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# ports_free SECONDS PORT...: waits until nothing listens on the ports. A
# JVM killed with SIGKILL shows as a zombie as soon as its main thread is
# gone, but its sockets close only when its last thread has exited, which
# takes a while with a heap of gigabytes. Fails if one is still open.
ports_free() {
  local deadline p
  deadline=$(($(now_s) + $1))
  shift
  for p in "$@"; do
    while port_open "$p"; do
      [[ $(now_s) -lt $deadline ]] || return 1
      sleep 0.1
    done
  done
}

# http_get PORT PATH: the body of a plain HTTP GET on loopback.
http_get() {
  local port=$1 path=$2 resp
  resp=$(
    exec 3<>"/dev/tcp/127.0.0.1/$port" || exit 1
    printf 'GET %s HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n' "$path" >&3
    timeout 5 cat <&3
  ) 2>/dev/null || return 1
  printf '%s' "${resp#*$'\r\n\r\n'}"
}

# role_main ROLE: the main class and arguments of the role.
role_main() {
  case $1 in
    zk) echo "org.apache.zookeeper.server.ZooKeeperServerMain $(role_dir zk)/conf/zoo.cfg" ;;
    nn) echo "org.apache.hadoop.hdfs.server.namenode.NameNode" ;;
    dn*) echo "org.apache.hadoop.hdfs.server.datanode.DataNode" ;;
    master) echo "org.apache.hadoop.hbase.master.HMaster start" ;;
    rs*) echo "org.apache.hadoop.hbase.regionserver.HRegionServer start" ;;
  esac
}

role_gc() {
  case $1 in
    rs* | dn*) echo "-XX:+UseG1GC" ;;
    *) echo "-XX:+UseSerialGC -XX:TieredStopAtLevel=1" ;;
  esac
}

# role_jvm ROLE: sets JCMD to the role's java command line, main class to follow.
role_jvm() {
  local role=$1 d
  d=$(role_dir "$role")
  # shellcheck disable=SC2207
  JCMD=("$JAVA_HOME/bin/java" -Xmx"$(role_heap "$role")" $(role_gc "$role") -XX:+ExitOnOutOfMemoryError
    "${JVM_FLAGS[@]}" "$(role_marker "$role")")
  # A RegionServer records itself from its start for 'bench recovery --profile',
  # which dumps the recording (named harness) with jcmd.
  if [[ -n ${HARNESS_CLUSTER_RS_JFR:-} && $role == rs* ]]; then
    JCMD+=("-XX:StartFlightRecording=name=harness,settings=profile")
  fi
  JCMD+=(
    -Dlog4j2.configurationFile="$CLUSTER_DIR/conf/log4j2.properties"
    -Dharness.log.file="$(role_log "$role")" -Dhadoop.log.dir="$d/logs" -Dhbase.log.dir="$d/logs"
    -cp "$d/conf:$(cat "$(cluster_setting CLASSPATH)")")
}

# role_launch ROLE: starts the role's daemon in a session of its own, its
# output in logs/ROLE.out. The pid file is written by the shell that then
# becomes the JVM, so it holds the JVM's pid.
role_launch() {
  local role=$1 d i
  d=$(role_dir "$role")
  mkdir -p "$d/logs"
  rm -f "$d/pid"
  local -a main
  read -r -a main <<<"$(role_main "$role")"
  printf '==== %s: starting %s\n' "$(date '+%Y-%m-%d %H:%M:%S')" "$role" >>"$d/logs/$role.out"
  role_jvm "$role"
  # shellcheck disable=SC2016 # $$ is the child shell's, which becomes the JVM
  PIDFILE=$d/pid setsid bash -c 'echo $$ >"$PIDFILE"; exec "$@"' harness-role "${JCMD[@]}" "${main[@]}" \
    </dev/null >>"$d/logs/$role.out" 2>&1 3>&- 9>&- &
  for ((i = 0; i < 50; i++)); do
    [[ -s $d/pid ]] && break
    sleep 0.1
  done
}

# role_ready ROLE LOG_OFFSET: the role serves. LOG_OFFSET is the size of its
# log when it was launched, so that an earlier run's lines do not count.
role_ready() {
  local role=$1 off=$2 log
  log=$(role_log "$role")
  case $role in
    zk | nn | dn*) port_open "$(role_port "$role")" ;;
    master) [[ -f $log ]] && { tail -c +"$((off + 1))" "$log" || true; } | grep -q 'Master has completed initialization' ;;
    rs*) [[ -f $log ]] && { tail -c +"$((off + 1))" "$log" || true; } | grep -q 'Serving as ' ;;
  esac
}

# log_tail ROLE: the last lines of the role's log and output, indented.
log_tail() {
  local d f
  d=$(role_dir "$1")
  for f in "$(role_log "$1")" "$d/logs/$1.out"; do
    [[ -s $f ]] || continue
    printf '  ---- tail of %s\n' "$f" >&2
    tail -n 15 "$f" | cut -c1-300 | sed 's/^/  | /' >&2
  done
}

# role_failed ROLE REASON: the tail of its log, clean-up, one error line.
role_failed() {
  local role=$1 reason=$2
  log_tail "$role"
  if [[ $CLUSTER_ON_FAIL == all ]]; then
    info "cluster: stopping what was started"
    (stop_everything) || true
    pmem_discard_new
  else
    stop_roles 5 "$role" >/dev/null 2>&1 || true
  fi
  die "cluster: $role failed to start: $reason (log: $(role_log "$role"))"
}

# launch ROLE...: launches the roles, remembering where their logs stood.
launch() {
  local role log
  for role in "$@"; do
    log=$(role_log "$role")
    LOG_OFF[$role]=$(stat -c %s "$log" 2>/dev/null || echo 0)
    role_launch "$role"
  done
}

# wait_ready ROLE...: waits until every role serves; a role whose process
# exits, or that is not up in time, fails the whole command.
wait_ready() {
  local deadline role pid
  deadline=$(($(now_s) + CLUSTER_TIMEOUT))
  local -a pending=("$@") still
  while [[ ${#pending[@]} -gt 0 ]]; do
    still=()
    for role in "${pending[@]}"; do
      if role_ready "$role" "${LOG_OFF[$role]:-0}"; then
        pid=$(role_pid "$role") || role_failed "$role" "its process exited"
        info "cluster: $role up (pid $pid, port $(role_port "$role"))"
        continue
      fi
      role_pid "$role" >/dev/null || role_failed "$role" "its process exited"
      still+=("$role")
    done
    pending=("${still[@]}")
    [[ ${#pending[@]} -gt 0 ]] || break
    [[ $(now_s) -lt $deadline ]] || role_failed "${pending[0]}" "not up after ${CLUSTER_TIMEOUT}s"
    sleep 1
  done
}

# wait_datanodes N: the NameNode counts N live DataNodes.
wait_datanodes() {
  local n=$1 deadline body live=0
  deadline=$(($(now_s) + CLUSTER_TIMEOUT))
  while :; do
    body=$(http_get "$(($(cluster_port_base) + 11))" '/jmx?qry=Hadoop:service=NameNode,name=FSNamesystemState') || body=""
    live=$(sed -n -E 's/.*"NumLiveDataNodes" *: *([0-9]+).*/\1/p' <<<"$body" | head -n 1)
    [[ ${live:-0} -ge $n ]] && break
    role_pid nn >/dev/null || role_failed nn "its process exited"
    [[ $(now_s) -lt $deadline ]] || role_failed nn "only ${live:-0} of $n DataNodes registered after ${CLUSTER_TIMEOUT}s"
    sleep 1
  done
  info "cluster: HDFS has $n live DataNodes"
}

# stop_roles GRACE ROLE...: SIGTERM, then SIGKILL after GRACE seconds; waits
# until every process is gone.
stop_roles() {
  local grace=$1 role pid deadline
  shift
  local -a pids=() names=()
  for role in "$@"; do
    if pid=$(role_pid "$role"); then
      kill -TERM "$pid" 2>/dev/null || true
      # A paused role (cluster pause) handles the SIGTERM once it runs again.
      kill -CONT "$pid" 2>/dev/null || true
      pids+=("$pid")
      names+=("$role")
    fi
  done
  [[ ${#pids[@]} -gt 0 ]] || return 0
  deadline=$(($(now_s) + grace))
  local forced=""
  wait_pids_gone "$deadline" "${pids[@]}" || {
    for pid in "${pids[@]}"; do
      if pid_alive "$pid"; then
        kill -KILL "$pid" 2>/dev/null || true
        forced+=" $pid"
      fi
    done
    wait_pids_gone "$(($(now_s) + 15))" "${pids[@]}" || true
  }
  for role in "${names[@]}"; do
    rm -f "$(role_dir "$role")/pid"
  done
  info "cluster: stopped ${names[*]}${forced:+ (SIGKILL to pid$forced after ${grace}s)}"
}

# wait_pids_gone DEADLINE PID...: every process has exited by DEADLINE.
wait_pids_gone() {
  local deadline=$1 pid left
  shift
  while :; do
    left=0
    for pid in "$@"; do
      pid_alive "$pid" && left=1
    done
    [[ $left -eq 0 ]] && return 0
    [[ $(now_s) -lt $deadline ]] || return 1
    sleep 0.5
  done
}

# stop_everything: SIGTERM to HBase first (each RegionServer's shutdown hook
# flushes and closes its regions), then HDFS, then ZooKeeper; whatever does
# not exit in time, and anything else of this cluster folder that is still
# alive, gets SIGKILL.
stop_everything() {
  local -a hbase=() hdfs=() strays=()
  local role
  for role in $(cluster_roles); do
    case $role in
      master | rs*) hbase+=("$role") ;;
      dn*) hdfs+=("$role") ;;
    esac
  done
  stop_roles 60 "${hbase[@]}"
  stop_roles 20 "${hdfs[@]}"
  stop_roles 20 nn
  stop_roles 10 zk
  mapfile -t strays < <(cluster_stray_pids)
  if [[ ${#strays[@]} -gt 0 ]]; then
    info "cluster: SIGKILL to stray processes of $CLUSTER_DIR: ${strays[*]}"
    kill -KILL "${strays[@]}" 2>/dev/null || true
    wait_pids_gone "$(($(now_s) + 15))" "${strays[@]}" || true
  fi
  mapfile -t strays < <(cluster_stray_pids)
  [[ ${#strays[@]} -eq 0 ]] || die "cluster: processes of $CLUSTER_DIR are still alive: ${strays[*]}"
}

# stop_pid PID SECONDS: SIGTERM to a child process, then SIGKILL after
# SECONDS; reaps it.
stop_pid() {
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
