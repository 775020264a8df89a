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
# classpath.sh owns the classpaths the harness's JVMs run with and the
# harness's own compiled Java classes: the local Maven repository, the two
# builds (stock: the released artifacts; patched: what 'harness build'
# installed), the Maven-resolved classpath of test-harness/pom.xml against
# either build (cached under $WORK/classpath), and the classes of
# test-harness/src/main/java compiled with javac into $WORK/classes, cached
# by their sources, so that a command never races a concurrent
# 'scripts/harness test' in test-harness/target.

# m2_repo: the local Maven repository Maven uses.
m2_repo() {
  printf '%s' "${HARNESS_M2_REPO:-$HOME/.m2/repository}"
}

# build_version stock|patched: the hbase-server version of that build.
build_version() {
  case $1 in
    stock) stock_version ;;
    patched) patched_version ;;
    *) usage_error "unknown build '$1' (stock or patched)" ;;
  esac
}

# build_installed stock|patched: the build's hbase-server jar is in the local
# repository (stock comes from Maven Central, patched from 'harness build').
build_installed() {
  local v
  v=$(build_version "$1")
  [[ $1 == stock || -f $(m2_repo)/org/apache/hbase/hbase-server/$v/hbase-server-$v.jar ]]
}

# build_classpath stock|patched: prints the file that holds the run-time
# classpath of test-harness/pom.xml against that build (cached by the pom,
# the version, the repository and the patched jars). Only jars; Hadoop's
# reload4j binding is left out so that every JVM logs through log4j2. The patched
# build's hbase-server jars are used from a snapshot of their own, so that a
# 'harness build' that rewrites them does not pull them from under a running
# cluster.
build_classpath() {
  local build=$1 version key out dir=$WORK/classpath stamp=""
  version=$(build_version "$build")
  if ! build_installed "$build"; then
    die "the $build build ($version) is not installed in $(m2_repo); run 'scripts/harness build' first"
  fi
  local jar tjar
  jar=$(m2_repo)/org/apache/hbase/hbase-server/$version/hbase-server-$version.jar
  tjar=${jar%.jar}-tests.jar
  if [[ $build == patched ]]; then
    stamp=$(stat -c '%Y %s' "$jar" "$tjar" 2>/dev/null || true)
  fi
  key=$( {
    cat "$HARNESS_ROOT/test-harness/pom.xml"
    printf '%s %s %s jars-only\n' "$version" "$(m2_repo)" "$stamp"
  } | git hash-object --stdin)
  out=$dir/$version.classpath
  if [[ -f $out && -f $out.key && $(cat "$out.key") == "$key" ]]; then
    printf '%s' "$out"
    return 0
  fi
  mkdir -p "$dir"
  require_mvn
  local log=$LOGS/classpath-$version.log raw
  raw=$(mktemp "$dir/.raw.XXXXXX")
  if ! mvn_run "$log" -f "$HARNESS_ROOT/test-harness/pom.xml" dependency:build-classpath \
    -Dhbase.version="$version" -Dhbase.stock.version="$(stock_version)" \
    -Dhbase.patched.version="$(patched_version)" -Dmdep.outputFile="$raw" -Dmdep.includeScope=test; then
    rm -f "$raw"
    mvn_fail_die "$log" "cannot resolve the classpath of the $build build"
  fi
  local snap=""
  if [[ $build == patched ]]; then
    snap=$dir/$version-${key:0:12}
    rm -rf "$snap"
    mkdir -p "$snap"
    cp "$jar" "$tjar" "$snap/"
    if ! unzip -l "$snap/${jar##*/}" >/dev/null 2>&1 || ! unzip -l "$snap/${tjar##*/}" >/dev/null 2>&1; then
      rm -rf "$snap" "$raw"
      die "the patched jars in $(dirname "$jar") are not whole (is 'scripts/harness build' running?); try again when it is done"
    fi
    # Keep the three newest snapshots: a running cluster may use an older one.
    find "$dir" -maxdepth 1 -type d -name "$version-*" -printf '%T@ %p\n' | sort -rn | tail -n +4 |
      cut -d' ' -f2- | xargs -r rm -rf
  fi
  tr ':' '\n' <"$raw" | grep -E '\.jar$' | grep -v -E '/(slf4j-reload4j|reload4j|slf4j-log4j12)-[0-9][^/]*\.jar$' |
    if [[ -n $snap ]]; then sed -e "s#^$jar\$#$snap/${jar##*/}#" -e "s#^$tjar\$#$snap/${tjar##*/}#"; else cat; fi |
    paste -sd: - >"$out.tmp"
  rm -f "$raw"
  mv "$out.tmp" "$out"
  printf '%s' "$key" >"$out.key"
  printf '%s' "$out"
}

