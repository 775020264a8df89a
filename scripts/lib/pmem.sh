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
# pmem.sh owns the persistent-memory folders of the local cluster's
# RegionServers (HBASE-20003): one folder per RegionServer under a base
# folder (/dev/shm by default), made with mode 0700, kept across a crash and
# a restart (they hold the chunks), removed by 'cluster stop'. Only folders
# the harness made (they hold the file PMEM_MARK) are ever deleted. Also the
# series' configuration keys the harness sets.
#
# Globals it owns: PMEM_KEY, PMEM_SIZE_KEY, HOST_WAIT_KEY and
# CLUSTER_HOST_WAIT_MS (read by cluster_conf.sh and crash.sh), PMEM_MARK,
# and PMEM_NEW (what the current start made, for pmem_discard_new).
# shellcheck disable=SC2034 # the keys are read by the other libraries

PMEM_KEY=hbase.regionserver.memstore.pmem.path
PMEM_SIZE_KEY=hbase.regionserver.memstore.pmem.size
# How long the master of a patched cluster with retained assignment holds a
# crashed RegionServer's user-table regions for it; --conf KEY=MS overrides.
HOST_WAIT_KEY=hbase.master.memstore.pmem.host.wait.ms
# The table option of the series' synchronous region replication.
SYNC_REPLICATION_ATTR=SYNCHRONOUS_REGION_REPLICATION
CLUSTER_HOST_WAIT_MS=600000
# The file that says the harness made a pmem folder: only folders that hold it
# are ever deleted.
PMEM_MARK=.harness-pmem
# What the current start made, to remove again when the start fails.
PMEM_NEW=()

# build_has_pmem stock|patched: the build's hbase-server jar knows the
# persistent-memory option (its key is a string in one of its classes).
build_has_pmem() {
  local v jar
  v=$(build_version "$1")
  jar=$(m2_repo)/org/apache/hbase/hbase-server/$v/hbase-server-$v.jar
  [[ -f $jar ]] || return 1
  { unzip -p "$jar" 2>/dev/null || true; } | grep -aqF "$PMEM_KEY"
}

# build_has_sync_replication BUILD: true if the build's hbase-server jar has
# the series' synchronous region replication (its table option).
build_has_sync_replication() {
  local v jar
  v=$(build_version "$1")
  jar=$(m2_repo)/org/apache/hbase/hbase-server/$v/hbase-server-$v.jar
  [[ -f $jar ]] || return 1
  { unzip -p "$jar" 2>/dev/null || true; } | grep -aqF "$SYNC_REPLICATION_ATTR"
}

# pmem_default_base: where --pmem without a folder puts the RegionServers' folders.
pmem_default_base() {
  printf '/dev/shm/hbase-harness-pmem-%s-%s' "$(id -u)" "$CLUSTER_PORT_BASE"
}

