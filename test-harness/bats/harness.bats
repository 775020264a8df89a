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
# The harness's bad-input and round-trip behaviour. Most cases use a small
# fake HBase checkout (prepare --hbase-dir), so they run in seconds; the
# jar-based cases need Maven Central or a warm local repository.

load common

setup() {
  harness_sandbox
  GIT_ID=(-c user.name=bats -c user.email=bats@localhost -c commit.gpgsign=false -c init.defaultBranch=main)
}

# fake_checkout DIR VERSION: a tiny git repository shaped like HBase's.
fake_checkout() {
  local dir=$1 version=$2
  mkdir -p "$dir/hbase-server/src/main/java/org/apache/hadoop/hbase"
  printf '<project>\n  <properties>\n    <revision>%s</revision>\n  </properties>\n</project>\n' "$version" >"$dir/pom.xml"
  printf 'package org.apache.hadoop.hbase;\n\npublic class Foo {\n  int a = 1;\n}\n' \
    >"$dir/hbase-server/src/main/java/org/apache/hadoop/hbase/Foo.java"
  git "${GIT_ID[@]}" -C "$dir" init -q
  git "${GIT_ID[@]}" -C "$dir" add -A
  git "${GIT_ID[@]}" -C "$dir" commit -q -m "HBase $version"
}

# make_patch N SUBJECT FILE CONTENT: commits CONTENT to FILE in a scratch
# clone on top of the series so far, and adds the patch to the series.
make_patch() {
  local n=$1 subject=$2 file=$3 content=$4 scratch="$BATS_TEST_TMPDIR/scratch"
  if [[ ! -d $scratch ]]; then
    git clone -q "$BATS_TEST_TMPDIR/hbase" "$scratch"
  fi
  mkdir -p "$scratch/$(dirname "$file")"
  printf '%s\n' "$content" >"$scratch/$file"
  git "${GIT_ID[@]}" -C "$scratch" add -A
  GIT_AUTHOR_DATE="2026-01-0${n}T00:00:00Z" git "${GIT_ID[@]}" -C "$scratch" commit -q -m "$subject"
  git -C "$scratch" format-patch -q --zero-commit --no-signature --full-index -1 --stdout \
    >"$HARNESS_PATCHES/000$n.patch"
  echo "000$n.patch" >>"$HARNESS_PATCHES/series"
}

prepared_fake() {
  fake_checkout "$BATS_TEST_TMPDIR/hbase" 2.6.4
  run "$HARNESS" prepare --hbase-dir "$BATS_TEST_TMPDIR/hbase"
  [ "$status" -eq 0 ]
}

@test "an unknown command is a usage error" {
  run "$HARNESS" frobnicate
  [ "$status" -eq 2 ]
  one_error_line
  [[ $output == *"unknown command 'frobnicate'"* ]]
}

@test "an unknown option is a usage error" {
  run "$HARNESS" test --tests
  [ "$status" -eq 2 ]
  [[ $output == *"--tests needs"* ]]
}

@test "help names each command's usage; an unknown one is a usage error" {
  run "$HARNESS" help
  [ "$status" -eq 0 ]
  [[ ${lines[0]} == "usage: scripts/harness COMMAND [OPTIONS]" ]]
  run "$HARNESS" help bench recovery
  [ "$status" -eq 0 ]
  [[ $output == *"usage: scripts/harness bench recovery"* ]]
  run "$HARNESS" help crash
  [ "$status" -eq 0 ]
  [[ $output == *"usage: scripts/harness crash"* ]]
  run "$HARNESS" help extra
  [ "$status" -eq 2 ]
  one_error_line
  [[ $output == *"help: no command 'extra'"* ]]
}

@test "every command answers --help, before it checks anything" {
  local cmd
  for cmd in all prepare apply export build test review bench cluster crash "bench wal" \
    "bench write" "bench recovery"; do
    # shellcheck disable=SC2086
    JAVA_HOME="$BATS_TEST_TMPDIR/no-jdk" run "$HARNESS" $cmd --help
    [ "$status" -eq 0 ]
    [[ $output == *"usage: scripts/harness"* ]]
  done
  [ ! -e "$HARNESS_WORK" ]
}

