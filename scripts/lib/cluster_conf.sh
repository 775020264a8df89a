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
# cluster_conf.sh owns the layout of the local cluster of separate
# processes (scripts/harness cluster): where it lives, its roles, their
# ports, heaps and folders, the settings of its last start (cluster.env), and
# the configuration files every role reads.
#
# The roles: ZooKeeper (zk), an HDFS NameNode (nn) and DataNodes (dn1..dn3),
# an HMaster (master) and RegionServers (rs1..rsN), each a JVM with its folder
# under CLUSTER_DIR/ROLE: conf/ (its generated configuration), data/, logs/
# and pid. The ports: BASE (ZooKeeper), BASE+10/11 (NameNode rpc/http),
# BASE+20+3i (DataNode i+1: data/http/ipc), BASE+40/41 (master rpc/info),
# BASE+50+2i (RegionServer i+1: rpc/info).
#
# Globals it owns, read by the other cluster libraries: CLUSTER_DIR
# (HARNESS_CLUSTER_DIR), CLUSTER_PORT_BASE (HARNESS_CLUSTER_PORT_BASE),
# CLUSTER_TIMEOUT (HARNESS_CLUSTER_TIMEOUT), CLUSTER_DATANODES.
# shellcheck disable=SC2034 # the globals above are read by the other libraries

# HARNESS_CLUSTER_DIR moves it: crash and bench recovery run a fresh cluster
# in their run folder.
CLUSTER_DIR=${HARNESS_CLUSTER_DIR:-$WORK/cluster}
# One spelling of the folder: the roles' marker and the pid files name it.
while [[ $CLUSTER_DIR == */ && $CLUSTER_DIR != / ]]; do
  CLUSTER_DIR=${CLUSTER_DIR%/}
done
CLUSTER_PORT_BASE=${HARNESS_CLUSTER_PORT_BASE:-17000}
CLUSTER_TIMEOUT=${HARNESS_CLUSTER_TIMEOUT:-180}
CLUSTER_DATANODES=3

# cluster_check_env: the HARNESS_CLUSTER_* settings are numbers in range; a
# usage error otherwise, before anything starts.
cluster_check_env() {
  # The highest port is BASE+50+2*20 (the 20th RegionServer's info port).
  parse_count CLUSTER_PORT_BASE HARNESS_CLUSTER_PORT_BASE "$CLUSTER_PORT_BASE" 1024 65400
  parse_count CLUSTER_TIMEOUT HARNESS_CLUSTER_TIMEOUT "$CLUSTER_TIMEOUT" 10 86400
}

# cluster_setting NAME [DEFAULT]: a setting of the cluster's last start.
cluster_setting() {
  local v=""
  if [[ -f $CLUSTER_DIR/cluster.env ]]; then
    v=$(sed -n "s/^$1=//p" "$CLUSTER_DIR/cluster.env" | tail -n 1)
  fi
  printf '%s' "${v:-${2:-}}"
}

cluster_port_base() {
  cluster_setting PORT_BASE "$CLUSTER_PORT_BASE"
}

cluster_rs_count() {
  cluster_setting REGIONSERVERS 3
}

# cluster_roles: every role, in start order.
cluster_roles() {
  local i n
  n=$(cluster_rs_count)
  printf '%s\n' zk nn
  for ((i = 1; i <= CLUSTER_DATANODES; i++)); do echo "dn$i"; done
  echo master
  for ((i = 1; i <= n; i++)); do echo "rs$i"; done
}

valid_role() {
  grep -qx -- "$1" <<<"$(cluster_roles)"
}

# role_ports ROLE: the ports the role listens on, the first its main one.
role_ports() {
  local b i
  b=$(cluster_port_base)
  case $1 in
    zk) echo "$b" ;;
    nn) echo "$((b + 10)) $((b + 11))" ;;
    dn*)
      i=$((${1#dn} - 1))
      echo "$((b + 22 + 3 * i)) $((b + 20 + 3 * i)) $((b + 21 + 3 * i))"
      ;;
    master) echo "$((b + 40)) $((b + 41))" ;;
    rs*)
      i=$((${1#rs} - 1))
      echo "$((b + 50 + 2 * i)) $((b + 51 + 2 * i))"
      ;;
  esac
}

role_port() {
  local p
  p=$(role_ports "$1")
  printf '%s' "${p%% *}"
}

# role_heap ROLE: sized for 2 cores and 24 GiB, shared with a benchmark client.
# The heap of the cluster's last start is kept in cluster.env, so that a
# restart of one role gets the same heap; the variable, when set, wins.
role_heap() {
  case $1 in
    zk) echo "${HARNESS_CLUSTER_ZK_HEAP:-$(cluster_setting ZK_HEAP 256m)}" ;;
    nn) echo "${HARNESS_CLUSTER_NN_HEAP:-$(cluster_setting NN_HEAP 512m)}" ;;
    dn*) echo "${HARNESS_CLUSTER_DN_HEAP:-$(cluster_setting DN_HEAP 384m)}" ;;
    master) echo "${HARNESS_CLUSTER_MASTER_HEAP:-$(cluster_setting MASTER_HEAP 768m)}" ;;
    rs*) echo "${HARNESS_CLUSTER_RS_HEAP:-$(cluster_setting RS_HEAP 2g)}" ;;
  esac
}

