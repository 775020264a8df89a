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
# common.sh owns what every command shares: the paths of the checkout and of
# the work folder, the one-line messages and exits (die: 1, usage_error: 2),
# time formatting, and the state of the work tree (prepared, applied, the
# HBase version, the series' patches and modules). It sources the other
# libraries, so that scripts/harness and the bats tests load one file.
#
# Globals it sets, read everywhere: HARNESS_ROOT (the checkout), WORK (the
# work folder, HARNESS_WORK), PATCHES (HARNESS_PATCHES), TREE, STATE, LOGS,
# BASELINE_TAG, DEFAULT_HBASE_VERSION, PATCHED_SUFFIX.

HARNESS_ROOT=${HARNESS_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
WORK=${HARNESS_WORK:-$HARNESS_ROOT/work}
PATCHES=${HARNESS_PATCHES:-$HARNESS_ROOT/patches}
TREE=$WORK/tree
STATE=$WORK/state
# shellcheck disable=SC2034 # read by the other libraries, as the ones below
LOGS=$WORK/logs
# The tag that marks the unpatched baseline commit in the work tree.
# shellcheck disable=SC2034
BASELINE_TAG=harness-baseline
# The HBase release the series targets, and the suffix of the patched artifacts.
DEFAULT_HBASE_VERSION=2.6.4
PATCHED_SUFFIX=patched

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

# info MESSAGE: a progress line on stderr.
info() {
  printf 'harness: %s\n' "$*" >&2
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

# The libraries, each of which says in its header what it owns.
for lib in args toolchain runs classpath cluster_conf cluster_proc pmem cluster crashrun \
  tree build test review bench_wal bench_write bench_recovery crash; do
  # shellcheck source=/dev/null
  source "$HARNESS_ROOT/scripts/lib/$lib.sh"
done
unset lib
