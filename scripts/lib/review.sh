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
# review.sh owns 'scripts/harness review': a precommit vote table in the
# shape Apache Yetus test-patch prints for HBase (patch applies, @author,
# whitespace, test4tests, compile, javac, checkstyle, unit, export
# round-trip), also written to work/review/vote.txt.
#
# Globals it owns, for one review: VOTE_ROWS and VOTE_FAILED.

VOTE_ROWS=()
VOTE_FAILED=0

# vote VOTE SUBSYSTEM SECONDS COMMENT
vote() {
  VOTE_ROWS+=("$(printf '| %4s | %15s | %9s | %s' "$1" "$2" "$(fmt_duration "$3")" "$4")")
  [[ $1 != -1 ]] || VOTE_FAILED=1
}

# series_diff ARGS...: the diff of the whole series against the baseline.
series_diff() {
  tgit diff "$BASELINE_TAG" HEAD "$@"
}

review_author() {
  local t0 n
  t0=$(now_s)
  n=$(series_diff | grep -c -E '^\+.*@author' || true)
  if [[ $n -eq 0 ]]; then
    vote +1 @author $(($(now_s) - t0)) "The series does not contain any @author tags."
  else
    vote -1 @author $(($(now_s) - t0)) "The series adds $n line(s) with @author tags."
  fi
}

review_whitespace() {
  local t0 out n
  t0=$(now_s)
  out=$(tgit diff --check "$BASELINE_TAG" HEAD 2>&1 | grep -E '^[^+-].*:[0-9]+: ' || true)
  n=$(printf '%s' "$out" | grep -c . || true)
  if [[ $n -eq 0 ]]; then
    vote +1 whitespace $(($(now_s) - t0)) "The series has no whitespace issues."
  else
    printf '%s\n' "$out" >"$WORK/review/whitespace.txt"
    vote -1 whitespace $(($(now_s) - t0)) "The series has $n line(s) with whitespace errors, e.g. $(printf '%s' "$out" | head -n 1 | cut -d: -f1,2); see review/whitespace.txt"
  fi
}

review_test4tests() {
  local t0 main tests
  t0=$(now_s)
  main=$(series_diff --name-only -- '*/src/main/*' | wc -l)
  tests=$(series_diff --name-only -- '*/src/test/java/*' | wc -l)
  if [[ $main -eq 0 ]]; then
    vote 0 test4tests $(($(now_s) - t0)) "The series changes no main code."
  elif [[ $tests -gt 0 ]]; then
    vote +1 test4tests $(($(now_s) - t0)) "The series appears to include $tests new or modified test files."
  else
    vote -1 test4tests $(($(now_s) - t0)) "The series changes $main main files and includes no new or modified tests."
  fi
}

review_compile() {
  local t0 log=$WORK/review/compile.txt
  t0=$(now_s)
  if (cmd_build) >"$log" 2>&1; then
    vote +1 compile $(($(now_s) - t0)) "$(module_build_order | paste -sd' ' -) compile, main and test, with --release 8."
    return 0
  fi
  vote -1 compile $(($(now_s) - t0)) "$(tail -n 1 "$log" | sed 's/^harness: error: //')"
  return 1
}

# normalize_warnings DIR: "module/path.java: message" lines, sorted, no line
# numbers, so that the same warning moved by an edit is not new.
normalize_warnings() {
  cat "$1"/*.warnings 2>/dev/null |
    sed -E -e 's#^\[WARNING\] .*/(hbase-[^/]+/src/)#\1#' -e 's#\.java:\[[0-9]+,[0-9]+\]#.java:#' | sort
}

# compare_findings SUBSYSTEM T0 NAME: votes on NAME-baseline.txt against
# NAME-patched.txt (sorted findings without line numbers) in work/review.
compare_findings() {
  local subsystem=$1 t0=$2 dir=$WORK/review/$3 new fixed total was
  comm -13 "$dir-baseline.txt" "$dir-patched.txt" >"$dir-new.txt"
  new=$(wc -l <"$dir-new.txt")
  fixed=$(comm -23 "$dir-baseline.txt" "$dir-patched.txt" | wc -l)
  total=$(wc -l <"$dir-patched.txt")
  was=$(wc -l <"$dir-baseline.txt")
  if [[ $new -eq 0 ]]; then
    vote +1 "$subsystem" $(($(now_s) - t0)) "The series generated 0 new + $total unchanged - $fixed fixed = $total total (was $was)."
  else
    vote -1 "$subsystem" $(($(now_s) - t0)) "The series generated $new new + $((total - new)) unchanged - $fixed fixed = $total total (was $was); see review/$3-new.txt"
  fi
}

