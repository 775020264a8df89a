# shellcheck shell=bash
# cluster: a pseudo-distributed cluster on loopback, each role a JVM of its own:
# ZooKeeper (zk), an HDFS NameNode (nn) and DataNodes (dn1..dn3), an HMaster
# (master) and RegionServers (rs1..rsN). Every role has its folder under
# $WORK/cluster/ROLE with conf/ (its generated configuration), data/, logs/
# and pid. Also here: the Maven classpath of a build and the compiled
# harness classes, shared with bench write.

# HARNESS_CLUSTER_DIR moves it: crash and bench recovery run a fresh cluster
# in their run folder.
CLUSTER_DIR=${HARNESS_CLUSTER_DIR:-$WORK/cluster}
# One spelling of the folder: the roles' marker and the pid files name it.
while [[ $CLUSTER_DIR == */ && $CLUSTER_DIR != / ]]; do
  CLUSTER_DIR=${CLUSTER_DIR%/}
done
# The ports: BASE (ZooKeeper), BASE+10/11 (NameNode rpc/http), BASE+20+3i
# (DataNode i: data/http/ipc), BASE+40/41 (master rpc/info), BASE+50+2i
# (RegionServer i+1: rpc/info).
CLUSTER_PORT_BASE=${HARNESS_CLUSTER_PORT_BASE:-17000}
CLUSTER_TIMEOUT=${HARNESS_CLUSTER_TIMEOUT:-180}
CLUSTER_DATANODES=3

# The JVM options HBase and Hadoop need on JDK 17 (defined in common.sh).
HARNESS_JVM_OPENS=("${JDK17_JVM_OPTS[@]}")

# ---------------------------------------------------------------------------
# Classpaths and the harness's classes

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
# the version, the repository and the patched jars). Hadoop's reload4j
# binding is left out so that every JVM logs through log4j2. The patched
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
    printf '%s %s %s\n' "$version" "$(m2_repo)" "$stamp"
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
  tr ':' '\n' <"$raw" | grep -v -E '/(slf4j-reload4j|reload4j)-[0-9][^/]*\.jar$' |
    if [[ -n $snap ]]; then sed -e "s#^$jar\$#$snap/${jar##*/}#" -e "s#^$tjar\$#$snap/${tjar##*/}#"; else cat; fi |
    paste -sd: - >"$out.tmp"
  rm -f "$raw"
  mv "$out.tmp" "$out"
  printf '%s' "$key" >"$out.key"
  printf '%s' "$out"
}