@test "numbers: leading zeros are decimal, too many digits are refused in one line, nothing is made" {
  # 08 is eight, not a bad octal number: the error is about --regions.
  run "$HARNESS" crash --rows 08 --regions 0
  [ "$status" -eq 2 ]
  one_error_line
  [[ ${lines[-1]} == *"crash: --regions must be a whole number from 1 to 1296, not '0'"* ]]
  run "$HARNESS" bench recovery --reps 08 --regions 0
  [ "$status" -eq 2 ]
  one_error_line
  [[ ${lines[-1]} == *"bench recovery: --regions must be"* ]]
  run "$HARNESS" crash --rows 999999999999999999999999
  [ "$status" -eq 2 ]
  one_error_line
  [[ ${lines[-1]} == *"--rows must be a whole number from 1 to 100000000"* ]]
  [ ! -e "$HARNESS_WORK/crash" ]
  [ ! -e "$HARNESS_WORK/bench" ]
}

@test "sizes: overflow and sizes out of range are refused in one line, before a run folder" {
  run "$HARNESS" bench recovery --sizes 99999999999999999999g
  [ "$status" -eq 2 ]
  one_error_line
  [[ ${lines[-1]} == *"'99999999999999999999g'"* ]]
  run "$HARNESS" bench recovery --sizes 16777216t
  [ "$status" -eq 2 ]
  one_error_line
  [[ ${lines[-1]} == *"each of --sizes must be a size from 1m to 1t"*"not '16777216t'"* ]]
  run "$HARNESS" bench recovery --sizes 512k
  [ "$status" -eq 2 ]
  [[ ${lines[-1]} == *"must be a size from 1m"* ]]
  run "$HARNESS" bench recovery --sizes 128m,,1g
  [ "$status" -eq 2 ]
  one_error_line
  run "$HARNESS" bench recovery --rs-heap lots
  [ "$status" -eq 2 ]
  one_error_line
  HARNESS_BENCH_RECOVERY_RS_HEAP=lots run "$HARNESS" bench recovery
  [ "$status" -eq 2 ]
  one_error_line
  run "$HARNESS" bench recovery --sizes 1g,128m,1g
  [ "$status" -eq 2 ]
  [[ ${lines[-1]} == *"names a size twice"* ]]
  run "$HARNESS" bench recovery --modes pmem,wal,pmem
  [ "$status" -eq 2 ]
  [[ ${lines[-1]} == *"names a mode twice"* ]]
  run "$HARNESS" bench recovery --conf hbase.regionserver.handler.count
  [ "$status" -eq 2 ]
  one_error_line
  [[ ${lines[-1]} == *"bench recovery: --conf 'hbase.regionserver.handler.count' is not KEY=VALUE"* ]]
  [ ! -e "$HARNESS_WORK/bench" ]
}

@test "bench recovery: --profile takes no value, and its summary counts each method once a sample" {
  run "$HARNESS" bench recovery --profile 3
  [ "$status" -eq 2 ]
  one_error_line
  [[ ${lines[-1]} == *"bench recovery: unknown option '3'"* ]]
  [ ! -e "$HARNESS_WORK/bench" ]
  # shellcheck source=/dev/null
  source "$BATS_TEST_DIRNAME/../../scripts/lib/common.sh"
  local f="$BATS_TEST_TMPDIR/samples.txt" out
  sample() {
    local thread=$1 frame
    shift
    printf 'jdk.ExecutionSample {\n  startTime = 23:49:13.375\n  sampledThread = "%s" (javaThreadId = 7)\n' "$thread"
    printf '  state = "STATE_RUNNABLE"\n  stackTrace = [\n'
    for frame in "$@"; do printf '    %s line: 12\n' "$frame"; done
    printf '    ...\n  ]\n}\n\n'
  }
  {
    sample "RS_OPEN_REGION-1" "a.Cslm.put()" "a.Store.add()" "a.Rebuild.run()"
    sample "RS_OPEN_REGION-2" "a.Copy.copy()" "a.Store.add()" "a.Rebuild.run()"
    # A recursive method counts once in its sample.
    sample "RS_OPEN_REGION-2" "a.Rec.f()" "a.Rec.f()" "a.Rebuild.run()"
    sample "main" "a.Scan.next()"
  } >"$f"
  out=$(bench_recovery_profile_summary "T" <"$f")
  [[ $out == "# T: 4 CPU samples"* ]]
  grep -qx '  75.0%  RS_OPEN_REGION-N' <<<"$out"
  grep -qx '  25.0%  main' <<<"$out"
  # Self time, then the stack: Rebuild.run is on three stacks, Store.add on two.
  [ "$(grep -c '^  25.0%  a.Cslm.put()$' <<<"$out")" -eq 2 ]
  grep -qx '  75.0%  a.Rebuild.run()' <<<"$out"
  grep -qx '  50.0%  a.Store.add()' <<<"$out"
  [ "$(grep -c '^  25.0%  a.Rec.f()$' <<<"$out")" -eq 2 ]
  run bench_recovery_profile_summary "T" </dev/null
  [ "$status" -ne 0 ]
}

