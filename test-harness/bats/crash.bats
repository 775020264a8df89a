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
# scripts/harness crash: bad input in seconds, before any cluster starts;
# then the crash test itself, small, on a cluster of its own (folder and
# ports): with the patched build's persistent-memory option and SKIP_WAL puts
# when the build has it, otherwise with SYNC_WAL and no pmem (the WAL brings
# every row back, which checks the test itself). About 3 minutes. Then, with
# the option, SYNC_WAL and a RegionServer lost for good after one restart
# (--mode rs-lost), about 3 minutes more. Then, with synchronous region
# replication, 3 replicas, a RegionServer of secondaries killed under load,
# then the RegionServer of every primary paused (SIGSTOP) until a secondary
# of each took over, then resumed, then the RegionServer of every primary lost
# for good, each under load (--replicas 3 --pause-primaries --lose-host), about
# 6 minutes more.
# HARNESS_BATS_CRASH_LOSS=1 also runs SKIP_WAL without pmem, which must lose
# rows and fail (about 1.5 minutes more).

load common

setup_file() {
  cluster_file_env "${BATS_CRASH_PORT_BASE:-17400}"
}

setup() {
  cluster_test_env
  RUNS="$HARNESS_WORK/crash"
}

teardown_file() {
  stop_file_cluster
}

# patched_jar: the patched hbase-server jar, if 'scripts/harness build' installed it.
patched_jar() {
  local repo=${HARNESS_M2_REPO:-$HOME/.m2/repository} v=2.6.4-hadoop3-patched
  printf '%s/org/apache/hbase/hbase-server/%s/hbase-server-%s.jar' "$repo" "$v" "$v"
}

has_pmem() {
  [ -f "$(patched_jar)" ] || return 1
  { unzip -p "$(patched_jar)" 2>/dev/null || true; } | grep -aqF hbase.regionserver.memstore.pmem.path
}

@test "crash: bad options are usage errors, before anything starts" {
  local bad
  for bad in "--mode all" "--rows 0" "--rows x" "--regions 0" "--regionservers 21" "--threads" \
    "--durability NEVER" "--build nightly" "--timeout 1" "--conf novalue" "--frobnicate" \
    "--replicas 2" "--replicas 11" "--replicas 3 --regionservers 3" "--replicas 3 --mode rs" \
    "--mode secondary" "--down 5" "--replicas 3 --down 0" "--replicas 3 --build stock" \
    "--lose-host" "--mode rs-lost --lose-host" "--pause-primaries" "--replicas 3 --mode cluster --lose-host" \
    "--replicas 3 --mode cluster --pause-primaries" "--replicas 3 --mode cluster --down 5"; do
    # shellcheck disable=SC2086
    run "$HARNESS" crash $bad
    [ "$status" -eq 2 ]
    one_error_line
  done
  run "$HARNESS" crash --mode all
  [[ $output == *"--mode must be one of rs, cluster, both, rs-lost, secondary, not 'all'"* ]]
  run "$HARNESS" crash --replicas 3 --regionservers 3
  [[ $output == *"--replicas 3 needs at least 4 RegionServers (one more than replicas), not --regionservers 3"* ]]
  run "$HARNESS" crash --replicas 3 --build stock
  [[ $output == *"--replicas needs the patched build"* ]]
  run "$HARNESS" crash --lose-host
  [[ $output == *"--lose-host goes with --replicas N (3 or more)"* ]]
  run "$HARNESS" crash --pause-primaries
  [[ $output == *"--pause-primaries goes with --replicas N (3 or more)"* ]]
  run "$HARNESS" crash --pmem ""
  [ "$status" -eq 2 ]
  one_error_line
  # What 'cluster start' would refuse is refused before the run folder.
  run "$HARNESS" crash --conf hbase.regionserver.memstore.pmem.path=/tmp/x
  [ "$status" -eq 2 ]
  [[ $output == *"use --pmem [DIR]"* ]]
  run "$HARNESS" crash --conf hbase.regionserver.memstore.pmem.size=abc
  [ "$status" -eq 2 ]
  one_error_line
  [[ $output == *"pmem.size must be a size"*"not 'abc'"* ]]
  run "$HARNESS" crash --help
  [ "$status" -eq 0 ]
  [[ $output == *"usage: scripts/harness crash"* ]]
  [ ! -e "$RUNS" ]
  [ -z "$(cluster_pids)" ]
}