# harness_classes: compiles the harness's cluster, crash and bench write classes
# (test-harness/src/main/java/.../harness/{cluster,crash,bench/write}) with javac
# into $WORK/classes, cached by their sources; prints the folder.
harness_classes() {
  local src=$HARNESS_ROOT/test-harness/src/main/java/org/apache/hadoop/hbase/harness
  local out=$WORK/classes/harness key cp
  local -a files
  mapfile -t files < <(find "$src/cluster" "$src/crash" "$src/bench/write" -name '*.java' 2>/dev/null | sort)
  [[ ${#files[@]} -gt 0 ]] || die "no harness sources in $src"
  key=$(cat "${files[@]}" | git hash-object --stdin)
  if [[ -f $out/.key && $(cat "$out/.key") == "$key" ]]; then
    printf '%s' "$out"
    return 0
  fi
  cp=$(cat "$(build_classpath stock)")
  local tmp log=$LOGS/harness-javac.log
  mkdir -p "$WORK/classes" "$LOGS"
  tmp=$(mktemp -d "$WORK/classes/.javac.XXXXXX")
  if ! "$JAVA_HOME/bin/javac" --release 17 -nowarn -encoding UTF-8 -d "$tmp" -cp "$cp" "${files[@]}" >"$log" 2>&1; then
    rm -rf "$tmp"
    die "cannot compile the harness's Java classes: $(grep -m1 'error:' "$log" || tail -n 1 "$log") (log: $log)"
  fi
  printf '%s' "$key" >"$tmp/.key"
  rm -rf "$out"
  mv "$tmp" "$out"
  printf '%s' "$out"
}

# ---------------------------------------------------------------------------
# Roles, ports and processes

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

# pid_alive PID: the process exists and is not a zombie.
pid_alive() {
  local st
  [[ -r /proc/$1/stat ]] || return 1
  st=$(sed -E 's/^[0-9]+ \(.*\) ([A-Za-z]).*/\1/' "/proc/$1/stat" 2>/dev/null) || return 1
  [[ -n $st && $st != Z && $st != X ]]
}

# role_pid ROLE: the pid of the role's live process, or fails. The pid file
# must point at a process that carries the role's marker.
role_pid() {
  local f pid
  f=$(role_dir "$1")/pid
  [[ -f $f ]] || return 1
  pid=$(cat "$f" 2>/dev/null) || return 1
  [[ $pid =~ ^[0-9]+$ ]] || return 1
  pid_alive "$pid" || return 1
  [[ $(proc_cmdline "$pid") == *"$(role_marker "$1") "* ]] || return 1
  printf '%s' "$pid"
}

# proc_cmdline PID: the process's command line, arguments separated by spaces.
proc_cmdline() {
  { tr '\0' ' ' <"/proc/$1/cmdline"; } 2>/dev/null || true
}

# cluster_stray_pids: live processes of this cluster folder, pid file or not.
cluster_stray_pids() {
  local f pid cmd
  for f in /proc/[0-9]*/cmdline; do
    pid=${f#/proc/}
    pid=${pid%/cmdline}
    cmd=$(proc_cmdline "$pid")
    if [[ $cmd == *"-Dharness.cluster.role="*"@$CLUSTER_DIR "* ]] && pid_alive "$pid"; then
      echo "$pid"
    fi
  done
}

# port_open PORT: something listens on 127.0.0.1:PORT.
port_open() {
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# ports_free SECONDS PORT...: waits until nothing listens on the ports. A
# JVM killed with SIGKILL shows as a zombie as soon as its main thread is
# gone, but its sockets close only when its last thread has exited, which
# takes a while with a heap of gigabytes. Fails if one is still open.
ports_free() {
  local deadline p
  deadline=$(($(now_s) + $1))
  shift
  for p in "$@"; do
    while port_open "$p"; do
      [[ $(now_s) -lt $deadline ]] || return 1
      sleep 0.1
    done
  done
}

# http_get PORT PATH: the body of a plain HTTP GET on loopback.
http_get() {
  local port=$1 path=$2 resp
  resp=$(
    exec 3<>"/dev/tcp/127.0.0.1/$port" || exit 1
    printf 'GET %s HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n' "$path" >&3
    timeout 5 cat <&3
  ) 2>/dev/null || return 1
  printf '%s' "${resp#*$'\r\n\r\n'}"
}

# ---------------------------------------------------------------------------
# Configuration files

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

# role_main ROLE: the main class and arguments of the role.
role_main() {
  case $1 in
    zk) echo "org.apache.zookeeper.server.ZooKeeperServerMain $(role_dir zk)/conf/zoo.cfg" ;;
    nn) echo "org.apache.hadoop.hdfs.server.namenode.NameNode" ;;
    dn*) echo "org.apache.hadoop.hdfs.server.datanode.DataNode" ;;
    master) echo "org.apache.hadoop.hbase.master.HMaster start" ;;
    rs*) echo "org.apache.hadoop.hbase.regionserver.HRegionServer start" ;;
  esac
}

role_gc() {
  case $1 in
    rs* | dn*) echo "-XX:+UseG1GC" ;;
    *) echo "-XX:+UseSerialGC -XX:TieredStopAtLevel=1" ;;
  esac
}

# role_jvm ROLE: sets JCMD to the role's java command line, main class to follow.
role_jvm() {
  local role=$1 d
  d=$(role_dir "$role")
  # shellcheck disable=SC2207
  JCMD=("$JAVA_HOME/bin/java" -Xmx"$(role_heap "$role")" $(role_gc "$role") -XX:+ExitOnOutOfMemoryError
    "${HARNESS_JVM_OPENS[@]}" "$(role_marker "$role")"
    -Dlog4j2.configurationFile="$CLUSTER_DIR/conf/log4j2.properties"
    -Dharness.log.file="$(role_log "$role")" -Dhadoop.log.dir="$d/logs" -Dhbase.log.dir="$d/logs"
    -cp "$d/conf:$(cat "$(cluster_setting CLASSPATH)")")
}

