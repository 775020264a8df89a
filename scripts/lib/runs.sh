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
# runs.sh owns the run folders of the commands that measure or test
# (bench wal, bench recovery, crash): one way to make one, to say why it did
# not finish, and to finish it.
#
# A run folder is $WORK/KIND/STAMP. While the run goes on it holds a file
# INCOMPLETE, and its results grow in results.csv.partial. run_finish renames
# that to results.csv and removes INCOMPLETE, last; a run stopped before (a
# failure, Ctrl-C, a signal) gets an INCOMPLETE that says why, and its
# results.csv.partial stays as it is. So a folder without INCOMPLETE is a
# whole run, and nothing half-done looks finished.
#
# Globals it owns: RUN_DIR (the run folder), and for the traps RUN_WHAT (the
# command's name in messages), RUN_STOP (a function that stops what the run
# started; it runs once, after INCOMPLETE is written), RUN_HINT (what
# INCOMPLETE says the folder holds), RUN_FAILURE (run_fail's message),
# RUN_PROGRESS (how far it got, said in INCOMPLETE) and RUN_DONE.

# run_begin KIND WHAT STOP [HINT]: makes $WORK/KIND/STAMP with logs/ and an
# INCOMPLETE file, sets RUN_DIR, and sets the traps: on any exit before
# run_finish, INCOMPLETE says why (and HINT, what the folder holds), then
# STOP runs.
run_begin() {
  local dir
  dir=$WORK/$1/$(date +%Y%m%d-%H%M%S)
  [[ ! -e $dir ]] || dir=$dir-$$
  mkdir -p "$dir/logs"
  printf 'This run has not finished (or was stopped before it did).\n' >"$dir/INCOMPLETE"
  RUN_DIR=$dir
  RUN_WHAT=$2
  RUN_STOP=$3
  RUN_HINT=${4:-results.csv.partial holds what it measured before; logs/ the output of what it ran.}
  RUN_FAILURE=""
  RUN_PROGRESS=""
  RUN_DONE=0
  RUN_ENDED=0
  trap 'run_end "failed (exit status $?)"' EXIT
  trap 'run_end "was interrupted"; exit 130' INT
  trap 'run_end "was terminated"; exit 143' TERM HUP
}

# run_fail MESSAGE: dies with one line, which INCOMPLETE repeats.
run_fail() {
  RUN_FAILURE=$1
  die "$1"
}

# run_finish: the run is whole: results.csv.partial becomes results.csv, then
# INCOMPLETE goes, then what the run started is stopped.
run_finish() {
  if [[ -f $RUN_DIR/results.csv.partial ]]; then
    mv "$RUN_DIR/results.csv.partial" "$RUN_DIR/results.csv"
  fi
  printf 'finished: %s\n' "$(date '+%Y-%m-%d %H:%M:%S')" >>"$RUN_DIR/run.txt"
  RUN_DONE=1
  rm -f "$RUN_DIR/INCOMPLETE"
  run_end "done"
}

# run_end WHY: runs once, from the traps or run_finish. For a run that did
# not finish, INCOMPLETE says WHY first; then RUN_STOP stops what the run
# started, with Ctrl-C ignored meanwhile, so that a second one does not leave
# a cluster behind. A stop that fails is said, and does not hide the reason.
run_end() {
  local why=$1
  [[ ${RUN_ENDED:-1} -eq 0 ]] || return 0
  RUN_ENDED=1
  trap - EXIT TERM HUP
  trap '' INT
  if [[ -n ${RUN_DIR:-} && -d $RUN_DIR && $RUN_DONE -ne 1 ]]; then
    {
      printf 'This run did not finish: it %s%s.\n' "$why" "${RUN_PROGRESS:+ $RUN_PROGRESS}"
      [[ -z $RUN_FAILURE ]] || printf '%s\n' "$RUN_FAILURE"
      printf '%s\n' "$RUN_HINT"
    } >"$RUN_DIR/INCOMPLETE"
    info "$RUN_WHAT: run $why; marked $RUN_DIR/INCOMPLETE"
  fi
  if [[ -n ${RUN_STOP:-} ]]; then
    "$RUN_STOP" || info "$RUN_WHAT: stopping what the run started failed; see $RUN_DIR/logs"
  fi
  trap - INT
}

# run_machine: the machine a run was measured on, for run.txt.
run_machine() {
  printf '%s cores, %s, load average %s' "$(nproc)" \
    "$(awk '/MemTotal/ { printf "%.0f GiB RAM", $2 / 1048576 }' /proc/meminfo)" \
    "$(cut -d' ' -f1-3 /proc/loadavg)"
}
