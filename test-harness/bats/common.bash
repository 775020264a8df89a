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
# Shared by the bats files: a harness with a work folder and an empty series
# of the test's own, so that no test touches the real work/ or patches/.

harness_sandbox() {
  # shellcheck disable=SC2034 # used by the .bats files that load this one
  HARNESS="$BATS_TEST_DIRNAME/../../scripts/harness"
  export HARNESS_WORK="$BATS_TEST_TMPDIR/work"
  export HARNESS_PATCHES="$BATS_TEST_TMPDIR/patches"
  mkdir -p "$HARNESS_PATCHES"
  printf '# empty series\n' >"$HARNESS_PATCHES/series"
}

# one_error_line: the command failed, and said why in one line, its last.
# shellcheck disable=SC2154 # status, output and lines are set by bats' run
one_error_line() {
  [ "$status" -ne 0 ]
  [ "$(printf '%s\n' "$output" | grep -c -E '^harness: (error|usage error): ')" -eq 1 ]
  [[ ${lines[-1]} == harness:\ error:\ * || ${lines[-1]} == harness:\ usage\ error:\ * ]]
}

# cluster_pids: live (not zombie) processes that carry the marker of the
# cluster folder $CLUSTER.
cluster_pids() {
  local f cmd st
  for f in /proc/[0-9]*/cmdline; do
    cmd=$(tr '\0' ' ' <"$f" 2>/dev/null) || continue
    if [[ $cmd == *"-Dharness.cluster.role="*"@$CLUSTER "* ]]; then
      st=$(sed -E 's/^[0-9]+ \(.*\) ([A-Za-z]).*/\1/' "${f%/cmdline}/stat" 2>/dev/null) || continue
      [[ $st == Z ]] || echo "${f//[!0-9]/}"
    fi
  done
}

# cluster_file_env PORT_BASE: for a file whose tests start clusters, a work
# folder and ports of the file's own, away from a cluster the developer may
# be running (setup_file).
cluster_file_env() {
  export HARNESS_WORK="$BATS_FILE_TMPDIR/work"
  export HARNESS_CLUSTER_PORT_BASE=$1
}

# cluster_test_env: HARNESS and CLUSTER (read by cluster_pids) for a test.
# shellcheck disable=SC2034 # HARNESS is read by the tests
cluster_test_env() {
  HARNESS="$BATS_TEST_DIRNAME/../../scripts/harness"
  CLUSTER="$HARNESS_WORK/cluster"
}

# stop_file_cluster: whatever a failed test left running (teardown_file).
stop_file_cluster() {
  "$BATS_TEST_DIRNAME/../../scripts/harness" cluster stop >/dev/null 2>&1 || true
}
