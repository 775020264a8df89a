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
# scripts/harness bench wal: bad input is refused in one line, before anything
# slow starts (no build, no Maven, no MiniDFSCluster), and the helpers that
# format progress and build the patched classpath.

load common

setup() {
  harness_sandbox
  # Were validation to come after the JDK check, it would fail on this instead.
  export JAVA_HOME="$BATS_TEST_TMPDIR/no-jdk"
}

# refused PATTERN: a usage error (status 2) in one line, its last, matching
# PATTERN, and nothing made in the work folder.
refused() {
  [ "$status" -eq 2 ]
  [ "$(printf '%s\n' "$output" | grep -c -E '^harness: (error|usage error): ')" -eq 1 ]
  [[ ${lines[-1]} == "harness: usage error: "* ]]
  [[ ${lines[-1]} == *"$1"* ]]
  [ ! -e "$HARNESS_WORK/bench" ]
  [ ! -e "$HARNESS_WORK/state" ]
}

@test "bench wal: a non-numeric thread list is refused" {
  run "$HARNESS" bench wal --threads 1,four,16
  refused "each must be a whole number from 1 to 100000, not 'four'"
  run "$HARNESS" bench wal --threads 1,-4
  refused "not '-4'"
  run "$HARNESS" bench wal --threads "1 4"
  refused "not '1 4'"
}

@test "bench wal: an empty thread list or an empty entry is refused" {
  run "$HARNESS" bench wal --threads ""
  refused "--threads must be a comma-separated list such as 1,4,16, not ''"
  run "$HARNESS" bench wal --threads 1,,16
  refused "must be a comma-separated list such as 1,4,16, not '1,,16'"
  run "$HARNESS" bench wal --threads 1,16,
  refused "not '1,16,'"
  run "$HARNESS" bench wal --threads ,
  refused "not ','"
}

@test "bench wal: fewer than one thread is refused" {
  run "$HARNESS" bench wal --threads 0
  refused "from 1 to 100000, not '0'"
  run "$HARNESS" bench wal --threads 4,000
  refused "from 1 to 100000, not '000'"
}

@test "bench wal: a thread count named twice is refused" {
  run "$HARNESS" bench wal --threads 4,16,04
  refused "names 4 twice"
}

@test "bench wal: fewer than one repetition is refused" {
  run "$HARNESS" bench wal --reps 0
  refused "--reps must be a whole number from 1 to 1000, not '0'"
  run "$HARNESS" bench wal --reps three
  refused "--reps must be a whole number from 1 to 1000, not 'three'"
  run "$HARNESS" bench wal --reps ""
  refused "--reps must be a whole number from 1 to 1000, not ''"
  run "$HARNESS" bench wal --reps 1001
  refused "--reps must be a whole number from 1 to 1000, not '1001'"
}

@test "bench wal: fewer edits than threads is refused" {
  run "$HARNESS" bench wal --threads 1,64 --edits 63
  refused "--edits 63 is fewer than 64 threads"
  run "$HARNESS" bench wal --edits 100
  refused "--edits 100 is fewer than 256 threads"
  run "$HARNESS" bench wal --edits 0
  refused "--edits must be a whole number from 1 to 1000000000, not '0'"
  run "$HARNESS" bench wal --edits 1e6
  refused "--edits must be a whole number from 1 to 1000000000, not '1e6'"
  run "$HARNESS" bench wal --edits 99999999999999999999
  refused "not '99999999999999999999'"
}

@test "bench wal: a warm-up of fewer edits than threads, or not a count, is refused" {
  run "$HARNESS" bench wal --threads 1,64 --warmup 63
  refused "--warmup 63 is fewer than 64 threads; every thread needs at least one edit (0: no warm-up)"
  run "$HARNESS" bench wal --warmup -1
  refused "--warmup must be a whole number from 0 to 1000000000, not '-1'"
  run "$HARNESS" bench wal --warmup lots
  refused "--warmup must be a whole number from 0 to 1000000000, not 'lots'"
  run "$HARNESS" bench wal --threads 4 --warmup
  refused "--warmup needs a value"
}

@test "bench wal: an unknown option, or an option without its value, is refused" {
  run "$HARNESS" bench wal --thread 4
  refused "unknown option '--thread'"
  run "$HARNESS" bench wal extra
  refused "unknown option 'extra'"
  run "$HARNESS" bench wal --reps
  refused "--reps needs a value"
  run "$HARNESS" bench wal --threads 4 --edits
  refused "--edits needs a value"
}

@test "bench wal: a bad HARNESS_BENCH_TIMEOUT is refused" {
  HARNESS_BENCH_TIMEOUT=soon run "$HARNESS" bench wal
  refused "HARNESS_BENCH_TIMEOUT must be a whole number from 1 to 86400, not 'soon'"
}