@test "crash: pmem on a build without the option is refused up front" {
  run "$HARNESS" crash --build stock
  one_error_line
  [[ $output == *"the stock build has no persistent-memory option (hbase.regionserver.memstore.pmem.path is in none of its classes)"*"--no-pmem"* ]]
  run "$HARNESS" crash --build stock --pmem "$BATS_TEST_TMPDIR/pm"
  one_error_line
  [ ! -e "$BATS_TEST_TMPDIR/pm" ]
  [ ! -e "$RUNS" ]
  [ -z "$(cluster_pids)" ]
}

@test "crash: kill -9 of a RegionServer, then of every role: every acknowledged row reads back" {
  local -a args=(--rows 5000 --regions 6 --threads 4 --timeout 300)
  # /dev/shm stands in for persistent memory; where it is small (a container's 64 MiB, for
  # one), the chunk files go to a disk folder, which only makes the forces slower.
  local shm_free pmem_dir=""
  shm_free=$(df -Pk /dev/shm 2>/dev/null | awk 'NR == 2 { print $4 }')
  if [ "${shm_free:-0}" -lt $((4 << 20)) ]; then
    pmem_dir=$BATS_TEST_TMPDIR/pmem
  fi
  if has_pmem; then
    args+=(--build patched --pmem ${pmem_dir:+"$pmem_dir"} --durability SKIP_WAL)
  elif [ -f "$(patched_jar)" ]; then
    args+=(--build patched --no-pmem --durability SYNC_WAL)
  else
    args+=(--build stock --no-pmem --durability SYNC_WAL)
  fi
  run "$HARNESS" crash "${args[@]}"
  printf '%s\n' "$output" | tail -n 12 | sed 's/^/# /' >&3
  [ "$status" -eq 0 ]
  [[ $output == *"result: PASS"* ]]
  local run
  run=$(find "$RUNS" -mindepth 1 -maxdepth 1 -type d | sort | tail -n 1)
  [ ! -e "$run/INCOMPLETE" ]
  [ -s "$run/summary.txt" ]
  # Two phases, nothing lost, every acknowledged row read back.
  [ "$(wc -l <"$run/results.csv")" -eq 3 ]
  awk -F, 'NR > 1 && ($5 != 0 || $6 != 0 || $3 != $4) { exit 1 }' "$run/results.csv"
  grep -q '^rs,rs[0-9],5000,5000,0,0,' "$run/results.csv"
  grep -q '^cluster,all roles,10000,10000,0,0,' "$run/results.csv"
  [ "$(wc -l <"$run/acked-rs.txt")" -eq 5000 ]
  # The cluster is stopped, its pmem folders removed.
  [ -z "$(cluster_pids)" ]
  [ ! -e "/dev/shm/hbase-harness-pmem-$(id -u)-$HARNESS_CLUSTER_PORT_BASE" ]
  [ -z "$pmem_dir" ] || [ ! -e "$pmem_dir/rs1" ]
}

