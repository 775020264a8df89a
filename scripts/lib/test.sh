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
# test.sh owns 'scripts/harness test': which tests run (the series' own
# test classes, the stock list in test-harness/stock-tests.txt, the
# harness's JUnit tests, its bats tests and shellcheck over every shell
# file), each hbase-server class in a JVM of its own as upstream runs them,
# and the one-line summaries of their results.
#
# Global it owns: TEST_FORKS (how many test JVMs run at a time).

test_usage() {
  cat <<'USAGE'
usage: scripts/harness test [--quick] [--tests CLASS[,CLASS...]]
Runs the series' test classes, the stock HBase classes of
test-harness/stock-tests.txt (--quick: those marked quick), the JUnit tests of
test-harness/, its bats tests and shellcheck. --tests runs exactly the named
classes (stock, the series' or the harness's; Class#method as in Surefire).
A stock class that fails is rerun once and, if it then passes, named flaky.
HARNESS_TEST_FORKS (1 to 8, default 2) test JVMs run at a time.
USAGE
}

# check_test_forks: sets TEST_FORKS from HARNESS_TEST_FORKS (1 to 8), or
# stops with a usage error. Two at a time by default: most of a mini cluster
# test's time is spent waiting, and upstream runs its medium and large tests
# two at a time too.
check_test_forks() {
  TEST_FORKS=${HARNESS_TEST_FORKS:-2}
  [[ $TEST_FORKS =~ ^[1-8]$ ]] || usage_error "HARNESS_TEST_FORKS must be a whole number from 1 to 8, not '$TEST_FORKS'"
}

# stock_tests [--quick]: the stock HBase test classes of the list kept in
# test-harness/stock-tests.txt (a 'quick' word marks the quick subset).
stock_tests() {
  local quick=$1
  # A '#' starts a comment at the start of a line or after a blank; Class#method is a name.
  sed -e 's/^#.*$//' -e 's/[[:space:]]#.*$//' "$HARNESS_ROOT/test-harness/stock-tests.txt" | awk -v q="$quick" '
    NF == 0 { next }
    q == 1 && $2 != "quick" { next }
    { print $1 }'
}

# patch_tests: the test classes the series adds or changes.
patch_tests() {
  tgit diff --name-only --diff-filter=AM "$BASELINE_TAG" HEAD -- '*/src/test/java/*' |
    sed -n -E 's#.*/(Test[A-Za-z0-9_]*)\.java$#\1#p' | sort -u
}

# find_test_class NAME: "tree MODULE" or "harness" for where NAME lives.
find_test_class() {
  local name=${1%%#*} f
  f=$(cd "$TREE" && find . -path '*/src/test/java/*' -name "$name.java" -print -quit)
  if [[ -n $f ]]; then
    f=${f#./}
    printf 'tree %s' "${f%%/*}"
    return 0
  fi
  if [[ -n $(find "$HARNESS_ROOT/test-harness/src/test/java" -name "$name.java" -print -quit 2>/dev/null) ]]; then
    printf 'harness'
    return 0
  fi
  return 1
}

# flaky_tests LOG: the tests Surefire lists under "Flakes:", one per line.
flaky_tests() {
  awk '/^\[WARNING\] Flakes:/ { on = 1; next }
    on && /^\[WARNING\] [A-Za-z0-9_.$]+\.[A-Za-z0-9_]+/ { print $2; next }
    on && /^\[(INFO|ERROR)\]   Run [0-9]+:/ { next }
    on { on = 0 }' "$1"
}

# surefire_summary LOG: Surefire's per-class and total lines.
surefire_summary() {
  grep -E 'Tests run: [0-9]+|Flakes|FAIL|Tests in error|Failed tests|^\[ERROR\]   [A-Za-z]|There are test failures|Crashed tests|ExecutionException|timeout' "$1" |
    grep -v -E '^\[ERROR\] (To see|Re-run|-> \[Help|For more|$)|Please refer to' || true
}

# run_tree_tests [--rerun N] MODULE CLASSES...: runs these classes of MODULE's test
# tree. With --rerun, a failed test is run up to N more times, and one that then passes
# is reported as flaky by Surefire and by the line this prints.
run_tree_tests() {
  local rerun=0
  if [[ $1 == --rerun ]]; then
    rerun=$2
    shift 2
  fi
  local module=$1
  shift
  local log
  log=$LOGS/test-$module-$(date +%Y%m%d-%H%M%S)-$$-$RANDOM.log
  info "test: $module: $# classes, each in its own JVM, $TEST_FORKS at a time (log: $log)"
  local rc=0
  mvn_run "$log" -f "$WORK/build/$module/pom.xml" surefire:test -Dtest="$(
    IFS=,
    echo "$*"
  )" -Dsurefire.failIfNoSpecifiedTests=false -Dsurefire.rerunFailingTestsCount="$rerun" \
    -Dharness.test.forks="$TEST_FORKS" || rc=$?
  surefire_summary "$log"
  local flaky
  flaky=$(flaky_tests "$log")
  if [[ -n $flaky ]]; then
    info "test: $module: flaky (failed, then passed on a rerun): $(paste -sd' ' <<<"$flaky")"
  fi
  if [[ $rc -ne 0 ]] && ! grep -q 'Tests run:' "$log"; then
    info "test: $module: ${MVN_FAILURE:-Maven failed}"
  fi
  return "$rc"
}

run_harness_tests() {
  local log
  log=$LOGS/test-harness-$(date +%Y%m%d-%H%M%S).log
  info "test: test-harness: ${*:-all classes} (log: $log)"
  local rc=0 args=()
  if [[ $# -gt 0 ]]; then
    args=("-Dtest=$(
      IFS=,
      echo "$*"
    )")
  fi
  mvn_run "$log" -f "$HARNESS_ROOT/test-harness/pom.xml" test \
    -Dhbase.patched.version="$(patched_version)" -Dhbase.stock.version="$(stock_version)" \
    -Dsurefire.failIfNoSpecifiedTests=false "${args[@]}" || rc=$?
  surefire_summary "$log"
  if [[ $rc -ne 0 ]] && ! grep -q 'Tests run:' "$log"; then
    info "test: test-harness: ${MVN_FAILURE:-Maven failed}"
  fi
  return "$rc"
}

run_bats() {
  command -v bats >/dev/null 2>&1 || die "bats is not installed (Debian: apt-get install bats)"
  info "test: bats test-harness/bats"
  # --timing: each line says how long its test took, so that a slow one shows in CI.
  bats --tap --timing "$HARNESS_ROOT/test-harness/bats"
}

# shell_files: every shell file the repository ships, one per line.
shell_files() {
  local f
  for f in "$HARNESS_ROOT/scripts/harness" "$HARNESS_ROOT"/scripts/lib/*.sh "$HARNESS_ROOT/ci/run" \
    "$HARNESS_ROOT/.ci/run" "$HARNESS_ROOT"/test-harness/bats/*.bats "$HARNESS_ROOT"/test-harness/bats/*.bash; do
    printf '%s\n' "$f"
  done
}

# run_shellcheck: shellcheck over every shell file, each as its own input.
run_shellcheck() {
  command -v shellcheck >/dev/null 2>&1 || die "shellcheck is not installed (Debian: apt-get install shellcheck)"
  info "test: shellcheck"
  local -a files=()
  mapfile -t files < <(shell_files)
  # Called as 'run_shellcheck || failed=1', where errexit does not stop at a finding.
  if ! shellcheck -x -P SCRIPTDIR "${files[@]}"; then
    echo "shellcheck: findings above, in ${#files[@]} files" >&2
    return 1
  fi
  echo "shellcheck: clean (${#files[@]} files)"
}

cmd_test() {
  local quick=0 only="" name
  local -a names=()
  while [[ $# -gt 0 ]]; do
    case $1 in
      --quick)
        quick=1
        shift
        ;;
      --tests)
        need_value "test: --tests" $#
        [[ -n $2 ]] || usage_error "test: --tests needs CLASS[,CLASS...]"
        only=$2
        shift 2
        ;;
      -h | --help)
        test_usage
        return 0
        ;;
      *) usage_error "test: unknown argument '$1'" ;;
    esac
  done
  check_test_forks
  if [[ -n $only ]]; then
    [[ $only != ,* && $only != *, && $only != *,,* ]] || usage_error "test: --tests '$only' has an empty entry"
    IFS=, read -r -a names <<<"$only"
    for name in "${names[@]}"; do
      [[ $name =~ ^[A-Za-z_][A-Za-z0-9_]*(#[A-Za-z0-9_*!+]+)?$ ]] || usage_error "test: '$name' is not a test class name"
    done
  fi
  require_applied
  local -A by_module=() stock_by_module=()
  local -a harness=()
  local failed=0 t0 module
  t0=$(now_s)
  if [[ -n $only ]]; then
    test_plan_named by_module harness "${names[@]}"
  else
    test_plan_all by_module stock_by_module "$quick"
  fi
  cmd_build
  if [[ -z $only && -f $STATE/review-unit && $(cat "$STATE/review-unit") == "$(review_unit_stamp)" ]]; then
    # 'scripts/harness all' ran them on this very build: running them again proves nothing new.
    info "test: the series' test classes passed in the review of this build (review/unit.txt); not run again"
    by_module=()
  fi
  for module in "${!by_module[@]}"; do
    # shellcheck disable=SC2086
    run_tree_tests "$module" ${by_module[$module]} || failed=1
  done
  for module in "${!stock_by_module[@]}"; do
    # shellcheck disable=SC2086
    run_tree_tests --rerun 1 "$module" ${stock_by_module[$module]} || failed=1
  done
  if [[ -z $only ]]; then
    run_harness_tests || failed=1
    run_shellcheck || failed=1
    run_bats || failed=1
  elif [[ ${#harness[@]} -gt 0 ]]; then
    run_harness_tests "${harness[@]}" || failed=1
  fi
  if [[ $failed -ne 0 ]]; then
    die "test: FAILED after $(fmt_duration $(($(now_s) - t0)))"
  fi
  info "test: all passed in $(fmt_duration $(($(now_s) - t0)))"
}

# test_plan_named BY_MODULE HARNESS NAME...: where each named class is: the
# associative array BY_MODULE gets the work tree's, per module; the array
# HARNESS the harness's.
test_plan_named() {
  local -n tpn_mod=$1 tpn_harness=$2
  local cls where
  shift 2
  for cls in "$@"; do
    where=$(find_test_class "$cls") || die "no test class named ${cls%%#*} in the work tree or test-harness/"
    if [[ $where == harness ]]; then
      tpn_harness+=("$cls")
    else
      tpn_mod[${where#tree }]+="$cls "
    fi
  done
}

# test_plan_all BY_MODULE STOCK_BY_MODULE QUICK: the series' own tests run
# once. Stock tests get one rerun, because some race on stock code:
# TestLogRolling#testLogRolling reads the rolled WAL size while the
# asynchronous archiver may not have subtracted it yet. A rerun that passes
# is reported as flaky, so it stays visible.
test_plan_all() {
  local -n tpa_mod=$1 tpa_stock=$2
  local quick=$3 cls where
  local -a series=() list=()
  mapfile -t series < <(patch_tests)
  for cls in "${series[@]}"; do
    where=$(find_test_class "$cls") || die "test class ${cls%%#*} of the series is not in the work tree"
    tpa_mod[${where#tree }]+="$cls "
  done
  # Stock classes the series also changes run once, with the series' tests.
  mapfile -t list < <(stock_tests "$quick" |
    awk 'NR == FNR { s[$0]; next } !($0 in s)' <(printf '%s\n' "${series[@]}") -)
  for cls in "${list[@]}"; do
    where=$(find_test_class "$cls") || die "test class ${cls%%#*} (test-harness/stock-tests.txt) is not in the work tree"
    tpa_stock[${where#tree }]+="$cls "
  done
}