@test "bench wal: --help prints its usage" {
  run "$HARNESS" bench wal --help
  [ "$status" -eq 0 ]
  [[ ${lines[0]} == "usage: scripts/harness bench wal [--threads LIST] [--reps N] [--edits N] [--warmup N]" ]]
  [ ! -e "$HARNESS_WORK/bench" ]
}

# The helpers, sourced as scripts/harness sources them.
load_lib() {
  HARNESS_ROOT="$BATS_TEST_DIRNAME/../.."
  # shellcheck source=../../scripts/lib/common.sh
  source "$HARNESS_ROOT/scripts/lib/common.sh"
}

@test "bench wal: progress numbers are grouped by thousands" {
  load_lib
  [ "$(bench_wal_grouped 0)" = "0" ]
  [ "$(bench_wal_grouped 999.4)" = "999" ]
  [ "$(bench_wal_grouped 23456.7)" = "23,457" ]
  [ "$(bench_wal_grouped 1234567)" = "1,234,567" ]
}

@test "bench wal: the patched classpath is the stock one with the patched HBase jars swapped in" {
  load_lib
  local r=/m2/org/apache/hbase s=2.6.4-hadoop3 p=2.6.4-hadoop3-patched
  local stock="$r/hbase-server/$s/hbase-server-$s.jar:/m2/metrics-core-3.2.6.jar:$r/hbase-common/$s/hbase-common-$s.jar:$r/hbase-server/$s/hbase-server-$s-tests.jar"
  local patched="$r/hbase-server/$p/hbase-server-$p.jar:/m2/metrics-core-3.2.4.jar:$r/hbase-common/$s/hbase-common-$s.jar:$r/hbase-server/$p/hbase-server-$p-tests.jar:$r/hbase-foo/$p/hbase-foo-$p.jar"
  run classpath_swap "$stock" "$patched"
  [ "$status" -eq 0 ]
  [ "$output" = "$r/hbase-server/$p/hbase-server-$p.jar:/m2/metrics-core-3.2.6.jar:$r/hbase-common/$s/hbase-common-$s.jar:$r/hbase-server/$p/hbase-server-$p-tests.jar:$r/hbase-foo/$p/hbase-foo-$p.jar" ]
}

@test "bench wal: edits per measurement grow with the square root of the threads unless given" {
  load_lib
  [ "$(bench_wal_edits 0 1)" = "10000" ]
  [ "$(bench_wal_edits 0 2)" = "20000" ]
  [ "$(bench_wal_edits 0 4)" = "20000" ]
  [ "$(bench_wal_edits 0 8)" = "30000" ]
  [ "$(bench_wal_edits 0 16)" = "40000" ]
  [ "$(bench_wal_edits 0 64)" = "80000" ]
  [ "$(bench_wal_edits 0 256)" = "160000" ]
  [ "$(bench_wal_edits 5000 256)" = "5000" ]
}

@test "bench wal: the warm-up has as many edits as the measurement unless given, 0 for none" {
  load_lib
  [ "$(bench_wal_warmup_iterations -1 0 1)" = "10000" ]
  [ "$(bench_wal_warmup_iterations -1 0 256)" = "625" ]
  [ "$(bench_wal_warmup_iterations -1 5000 256)" = "19" ]
  [ "$(bench_wal_warmup_iterations 0 0 64)" = "0" ]
  [ "$(bench_wal_warmup_iterations 6400 0 64)" = "100" ]
  [ "$(bench_wal_warmup_iterations 6400 100000 64)" = "100" ]
}

@test "bench wal: a flight recording's CPU samples are summed per thread and per method" {
  load_lib
  local f="$BATS_TEST_TMPDIR/samples.txt" out
  sample() {
    printf 'jdk.ExecutionSample {\n  startTime = 23:49:13.375\n  sampledThread = "%s" (javaThreadId = 7)\n' "$1"
    printf '  state = "STATE_RUNNABLE"\n  stackTrace = [\n    %s line: 12\n    ...\n  ]\n}\n\n' "$2"
  }
  {
    sample "t1-writer" "a.B.c(int)"
    sample "t22-writer" "a.B.c(int)"
    sample "main.wal-writer" "a.D.e()"
    sample "t3-writer" "a.D.e()"
  } >"$f"
  out=$(bench_wal_profile_summary "T" <"$f")
  [[ $out == "# T: 4 CPU samples"* ]]
  grep -qx '  75.0%  tN-writer' <<<"$out"
  grep -qx '  25.0%  main.wal-writer' <<<"$out"
  grep -qx '  50.0%  a.B.c(int)' <<<"$out"
  grep -qx '  50.0%  a.D.e()' <<<"$out"
  run bench_wal_profile_summary "T" </dev/null
  [ "$status" -ne 0 ]
}

@test "bench wal: --profile takes no value" {
  run "$HARNESS" bench wal --profile 3
  refused "unknown option '3'"
}