role_dir() {
  printf '%s/%s' "$CLUSTER_DIR" "$1"
}

role_log() {
  printf '%s/logs/%s.log' "$(role_dir "$1")" "$1"
}

# role_marker ROLE: the system property that names the role's process.
role_marker() {
  printf -- '-Dharness.cluster.role=%s@%s' "$1" "$CLUSTER_DIR"
}

# xml_props FILE KEY=VALUE...: a Hadoop configuration file.
xml_props() {
  local file=$1 kv k v
  shift
  {
    printf '<?xml version="1.0"?>\n<!-- Written by scripts/harness cluster start; rewritten on every start. -->\n<configuration>\n'
    for kv in "$@"; do
      k=${kv%%=*}
      v=${kv#*=}
      v=${v//&/&amp;}
      v=${v//</&lt;}
      v=${v//>/&gt;}
      printf '  <property><name>%s</name><value>%s</value></property>\n' "$k" "$v"
    done
    printf '</configuration>\n'
  } >"$file"
}

write_log4j2() {
  cat >"$1" <<'PROPS'
# Written by scripts/harness cluster start. Each JVM gets -Dharness.log.file.
status = warn
dest = err
name = HarnessCluster
appender.file.type = File
appender.file.name = File
appender.file.fileName = ${sys:harness.log.file}
appender.file.append = true
appender.file.layout.type = PatternLayout
appender.file.layout.pattern = %d{ISO8601} %-5p [%t] %c{2}: %m%n
rootLogger = INFO,File
logger.zookeeper.name = org.apache.zookeeper
logger.zookeeper.level = WARN
logger.hdfsstate.name = org.apache.hadoop.hdfs.StateChange
logger.hdfsstate.level = WARN
logger.blockstate.name = BlockStateChange
logger.blockstate.level = WARN
logger.clienttrace.name = org.apache.hadoop.hdfs.server.datanode.DataNode.clienttrace
logger.clienttrace.level = WARN
logger.dnblock.name = org.apache.hadoop.hdfs.server.datanode.DataNode
logger.dnblock.level = WARN
logger.nnaudit.name = org.apache.hadoop.hdfs.server.namenode.FSNamesystem.audit
logger.nnaudit.level = WARN
logger.hadoopmetrics.name = org.apache.hadoop.metrics2
logger.hadoopmetrics.level = WARN
logger.hbasemetrics.name = org.apache.hadoop.hbase.metrics
logger.hbasemetrics.level = WARN
logger.http.name = org.apache.hadoop.hbase.http
logger.http.level = WARN
logger.jetty.name = org.apache.hbase.thirdparty.org.eclipse.jetty
logger.jetty.level = WARN
PROPS
}

# write_cluster_conf CONF...: the conf folder of every role, and the
# client's hbase-site.xml. CONF entries (KEY=VALUE from --conf) go last
# into every hbase-site.xml; Hadoop expands ${...} in them per role, so
# ${hbase.tmp.dir} names the role's own data folder.
write_cluster_conf() {
  local b n role d dn i nn_rpc
  b=$(cluster_port_base)
  n=$(cluster_rs_count)
  nn_rpc=$((b + 10))
  mkdir -p "$CLUSTER_DIR/conf"
  write_log4j2 "$CLUSTER_DIR/conf/log4j2.properties"
  local -a core=("fs.defaultFS=hdfs://127.0.0.1:$nn_rpc" "hadoop.security.authentication=simple")
  local -a hdfs=("dfs.replication=$CLUSTER_DATANODES" "dfs.permissions.enabled=false"
    "dfs.namenode.rpc-address=127.0.0.1:$nn_rpc" "dfs.namenode.http-address=127.0.0.1:$((b + 11))"
    "dfs.namenode.secondary.http-address=127.0.0.1:0" "dfs.namenode.safemode.extension=0"
    "dfs.namenode.safemode.min.datanodes=0" "dfs.namenode.name.dir=file://$CLUSTER_DIR/nn/data/name"
    "dfs.client.block.write.replace-datanode-on-failure.best-effort=true"
    "dfs.datanode.address=127.0.0.1:0" "dfs.datanode.http.address=127.0.0.1:0"
    "dfs.datanode.ipc.address=127.0.0.1:0")
  local -a hbase=("hbase.cluster.distributed=true" "hbase.rootdir=hdfs://127.0.0.1:$nn_rpc/hbase"
    "hbase.zookeeper.quorum=127.0.0.1" "hbase.zookeeper.property.clientPort=$b"
    "zookeeper.session.timeout=20000"
    "hbase.master.port=$((b + 40))" "hbase.master.info.port=$((b + 41))"
    "hbase.master.hostname=localhost" "hbase.master.ipc.address=127.0.0.1"
    "hbase.master.info.bindAddress=127.0.0.1" "hbase.unsafe.regionserver.hostname=localhost"
    "hbase.regionserver.ipc.address=127.0.0.1" "hbase.regionserver.info.bindAddress=127.0.0.1"
    "hbase.master.wait.on.regionservers.mintostart=$n")
  local pmem
  pmem=$(cluster_setting PMEM)
  if [[ $(cluster_setting RETAIN) == 1 ]]; then
    # A crashed RegionServer's regions go back to it when it returns on the
    # same host and port (ServerCrashProcedure and AssignmentManager, 2.6).
    # The series bounds the wait, for user tables only; stock waits for as
    # long as the host stays away.
    hbase+=("hbase.master.scp.retain.assignment=true")
    if [[ $(cluster_setting BUILD) == patched ]]; then
      hbase+=("$HOST_WAIT_KEY=$CLUSTER_HOST_WAIT_MS")
    else
      hbase+=("hbase.master.scp.retain.assignment.force=true")
    fi
  fi
  for role in $(cluster_roles); do
    d=$(role_dir "$role")
    mkdir -p "$d/conf" "$d/data" "$d/logs"
    local -a extra_hdfs=() extra_hbase=()
    case $role in
      dn*)
        i=$((${role#dn} - 1))
        dn=$((b + 20 + 3 * i))
        extra_hdfs=("dfs.datanode.address=127.0.0.1:$dn" "dfs.datanode.http.address=127.0.0.1:$((dn + 1))"
          "dfs.datanode.ipc.address=127.0.0.1:$((dn + 2))" "dfs.datanode.data.dir=file://$d/data/dfs")
        ;;
      rs*)
        i=$((${role#rs} - 1))
        extra_hbase=("hbase.regionserver.port=$((b + 50 + 2 * i))" "hbase.regionserver.info.port=$((b + 51 + 2 * i))")
        [[ -z $pmem ]] || extra_hbase+=("$PMEM_KEY=$pmem/$role")
        ;;
    esac
    xml_props "$d/conf/core-site.xml" "${core[@]}" "hadoop.tmp.dir=$d/data/hadoop-tmp"
    xml_props "$d/conf/hdfs-site.xml" "${hdfs[@]}" "${extra_hdfs[@]}"
    xml_props "$d/conf/hbase-site.xml" "${hbase[@]}" "hbase.tmp.dir=$d/data/tmp" "${extra_hbase[@]}" "$@"
  done
  write_zk_and_client_conf "$b"
}

# write_zk_and_client_conf PORT: ZooKeeper's zoo.cfg (its client port PORT)
# and the client's hbase-site.xml.
write_zk_and_client_conf() {
  local b=$1
  cat >"$(role_dir zk)/conf/zoo.cfg" <<ZOO
# Written by scripts/harness cluster start.
tickTime=1000
maxSessionTimeout=40000
dataDir=$(role_dir zk)/data
clientPort=$b
clientPortAddress=127.0.0.1
maxClientCnxns=0
admin.enableServer=false
4lw.commands.whitelist=ruok,srvr,stat
ZOO
  mkdir -p "$CLUSTER_DIR/client"
  xml_props "$CLUSTER_DIR/client/hbase-site.xml" "hbase.zookeeper.quorum=127.0.0.1" \
    "hbase.zookeeper.property.clientPort=$b" "hbase.cluster.distributed=true"
}