@test "test: shellcheck's findings fail the run, and only a clean run says clean" {
  command -v shellcheck >/dev/null 2>&1 || skip "shellcheck is not installed"
  # shellcheck source=/dev/null
  source "$BATS_TEST_DIRNAME/../../scripts/lib/common.sh"
  printf '#!/bin/bash\necho clean\n' >"$BATS_TEST_TMPDIR/clean.sh"
  printf '#!/bin/bash\nunused=1\n' >"$BATS_TEST_TMPDIR/dirty.sh"
  # shellcheck disable=SC2317 # called by run_shellcheck
  shell_files() { printf '%s\n' "$BATS_TEST_TMPDIR/clean.sh"; }
  run run_shellcheck
  [ "$status" -eq 0 ]
  [[ $output == *"shellcheck: clean (1 files)"* ]]
  # shellcheck disable=SC2317 # called by run_shellcheck
  shell_files() { printf '%s\n' "$BATS_TEST_TMPDIR/clean.sh" "$BATS_TEST_TMPDIR/dirty.sh"; }
  run run_shellcheck
  [ "$status" -eq 1 ]
  [[ $output == *"SC2034"* ]]
  [[ $output != *"shellcheck: clean"* ]]
  [[ $output == *"shellcheck: findings above, in 2 files"* ]]
}

@test "cluster: a RegionServer records itself with JFR only when asked, other roles never" {
  # shellcheck source=/dev/null
  source "$BATS_TEST_DIRNAME/../../scripts/lib/common.sh"
  CLUSTER_DIR=$BATS_TEST_TMPDIR/cluster
  mkdir -p "$CLUSTER_DIR"
  cluster_setting() { printf '%s' "${2:-$BATS_TEST_TMPDIR/cp}"; }
  : >"$BATS_TEST_TMPDIR/cp"
  role_jvm rs1
  [[ " ${JCMD[*]} " != *"StartFlightRecording"* ]]
  export HARNESS_CLUSTER_RS_JFR=1
  role_jvm rs1
  [[ " ${JCMD[*]} " == *" -XX:StartFlightRecording=name=harness,settings=profile "* ]]
  [[ " ${JCMD[*]} " == *" -Dharness.cluster.role=rs1@$CLUSTER_DIR "* ]]
  role_jvm master
  [[ " ${JCMD[*]} " != *"StartFlightRecording"* ]]
}

@test "cluster settings that are not numbers in range are usage errors" {
  local cmd
  for cmd in "cluster status" "crash" "bench recovery"; do
    # shellcheck disable=SC2086
    HARNESS_CLUSTER_PORT_BASE=abc run "$HARNESS" $cmd
    [ "$status" -eq 2 ]
    one_error_line
    [[ ${lines[-1]} == *"HARNESS_CLUSTER_PORT_BASE must be a whole number from 1024 to 65400, not 'abc'"* ]]
  done
  HARNESS_CLUSTER_PORT_BASE=65500 run "$HARNESS" cluster status
  [ "$status" -eq 2 ]
  HARNESS_CLUSTER_TIMEOUT=soon run "$HARNESS" cluster status
  [ "$status" -eq 2 ]
  [[ ${lines[-1]} == *"HARNESS_CLUSTER_TIMEOUT must be"* ]]
  [ ! -e "$HARNESS_WORK" ]
}

@test "test --tests checks its names before anything else" {
  run "$HARNESS" test --tests 'Foo;rm'
  [ "$status" -eq 2 ]
  one_error_line
  [[ ${lines[-1]} == *"'Foo;rm' is not a test class name"* ]]
  run "$HARNESS" test --tests TestA,,TestB
  [ "$status" -eq 2 ]
  [[ ${lines[-1]} == *"has an empty entry"* ]]
  # An empty list is an error, not the whole suite.
  run "$HARNESS" test --tests ""
  [ "$status" -eq 2 ]
  one_error_line
  [[ ${lines[-1]} == *"--tests needs CLASS[,CLASS...]"* ]]
}

