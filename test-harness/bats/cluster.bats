#!/usr/bin/env bats
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
# scripts/harness cluster: bad input in seconds, then one real cluster of
# separate JVMs (ZooKeeper, NameNode, 3 DataNodes, master, 3 RegionServers)
# in a folder and on ports of its own, each RegionServer with a pmem folder:
# kill -9 of a RegionServer really ends its process, restart brings the same
# RegionServer (host and port) back as the master sees it, on the same pmem
# folder, and stop leaves no process and no pmem folder behind.

load common

setup_file() {
  cluster_file_env "${BATS_CLUSTER_PORT_BASE:-17300}"
}

setup() {
  cluster_test_env
}

teardown_file() {
  stop_file_cluster
}

# live_servers: the master's list of live region servers (host,port,startcode).
live_servers() {
  "$HARNESS" cluster status 2>/dev/null | sed -n 's/^  live //p' || true
}

@test "cluster without a command, or with an unknown one, is a usage error" {
  run "$HARNESS" cluster
  [ "$status" -eq 2 ]
  one_error_line
  run "$HARNESS" cluster frob
  [ "$status" -eq 2 ]
  [[ $output == *"unknown cluster command 'frob'"* ]]
  run "$HARNESS" cluster kill
  [ "$status" -eq 2 ]
  run "$HARNESS" cluster start --build nightly
  [ "$status" -eq 2 ]
  [[ $output == *"--build must be one of stock, patched, not 'nightly'"* ]]
  run "$HARNESS" cluster start --conf novalue
  [ "$status" -eq 2 ]
  [[ $output == *"is not KEY=VALUE"* ]]
}

@test "cluster start --pmem: a folder that cannot serve is one error line; nothing is started or left" {
  local f="$BATS_TEST_TMPDIR/file"
  : >"$f"
  run "$HARNESS" cluster start --build stock --pmem "$f"
  one_error_line
  [[ $output == *"cluster: --pmem $f is not a directory"* ]]
  run "$HARNESS" cluster start --build stock --pmem "$f/sub"
  one_error_line
  [[ $output == *"cannot create the pmem folder $f/sub: Not a directory"* ]]
  # Too small for the RegionServers' chunk space: refused before anything starts.
  run "$HARNESS" cluster start --build stock --pmem "$BATS_TEST_TMPDIR/pm" --conf hbase.regionserver.memstore.pmem.size=100t
  one_error_line
  [[ $output == *"need up to "*" MiB of chunk space"* ]]
  [ ! -e "$BATS_TEST_TMPDIR/pm" ]
  # A folder of someone else's is never taken over, and what was made is removed again.
  mkdir -p "$BATS_TEST_TMPDIR/theirs/rs2"
  run "$HARNESS" cluster start --build stock --pmem "$BATS_TEST_TMPDIR/theirs"
  one_error_line
  [[ $output == *"theirs/rs2 exists and was not made by the harness"* ]]
  [ -d "$BATS_TEST_TMPDIR/theirs/rs2" ]
  [ ! -e "$BATS_TEST_TMPDIR/theirs/rs1" ]
  run "$HARNESS" cluster start --pmem ""
  [ "$status" -eq 2 ]
  one_error_line
  run "$HARNESS" cluster start --conf hbase.regionserver.memstore.pmem.path=/tmp/x
  [ "$status" -eq 2 ]
  [[ $output == *"use --pmem [DIR]"* ]]
  run "$HARNESS" cluster stop --keep-everything
  [ "$status" -eq 2 ]
  [ -z "$(cluster_pids)" ]
}

@test "kill, restart and status before a start say so" {
  run "$HARNESS" cluster kill rs1
  one_error_line
  [[ $output == *"no cluster in"* ]]
  run "$HARNESS" cluster status
  [ "$status" -eq 3 ]
  [[ $output == *"never started"* ]]
  run "$HARNESS" cluster stop
  [ "$status" -eq 0 ]
}