@test "crash: SYNC_WAL with pmem, the RegionServer killed, back, killed again and gone: nothing lost" {
  has_pmem || skip "the installed patched build has no persistent-memory option"
  local shm_free pmem_dir=""
  shm_free=$(df -Pk /dev/shm 2>/dev/null | awk 'NR == 2 { print $4 }')
  if [ "${shm_free:-0}" -lt $((4 << 20)) ]; then
    pmem_dir=$BATS_TEST_TMPDIR/pmem
  fi
  run "$HARNESS" crash --mode rs-lost --rows 3000 --regions 4 --regionservers 2 --threads 4 \
    --timeout 300 --build patched --pmem ${pmem_dir:+"$pmem_dir"} --durability SYNC_WAL
  printf '%s\n' "$output" | tail -n 11 | sed 's/^/# /' >&3
  [ "$status" -eq 0 ]
  [[ $output == *"result: PASS"* ]]
  local run
  run=$(find "$RUNS" -mindepth 1 -maxdepth 1 -type d | sort | tail -n 1)
  [ "$(wc -l <"$run/results.csv")" -eq 3 ]
  grep -q '^rs,rs[0-9],3000,3000,0,0,' "$run/results.csv"
  grep -q '^lost,rs[0-9],6000,6000,0,0,' "$run/results.csv"
  # The master held the regions for the dead RegionServer, for 45 s, then
  # opened them elsewhere; it never restarted.
  grep -qF '<name>hbase.master.memstore.pmem.host.wait.ms</name><value>45000</value>' \
    "$run/cluster/master/conf/hbase-site.xml"
  grep -q 'waited [0-9]* ms for .*, which did not come back' "$run"/cluster/master/logs/*.log
  [ -z "$(cluster_pids)" ]
}

has_sync_replication() {
  [ -f "$(patched_jar)" ] || return 1
  { unzip -p "$(patched_jar)" 2>/dev/null || true; } | grep -aqF SYNCHRONOUS_REGION_REPLICATION
}

@test "crash: 3 synchronous replicas; secondaries' server killed, primaries' server paused, then lost: nothing lost on any" {
  has_sync_replication || skip "the installed patched build has no synchronous region replication"
  local shm_free pmem_dir=""
  shm_free=$(df -Pk /dev/shm 2>/dev/null | awk 'NR == 2 { print $4 }')
  if [ "${shm_free:-0}" -lt $((4 << 20)) ]; then
    pmem_dir=$BATS_TEST_TMPDIR/pmem
  fi
  run "$HARNESS" crash --replicas 3 --pause-primaries --lose-host --rows 10000 --regions 4 --threads 4 --down 10 \
    --timeout 300 --pmem ${pmem_dir:+"$pmem_dir"} --durability SKIP_WAL
  printf '%s\n' "$output" | tail -n 27 | sed 's/^/# /' >&3
  [ "$status" -eq 0 ]
  [[ $output == *"result: PASS"* ]]
  local run
  run=$(find "$RUNS" -mindepth 1 -maxdepth 1 -type d | sort | tail -n 1)
  grep -q '^regionservers: 4$' "$run/run.txt"
  # Read from the in-sync secondaries while the RegionServer was down, then
  # from the primary and each secondary: every row, each time.
  # (paused reads replica 0 twice: before and after its old server is back).
  [ "$(wc -l <"$run/results.csv")" -eq 12 ]
  grep -q '^secondary,rs[0-9],in-sync,10000,[1-9][0-9]*,0,0,' "$run/results.csv"
  local r
  for r in 0 1 2; do
    grep -q "^secondary,rs[0-9],$r,10000,10000,0,0," "$run/results.csv"
  done
  # Writes went on without the killed RegionServer.
  awk -F, 'NR == 2 && $8 > 0 { ok = 1 } END { exit !ok }' "$run/results.csv"
  # The killed server held secondaries only, and they came back in sync.
  grep -q '^secondary: every secondary named in sync again' "$run/summary.txt"
  # Then the server of every primary was paused until a secondary of each
  # took over, and resumed: none of the writes queued at it was acknowledged
  # without being on the new primaries, and it aborted.
  for r in 0 1 2; do
    grep -q "^paused,rs[0-9],$r,20000,20000,0,0,[1-9]" "$run/results.csv"
  done
  grep -q '^paused: .*promoted a secondary: 4 of 4 regions' "$run/summary.txt"
  grep -q '^paused: the old primary exited: [0-9.]* s after the resume' "$run/summary.txt"
  # Then the server of every primary was lost, with its pmem folder: the rows
  # of every load read back from the primaries a secondary became, and from
  # each secondary once in sync again; writes went on after the kill.
  for r in 0 1 2; do
    grep -q "^host-lost,rs[0-9],$r,30000,30000,0,0,[1-9]" "$run/results.csv"
  done
  grep -q '^host-lost: .*promoted a secondary: 4 of 4 regions' "$run/summary.txt"
  # The master's log names the promotions after each of the two servers stopped.
  [ "$(grep -o ', whose server [^ ]* crashed, opens on [^ ]*, where its replica [12] is' "$run"/cluster/master/logs/master.log |
    sed 's/, opens on.*//' | sort -u | wc -l)" -eq 2 ]
  grep -q '^paused: batches of the old primary a secondary refused for their old epoch after the resume: [1-9]' "$run/summary.txt"
  grep -q '^host-lost: every secondary named in sync again' "$run/summary.txt"
  [ -z "$(cluster_pids)" ]
}

@test "crash: SKIP_WAL without pmem loses rows, and the test says so (HARNESS_BATS_CRASH_LOSS=1)" {
  [ "${HARNESS_BATS_CRASH_LOSS:-0}" = 1 ] || skip "set HARNESS_BATS_CRASH_LOSS=1 to run it"
  local build=stock
  [ ! -f "$(patched_jar)" ] || build=patched
  run "$HARNESS" crash --mode rs --rows 5000 --regions 6 --threads 4 --build "$build" --no-pmem --durability SKIP_WAL
  one_error_line
  [[ $output == *"result: FAIL"* ]]
  [[ ${lines[-1]} == *"acknowledged rows lost or wrong"* ]]
  local run
  run=$(find "$RUNS" -mindepth 1 -maxdepth 1 -type d | sort | tail -n 1)
  [ -s "$run/lost-rs.txt" ]
  [ -z "$(cluster_pids)" ]
}