# harness_classes: compiles the harness's Java tools (every source of
# test-harness/src/main/java) with javac into $WORK/classes/harness-KEY, KEY
# from their sources; prints the folder. A folder is never changed once
# made, so a running benchmark or cluster keeps its classes when the sources
# change; the three newest are kept.
harness_classes() {
  local src=$HARNESS_ROOT/test-harness/src/main/java key out cp cpfile
  local -a files
  mapfile -t files < <(find "$src" -name '*.java' 2>/dev/null | sort)
  [[ ${#files[@]} -gt 0 ]] || die "no harness sources in $src"
  key=$(cat "${files[@]}" | git hash-object --stdin)
  out=$WORK/classes/harness-${key:0:12}
  if [[ -f $out/.key && $(cat "$out/.key") == "$key" ]]; then
    printf '%s' "$out"
    return 0
  fi
  cpfile=$(build_classpath stock)
  cp=$(cat "$cpfile")
  local tmp log=$LOGS/harness-javac.log
  mkdir -p "$WORK/classes" "$LOGS"
  tmp=$(mktemp -d "$WORK/classes/.javac.XXXXXX")
  if ! "$JAVA_HOME/bin/javac" --release 17 -nowarn -encoding UTF-8 -d "$tmp" -cp "$cp" "${files[@]}" >"$log" 2>&1; then
    rm -rf "$tmp"
    die "cannot compile the harness's Java classes: $(grep -m1 'error:' "$log" || tail -n 1 "$log") (log: $log)"
  fi
  printf '%s' "$key" >"$tmp/.key"
  # Another command may have made it meanwhile: the same classes.
  mv -T "$tmp" "$out" 2>/dev/null || rm -rf "$tmp"
  find "$WORK/classes" -maxdepth 1 -type d -name 'harness-*' -printf '%T@ %p\n' | sort -rn | tail -n +4 |
    cut -d' ' -f2- | xargs -r rm -rf
  printf '%s' "$out"
}

# classpath_swap STOCK_CP PATCHED_CP: the stock classpath with every -patched
# HBase jar of PATCHED_CP in place of its stock twin, so that the two runs
# differ in the code under test only, not in how Maven mediated third-party
# versions on the way.
classpath_swap() {
  local stock_cp=$1 patched_cp=$2 stock patched jar twin out
  stock=$(stock_version)
  patched=$(patched_version)
  out=":$stock_cp:"
  while IFS= read -r jar; do
    [[ $(basename "$jar") == *-"$patched".jar || $(basename "$jar") == *-"$patched"-tests.jar ]] || continue
    twin=$(basename "$jar")
    twin=${twin/-$patched/-$stock}
    twin=$(tr ':' '\n' <<<"$stock_cp" | grep -m1 "/$twin\$" || true)
    if [[ -n $twin ]]; then
      out=${out/":$twin:"/":$jar:"}
    else
      out+="$jar:"
    fi
  done < <(tr ':' '\n' <<<"$patched_cp")
  out=${out#:}
  printf '%s' "${out%:}"
}