@test "test and all: HARNESS_TEST_FORKS that is not 1 to 8 is refused before anything else" {
  for forks in 0 9 x 2x " 2"; do
    HARNESS_TEST_FORKS=$forks run "$HARNESS" test --tests TestA
    [ "$status" -eq 2 ]
    one_error_line
    [[ ${lines[-1]} == *"HARNESS_TEST_FORKS must be a whole number from 1 to 8, not '$forks'"* ]]
  done
  # 'all' runs the series' tests in its review: it checks it before it prepares anything.
  HARNESS_TEST_FORKS=9 run "$HARNESS" all
  [ "$status" -eq 2 ]
  one_error_line
  [[ ${lines[-1]} == *"HARNESS_TEST_FORKS must be a whole number from 1 to 8, not '9'"* ]]
  [ ! -e "$HARNESS_WORK/tree" ]
}

@test "a JAVA_HOME that is not JDK 17 is refused" {
  mkdir -p "$BATS_TEST_TMPDIR/jdk11/bin"
  printf '#!/bin/sh\necho "openjdk version \\"11.0.22\\" 2024-01-16" >&2\n' >"$BATS_TEST_TMPDIR/jdk11/bin/java"
  cp "$BATS_TEST_TMPDIR/jdk11/bin/java" "$BATS_TEST_TMPDIR/jdk11/bin/javac"
  chmod +x "$BATS_TEST_TMPDIR/jdk11/bin/java" "$BATS_TEST_TMPDIR/jdk11/bin/javac"
  JAVA_HOME="$BATS_TEST_TMPDIR/jdk11" run "$HARNESS" prepare
  one_error_line
  [[ $output == *"is JDK 11, the harness needs JDK 17"* ]]
  [ ! -e "$HARNESS_WORK/tree" ]
}

@test "a JAVA_HOME without a JDK is refused" {
  JAVA_HOME="$BATS_TEST_TMPDIR/nothing" run "$HARNESS" prepare
  one_error_line
  [[ $output == *"is not a JDK"* ]]
}