review_javac() {
  local t0
  t0=$(now_s)
  if [[ $(tgit rev-parse HEAD) == "$(tgit rev-parse "$BASELINE_TAG")" ]]; then
    vote +1 javac $(($(now_s) - t0)) "The series is empty: no new javac warnings ($(warning_count "$STATE/javac") in the baseline)."
    return 0
  fi
  if ! baseline_build; then
    vote -1 javac $(($(now_s) - t0)) "the baseline did not compile: ${MVN_FAILURE:-see logs/build-baseline.log}"
    return 0
  fi
  normalize_warnings "$STATE/javac" >"$WORK/review/javac-patched.txt"
  normalize_warnings "$STATE/javac-baseline" >"$WORK/review/javac-baseline.txt"
  compare_findings javac "$t0" javac
}

# checkstyle_classpath: Checkstyle 8.29 (HBase's version), resolved once.
checkstyle_classpath() {
  local dir=$WORK/tools/checkstyle
  if [[ ! -s $dir/classpath.txt ]]; then
    mkdir -p "$dir"
    cat >"$dir/pom.xml" <<'POM'
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>org.apache.hbase.harness</groupId>
  <artifactId>checkstyle-runner</artifactId>
  <version>1</version>
  <dependencies>
    <dependency><groupId>com.puppycrawl.tools</groupId><artifactId>checkstyle</artifactId><version>8.29</version></dependency>
  </dependencies>
</project>
POM
    mvn_run "$LOGS/checkstyle-classpath.log" -f "$dir/pom.xml" \
      org.apache.maven.plugins:maven-dependency-plugin:3.8.1:build-classpath \
      -Dmdep.outputFile="$dir/classpath.txt" || return 1
  fi
  cat "$dir/classpath.txt"
}