@test "a role that fails to start is reported with its log, and what was started is stopped" {
  # A NameNode JVM that cannot start: ZooKeeper is up by then and must be stopped again.
  HARNESS_CLUSTER_NN_HEAP=1k run "$HARNESS" cluster start --build stock
  one_error_line
  [[ $output == *"cluster: nn failed to start: "* ]]
  [[ $output == *"cluster: zk up"* && $output == *"cluster: stopped zk"* ]]
  [[ $output == *"---- tail of "*"nn.out"* ]]
  [[ $output == *"Too small maximum heap"* || $output == *"Invalid maximum heap size"* ]]
  [ -z "$(cluster_pids)" ]
}

@test "start, kill -9 rs1, restart rs1 as the same server, stop with nothing left" {
  local pmem
  pmem="/dev/shm/hbase-harness-pmem-$(id -u)-$HARNESS_CLUSTER_PORT_BASE"
  rm -rf "$pmem"
  run "$HARNESS" cluster start --build stock --pmem
  [ "$status" -eq 0 ]
  [[ $output == *"cluster: up in"* ]]
  [[ $output == *"persistent memory: rs1..rs3 in $pmem (mode 0700)"* ]]
  # Each RegionServer has a pmem folder of its own, and the master retains assignment.
  local i
  for i in 1 2 3; do
    [ "$(stat -c %a "$pmem/rs$i")" = 700 ]
    grep -q "<name>hbase.regionserver.memstore.pmem.path</name><value>$pmem/rs$i</value>" "$CLUSTER/rs$i/conf/hbase-site.xml"
  done
  grep -q '<name>hbase.master.scp.retain.assignment</name><value>true</value>' "$CLUSTER/master/conf/hbase-site.xml"
  grep -q '<name>hbase.master.scp.retain.assignment.force</name><value>true</value>' "$CLUSTER/master/conf/hbase-site.xml"
  : >"$pmem/rs1/memstore.pmem"
  run "$HARNESS" cluster status
  [ "$status" -eq 0 ]
  local role
  for role in zk nn dn1 dn2 dn3 master rs1 rs2 rs3; do
    grep -qE "^$role +up " <<<"$output"
  done
  [ "$(grep -c '^  live localhost,' <<<"$output")" -eq 3 ]
  # The folder named with a trailing slash is the same cluster.
  HARNESS_CLUSTER_DIR="$CLUSTER/" run "$HARNESS" cluster status
  [ "$status" -eq 0 ]
  grep -qE '^rs1 +up ' <<<"$output"
  # Each role is a JVM of its own, with its own log and data folders.
  [ "$(cluster_pids | wc -l)" -eq 9 ]
  [ -s "$CLUSTER/rs1/logs/rs1.log" ]
  [ -d "$CLUSTER/dn2/data/dfs" ]

  local rs1_port old_pid old_sn
  rs1_port=$((HARNESS_CLUSTER_PORT_BASE + 50))
  old_pid=$(cat "$CLUSTER/rs1/pid")
  old_sn=$(live_servers | grep "^localhost,$rs1_port,")
  [ -n "$old_sn" ]

  run "$HARNESS" cluster start --build stock
  one_error_line
  [[ $output == *"already running"* ]]

  run "$HARNESS" cluster kill rs1
  [ "$status" -eq 0 ]
  [[ $output == *"killed rs1 (pid $old_pid) with SIGKILL"* ]]
  # SIGKILL really ended that process, and only that one.
  if [ -r "/proc/$old_pid/stat" ]; then
    [[ $(sed -E 's/^[0-9]+ \(.*\) ([A-Za-z]).*/\1/' "/proc/$old_pid/stat") == Z ]]
  fi
  [ "$(cluster_pids | wc -l)" -eq 8 ]
  run "$HARNESS" cluster status
  [ "$status" -eq 3 ]
  grep -qE '^rs1 +down ' <<<"$output"
  grep -qE '^rs2 +up ' <<<"$output"
  run "$HARNESS" cluster kill rs1
  one_error_line
  [[ $output == *"rs1 is not running"* ]]

  run "$HARNESS" cluster restart rs1
  [ "$status" -eq 0 ]
  [[ $output == *"rs1 restarted"* ]]
  [ "$(cat "$CLUSTER/rs1/pid")" != "$old_pid" ]
  # The master sees the same RegionServer (host and port) back, as a new
  # instance (start code), and not the killed one.
  local new_sn="" i
  for ((i = 0; i < 60; i++)); do
    new_sn=$(live_servers | grep "^localhost,$rs1_port," || true)
    if [[ -n $new_sn && $new_sn != "$old_sn" && $(live_servers | grep -c "^localhost,$rs1_port,") -eq 1 ]]; then
      break
    fi
    sleep 1
  done
  [ -n "$new_sn" ]
  [ "$new_sn" != "$old_sn" ]
  [ "$(live_servers | grep -c '^localhost,')" -eq 3 ]
  # kill and restart kept the RegionServer's pmem folder and what was in it.
  [ -f "$pmem/rs1/memstore.pmem" ]

  # pause stops the JVM (state T) until resume; each refuses the other's state.
  local rs2_pid
  rs2_pid=$(cat "$CLUSTER/rs2/pid")
  run "$HARNESS" cluster pause rs2
  [ "$status" -eq 0 ]
  [[ $output == *"paused rs2 (pid $rs2_pid) with SIGSTOP"* ]]
  [[ $(sed -E 's/^[0-9]+ \(.*\) ([A-Za-z]).*/\1/' "/proc/$rs2_pid/stat") == T ]]
  run "$HARNESS" cluster status
  grep -qE '^rs2 +paused ' <<<"$output"
  run "$HARNESS" cluster pause rs2
  one_error_line
  [[ $output == *"rs2 (pid $rs2_pid) is paused already"* ]]
  run "$HARNESS" cluster resume rs2
  [ "$status" -eq 0 ]
  [[ $output == *"resumed rs2 (pid $rs2_pid) with SIGCONT"* ]]
  [[ $(sed -E 's/^[0-9]+ \(.*\) ([A-Za-z]).*/\1/' "/proc/$rs2_pid/stat") != T ]]
  run "$HARNESS" cluster resume rs2
  one_error_line
  [[ $output == *"rs2 (pid $rs2_pid) is not paused"* ]]
  run "$HARNESS" cluster pause rs9
  one_error_line
  run "$HARNESS" cluster pause
  [ "$status" -eq 2 ]
  one_error_line
  # A paused role does not hold up the stop below: it gets SIGCONT after SIGTERM.
  local rs3_pid
  rs3_pid=$(cat "$CLUSTER/rs3/pid")
  run "$HARNESS" cluster pause rs3
  [ "$status" -eq 0 ]

  run "$HARNESS" cluster stop --keep-pmem
  [ "$status" -eq 0 ]
  [[ $output == *"no process of $CLUSTER is left"* ]]
  [[ $output == *"kept the RegionServers' pmem folders in $pmem"* ]]
  [[ $output != *"SIGKILL to pid"*" $rs3_pid "* ]]
  [ -f "$pmem/rs1/memstore.pmem" ]
  [ -z "$(cluster_pids)" ]
  run "$HARNESS" cluster stop
  [ "$status" -eq 0 ]
  [[ $output == *"removed the RegionServers' pmem folders in $pmem"* ]]
  [ ! -e "$pmem" ]
  [ -z "$(ls "$CLUSTER"/*/pid 2>/dev/null)" ]
  run "$HARNESS" cluster status
  [ "$status" -eq 3 ]
  [ "$(grep -cE ' +down ' <<<"$output")" -eq 9 ]
}