@test "no Maven on PATH is refused" {
  local bin="$BATS_TEST_TMPDIR/bin" f
  mkdir -p "$bin"
  for f in /usr/bin/* /bin/*; do
    [[ $(basename "$f") == mvn ]] || ln -sf "$f" "$bin/$(basename "$f")" 2>/dev/null || true
  done
  PATH="$bin" run "$HARNESS" prepare
  one_error_line
  [[ $output == *"Maven (mvn) is not on PATH"* ]]
  [ ! -e "$HARNESS_WORK/tree" ]
}

@test "an unreachable Maven repository is reported and leaves no tree" {
  mkdir -p "$BATS_TEST_TMPDIR/m2"
  cat >"$BATS_TEST_TMPDIR/settings.xml" <<'XML'
<settings><mirrors><mirror><id>nowhere</id><mirrorOf>*</mirrorOf>
<url>http://127.0.0.1:9/maven2</url></mirror></mirrors></settings>
XML
  HARNESS_M2_REPO="$BATS_TEST_TMPDIR/m2" HARNESS_MAVEN_SETTINGS="$BATS_TEST_TMPDIR/settings.xml" \
    run "$HARNESS" prepare
  one_error_line
  [[ $output == *"cannot reach the Maven repository"* ]]
  [ ! -e "$HARNESS_WORK/tree" ]
  [ ! -e "$HARNESS_WORK/state/prepared" ]
}

@test "a malformed HBase version is a usage error" {
  run "$HARNESS" prepare --hbase-version two.six
  [ "$status" -eq 2 ]
  one_error_line
  [[ $output == *"'two.six' is not an HBase release version"* ]]
  run "$HARNESS" prepare --hbase-version 2.6
  [ "$status" -eq 2 ]
  one_error_line
  [ ! -e "$HARNESS_WORK/tree" ]
}

@test "an HBase version that was never released is refused" {
  run "$HARNESS" prepare --hbase-version 2.6.99
  one_error_line
  [[ $output == *"HBase 2.6.99 is unknown"* ]]
  [ ! -e "$HARNESS_WORK/tree" ]
}

@test "--hbase-dir that is not a git checkout is refused" {
  mkdir -p "$BATS_TEST_TMPDIR/plain"
  run "$HARNESS" prepare --hbase-dir "$BATS_TEST_TMPDIR/plain"
  one_error_line
  [[ $output == *"is not a git checkout"* ]]
}

@test "--hbase-dir that does not exist is refused" {
  run "$HARNESS" prepare --hbase-dir "$BATS_TEST_TMPDIR/missing"
  one_error_line
  [[ $output == *"no such directory"* ]]
}

@test "--hbase-dir with uncommitted changes is refused" {
  fake_checkout "$BATS_TEST_TMPDIR/hbase" 2.6.4
  echo "// local edit" >>"$BATS_TEST_TMPDIR/hbase/hbase-server/src/main/java/org/apache/hadoop/hbase/Foo.java"
  run "$HARNESS" prepare --hbase-dir "$BATS_TEST_TMPDIR/hbase"
  one_error_line
  [[ $output == *"has uncommitted changes"* ]]
  [ ! -e "$HARNESS_WORK/tree" ]
}

@test "--hbase-dir at another version is refused" {
  fake_checkout "$BATS_TEST_TMPDIR/hbase" 2.5.10
  run "$HARNESS" prepare --hbase-dir "$BATS_TEST_TMPDIR/hbase"
  one_error_line
  [[ $output == *"is at HBase 2.5.10, not 2.6.4"* ]]
}

@test "--hbase-dir tagged rel/2.6.4 is accepted and becomes the baseline" {
  fake_checkout "$BATS_TEST_TMPDIR/hbase" 9.9.9
  git -C "$BATS_TEST_TMPDIR/hbase" tag rel/2.6.4
  run "$HARNESS" prepare --hbase-dir "$BATS_TEST_TMPDIR/hbase"
  [ "$status" -eq 0 ]
  [ "$(git -C "$HARNESS_WORK/tree" rev-parse harness-baseline)" = "$(git -C "$BATS_TEST_TMPDIR/hbase" rev-parse HEAD)" ]
}

@test "apply before prepare is refused" {
  run "$HARNESS" apply
  one_error_line
  [[ $output == *"no prepared work tree"* ]]
}

@test "an empty series applies" {
  prepared_fake
  run "$HARNESS" apply
  [ "$status" -eq 0 ]
  [[ $output == *"0 patches applied"* ]]
}

@test "a series entry without a file is refused before anything is applied" {
  prepared_fake
  make_patch 1 "HBASE-1 First" hbase-server/src/main/java/org/apache/hadoop/hbase/Bar.java "class Bar {}"
  echo "0009-missing.patch" >>"$HARNESS_PATCHES/series"
  run "$HARNESS" apply
  one_error_line
  [[ $output == *"series entry '0009-missing.patch' has no file"* ]]
  [ "$(git -C "$HARNESS_WORK/tree" rev-parse HEAD)" = "$(git -C "$HARNESS_WORK/tree" rev-parse harness-baseline)" ]
}

@test "a corrupt patch file is refused before anything is applied" {
  prepared_fake
  make_patch 1 "HBASE-1 First" hbase-server/src/main/java/org/apache/hadoop/hbase/Bar.java "class Bar {}"
  make_patch 2 "HBASE-2 Second" hbase-server/src/main/java/org/apache/hadoop/hbase/Baz.java "class Baz {}"
  # Cut the second patch in the middle of its hunk.
  sed -n '1,/^+class Baz/p' "$HARNESS_PATCHES/0002.patch" | sed 's/^@@ .*/@@ -0,0 +1,7 @@/' >"$BATS_TEST_TMPDIR/cut"
  mv "$BATS_TEST_TMPDIR/cut" "$HARNESS_PATCHES/0002.patch"
  run "$HARNESS" apply
  one_error_line
  [[ $output == *"patch 0002.patch is corrupt"* ]]
  [ "$(git -C "$HARNESS_WORK/tree" rev-parse HEAD)" = "$(git -C "$HARNESS_WORK/tree" rev-parse harness-baseline)" ]
}

@test "a file that is not a patch is refused" {
  prepared_fake
  echo "hello" >"$HARNESS_PATCHES/0001.patch"
  echo "0001.patch" >>"$HARNESS_PATCHES/series"
  run "$HARNESS" apply
  one_error_line
  [[ $output == *"patch 0001.patch is corrupt"* ]]
}

