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
# started; it runs once, first), RUN_FAILURE (run_fail's message),
# RUN_PROGRESS (how far it got, said in INCOMPLETE) and RUN_DONE.

# run_begin KIND WHAT STOP: makes $WORK/KIND/STAMP with logs/ and an
# INCOMPLETE file, sets RUN_DIR, and sets the traps: on any exit before
# run_finish, STOP runs and INCOMPLETE says why.
run_begin() {
  local dir
  dir=$WORK/$1/$(date +%Y%m%d-%H%M%S)
  [[ ! -e $dir ]] || dir=$dir-$$
  mkdir -p "$dir/logs"
  printf 'This run has not finished (or was stopped before it did).\n' >"$dir/INCOMPLETE"
  RUN_DIR=$dir
  RUN_WHAT=$2
  RUN_STOP=$3
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

# run_end WHY: runs once, from the traps or run_finish: RUN_STOP, then, for a
# run that did not finish, INCOMPLETE says WHY and what is in the folder.
run_end() {
  local why=$1
  [[ ${RUN_ENDED:-1} -eq 0 ]] || return 0
  RUN_ENDED=1
  trap - EXIT INT TERM HUP
  [[ -z ${RUN_STOP:-} ]] || "$RUN_STOP"
  [[ -n ${RUN_DIR:-} && -d $RUN_DIR ]] || return 0
  [[ $RUN_DONE -ne 1 ]] || return 0
  {
    printf 'This run did not finish: it %s%s.\n' "$why" "${RUN_PROGRESS:+ $RUN_PROGRESS}"
    [[ -z $RUN_FAILURE ]] || printf '%s\n' "$RUN_FAILURE"
    printf 'results.csv.partial holds what it measured before; logs/ the output of what it ran.\n'
  } >"$RUN_DIR/INCOMPLETE"
  info "$RUN_WHAT: run $why; marked $RUN_DIR/INCOMPLETE"
}

# run_machine: the machine a run was measured on, for run.txt.
run_machine() {
  printf '%s cores, %s, load average %s' "$(nproc)" \
    "$(awk '/MemTotal/ { printf "%.0f GiB RAM", $2 / 1048576 }' /proc/meminfo)" \
    "$(cut -d' ' -f1-3 /proc/loadavg)"
}
