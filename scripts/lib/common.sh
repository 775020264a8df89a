# shellcheck shell=bash
# Shared helpers of scripts/harness: paths, errors, the JDK and Maven, state files.

HARNESS_ROOT=${HARNESS_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
WORK=${HARNESS_WORK:-$HARNESS_ROOT/work}
PATCHES=${HARNESS_PATCHES:-$HARNESS_ROOT/patches}
TREE=$WORK/tree
STATE=$WORK/state
LOGS=$WORK/logs
# The tag that marks the unpatched baseline commit in the work tree.
BASELINE_TAG=harness-baseline
# The HBase release the series targets, and the suffix of the patched artifacts.
DEFAULT_HBASE_VERSION=2.6.4
PATCHED_SUFFIX=patched

# The JVM options HBase and Hadoop need on JDK 17: every JVM the harness starts gets them.
JDK17_JVM_OPTS=(--add-opens java.base/java.lang=ALL-UNNAMED --add-opens java.base/java.nio=ALL-UNNAMED
  --add-opens java.base/sun.nio.ch=ALL-UNNAMED --add-opens java.base/java.lang.reflect=ALL-UNNAMED
  --add-opens java.base/java.util=ALL-UNNAMED --add-opens java.base/java.util.concurrent=ALL-UNNAMED
  --add-exports java.base/jdk.internal.misc=ALL-UNNAMED -Dio.netty.tryReflectionSetAccessible=true
  -Djava.net.preferIPv4Stack=true -Djava.awt.headless=true)

# die MESSAGE: one clear line on stderr, exit 1.
die() {
  printf 'harness: error: %s\n' "$*" >&2
  exit 1
}

# usage_error MESSAGE: a bad command line, exit 2.
usage_error() {
  printf 'harness: usage error: %s (see scripts/harness help)\n' "$*" >&2
  exit 2
}

info() {
  printf 'harness: %s\n' "$*" >&2
}

# parse_count VAR WHAT VALUE MIN MAX: VALUE is a whole decimal number from MIN
# to MAX (leading zeros are decimal, never octal); sets VAR to it. Otherwise a
# usage error that names WHAT, before anything is started.
parse_count() {
  local var=$1 what=$2 value=$3 min=$4 max=$5 digits
  [[ $value =~ ^[0-9]+$ ]] || usage_error "$what must be a whole number from $min to $max, not '$value'"
  digits=${value#"${value%%[!0]*}"}
  # 18 digits stay below 2^63: longer ones are out of range before bash could overflow.
  [[ ${#digits} -le 18 ]] || usage_error "$what must be a whole number from $min to $max, not '$value'"
  value=$((10#${digits:-0}))
  ((value >= min && value <= max)) || usage_error "$what must be a whole number from $min to $max, not '$3'"
  printf -v "$var" '%s' "$value"
}

# size_bytes SIZE: 512m, 2g, 1048576 -> bytes; fails on anything else, and on
# a size of 2^62 bytes or more (it would overflow bash's arithmetic).
size_bytes() {
  local n unit shift=0 digits
  [[ $1 =~ ^([0-9]+)([kKmMgGtT]?)$ ]] || return 1
  n=${BASH_REMATCH[1]}
  unit=${BASH_REMATCH[2],,}
  digits=${n#"${n%%[!0]*}"}
  [[ ${#digits} -le 18 ]] || return 1
  n=$((10#${digits:-0}))
  case $unit in
    k) shift=10 ;;
    m) shift=20 ;;
    g) shift=30 ;;
    t) shift=40 ;;
  esac
  ((n < (1 << (62 - shift)))) || return 1
  printf '%s' $((n << shift))
}

# parse_size VAR WHAT VALUE MIN MAX: VALUE is a size (see size_bytes) from MIN
# to MAX bytes; sets VAR to the bytes. Otherwise a usage error naming WHAT.
parse_size() {
  local var=$1 what=$2 value=$3 min=$4 max=$5 bytes
  if ! bytes=$(size_bytes "$value") || ((bytes < min || bytes > max)); then
    usage_error "$what must be a size from $(fmt_size "$min") to $(fmt_size "$max") such as 128m or 1g, not '$value'"
  fi
  printf -v "$var" '%s' "$bytes"
}

# fmt_size BYTES: the shortest exact form, 1048576 -> 1m.
fmt_size() {
  local n=$1 u
  for u in t g m k; do
    case $u in
      t) ((n >= 1 << 40 && n % (1 << 40) == 0)) && printf '%st' $((n >> 40)) && return ;;
      g) ((n >= 1 << 30 && n % (1 << 30) == 0)) && printf '%sg' $((n >> 30)) && return ;;
      m) ((n >= 1 << 20 && n % (1 << 20) == 0)) && printf '%sm' $((n >> 20)) && return ;;
      k) ((n >= 1 << 10 && n % (1 << 10) == 0)) && printf '%sk' $((n >> 10)) && return ;;
    esac
  done
  printf '%s' "$n"
}

# now_s: seconds since the epoch.
now_s() {
  date +%s
}

# fmt_duration SECONDS -> "1m 05s"
fmt_duration() {
  local s=$1
  printf '%dm %02ds' $((s / 60)) $((s % 60))
}

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

# require_tree: the work tree exists and was completed by prepare.
require_tree() {
  [[ -f $STATE/prepared && -d $TREE/.git ]] ||
    die "no prepared work tree in $TREE; run 'scripts/harness prepare' (or 'scripts/harness all') first"
}

# require_applied: the whole series is applied (no failed or partial apply).
require_applied() {
  require_tree
  if [[ -f $STATE/apply-failed ]]; then
    die "the series is not fully applied: $(cat "$STATE/apply-failed"); fix it and run 'scripts/harness apply'"
  fi
  [[ -f $STATE/applied ]] || die "the series has not been applied; run 'scripts/harness apply'"
}

hbase_version() {
  if [[ -f $STATE/hbase-version ]]; then
    cat "$STATE/hbase-version"
  else
    printf '%s' "$DEFAULT_HBASE_VERSION"
  fi
}

stock_version() {
  printf '%s-hadoop3' "$(hbase_version)"
}

patched_version() {
  printf '%s-hadoop3-%s' "$(hbase_version)" "$PATCHED_SUFFIX"
}

# tgit ARGS...: git in the work tree with a fixed identity and stable output.
tgit() {
  git -C "$TREE" -c user.name=harness -c user.email=harness@localhost \
    -c commit.gpgsign=false -c core.autocrlf=false -c diff.noprefix=false \
    -c diff.mnemonicPrefix=false -c diff.renames=true -c core.quotepath=true "$@"
}

# series_entries: the patch file names listed in the series, in order.
series_entries() {
  [[ -f $PATCHES/series ]] || return 0
  sed -e 's/#.*$//' -e 's/[[:space:]]*$//' -e 's/^[[:space:]]*//' "$PATCHES/series" | grep -v '^$' || true
}

# series_modules: the top-level modules the series' patches touch.
series_modules() {
  local entry
  {
    echo hbase-server
    while read -r entry; do
      [[ -f $PATCHES/$entry ]] || continue
      sed -n -E 's#^diff --git a/([^/]+)/.* b/.*#\1#p' "$PATCHES/$entry"
    done < <(series_entries)
  } | grep -E '^hbase-[a-z0-9-]+$' | sort -u
}

# tree_state_hash: a hash of the work tree as it is now, tracked and
# untracked files alike (ignored files aside), without touching its index.
tree_state_hash() {
  local idx
  idx=$(mktemp "$WORK/.index.XXXXXX")
  rm -f "$idx"
  cp "$TREE/.git/index" "$idx" 2>/dev/null || true
  GIT_INDEX_FILE=$idx git -C "$TREE" add -A . >/dev/null 2>&1
  GIT_INDEX_FILE=$idx git -C "$TREE" write-tree
  rm -f "$idx"
}