@test "a patch that does not apply is named with its files, the tree stops at the last good patch, and build refuses" {
  prepared_fake
  make_patch 1 "HBASE-1 First" hbase-server/src/main/java/org/apache/hadoop/hbase/Bar.java "class Bar {}"
  # A second patch made against a file the baseline does not have.
  local other="$BATS_TEST_TMPDIR/other"
  git clone -q "$BATS_TEST_TMPDIR/hbase" "$other"
  mkdir -p "$other/hbase-server/src/main/java/org/apache/hadoop/hbase/wal"
  echo "class Nope {}" >"$other/hbase-server/src/main/java/org/apache/hadoop/hbase/wal/Nope.java"
  git "${GIT_ID[@]}" -C "$other" add -A && git "${GIT_ID[@]}" -C "$other" commit -q -m base
  echo "class Nope { int x; }" >"$other/hbase-server/src/main/java/org/apache/hadoop/hbase/wal/Nope.java"
  git "${GIT_ID[@]}" -C "$other" commit -q -a -m "HBASE-2 Change a file that is not there"
  git -C "$other" format-patch -q --stdout -1 >"$HARNESS_PATCHES/0002.patch"
  echo 0002.patch >>"$HARNESS_PATCHES/series"
  run "$HARNESS" apply
  one_error_line
  [[ $output == *"patch 2/2 0002.patch does not apply: hbase-server/src/main/java/org/apache/hadoop/hbase/wal/Nope.java"* ]]
  [ "$(git -C "$HARNESS_WORK/tree" log -1 --format=%s)" = "HBASE-1 First" ]
  [ -z "$(git -C "$HARNESS_WORK/tree" status --porcelain)" ]
  run "$HARNESS" build
  one_error_line
  [[ $output == *"not fully applied"* ]]
  run "$HARNESS" export
  one_error_line
  [[ $output == *"the last apply failed"* ]]
}

@test "apply then export round-trips with no diff, and a second apply is a no-op" {
  prepared_fake
  make_patch 1 "HBASE-1 First" hbase-server/src/main/java/org/apache/hadoop/hbase/Bar.java "class Bar {}"
  make_patch 2 "HBASE-2 Second" hbase-server/src/main/java/org/apache/hadoop/hbase/Foo.java "class Foo { int b = 2; }"
  run "$HARNESS" apply
  [ "$status" -eq 0 ]
  run "$HARNESS" export
  [ "$status" -eq 0 ]
  cp -r "$HARNESS_PATCHES" "$BATS_TEST_TMPDIR/exported"
  run "$HARNESS" apply --force
  [ "$status" -eq 0 ]
  run "$HARNESS" export
  [ "$status" -eq 0 ]
  diff -r "$BATS_TEST_TMPDIR/exported" "$HARNESS_PATCHES"
  [ "$(grep -c '\.patch$' "$HARNESS_PATCHES/series")" -eq 2 ]
  run "$HARNESS" apply
  [ "$status" -eq 0 ]
  [[ $output == *"already applied"* ]]
}

@test "export refuses uncommitted changes, and apply refuses to discard unexported commits" {
  prepared_fake
  run "$HARNESS" apply
  echo "class Local {}" >"$HARNESS_WORK/tree/hbase-server/Local.java"
  run "$HARNESS" export
  one_error_line
  [[ $output == *"uncommitted changes"* ]]
  git "${GIT_ID[@]}" -C "$HARNESS_WORK/tree" add -A
  git "${GIT_ID[@]}" -C "$HARNESS_WORK/tree" commit -q -m "HBASE-3 Local work"
  run "$HARNESS" apply
  one_error_line
  [[ $output == *"not exported to patches/"* ]]
  [ "$(git -C "$HARNESS_WORK/tree" log -1 --format=%s)" = "HBASE-3 Local work" ]
}

@test "test --tests refuses a class that does not exist" {
  prepared_fake
  run "$HARNESS" apply
  run "$HARNESS" test --tests TestNoSuchThing
  one_error_line
  [[ $output == *"no test class named TestNoSuchThing"* ]]
}