# run_checkstyle ROOT FILES...: "path: message [Check]" lines, no line numbers.
run_checkstyle() {
  local root=$1 cp
  shift
  [[ $# -gt 0 ]] || return 0
  cp=$(checkstyle_classpath) || return 1
  # Checkstyle exits with the number of violations: its output is the result.
  (
    cd "$root" || exit 1
    java -cp "$cp" com.puppycrawl.tools.checkstyle.Main \
      -c "$HARNESS_ROOT/scripts/conf/checkstyle.xml" "$@" 2>&1
    true
  ) |
    sed -n -E "s#^\[(ERROR|WARN)\] (${root}/)?([^:]+\.java):[0-9]+(:[0-9]+)?: #\3: #p" | sort
}

review_checkstyle() {
  local t0 files=() base=() f tmp
  t0=$(now_s)
  mapfile -t files < <(series_diff --name-only --diff-filter=AM -- '*.java')
  if [[ ${#files[@]} -eq 0 ]]; then
    vote 0 checkstyle $(($(now_s) - t0)) "The series changes no Java files."
    return 0
  fi
  tmp=$WORK/review/checkstyle-baseline
  rm -rf "$tmp"
  for f in "${files[@]}"; do
    if tgit cat-file -e "$BASELINE_TAG:$f" 2>/dev/null; then
      mkdir -p "$tmp/$(dirname "$f")"
      tgit show "$BASELINE_TAG:$f" >"$tmp/$f"
      base+=("$f")
    fi
  done
  if ! run_checkstyle "$TREE" "${files[@]}" >"$WORK/review/checkstyle-patched.txt" ||
    ! run_checkstyle "$tmp" "${base[@]}" >"$WORK/review/checkstyle-baseline.txt"; then
    vote -1 checkstyle $(($(now_s) - t0)) "checkstyle could not run: ${MVN_FAILURE:-see logs/}"
    return 0
  fi
  compare_findings checkstyle "$t0" checkstyle
}

# review_unit_stamp: what a run of the series' test classes passed on: the
# build and the classes.
review_unit_stamp() {
  local tests=()
  mapfile -t tests < <(patch_tests)
  printf '%s %s' "$(cat "$STATE/build" 2>/dev/null)" "${tests[*]}"
}

review_unit() {
  local t0 tests=() stamp module
  t0=$(now_s)
  mapfile -t tests < <(patch_tests)
  if [[ ${#tests[@]} -eq 0 ]]; then
    vote 0 unit $(($(now_s) - t0)) "The series adds no test classes."
    return 0
  fi
  stamp=$(review_unit_stamp)
  if [[ -f $STATE/review-unit && $(cat "$STATE/review-unit") == "$stamp" ]]; then
    vote +1 unit $(($(now_s) - t0)) "${#tests[@]} test classes of the series passed (cached for this build)."
    return 0
  fi
  module=$(module_build_order | tail -n 1)
  if run_tree_tests "$module" "${tests[@]}" >"$WORK/review/unit.txt" 2>&1; then
    printf '%s' "$stamp" >"$STATE/review-unit"
    vote +1 unit $(($(now_s) - t0)) "${#tests[@]} test classes of the series passed: ${tests[*]}."
  else
    rm -f "$STATE/review-unit"
    vote -1 unit $(($(now_s) - t0)) "$(grep -m1 -E 'Tests run:.*(Failures: [1-9]|Errors: [1-9])|FAIL' "$WORK/review/unit.txt" || echo 'tests failed') see review/unit.txt"
  fi
}

review_export() {
  local t0 tmp
  t0=$(now_s)
  tmp=$(mktemp -d "$WORK/.roundtrip.XXXXXX")
  format_series "$tmp"
  if diff -r -q <(cd "$tmp" && find . -type f | sort) <(cd "$PATCHES" && find . -maxdepth 1 -type f \( -name '*.patch' -o -name series \) | sort) >/dev/null &&
    diff -r -x '*.txt' "$tmp" "$PATCHES" >"$WORK/review/export.diff" 2>&1; then
    vote +1 export $(($(now_s) - t0)) "apply then export reproduces patches/ byte for byte."
  else
    diff -r "$tmp" "$PATCHES" >"$WORK/review/export.diff" 2>&1 || true
    vote -1 export $(($(now_s) - t0)) "patches/ differs from the work tree's commits (see review/export.diff); run 'scripts/harness export'."
  fi
  rm -rf "$tmp"
}

cmd_review() {
  check_test_forks
  require_tree
  mkdir -p "$WORK/review"
  VOTE_ROWS=()
  VOTE_FAILED=0
  local t0 n
  t0=$(now_s)
  n=$(series_entries | wc -l)
  if [[ -f $STATE/apply-failed || ! -f $STATE/applied ]]; then
    vote -1 patch 0 "The series does not apply: $(cat "$STATE/apply-failed" 2>/dev/null || echo 'not applied yet')."
  else
    vote +1 patch 0 "The series ($n patches) applies to the HBase $(hbase_version) baseline."
    review_author
    review_whitespace
    review_test4tests
    if review_compile; then
      review_javac
      review_checkstyle
      review_unit
    else
      vote 0 javac 0 "Skipped: the series does not compile."
      vote 0 checkstyle 0 "Skipped: the series does not compile."
      vote 0 unit 0 "Skipped: the series does not compile."
    fi
    review_export
  fi
  local out=$WORK/review/vote.txt row
  {
    echo
    if [[ $VOTE_FAILED -eq 0 ]]; then echo ":confetti_ball: +1 overall"; else echo ":broken_heart: -1 overall"; fi
    echo
    printf '| %4s | %15s | %9s | %s\n' Vote Subsystem Runtime Comment
    echo "============================================================================"
    for row in "${VOTE_ROWS[@]}"; do
      echo "$row"
    done
    printf '| %4s | %15s | %9s | %s\n' "" "" "$(fmt_duration $(($(now_s) - t0)))" ""
    echo
    echo "Series: $n patches on HBase $(hbase_version) ($(tgit rev-parse --short HEAD)); logs: $LOGS"
  } | tee "$out"
  info "review: table written to $out"
  [[ $VOTE_FAILED -eq 0 ]] || die "review: -1 overall"
}

review_usage() {
  cat <<'USAGE'
usage: scripts/harness review
The precommit vote table: patch applies, @author, whitespace, test4tests,
compile, javac (new warnings against the baseline), checkstyle (HBase's rules;
new violations in the changed files), unit (the series' test classes), export
round-trip. Also written to work/review/vote.txt; non-zero on any -1.
USAGE
}
