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
# scripts/harness bench write: bad input fails in one line and leaves no
# finished-looking result; a short run on the embedded mini cluster writes
# the CSV, the summary table and the chart, and reads back every sampled
# acknowledged row.

load common

setup_file() {
  export HARNESS_WORK="$BATS_FILE_TMPDIR/work"
}

setup() {
  HARNESS="$BATS_TEST_DIRNAME/../../scripts/harness"
  RUNS="$HARNESS_WORK/bench/write"
}

# no_finished_run: nothing in the runs folder looks like a finished run.
no_finished_run() {
  local d
  for d in "$RUNS"/*; do
    [[ -e $d ]] || continue
    [[ $d == *.failed ]] || return 1
  done
}

# site_xml FILE PORT: an hbase-site.xml whose ZooKeeper is 127.0.0.1:PORT.
site_xml() {
  cat >"$1" <<XML
<configuration>
  <property><name>hbase.zookeeper.quorum</name><value>127.0.0.1</value></property>
  <property><name>hbase.zookeeper.property.clientPort</name><value>$2</value></property>
</configuration>
XML
}

@test "bad options are usage errors and leave no run folder" {
  local bad
  for bad in "--value-size 0" "--threads 0" "--key-size x" "--durability SOMETIMES" \
    "--configs nope" "--configs stock,stock" "--regions 0" "--frobnicate 1" "--duration"; do
    # shellcheck disable=SC2086
    run "$HARNESS" bench write $bad
    [ "$status" -eq 2 ]
    one_error_line
  done
  run "$HARNESS" bench write --value-size 0
  [[ $output == *"--value-size must be a whole number from 1 to 67108864, not '0'"* ]]
  run "$HARNESS" bench write --configs nope
  [[ $output == *"unknown configuration 'nope' (known: default, stock, patched,"* ]]
  no_finished_run
}

@test "a bad number is refused before Maven or javac runs, on a fresh work folder" {
  local fresh=$BATS_TEST_TMPDIR/fresh
  HARNESS_WORK=$fresh run "$HARNESS" bench write --threads abc
  [ "$status" -eq 2 ]
  one_error_line
  [[ $output == *"bench write: --threads must be a whole number from 1 to 5000, not 'abc'"* ]]
  [ ! -e "$fresh/logs" ]
  [ ! -e "$fresh/classpath" ]
  [ ! -e "$fresh/classes" ]
  HARNESS_WORK=$fresh run "$HARNESS" bench write --rows 08x
  [ "$status" -eq 2 ]
  [[ $output == *"not '08x'"* ]]
  local bad
  for bad in "--configs nope" "--configs stock,stock" "--configs stock+nope" "--target $fresh/nothere.xml" \
    "--table a;b" "--durability SOMETIMES"; do
    # shellcheck disable=SC2086
    HARNESS_WORK=$fresh run "$HARNESS" bench write $bad
    [ "$status" -eq 2 ]
    one_error_line
  done
  [ ! -e "$fresh/logs" ]
  [ ! -e "$fresh/classpath" ]
}

@test "a target that is no file, or server settings on a given cluster, are refused up front" {
  run "$HARNESS" bench write --target "$BATS_TEST_TMPDIR/nothere.xml"
  one_error_line
  [[ $output == *"is neither embedded, cluster nor an hbase-site.xml file"* ]]
  site_xml "$BATS_TEST_TMPDIR/site.xml" 9
  run "$HARNESS" bench write --target "$BATS_TEST_TMPDIR/site.xml" --configs default,wal-fshlog
  one_error_line
  [[ $output == *"'wal-fshlog' needs server settings (hbase.wal.provider)"* ]]
  run "$HARNESS" bench write --target "$BATS_TEST_TMPDIR/site.xml" --configs patched
  one_error_line
  [[ $output == *"picks the patched build"* ]]
  # Only the local cluster's RegionServers are processes the benchmark can record.
  run "$HARNESS" bench write --profile --duration 5
  [ "$status" -eq 2 ]
  one_error_line
  [[ $output == *"--profile needs --target cluster"* ]]
  [ -z "$(ls "$RUNS" 2>/dev/null)" ]
}

@test "a persistent-memory configuration on a build without the option is refused up front" {
  run "$HARNESS" bench write --configs stock-sync-wal,pmem-skip-wal+stock --duration 5
  one_error_line
  [[ $output == *"configuration 'pmem-skip-wal+stock' needs the persistent-memory option (hbase.regionserver.memstore.pmem.path), which the stock build does not have"* ]]
  [ -z "$(ls "$RUNS" 2>/dev/null)" ]
  [ -z "$(ls -d /dev/shm/hbase-harness-pmem-*-embedded-* 2>/dev/null)" ]
}

@test "an unreachable cluster fails in one line, its run folder marked failed" {
  site_xml "$BATS_TEST_TMPDIR/site.xml" 9
  run "$HARNESS" bench write --target "$BATS_TEST_TMPDIR/site.xml" --duration 5
  one_error_line
  [[ $output == *"cannot reach the target cluster"*"ZooKeeper 127.0.0.1:9"* ]]
  no_finished_run
  [ ! -e "$RUNS/latest" ]
  local failed
  failed=$(ls -d "$RUNS"/*.failed)
  grep -q "cannot reach" "$failed/FAILED"
}

@test "a short embedded run writes the CSV, the table and the chart, and verifies every sampled row" {
  run "$HARNESS" bench write --duration 10 --threads 20 --configs stock --verify
  [ "$status" -eq 0 ]
  local d
  d=$(readlink -f "$RUNS/latest")
  [ -d "$d" ]
  [[ $d != *.partial && $d != *.failed ]]
  # The table on stdout and in summary.txt, with the read-back.
  [[ $output == *"| config | puts acked | errors | ops/s | p50 ms | p99 ms |"* ]]
  grep -qE '^\| stock \| [1-9][0-9]* \| 0 \| ' "$d/summary.txt"
  grep -qE '\| ([0-9]+) of \1 ok \|$' "$d/summary.txt"
  # Every second of the run in the CSV.
  [ "$(head -n 1 "$d/intervals.csv")" = "config,second,ops,errors,p50_ms,p99_ms,p999_ms,max_ms,client_cpu_pct,machine_cpu_pct" ]
  [ "$(grep -c '^stock,' "$d/intervals.csv")" -ge 10 ]
  [ -f "$d/events.csv" ]
  # A PNG.
  [ "$(head -c 4 "$d/latency.png" | od -An -c | tr -d ' ')" = "211PNG" ]
  # The embedded cluster's JVM is gone, and so is its data.
  [ -z "$(ls -d "$d"/embedded-* 2>/dev/null)" ]
  local f left=0
  for f in /proc/[0-9]*/cmdline; do
    if tr '\0' ' ' <"$f" 2>/dev/null | grep -qF "$RUNS/"; then left=1; fi
  done
  [ "$left" -eq 0 ]
  [ -s "$d/logs/embedded-stock.log" ]
}