@test "prepare from the released jars lays out upstream's tree without generated sources" {
  run "$HARNESS" prepare
  [ "$status" -eq 0 ]
  local t="$HARNESS_WORK/tree/hbase-server"
  [ -f "$t/src/main/java/org/apache/hadoop/hbase/regionserver/wal/FSHLog.java" ]
  [ -f "$t/src/test/java/org/apache/hadoop/hbase/regionserver/wal/TestFSHLog.java" ]
  [ -f "$t/src/test/resources/0000000000000016310" ]
  [ -f "$t/src/main/resources/hbase-webapps/master/table.jsp" ]
  [ ! -e "$t/src/main/java/org/apache/hadoop/hbase/tmpl" ]
  [ ! -e "$t/src/main/resources/hbase-webapps/master/WEB-INF/web.xml" ]
  [ ! -e "$t/src/main/resources/META-INF/MANIFEST.MF" ]
  [ ! -e "$t/src/test/resources/hbase-webapps" ]
  [ -f "$t/src/main/resources/META-INF/services/org.apache.hadoop.hbase.security.provider.SaslServerAuthenticationProvider" ]
  # The baseline commit is the same on every machine.
  local first
  first=$(git -C "$HARNESS_WORK/tree" rev-parse harness-baseline)
  HARNESS_WORK="$BATS_TEST_TMPDIR/work2" run "$HARNESS" prepare
  [ "$status" -eq 0 ]
  [ "$(git -C "$BATS_TEST_TMPDIR/work2/tree" rev-parse harness-baseline)" = "$first" ]
  # A second prepare is a no-op.
  run "$HARNESS" prepare
  [[ $output == *"up to date"* ]]
}

@test "the build lock is released when a build ends, so all's review can build again" {
  local lib="$BATS_TEST_DIRNAME/../../scripts/lib"
  run timeout 20 bash -c "
    set -euo pipefail
    source '$lib/common.sh'
    require_java() { :; }; require_mvn() { :; }; require_applied() { :; }
    build_locked() { echo built; }
    mkdir -p \"\$STATE\"
    cmd_build
    (cmd_build)
    cmd_build"
  [ "$status" -eq 0 ]
  [ "$(grep -c built <<<"$output")" -eq 3 ]
}