# role_launch ROLE: starts the role's daemon in a session of its own, its
# output in logs/ROLE.out. The pid file is written by the shell that then
# becomes the JVM, so it holds the JVM's pid.
role_launch() {
  local role=$1 d i
  d=$(role_dir "$role")
  mkdir -p "$d/logs"
  rm -f "$d/pid"
  local -a main
  read -r -a main <<<"$(role_main "$role")"
  printf '==== %s: starting %s\n' "$(date '+%Y-%m-%d %H:%M:%S')" "$role" >>"$d/logs/$role.out"
  role_jvm "$role"
  PIDFILE=$d/pid setsid bash -c 'echo $$ >"$PIDFILE"; exec "$@"' harness-role "${JCMD[@]}" "${main[@]}" \
    </dev/null >>"$d/logs/$role.out" 2>&1 3>&- 9>&- &
  for ((i = 0; i < 50; i++)); do
    [[ -s $d/pid ]] && break
    sleep 0.1
  done
}

# ---------------------------------------------------------------------------
# Persistent memory for the memstore (HBASE-20003): a folder per RegionServer

PMEM_KEY=hbase.regionserver.memstore.pmem.path
PMEM_SIZE_KEY=hbase.regionserver.memstore.pmem.size
# How long the master of a patched cluster with retained assignment holds a
# crashed RegionServer's user-table regions for it; --conf KEY=MS overrides.
HOST_WAIT_KEY=hbase.master.memstore.pmem.host.wait.ms
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

# cluster_env_restore: a start refused before it launched anything leaves
# the settings of the cluster's last start as they were.
cluster_env_restore() {
  case ${CLUSTER_ENV_SAVED:-} in
    none) rm -f "$CLUSTER_DIR/cluster.env" ;;
    saved) mv -f "$CLUSTER_DIR/cluster.env.prev" "$CLUSTER_DIR/cluster.env" ;;
  esac
  CLUSTER_ENV_SAVED=
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
    err=$(mkdir -p -m 0700 -- "$base" 2>&1) || pmem_fail "cluster: cannot create the pmem folder $base: ${err##*: }"
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
  mkdir -p -m 0700 -- "$base" && mkdir -m 0700 -- "$d" && : >"$d/$PMEM_MARK" ||
    die "cluster: cannot create the pmem folder $d"
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

# ---------------------------------------------------------------------------
# Waiting for roles, and failing

# role_ready ROLE LOG_OFFSET: the role serves. LOG_OFFSET is the size of its
# log when it was launched, so that an earlier run's lines do not count.
role_ready() {
  local role=$1 off=$2 log
  log=$(role_log "$role")
  case $role in
    zk | nn | dn*) port_open "$(role_port "$role")" ;;
    master) [[ -f $log ]] && { tail -c +"$((off + 1))" "$log" || true; } | grep -q 'Master has completed initialization' ;;
    rs*) [[ -f $log ]] && { tail -c +"$((off + 1))" "$log" || true; } | grep -q 'Serving as ' ;;
  esac
}

# log_tail ROLE: the last lines of the role's log and output, indented.
log_tail() {
  local d f
  d=$(role_dir "$1")
  for f in "$(role_log "$1")" "$d/logs/$1.out"; do
    [[ -s $f ]] || continue
    printf '  ---- tail of %s\n' "$f" >&2
    tail -n 15 "$f" | cut -c1-300 | sed 's/^/  | /' >&2
  done
}

# CLUSTER_ON_FAIL: what a failed start cleans up: "all" (start) or the role
# (restart).
CLUSTER_ON_FAIL=all

# role_failed ROLE REASON: the tail of its log, clean-up, one error line.
role_failed() {
  local role=$1 reason=$2
  log_tail "$role"
  if [[ $CLUSTER_ON_FAIL == all ]]; then
    info "cluster: stopping what was started"
    (stop_everything) || true
    pmem_discard_new
  else
    stop_roles 5 "$role" >/dev/null 2>&1 || true
  fi
  die "cluster: $role failed to start: $reason (log: $(role_log "$role"))"
}

declare -gA LOG_OFF=()

# launch ROLE...: launches the roles, remembering where their logs stood.
launch() {
  local role log
  for role in "$@"; do
    log=$(role_log "$role")
    LOG_OFF[$role]=$(stat -c %s "$log" 2>/dev/null || echo 0)
    role_launch "$role"
  done
}

