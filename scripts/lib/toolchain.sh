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
# toolchain.sh owns the tools the harness runs: the JDK 17 it finds
# (require_java sets JAVA_HOME and PATH), the JVM flags every JVM it starts
# gets (JVM_FLAGS, read from scripts/conf/jvm.properties, the one definition
# that test-harness/pom.xml and the Java tools read too), and Maven (mvn_run,
# with a one-line reason when it fails).

# The file that defines the JVM flags, for bash, Maven and Java alike.
JVM_PROPERTIES=$HARNESS_ROOT/scripts/conf/jvm.properties

# load_jvm_flags: sets the array JVM_FLAGS to harness.jvm.flags of
# JVM_PROPERTIES (a Java properties file: the key, then '=', ':' or blanks; a
# line ending in a backslash goes on in the next one, whose leading blanks are
# dropped), plus the system property
# that names the file, for the Java tools that start JVMs of their own.
load_jvm_flags() {
  local line value="" more=0
  [[ -r $JVM_PROPERTIES ]] || die "cannot read $JVM_PROPERTIES, which defines the JVM flags"
  while IFS= read -r line || [[ -n $line ]]; do
    if [[ $more -eq 1 ]]; then
      line=${line#"${line%%[![:space:]]*}"}
    elif [[ $line =~ ^[[:space:]]*harness\.jvm\.flags[[:space:]]*[=:[:space:]][[:space:]]*(.*)$ ]]; then
      line=${BASH_REMATCH[1]}
    else
      continue
    fi
    more=0
    if [[ $line == *\\ ]]; then
      line=${line%\\}
      more=1
    fi
    value+=$line
    [[ $more -eq 1 ]] || break
  done <"$JVM_PROPERTIES"
  read -r -a JVM_FLAGS <<<"$value"
  [[ ${#JVM_FLAGS[@]} -gt 0 ]] || die "$JVM_PROPERTIES has no harness.jvm.flags"
  JVM_FLAGS+=("-Dharness.jvm.properties=$JVM_PROPERTIES")
}
load_jvm_flags

# java_major JAVA_BIN: prints the major version of that java, or nothing.
java_major() {
  local out
  out=$("$1" -version 2>&1 | head -n 1) || return 0
  # openjdk version "17.0.15" 2025-04-15  /  java version "1.8.0_402"
  out=${out#*\"}
  out=${out%%\"*}
  case $out in
    1.*) out=${out#1.} ;;
  esac
  printf '%s' "${out%%[.+-]*}"
}

# require_java: finds a JDK 17 and exports JAVA_HOME and PATH for it.
# JAVA_HOME wins when set; then java on PATH; then /usr/lib/jvm.
require_java() {
  local candidate major
  if [[ -n ${JAVA_HOME:-} ]]; then
    if [[ ! -x $JAVA_HOME/bin/javac ]]; then
      die "JAVA_HOME=$JAVA_HOME is not a JDK (no bin/javac); point it at a JDK 17"
    fi
    major=$(java_major "$JAVA_HOME/bin/java")
    [[ $major == 17 ]] || die "JAVA_HOME=$JAVA_HOME is JDK ${major:-unknown}, the harness needs JDK 17"
  else
    for candidate in "$(command -v javac 2>/dev/null || true)" /usr/lib/jvm/*17*/bin/javac; do
      [[ -n $candidate && -x $candidate ]] || continue
      candidate=$(readlink -f "$candidate")
      candidate=${candidate%/bin/javac}
      if [[ $(java_major "$candidate/bin/java") == 17 ]]; then
        JAVA_HOME=$candidate
        break
      fi
    done
    [[ -n ${JAVA_HOME:-} ]] || die "no JDK 17 found (set JAVA_HOME, or install openjdk-17-jdk-headless)"
  fi
  export JAVA_HOME
  PATH=$JAVA_HOME/bin:$PATH
  export PATH
}

# require_mvn: Maven on PATH.
require_mvn() {
  command -v mvn >/dev/null 2>&1 || die "Maven (mvn) is not on PATH; install it (Debian: apt-get install maven)"
}

# mvn_args: the arguments every Maven call gets.
mvn_args() {
  MVN_ARGS=(-B -e -ntp)
  if [[ -n ${HARNESS_M2_REPO:-} ]]; then
    MVN_ARGS+=("-Dmaven.repo.local=$HARNESS_M2_REPO")
  fi
  if [[ -n ${HARNESS_MAVEN_SETTINGS:-} ]]; then
    MVN_ARGS+=(-s "$HARNESS_MAVEN_SETTINGS")
  fi
}

# mvn_run LOG ARGS...: runs Maven with its output in LOG. On failure prints
# one line that says why (network, missing artifact, compile error) and
# returns Maven's status; the caller decides whether that is fatal.
mvn_run() {
  local log=$1
  shift
  mvn_args
  mkdir -p "$(dirname "$log")"
  local rc=0
  mvn "${MVN_ARGS[@]}" "$@" >"$log" 2>&1 || rc=$?
  if [[ $rc -ne 0 ]]; then
    MVN_FAILURE=$(mvn_failure_reason "$log")
  fi
  return "$rc"
}

# mvn_failure_reason LOG: a one-line cause of a failed Maven run.
mvn_failure_reason() {
  local log=$1 line
  if line=$(grep -m1 -E 'Could not transfer|Connection refused|UnknownHostException|Network is unreachable|connect timed out|No route to host|Name or service not known' "$log"); then
    local url cause
    url=$(grep -o -m1 -E 'from/to [^ ]+ \([^)]+\)' <<<"$line" | sed -E 's/^from\/to //')
    cause=$(grep -o -m1 -E 'Connection refused|connect timed out|Connection timed out|UnknownHostException: [^ ,:]+|Network is unreachable|No route to host|Name or service not known' "$log" || true)
    printf 'cannot reach the Maven repository%s: %s' "${url:+ $url}" "${cause:-transfer failed}"
  elif line=$(grep -m1 -E 'Could not find artifact|Failure to find|was not found in|Could not resolve dependencies' "$log"); then
    printf '%s' "$(trim_mvn_line "$line")"
  elif line=$(grep -m1 -E '^\[ERROR\] .*\.java:\[[0-9]+' "$log"); then
    printf 'compilation failed: %s' "$(trim_mvn_line "$line")"
  elif line=$(grep -m1 -E '^\[ERROR\] ' "$log"); then
    printf '%s' "$(trim_mvn_line "$line")"
  else
    printf 'Maven failed, see %s' "$log"
  fi
}

trim_mvn_line() {
  local l=$1
  l=${l#\[ERROR\] }
  l=${l#Failed to execute goal }
  printf '%.400s' "$l"
}

# mvn_fail_die LOG WHAT: dies with the Maven failure reason.
mvn_fail_die() {
  die "$2: ${MVN_FAILURE:-Maven failed} (log: $1)"
}