@test "a build is up to date only while the jars it installed are in the Maven repository unchanged" {
  local lib="$BATS_TEST_DIRNAME/../../scripts/lib"
  run timeout 20 bash -c "
    set -euo pipefail
    source '$lib/common.sh'
    export HARNESS_M2_REPO='$BATS_TEST_TMPDIR/m2'
    patched_version() { echo 9.9-patched; }
    module_build_order() { echo hbase-server; }
    build_stamp() { echo S; }
    write_reactor() { :; }; record_warnings() { :; }
    jar=\$HARNESS_M2_REPO/org/apache/hbase/hbase-server/9.9-patched/hbase-server-9.9-patched.jar
    mvn_run() { mkdir -p \"\$(dirname \"\$jar\")\"; echo one >\"\$jar\"; echo compiled; }
    mkdir -p \"\$STATE\"
    build_locked
    build_locked
    echo two >\"\$jar\"
    build_locked
    rm \"\$jar\"
    build_locked
    HARNESS_M2_REPO='$BATS_TEST_TMPDIR/other' build_locked"
  [ "$status" -eq 0 ]
  # Built, up to date, built again over a jar another build replaced, over a
  # missing jar, and into another repository.
  [ "$(grep -c compiled <<<"$output")" -eq 4 ]
  [ "$(grep -c 'up to date' <<<"$output")" -eq 1 ]
}

@test "test: a stock test that failed and then passed on its rerun is named as flaky" {
  # shellcheck source=/dev/null
  source "$BATS_TEST_DIRNAME/../../scripts/lib/common.sh"
  local log=$BATS_TEST_TMPDIR/surefire.log
  cat >"$log" <<'LOG'
[INFO] Results:
[INFO]
[WARNING] Flakes:
[WARNING] org.apache.hadoop.hbase.regionserver.wal.TestLogRolling.testLogRolling
[ERROR]   Run 1: TestLogRolling>AbstractTestLogRolling.testLogRolling:305 expected:<0> but was:<1247>
[INFO]   Run 2: PASS
[INFO]
[WARNING] Tests run: 67, Failures: 0, Errors: 0, Skipped: 0, Flakes: 1
LOG
  run flaky_tests "$log"
  [ "$status" -eq 0 ]
  [ "$output" = "org.apache.hadoop.hbase.regionserver.wal.TestLogRolling.testLogRolling" ]
  run surefire_summary "$log"
  [[ $output == *"Flakes: 1"* ]]
  printf '[INFO] Tests run: 3, Failures: 0, Errors: 0, Skipped: 0\n' >"$log"
  run flaky_tests "$log"
  [ -z "$output" ]
}

@test "test: Class#method entries of the stock list are names, and # after a blank is a comment" {
  # shellcheck source=/dev/null
  source "$BATS_TEST_DIRNAME/../../scripts/lib/common.sh"
  run stock_tests 0
  [[ $output == *"TestMemStoreLAB#testLABRandomAllocation+"* ]]
  [[ $output != *"testLABThreading"* ]]
  run stock_tests 1
  [[ $output == *"TestFSHLog"* ]]
  [[ $output != *"TestLogRolling"$'\n'* && $output != *$'\n'"TestLogRolling" ]]
}

@test "args: lists, choices and KEY=VALUE are checked by one family, each a one-line usage error" {
  local lib="$BATS_TEST_DIRNAME/../../scripts/lib"
  run bash -c "source '$lib/common.sh'; parse_count_list t 'x: --threads' 1,016,64 1 100; echo \"\${t[*]}\""
  [ "$status" -eq 0 ]
  [ "$output" = "1 16 64" ]
  run bash -c "source '$lib/common.sh'; parse_count_list t 'x: --threads' 1,101 1 100"
  [ "$status" -eq 2 ]
  [ "$output" = "harness: usage error: x: --threads '1,101': each must be a whole number from 1 to 100, not '101' (see scripts/harness help)" ]
  run bash -c "source '$lib/common.sh'; parse_count_list t 'x: --threads' 4,04 1 100"
  [ "$status" -eq 2 ]
  [[ $output == *"names 4 twice"* ]]
  run bash -c "source '$lib/common.sh'; parse_choice v 'x: --mode' rs-lost rs cluster rs-lost; echo \$v"
  [ "$output" = "rs-lost" ]
  run bash -c "source '$lib/common.sh'; parse_choice v 'x: --mode' all rs cluster"
  [ "$status" -eq 2 ]
  [ "$output" = "harness: usage error: x: --mode must be one of rs, cluster, not 'all' (see scripts/harness help)" ]
  run bash -c "source '$lib/common.sh'; parse_conf v 'x: --conf' 'a.b=c=d'; echo \$v"
  [ "$output" = "a.b=c=d" ]
  run bash -c "source '$lib/common.sh'; parse_conf v 'x: --conf' '=c'"
  [ "$status" -eq 2 ]
}

@test "runs: a stop that fails does not hide why the run stopped" {
  local lib="$BATS_TEST_DIRNAME/../../scripts/lib" work=$BATS_TEST_TMPDIR/runs2 d
  run env HARNESS_WORK="$work" bash -c "set -euo pipefail; source '$lib/common.sh'
    stopped() { die 'the stop broke'; }
    run_begin kind 'my run' stopped
    run_fail 'my run: the real reason'"
  [ "$status" -eq 1 ]
  d=$(echo "$work"/kind/*)
  grep -q "my run: the real reason" "$d/INCOMPLETE"
  grep -q "did not finish: it failed" "$d/INCOMPLETE"
}

@test "runs: a run stopped before its end says why in INCOMPLETE; a finished one has results.csv and no INCOMPLETE" {
  local lib="$BATS_TEST_DIRNAME/../../scripts/lib" work=$BATS_TEST_TMPDIR/runs
  run env HARNESS_WORK="$work" bash -c "set -euo pipefail; source '$lib/common.sh'
    stopped() { echo stopped >&2; }
    run_begin kind 'my run' stopped
    printf 'a\\n1\\n' >\"\$RUN_DIR/results.csv.partial\"
    RUN_PROGRESS='after 1 of 2'
    run_fail 'my run: it broke'"
  [ "$status" -eq 1 ]
  [[ $output == *"stopped"* ]]
  local d
  d=$(echo "$work"/kind/*)
  grep -q "This run did not finish: it failed (exit status 1) after 1 of 2." "$d/INCOMPLETE"
  grep -q "my run: it broke" "$d/INCOMPLETE"
  [ -f "$d/results.csv.partial" ]
  [ ! -e "$d/results.csv" ]
  rm -rf "$work"
  run env HARNESS_WORK="$work" bash -c "set -euo pipefail; source '$lib/common.sh'
    run_begin kind 'my run' ''
    printf 'a\\n1\\n' >\"\$RUN_DIR/results.csv.partial\"
    run_finish"
  [ "$status" -eq 0 ]
  d=$(echo "$work"/kind/*)
  [ ! -e "$d/INCOMPLETE" ]
  [ "$(cat "$d/results.csv")" = "$(printf 'a\n1')" ]
  grep -q '^finished: ' "$d/run.txt"
}