# wait_ready ROLE...: waits until every role serves; a role whose process
# exits, or that is not up in time, fails the whole command.
wait_ready() {
  local deadline role pid
  deadline=$(($(now_s) + CLUSTER_TIMEOUT))
  local -a pending=("$@") still
  while [[ ${#pending[@]} -gt 0 ]]; do
    still=()
    for role in "${pending[@]}"; do
      if role_ready "$role" "${LOG_OFF[$role]:-0}"; then
        pid=$(role_pid "$role") || role_failed "$role" "its process exited"
        info "cluster: $role up (pid $pid, port $(role_port "$role"))"
        continue
      fi
      role_pid "$role" >/dev/null || role_failed "$role" "its process exited"
      still+=("$role")
    done
    pending=("${still[@]}")
    [[ ${#pending[@]} -gt 0 ]] || break
    [[ $(now_s) -lt $deadline ]] || role_failed "${pending[0]}" "not up after ${CLUSTER_TIMEOUT}s"
    sleep 1
  done
}

# wait_datanodes N: the NameNode counts N live DataNodes.
wait_datanodes() {
  local n=$1 deadline body live=0
  deadline=$(($(now_s) + CLUSTER_TIMEOUT))
  while :; do
    body=$(http_get "$(($(cluster_port_base) + 11))" '/jmx?qry=Hadoop:service=NameNode,name=FSNamesystemState') || body=""
    live=$(sed -n -E 's/.*"NumLiveDataNodes" *: *([0-9]+).*/\1/p' <<<"$body" | head -n 1)
    [[ ${live:-0} -ge $n ]] && break
    role_pid nn >/dev/null || role_failed nn "its process exited"
    [[ $(now_s) -lt $deadline ]] || role_failed nn "only ${live:-0} of $n DataNodes registered after ${CLUSTER_TIMEOUT}s"
    sleep 1
  done
  info "cluster: HDFS has $n live DataNodes"
}

# stop_roles GRACE ROLE...: SIGTERM, then SIGKILL after GRACE seconds; waits
# until every process is gone.
stop_roles() {
  local grace=$1 role pid deadline
  shift
  local -a pids=() names=()
  for role in "$@"; do
    if pid=$(role_pid "$role"); then
      kill -TERM "$pid" 2>/dev/null || true
      pids+=("$pid")
      names+=("$role")
    fi
  done
  [[ ${#pids[@]} -gt 0 ]] || return 0
  deadline=$(($(now_s) + grace))
  local forced=""
  wait_pids_gone "$deadline" "${pids[@]}" || {
    for pid in "${pids[@]}"; do
      if pid_alive "$pid"; then
        kill -KILL "$pid" 2>/dev/null || true
        forced+=" $pid"
      fi
    done
    wait_pids_gone "$(($(now_s) + 15))" "${pids[@]}" || true
  }
  for role in "${names[@]}"; do
    rm -f "$(role_dir "$role")/pid"
  done
  info "cluster: stopped ${names[*]}${forced:+ (SIGKILL to pid$forced after ${grace}s)}"
}

# wait_pids_gone DEADLINE PID...: every process has exited by DEADLINE.
wait_pids_gone() {
  local deadline=$1 pid left
  shift
  while :; do
    left=0
    for pid in "$@"; do
      pid_alive "$pid" && left=1
    done
    [[ $left -eq 0 ]] && return 0
    [[ $(now_s) -lt $deadline ]] || return 1
    sleep 0.5
  done
}

# stop_everything: SIGTERM to HBase first (each RegionServer's shutdown hook
# flushes and closes its regions), then HDFS, then ZooKeeper; whatever does
# not exit in time, and anything else of this cluster folder that is still
# alive, gets SIGKILL.
stop_everything() {
  local -a hbase=() hdfs=() strays=()
  local role
  for role in $(cluster_roles); do
    case $role in
      master | rs*) hbase+=("$role") ;;
      dn*) hdfs+=("$role") ;;
    esac
  done
  stop_roles 60 "${hbase[@]}"
  stop_roles 20 "${hdfs[@]}"
  stop_roles 20 nn
  stop_roles 10 zk
  mapfile -t strays < <(cluster_stray_pids)
  if [[ ${#strays[@]} -gt 0 ]]; then
    info "cluster: SIGKILL to stray processes of $CLUSTER_DIR: ${strays[*]}"
    kill -KILL "${strays[@]}" 2>/dev/null || true
    wait_pids_gone "$(($(now_s) + 15))" "${strays[@]}" || true
  fi
  mapfile -t strays < <(cluster_stray_pids)
  [[ ${#strays[@]} -eq 0 ]] || die "cluster: processes of $CLUSTER_DIR are still alive: ${strays[*]}"
}

# ---------------------------------------------------------------------------
# The commands

cluster_lock() {
  mkdir -p "$CLUSTER_DIR"
  exec 9>"$CLUSTER_DIR/.lock"
  flock -w 600 9 || die "cluster: another harness command holds $CLUSTER_DIR/.lock"
}

# cluster_up_roles: the roles whose process is alive.
cluster_up_roles() {
  local role
  for role in $(cluster_roles); do
    role_pid "$role" >/dev/null && echo "$role"
  done
  return 0
}

cluster_start() {
  local build="" n=3 pmem_on=0 pmem="" retain=0
  local -a confs=()
  while [[ $# -gt 0 ]]; do
    case $1 in
      --build)
        [[ $# -ge 2 ]] || usage_error "--build needs stock or patched"
        [[ $2 == stock || $2 == patched ]] || usage_error "unknown build '$2' (stock or patched)"
        build=$2
        shift 2
        ;;
      --conf)
        [[ $# -ge 2 ]] || usage_error "--conf needs KEY=VALUE"
        [[ $2 =~ ^[A-Za-z0-9_.-]+=.* ]] || usage_error "--conf '$2' is not KEY=VALUE"
        [[ ${2%%=*} != "$PMEM_KEY" ]] || usage_error "--conf $PMEM_KEY: use --pmem [DIR], which gives each RegionServer a folder of its own"
        confs+=("$2")
        shift 2
        ;;
      --regionservers)
        [[ $# -ge 2 && $2 =~ ^[0-9]+$ && $2 -ge 1 && $2 -le 20 ]] || usage_error "--regionservers needs a number from 1 to 20"
        n=$2
        shift 2
        ;;
      --pmem)
        pmem_on=1
        if [[ $# -ge 2 && $2 != -* ]]; then
          [[ -n $2 ]] || usage_error "--pmem DIR: the folder is empty"
          pmem=$2
          shift
        fi
        shift
        ;;
      --retain-assignment)
        retain=1
        shift
        ;;
      *) usage_error "cluster start: unknown argument '$1'" ;;
    esac
  done
  require_java
  cluster_lock
  cluster_start_with "$build" "$n" "$pmem_on" "$pmem" "$retain" "${confs[@]}"
}

# cluster_start_with BUILD N PMEM_ON PMEM_DIR RETAIN CONF...: starts every
# role (the lock is held). BUILD empty: patched if installed. PMEM_DIR empty:
# the default base under /dev/shm. The heaps come from the environment, or,
# with CLUSTER_REUSE_HEAPS=1, from the last start.
cluster_start_with() {
  local build=$1 n=$2 pmem_on=$3 pmem=$4 retain=$5 kv
  shift 5
  local -a confs=("$@") up=() strays=()
  mapfile -t up < <(cluster_up_roles)
  mapfile -t strays < <(cluster_stray_pids)
  if [[ ${#up[@]} -gt 0 || ${#strays[@]} -gt 0 ]]; then
    die "cluster: already running in $CLUSTER_DIR (up: ${up[*]:-pids ${strays[*]}}); run 'scripts/harness cluster stop' first"
  fi
  if [[ $pmem_on == 1 ]]; then
    if [[ -z $pmem ]]; then
      [[ -d /dev/shm ]] || die "cluster: --pmem without a folder uses /dev/shm, which this machine does not have; pass --pmem DIR"
      pmem=$(pmem_default_base)
    fi
    [[ $pmem == /* ]] || pmem=$PWD/$pmem
    pmem=${pmem%/}
    retain=1
  fi
  if [[ -z $build ]]; then
    build=patched
    if ! build_installed patched; then
      build=stock
      info "cluster: the patched build is not installed ('scripts/harness build'); starting the stock build"
    fi
  fi
  if [[ $pmem_on == 1 ]] && ! build_has_pmem "$build"; then
    info "cluster: warning: the $build build has no persistent-memory option ($PMEM_KEY); its RegionServers ignore their pmem folders and keep the memstore on the heap"
  fi
  local -A heap=()
  local role
  if [[ ${CLUSTER_REUSE_HEAPS:-0} == 1 ]]; then
    for role in zk nn dn master rs; do
      heap[$role]=$(role_heap "$role")
    done
  fi
  heap[zk]=${heap[zk]:-${HARNESS_CLUSTER_ZK_HEAP:-256m}}
  heap[nn]=${heap[nn]:-${HARNESS_CLUSTER_NN_HEAP:-512m}}
  heap[dn]=${heap[dn]:-${HARNESS_CLUSTER_DN_HEAP:-384m}}
  heap[master]=${heap[master]:-${HARNESS_CLUSTER_MASTER_HEAP:-768m}}
  heap[rs]=${heap[rs]:-${HARNESS_CLUSTER_RS_HEAP:-2g}}
  local t0 cpfile
  t0=$(now_s)
  cpfile=$(build_classpath "$build")
  if [[ -f $CLUSTER_DIR/cluster.env ]]; then
    cp -p "$CLUSTER_DIR/cluster.env" "$CLUSTER_DIR/cluster.env.prev"
    CLUSTER_ENV_SAVED=saved
  else
    CLUSTER_ENV_SAVED=none
  fi
  {
    printf 'BUILD=%s\nVERSION=%s\nCLASSPATH=%s\nPORT_BASE=%s\nREGIONSERVERS=%s\n' "$build" \
      "$(build_version "$build")" "$cpfile" "$CLUSTER_PORT_BASE" "$n"
    printf 'ZK_HEAP=%s\nNN_HEAP=%s\nDN_HEAP=%s\nMASTER_HEAP=%s\nRS_HEAP=%s\n' "${heap[zk]}" \
      "${heap[nn]}" "${heap[dn]}" "${heap[master]}" "${heap[rs]}"
    if [[ $pmem_on == 1 ]]; then
      printf 'PMEM=%s\n' "$pmem"
    fi
    printf 'RETAIN=%s\n' "$retain"
    for kv in "${confs[@]}"; do
      printf 'CONF=%s\n' "$kv"
    done
  } >"$CLUSTER_DIR/cluster.env"
  local p
  for role in $(cluster_roles); do
    for p in $(role_ports "$role"); do
      if port_open "$p"; then
        cluster_env_restore
        die "cluster: port $p ($role) is in use by another process; set HARNESS_CLUSTER_PORT_BASE to move the cluster (now $CLUSTER_PORT_BASE)"
      fi
    done
  done
  PMEM_NEW=()
  if [[ $pmem_on == 1 ]]; then
    pmem_prepare "$pmem" "$n" "${heap[rs]}" "${confs[@]}"
  fi
  CLUSTER_ENV_SAVED=
  rm -f "$CLUSTER_DIR/cluster.env.prev"
  write_cluster_conf "${confs[@]}"
  info "cluster: starting the $build build ($(build_version "$build")) in $CLUSTER_DIR, ports $CLUSTER_PORT_BASE-$((CLUSTER_PORT_BASE + 49 + 2 * n))"
  if [[ $pmem_on == 1 ]]; then
    info "cluster: persistent memory: rs1..rs$n in $pmem (mode 0700); regions return to their RegionServer after a crash"
  elif [[ $retain == 1 ]]; then
    info "cluster: regions return to their RegionServer after a crash (retained assignment)"
  fi
  CLUSTER_ON_FAIL=all
  trap 'info "cluster: interrupted"; stop_everything >/dev/null 2>&1; pmem_discard_new; exit 130' INT TERM
  launch zk
  wait_ready zk
  if [[ ! -f $CLUSTER_DIR/nn/data/name/current/VERSION ]]; then
    info "cluster: formatting HDFS"
    role_jvm nn
    if ! "${JCMD[@]}" org.apache.hadoop.hdfs.server.namenode.NameNode -format -nonInteractive -clusterid harness \
      </dev/null >>"$(role_dir nn)/logs/nn.out" 2>&1 3>&- 9>&-; then
      role_failed nn "the NameNode format failed"
    fi
  fi
  launch nn
  wait_ready nn
  local -a dns=() hb=(master)
  for role in $(cluster_roles); do
    case $role in
      dn*) dns+=("$role") ;;
      rs*) hb+=("$role") ;;
    esac
  done
  launch "${dns[@]}"
  wait_ready "${dns[@]}"
  wait_datanodes "${#dns[@]}"
  launch "${hb[@]}"
  wait_ready "${hb[@]}"
  trap - INT TERM
  PMEM_NEW=()
  info "cluster: up in $(fmt_duration $(($(now_s) - t0))); client configuration: $CLUSTER_DIR/client/hbase-site.xml"
}

cluster_stop() {
  local keep=0
  while [[ $# -gt 0 ]]; do
    case $1 in
      --keep-pmem)
        keep=1
        shift
        ;;
      *) usage_error "cluster stop: unknown argument '$1' (only --keep-pmem)" ;;
    esac
  done
  cluster_lock
  local t0
  t0=$(now_s)
  if [[ -z $(cluster_up_roles) && -z $(cluster_stray_pids) ]]; then
    info "cluster: nothing is running in $CLUSTER_DIR"
  else
    require_java
    stop_everything
    info "cluster: stopped in $(fmt_duration $(($(now_s) - t0))); no process of $CLUSTER_DIR is left"
  fi
  if [[ $keep -eq 1 ]]; then
    local base
    base=$(cluster_setting PMEM)
    [[ -z $base || ! -d $base ]] || info "cluster: kept the RegionServers' pmem folders in $base"
  else
    pmem_remove
  fi
}

# require_role ROLE: a role of the started cluster ('all' with ALL=1).
require_role() {
  [[ -f $CLUSTER_DIR/cluster.env ]] || die "cluster: no cluster in $CLUSTER_DIR; run 'scripts/harness cluster start' first"
  [[ ${2:-} == all-ok && $1 == all ]] && return 0
  valid_role "$1" || die "cluster: unknown role '$1' (roles: $(cluster_roles | paste -sd' ' -)${2:+, or all})"
}

cluster_kill() {
  [[ $# -eq 1 ]] || usage_error "cluster kill needs one ROLE (e.g. rs1) or all"
  local role=$1 pid
  require_role "$role" all-ok
  cluster_lock
  if [[ $role == all ]]; then
    # Every role at once, as a power cut of the machine would end them.
    local -a pids=() names=()
    for role in $(cluster_roles); do
      if pid=$(role_pid "$role"); then
        pids+=("$pid")
        names+=("$role")
      fi
    done
    [[ ${#pids[@]} -gt 0 ]] || die "cluster: nothing is running in $CLUSTER_DIR"
    kill -KILL "${pids[@]}" 2>/dev/null || true
    wait_pids_gone "$(($(now_s) + 15))" "${pids[@]}" || die "cluster: processes are still alive after SIGKILL: ${pids[*]}"
    for role in "${names[@]}"; do
      rm -f "$(role_dir "$role")/pid"
      # shellcheck disable=SC2046
      ports_free 30 $(role_ports "$role") || die "cluster: $role's ports are still open 30s after SIGKILL"
    done
    info "cluster: killed ${names[*]} with SIGKILL"
    return 0
  fi
  pid=$(role_pid "$role") || die "cluster: $role is not running"
  kill -KILL "$pid"
  wait_pids_gone "$(($(now_s) + 15))" "$pid" || die "cluster: $role (pid $pid) is still alive after SIGKILL"
  rm -f "$(role_dir "$role")/pid"
  # shellcheck disable=SC2046
  ports_free 30 $(role_ports "$role") || die "cluster: $role's ports are still open 30s after SIGKILL"
  info "cluster: killed $role (pid $pid) with SIGKILL"
}

cluster_restart() {
  [[ $# -eq 1 ]] || usage_error "cluster restart needs one ROLE (e.g. rs1) or all"
  local role=$1 t0
  require_role "$role" all-ok
  require_java
  cluster_lock
  t0=$(now_s)
  if [[ $role == all ]]; then
    cluster_restart_all
    return 0
  fi
  [[ -f $(cluster_setting CLASSPATH /nonexistent) ]] || die "cluster: the classpath of the last start is gone; run 'scripts/harness cluster start' again"
  if role_pid "$role" >/dev/null; then
    stop_roles 60 "$role"
  fi
  local p
  for p in $(role_ports "$role"); do
    if ! ports_free 15 "$p"; then
      die "cluster: port $p of $role is in use by another process"
    fi
  done
  pmem_ensure_role "$role"
  CLUSTER_ON_FAIL=role
  launch "$role"
  wait_ready "$role"
  info "cluster: $role restarted in $(fmt_duration $(($(now_s) - t0))) on the same ports and folders"
}

# cluster_restart_all: every role again with the settings of the last start
# (build, RegionServers, ports, heaps, --conf, pmem folders with their chunks);
# what still runs is stopped first, gracefully.
cluster_restart_all() {
  local -a confs=() up=()
  mapfile -t up < <(cluster_up_roles)
  if [[ ${#up[@]} -gt 0 || -n $(cluster_stray_pids) ]]; then
    stop_everything
  fi
  mapfile -t confs < <(sed -n 's/^CONF=//p' "$CLUSTER_DIR/cluster.env")
  local pmem pmem_on=0
  pmem=$(cluster_setting PMEM)
  [[ -z $pmem ]] || pmem_on=1
  CLUSTER_PORT_BASE=$(cluster_setting PORT_BASE "$CLUSTER_PORT_BASE")
  CLUSTER_REUSE_HEAPS=1 cluster_start_with "$(cluster_setting BUILD)" "$(cluster_rs_count)" "$pmem_on" "$pmem" \
    "$(cluster_setting RETAIN 0)" "${confs[@]}"
}

cluster_status() {
  [[ $# -eq 0 ]] || usage_error "cluster status takes no arguments"
  if [[ ! -f $CLUSTER_DIR/cluster.env ]]; then
    echo "no cluster in $CLUSTER_DIR (never started)"
    return 3
  fi
  local role pid state down=0
  printf 'cluster %s: %s build (%s)\n' "$CLUSTER_DIR" "$(cluster_setting BUILD)" "$(cluster_setting VERSION)"
  printf '%-7s %-5s %-8s %-18s %s\n' ROLE STATE PID PORTS LOG
  for role in $(cluster_roles); do
    if pid=$(role_pid "$role"); then
      state=up
    else
      state=down
      pid=-
      down=1
    fi
    printf '%-7s %-5s %-8s %-18s %s\n' "$role" "$state" "$pid" "$(role_ports "$role" | tr ' ' ,)" "$(role_log "$role")"
  done
  if role_pid master >/dev/null; then
    require_java
    local classes cpfile out rc=0
    classes=$(harness_classes)
    cpfile=$(cluster_setting CLASSPATH)
    out=$("$JAVA_HOME/bin/java" -Xmx256m -XX:TieredStopAtLevel=1 "${HARNESS_JVM_OPENS[@]}" \
      -Dlog4j2.configurationFile="$CLUSTER_DIR/conf/log4j2.properties" \
      -Dharness.log.file="$CLUSTER_DIR/client/tool.log" -cp "$classes:$(cat "$cpfile")" \
      org.apache.hadoop.hbase.harness.cluster.ClusterTool servers "$CLUSTER_DIR/client/hbase-site.xml" 20 2>&1) || rc=$?
    echo "the master's view:"
    sed 's/^/  /' <<<"$out"
    [[ $rc -eq 0 ]] || down=1
  fi
  [[ $down -eq 0 ]] || return 3
}

# cluster_check_env: the HARNESS_CLUSTER_* settings are numbers in range; a
# usage error otherwise, before anything starts.
cluster_check_env() {
  # The highest port is BASE+50+2*20 (the 20th RegionServer's info port).
  parse_count CLUSTER_PORT_BASE HARNESS_CLUSTER_PORT_BASE "$CLUSTER_PORT_BASE" 1024 65400
  parse_count CLUSTER_TIMEOUT HARNESS_CLUSTER_TIMEOUT "$CLUSTER_TIMEOUT" 10 86400
}

cmd_cluster() {
  [[ $# -gt 0 ]] || usage_error "cluster needs start, stop, status, kill ROLE or restart ROLE"
  cluster_check_env
  local sub=$1
  shift
  case $sub in
    start) cluster_start "$@" ;;
    stop) cluster_stop "$@" ;;
    status) cluster_status "$@" ;;
    kill) cluster_kill "$@" ;;
    restart) cluster_restart "$@" ;;
    *) usage_error "unknown cluster command '$sub' (start, stop, status, kill ROLE|all, restart ROLE|all)" ;;
  esac
}