# conf_value KEY CONF...: the last value of KEY among KEY=VALUE entries.
conf_value() {
  local key=$1 kv v=""
  shift
  for kv in "$@"; do
    if [[ ${kv%%=*} == "$key" ]]; then
      v=${kv#*=}
    fi
  done
  printf '%s' "$v"
}

# pmem_discard_new: removes the folders the current start made (it failed).
pmem_discard_new() {
  local i d
  for ((i = ${#PMEM_NEW[@]} - 1; i >= 0; i--)); do
    d=${PMEM_NEW[$i]}
    rm -f -- "$d/$PMEM_MARK"
    rm -rf -- "${d:?}"/rs[0-9]* 2>/dev/null || true
    rmdir -- "$d" 2>/dev/null || rm -rf -- "$d"
  done
  PMEM_NEW=()
}

# pmem_fail MESSAGE: removes what this start made, then dies.
pmem_fail() {
  pmem_discard_new
  cluster_env_restore
  die "$1"
}

# pmem_prepare BASE N RS_HEAP CONF...: checks BASE and makes a folder of mode 0700 per
# RegionServer (BASE/rs1..rsN). A folder kept from before (with the chunks of
# a crashed RegionServer in it) is used as it is. One error line, and nothing
# made is left behind, when BASE cannot serve: not a folder, not creatable,
# not writable, or too small for the RegionServers' chunk space.
pmem_prepare() {
  local base=$1 n=$2 rs_heap=$3 err i d
  shift 3
  PMEM_NEW=()
  [[ ! -e $base || -d $base ]] || pmem_fail "cluster: --pmem $base is not a directory"
  if [[ ! -d $base ]]; then
    # The parents with the default mode; the base itself 0700.
    err=$(mkdir -p -- "$base" 2>&1 && chmod 0700 -- "$base" 2>&1) || pmem_fail "cluster: cannot create the pmem folder $base: ${err##*: }"
    PMEM_NEW+=("$base")
    err=$( { : >"$base/$PMEM_MARK"; } 2>&1) || pmem_fail "cluster: cannot write in the pmem folder $base: ${err##*: }"
  fi
  for ((i = 1; i <= n; i++)); do
    d=$base/rs$i
    if [[ -e $d ]]; then
      [[ -d $d && -f $d/$PMEM_MARK ]] ||
        pmem_fail "cluster: $d exists and was not made by the harness; pass another --pmem DIR"
    else
      err=$(mkdir -m 0700 -- "$d" 2>&1) || pmem_fail "cluster: cannot create the pmem folder $d: ${err##*: }"
      PMEM_NEW+=("$d")
    fi
    err=$( { : >"$d/$PMEM_MARK"; } 2>&1) || pmem_fail "cluster: the pmem folder $d is not writable: ${err##*: }"
  done
  # The chunk space: the configured size, else the option's default, 1.5 x the
  # global memstore (0.4 of the heap unless configured).
  local per heap frac need avail used
  per=$(conf_value "$PMEM_SIZE_KEY" "$@")
  if [[ -n $per ]]; then
    per=$(size_bytes "$per") || pmem_fail "cluster: --conf $PMEM_SIZE_KEY=$(conf_value "$PMEM_SIZE_KEY" "$@") is not a size in bytes"
  else
    heap=$(size_bytes "$rs_heap") || heap=$((2 << 30))
    frac=$(conf_value hbase.regionserver.global.memstore.size "$@")
    per=$(awk -v h="$heap" -v f="${frac:-0.4}" 'BEGIN { printf "%.0f", h * f * 1.5 }')
  fi
  avail=$(df -Pk -- "$base" | awk 'NR == 2 { printf "%.0f", $4 * 1024 }')
  # Chunk files kept from before already hold their space.
  used=$(du -s -B1 -- "$base" 2>/dev/null | awk '{ print $1 }')
  need=$(awk -v n="$n" -v p="$per" -v u="${used:-0}" 'BEGIN { x = n * p - u; printf "%.0f", x < 0 ? 0 : x }')
  if [[ -n $avail ]] && ((avail < need)); then
    pmem_fail "cluster: the pmem folder $base has $((avail >> 20)) MiB free, and $n RegionServers need up to $((need >> 20)) MiB of chunk space ($PMEM_SIZE_KEY $per bytes each); free space, pass another --pmem DIR or a smaller --conf $PMEM_SIZE_KEY=BYTES"
  fi
}

# pmem_ensure_role ROLE: the pmem folder of a RegionServer exists (restart
# after 'stop' removed it: the RegionServer needs its folder).
pmem_ensure_role() {
  local base d
  base=$(cluster_setting PMEM)
  [[ -n $base && $1 == rs* ]] || return 0
  d=$base/$1
  [[ -d $d ]] && return 0
  if [[ ! -d $base ]]; then
    if ! mkdir -p -- "$base" || ! chmod 0700 -- "$base"; then
      die "cluster: cannot create the pmem folder $base"
    fi
  fi
  if ! mkdir -m 0700 -- "$d" || ! : >"$d/$PMEM_MARK"; then
    die "cluster: cannot create the pmem folder $d"
  fi
  info "cluster: made an empty pmem folder $d"
}

# pmem_remove: deletes the RegionServers' pmem folders of the last start
# (only those the harness made), and the base folder if the harness made it.
pmem_remove() {
  local base d removed=0
  base=$(cluster_setting PMEM)
  [[ -n $base && -d $base ]] || return 0
  for d in "$base"/rs[0-9]*; do
    [[ -d $d && -f $d/$PMEM_MARK ]] || continue
    rm -rf -- "$d"
    removed=1
  done
  if [[ -f $base/$PMEM_MARK ]]; then
    rm -f -- "$base/$PMEM_MARK"
    rmdir -- "$base" 2>/dev/null || : >"$base/$PMEM_MARK"
  fi
  [[ $removed -eq 0 ]] || info "cluster: removed the RegionServers' pmem folders in $base"
}
