/*
 * Licensed to the Apache Software Foundation (ASF) under one
 * or more contributor license agreements.  See the NOTICE file
 * distributed with this work for additional information
 * regarding copyright ownership.  The ASF licenses this file
 * to you under the Apache License, Version 2.0 (the
 * "License"); you may not use this file except in compliance
 * with the License.  You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package org.apache.hadoop.hbase.harness.bench.write;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.ClusterMetrics;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Durability;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.harness.bench.write.Targets.BenchException;
import org.apache.hadoop.hbase.harness.bench.write.Targets.Target;
import org.apache.hadoop.hbase.harness.util.ClientSettings;
import org.apache.hadoop.hbase.harness.util.HarnessTool;
import org.apache.hadoop.hbase.harness.util.Tables;
import org.apache.hadoop.hbase.harness.util.ToolException;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.logging.log4j.core.config.Configurator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.apache.hbase.thirdparty.org.apache.commons.cli.CommandLine;

/**
 * The driver of {@code scripts/harness bench write}: the write workload of a production write
 * benchmark (100 writer threads, 120-byte keys, 1024-byte values of [A-Z0-9], each put
 * acknowledged on its own) from a client JVM of its own, against the embedded mini cluster, the
 * harness's local cluster or a cluster given by an hbase-site.xml, for each named configuration
 * in turn. Writes, into the run folder: intervals.csv (every second: throughput, p50, p99,
 * p99.9, max, CPU), events.csv (flushes, WAL rolls, compactions, splits, ... from the servers'
 * logs), summary.txt and latency.png. The folder is named *.partial while the run goes on and
 * *.failed if it fails, so that no half-written result poses as a finished one.
 *
 * <p>Usage: {@code WriteBench --out DIR [options]} (scripts/harness passes {@code --out}); the
 * results on stdout, progress on stderr ({@code harness: bench write: ...}) and in the run's
 * logs/client.log. Exit 0, 1 on a failure (one {@code harness: error: bench write:} line), 2 on a
 * bad command line (one {@code harness: usage error:} line).
 */
public final class WriteBench extends HarnessTool {
  /** The table attribute that marks a table as the benchmark's own. */
  static final String MARK = "HARNESS_BENCH";

  private static final Logger LOG = LoggerFactory.getLogger(WriteBench.class);
  // How long the replica lag probe reads a secondary for a probe before it counts it not seen.
  static final long LAG_GIVE_UP_MS = 30_000;
  static final String REPLICA_REPLICATION_KEY = "hbase.region.replica.replication.enabled";
  // ServerRegionReplicaUtil's peer id for asynchronous region replica replication.
  static final String REPLICA_REPLICATION_PEER = "region_replica_replication";

  /** The command line, checked. */
  static final class Settings {
    String target = "embedded";
    String configs;
    String table = "harness_bench_write";
    int regions;
    int regionServers = 3;
    boolean verify;
    boolean profile;
    final Map<String, String> serverConf = new LinkedHashMap<>();
    final WriteLoad.Params load = new WriteLoad.Params();
    File out;
  }

  /** Whether the benchmark is the JVM's program: then it owns the JVM's logging. */
  private final boolean ownsJvm;
  private Settings o;
  private File partial;
  private Target target;
  private volatile boolean finished;

  WriteBench(boolean ownsJvm) {
    super("bench write", "bench write [--target embedded|cluster|HBASE_SITE_XML] [--threads N] "
      + "[--rows N] [--key-size N] [--value-size N] [--regions N] "
      + "[--durability SYNC_WAL|FSYNC_WAL|ASYNC_WAL|SKIP_WAL] [--configs NAME[+NAME],...] "
      + "[--duration S] [--verify] [--profile] [--table NAME] [--regionservers N] "
      + "[--conf KEY=VALUE]",
      "harness: usage error: bench write: ", "harness: error: bench write: ");
    this.ownsJvm = ownsJvm;
  }

  @Override
  protected void addOptions() {
    addOptWithArg(null, "target", "embedded (the default), cluster or an hbase-site.xml");
    addOptWithArg(null, "threads", "writer threads, one put in flight each (default 100)");
    addOptWithArg(null, "rows", "stop each configuration after N rows (default: no limit)");
    addOptWithArg(null, "key-size", "bytes of a row key (default 120)");
    addOptWithArg(null, "value-size", "bytes of a value (default 1024)");
    addOptWithArg(null, "regions", "regions of the pre-split table (default: one per server)");
    addOptWithArg(null, "durability", "SYNC_WAL, FSYNC_WAL, ASYNC_WAL or SKIP_WAL");
    addOptWithArg(null, "configs", "NAME[+NAME],...: the configurations, in turn");
    addOptWithArg(null, "duration", "seconds of load per configuration (default 60)");
    addOptNoArg(null, "verify", "read a sample of the acknowledged rows back");
    addOptNoArg(null, "profile", "record each RegionServer with JFR while it runs (cluster "
      + "target) and summarize where its CPU time goes");
    addOptWithArg(null, "table", "the table (default harness_bench_write)");
    addOptWithArg(null, "regionservers", "region servers of the embedded target (default 3)");
    addOptWithArg(null, "conf", "KEY=VALUE: a server setting (again for more)");
    addRequiredOptWithArg(null, "out", "the run folder (scripts/harness passes it)");
  }

  @Override
  protected void processOptions(CommandLine cmd) {
    noArguments(cmd);
    Settings s = new Settings();
    WriteLoad.Params load = s.load;
    s.target = value(cmd, "target", s.target);
    load.threads = intValue(cmd, "threads", load.threads, 1, 5000);
    load.rows = longValue(cmd, "rows", load.rows, 1, Long.MAX_VALUE);
    load.keySize = intValue(cmd, "key-size", load.keySize, 8, Short.MAX_VALUE);
    load.valueSize = intValue(cmd, "value-size", load.valueSize, 1, 64 * 1024 * 1024);
    s.regions = intValue(cmd, "regions", s.regions, 1, 1296);
    s.regionServers = intValue(cmd, "regionservers", s.regionServers, 1, 10);
    load.durationS = intValue(cmd, "duration", load.durationS, 1, 7 * 24 * 3600);
    if (load.rows > 0 && !cmd.hasOption("duration")) {
      load.durationS = 0;
    }
    String d = value(cmd, "durability");
    if (d != null) {
      Durability given = null;
      try {
        given = Durability.valueOf(d.toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        // Refused below.
      }
      if (given == null || given == Durability.USE_DEFAULT) {
        throw new UsageException(
          "--durability '" + d + "' is not one of SYNC_WAL, FSYNC_WAL, ASYNC_WAL, SKIP_WAL");
      }
      load.durability = given;
    }
    s.configs = value(cmd, "configs");
    s.table = value(cmd, "table", s.table);
    String[] confs = cmd.getOptionValues("conf");
    for (String kv : confs == null ? new String[0] : confs) {
      int eq = kv.indexOf('=');
      if (eq <= 0) {
        throw new UsageException("--conf '" + kv + "' is not KEY=VALUE");
      }
      s.serverConf.put(kv.substring(0, eq), kv.substring(eq + 1));
    }
    s.out = new File(value(cmd, "out"));
    s.verify = cmd.hasOption("verify");
    s.profile = cmd.hasOption("profile");
    if (s.profile && !"cluster".equals(s.target)) {
      throw new UsageException("--profile needs --target cluster, whose RegionServer processes "
        + "it can record");
    }
    try {
      TableName.valueOf(s.table);
    } catch (IllegalArgumentException e) {
      throw new UsageException("--table '" + s.table + "' is not a table name: "
        + e.getMessage());
    }
    this.o = s;
    this.partial = new File(s.out.getPath() + ".partial");
  }

  /** One line of progress: on stderr for the user, and in the log. */
  static void progress(String msg) {
    LOG.info(msg);
    System.err.println("harness: bench write: " + msg);
    System.err.flush();
  }

  /**
   * Sets up logging to the run folder. The system properties go to the embedded cluster's JVMs;
   * when the benchmark is the JVM's program, its own logging is moved to the run folder too.
   */
  private void setUpLogging() throws IOException {
    File logs = new File(partial, "logs");
    Files.createDirectories(logs.toPath());
    File props = new File(logs, "log4j2.properties");
    String p = String.join("\n", "status = warn", "dest = err", "name = HarnessBenchWrite",
      "appender.file.type = File", "appender.file.name = File",
      "appender.file.fileName = ${sys:harness.log.file}", "appender.file.append = true",
      "appender.file.layout.type = PatternLayout",
      "appender.file.layout.pattern = %d{ISO8601} %-5p [%t] %c{2}: %m%n",
      "rootLogger = INFO,File", "logger.zookeeper.name = org.apache.zookeeper",
      "logger.zookeeper.level = WARN", "logger.hadoop.name = org.apache.hadoop",
      "logger.hadoop.level = WARN", "logger.hdfs.name = org.apache.hadoop.hdfs",
      "logger.hdfs.level = WARN", "logger.hbase.name = org.apache.hadoop.hbase",
      "logger.hbase.level = INFO", "logger.metrics.name = org.apache.hadoop.hbase.metrics",
      "logger.metrics.level = WARN", "logger.http.name = org.apache.hadoop.hbase.http",
      "logger.http.level = WARN", "");
    Files.write(props.toPath(), p.getBytes(StandardCharsets.UTF_8));
    System.setProperty("log4j2.configurationFile", props.getAbsolutePath());
    System.setProperty("harness.log.file", new File(logs, "client.log").getAbsolutePath());
    if (ownsJvm) {
      // Logging started with the JVM (HBase's tool base class logs), before the folder existed.
      Configurator.reconfigure(props.toURI());
    }
  }

  private Target makeTarget() throws BenchException {
    switch (o.target) {
      case "embedded":
        return new Targets.Embedded(o.regionServers,
          System.getProperty("harness.embedded.heap", "4g"), 300_000,
          JvmFlags.fromSystemProperty());
      case "cluster":
        String dir = System.getProperty("harness.cluster.dir");
        String script = System.getProperty("harness.script");
        if (dir == null || script == null) {
          throw new BenchException("--target cluster needs scripts/harness (harness.script)");
        }
        return new Targets.LocalCluster(new File(dir), script);
      default:
        File site = new File(o.target);
        if (!site.isFile()) {
          throw new BenchException("--target '" + o.target + "' is neither embedded, cluster "
            + "nor an hbase-site.xml file");
        }
        return new Targets.Site(site);
    }
  }

  private List<WriteConfig> configs() {
    boolean harnessTarget = o.target.equals("embedded") || o.target.equals("cluster");
    // Builds can only be compared on servers the harness starts.
    String list = o.configs != null ? o.configs
      : harnessTarget ? System.getProperty("harness.default.configs", "default") : "default";
    String build = System.getProperty("harness.default.build", "stock");
    List<WriteConfig> out = new ArrayList<>();
    try {
      for (WriteConfig c : WriteConfigs.parse(list)) {
        out.add(harnessTarget ? c.resolve(build, o.serverConf) : c.resolve(null, o.serverConf));
      }
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
    return out;
  }

  /**
   * Why a configuration with the persistent-memory option cannot run: its build does not have
   * the option (harness.pmem.builds lists the builds that do), or null.
   */
  static String refusePmem(WriteConfig c) {
    if (!c.pmem()) {
      return null;
    }
    String builds = "," + System.getProperty("harness.pmem.builds", "") + ",";
    if (c.build() != null && !builds.contains("," + c.build() + ",")) {
      return "configuration '" + c.name() + "' needs the persistent-memory option ("
        + WriteConfig.PMEM_PATH_KEY + "), which the " + c.build() + " build does not have; "
        + "build the series with the HBASE-20003 patch";
    }
    return null;
  }

  /** Runs the benchmark; a failure marks the run folder failed. */
  @Override
  protected int doWork() throws Exception {
    boolean ok = false;
    String why = "failed";
    try {
      int rc = runBench();
      ok = true;
      return rc;
    } catch (Exception | Error e) {
      why = e instanceof ToolException ? e.getMessage() : e.toString();
      throw e;
    } finally {
      if (!ok && !finished) {
        markFailed(why);
        finished = true;
      }
    }
  }

  private int runBench() throws Exception {
    if (o.out.exists() || partial.exists()) {
      throw new BenchException("the run folder " + o.out + " exists already");
    }
    // Everything that can be checked without a cluster is checked before the run folder exists.
    List<WriteConfig> configs = configs();
    Target t = makeTarget();
    for (WriteConfig c : configs) {
      // A build without the option first: no target can run such a configuration.
      String why = refusePmem(c);
      if (why == null) {
        why = t.refuse(c);
      }
      if (why != null) {
        throw new BenchException(why);
      }
    }
    setUpLogging();
    target = t;
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      Target started = target;
      if (started != null) {
        started.close();
      }
      if (!finished) {
        markFailed("interrupted");
      }
    }, "bench-write-cleanup"));
    String durability =
      o.load.durability == null ? "SYNC_WAL (HBase's default)" : o.load.durability.name();
    String title = String.format(Locale.ROOT,
      "bench write: %d threads, one put each, %d-byte keys, %d-byte values, %s; %s", o.load.threads,
      o.load.keySize, o.load.valueSize, durability,
      o.target.equals("embedded") || o.target.equals("cluster") ? o.target + " target"
        : "target " + new File(o.target).getName());
    StringBuilder runTxt = new StringBuilder();
    runTxt.append("started: ").append(LocalDateTime.now()).append('\n');
    runTxt.append("target: ").append(target.describe()).append('\n');
    runTxt.append(String.format(Locale.ROOT,
      "threads: %d%nkey size: %d%nvalue size: %d%nduration: %s%nrows: %s%ndurability: %s%n"
        + "table: %s%nverify: %s%nprofile: %s%nmachine: %d cores, java %s%n",
      o.load.threads, o.load.keySize, o.load.valueSize,
      o.load.durationS > 0 ? o.load.durationS + " s per configuration" : "until the rows",
      o.load.rows > 0 ? String.valueOf(o.load.rows) : "no limit", durability, o.table, o.verify,
      o.profile, Runtime.getRuntime().availableProcessors(), System.getProperty("java.version")));
    runTxt.append("load average at the start: ").append(loadAverage()).append('\n');
    for (WriteConfig c : configs) {
      runTxt.append("config ").append(c.name()).append(": ").append(c.settings()).append(" -- ")
        .append(c.description()).append('\n');
    }
    Report.write(new File(partial, "run.txt").toPath(), runTxt.toString());
    progress("run folder " + partial + "; target: " + target.describe());

    List<RunResult> results = new ArrayList<>();
    boolean verifyFailed = false;
    for (WriteConfig c : configs) {
      progress("[" + c.name() + "] " + c.settings());
      RunResult r = runOne(c);
      results.add(r);
      verifyFailed |= r.verifyFailed();
      // Write what is there after every configuration: a long run keeps its first parts.
      writeResults(title, results);
    }
    target.close();
    String summary = Report.summary(results);
    System.out.println();
    System.out.println(title);
    System.out.println();
    System.out.print(summary);
    System.out.println();
    for (RunResult r : results) {
      if (r.clientCpu > 50) {
        System.out.println(String.format(Locale.ROOT, "warning: the client JVM used %.0f%% of "
          + "the machine's CPU in '%s': it may be the bottleneck", r.clientCpu, r.config.name()));
      }
      if (r.errors > 0) {
        System.out.println("note: '" + r.config.name() + "' had " + r.errors
          + " failed puts (not counted as acknowledged); first: " + r.firstError);
      }
    }
    if (verifyFailed) {
      markFailed("an acknowledged put is missing or wrong");
      finished = true;
      throw new BenchException("--verify: acknowledged puts are missing or wrong (see the "
        + "verify column above); results in " + failedDir());
    }
    Files.move(partial.toPath(), o.out.toPath(), StandardCopyOption.ATOMIC_MOVE);
    finished = true;
    Path latest = o.out.toPath().resolveSibling("latest");
    try {
      Files.deleteIfExists(latest);
      Files.createSymbolicLink(latest, o.out.toPath().getFileName());
    } catch (IOException | UnsupportedOperationException e) {
      // Only a convenience.
    }
    System.out.println("results: " + o.out);
    System.out.println("  intervals.csv  every second: puts, errors, p50, p99, p99.9, max, CPU");
    System.out.println("  events.csv     flushes, WAL rolls, compactions, splits, ... by second");
    System.out.println("  summary.txt    the table above");
    System.out.println("  latency.png    latency over time, one line per configuration");
    return 0;
  }

  /** The machine's load average (/proc/loadavg): other work on the machine skews the numbers. */
  static String loadAverage() {
    try {
      String[] f = new String(Files.readAllBytes(new File("/proc/loadavg").toPath()),
        StandardCharsets.UTF_8).trim().split("\\s+");
      return f[0] + " " + f[1] + " " + f[2];
    } catch (IOException | RuntimeException e) {
      return "unknown";
    }
  }

  private File failedDir() {
    return new File(o.out.getPath() + ".failed");
  }

  private void markFailed(String why) {
    try {
      if (partial.isDirectory()) {
        Files.write(new File(partial, "FAILED").toPath(),
          (why + "\n").getBytes(StandardCharsets.UTF_8));
        Files.move(partial.toPath(), failedDir().toPath(), StandardCopyOption.ATOMIC_MOVE);
      }
    } catch (IOException e) {
      // Nothing more to do.
    }
  }

  private void writeResults(String title, List<RunResult> results) throws IOException {
    Report.write(new File(partial, "intervals.csv").toPath(), Report.intervalsCsv(results));
    Report.write(new File(partial, "events.csv").toPath(), Report.eventsCsv(results));
    Report.write(new File(partial, "summary.txt").toPath(), title + "\n\n"
      + Report.summary(results) + "\nload average at the end: " + loadAverage() + "\n");
    LatencyChart.write(new File(partial, "latency.png"), title, results);
  }

  private RunResult runOne(WriteConfig c) throws Exception {
    RunResult r = new RunResult(c);
    long t0 = System.currentTimeMillis();
    Configuration conf = target.prepare(c, partial);
    for (Map.Entry<String, String> e : c.clientConf().entrySet()) {
      conf.set(e.getKey(), e.getValue());
    }
    int live = checkReachable(conf);
    progress(String.format(Locale.ROOT, "[%s] servers ready in %.0fs, %d region servers", c.name(),
      (System.currentTimeMillis() - t0) / 1000.0, live));
    WriteLoad.Params p = o.load;
    Durability saved = p.durability;
    if (c.durability() != null) {
      p.durability = Durability.valueOf(c.durability());
    }
    TableName tn = TableName.valueOf(o.table);
    try (Connection conn = ConnectionFactory.createConnection(conf)) {
      int regions = o.regions > 0 ? o.regions : Math.max(1, live);
      if (target instanceof Targets.LocalCluster) {
        dropStrayReplicaPeer(conn, c);
      }
      createTable(conn, tn, c, regions);
      Map<Path, Long> offsets = ServerEvents.offsets(target.logs());
      WriteLoad load = new WriteLoad(conn, tn, p, m -> progress("[" + c.name() + "] " + m));
      List<byte[]> sample = new ArrayList<>();
      progress(String.format(Locale.ROOT, "[%s] %d writers, %s, table %s pre-split into %d "
        + "regions", c.name(), p.threads, p.durationS > 0 ? p.durationS + "s" : p.rows + " rows",
        tn, regions));
      int replicas = regionReplication(c);
      ReplicaLag lag = null;
      Profiler profiler = null;
      try {
        if (replicas > 1) {
          lag = ReplicaLag.start(conn, tn, replicas, p.durability, 1000, LAG_GIVE_UP_MS);
        }
        if (o.profile) {
          profiler = Profiler.start(target.serverPids(), partial.toPath(), c.name());
        }
        load.run(r, sample);
      } finally {
        if (lag != null) {
          lag.close();
          r.replicaLag = lag.describe();
          progress("[" + c.name() + "] replica lag: " + r.replicaLag);
        }
        if (profiler != null) {
          List<Path> recordings = profiler.stop();
          String title = String.format(Locale.ROOT, "[%s] where the RegionServers' CPU time went "
            + "while it ran (%d JVMs)", c.name(), recordings.size());
          String text = Profiler.write(title, recordings,
            new File(partial, "profile-" + c.name() + ".txt").toPath());
          progress("[" + c.name() + "] profile: " + partial.getName().replace(".partial", "")
            + "/profile-" + c.name() + ".txt; top thread pools:\n" + topLines(text, 4));
        }
      }
      r.eventsRead = !offsets.isEmpty();
      // A flush or roll logged just after the end started within the run.
      r.events.addAll(ServerEvents.readAll(offsets, r.startMs, r.endMs + 3000));
      progress(String.format(Locale.ROOT,
        "[%s] done: %,d puts acked in %.1fs (%,.0f/s), %d errors, p99 %.2f ms, client CPU "
          + "%.0f%%",
        c.name(), r.acked, r.seconds(), r.throughput(), r.errors,
        RunResult.ms(r.total.getTotalCount() == 0 ? 0 : r.total.getValueAtPercentile(99)),
        r.clientCpu));
      if (o.verify) {
        long[] mw = load.verify(sample);
        r.verifySampled = sample.size();
        r.verifyMissing = mw[0];
        r.verifyWrong = mw[1];
        progress(String.format(Locale.ROOT, "[%s] verify: read back %,d sampled acknowledged "
          + "rows: %d missing, %d wrong", c.name(), sample.size(), mw[0], mw[1]));
      }
      if (!(target instanceof Targets.Embedded)) {
        dropTable(conn, tn);
      }
    } finally {
      p.durability = saved;
      target.finish(c);
    }
    return r;
  }

  /**
   * Removes, from the harness's own local cluster, the replication peer that stock HBase adds for
   * asynchronous region replica replication when a table with replicas is created with
   * {@value #REPLICA_REPLICATION_KEY} on, unless this configuration sets that key. The peer
   * outlives the configuration that made it (it is kept in ZooKeeper across restarts), and its
   * source would read every WAL edit of the configurations after it.
   */
  private static void dropStrayReplicaPeer(Connection conn, WriteConfig c) throws IOException {
    if ("true".equals(c.serverConf().get(REPLICA_REPLICATION_KEY))) {
      return;
    }
    try (Admin admin = conn.getAdmin()) {
      boolean found = admin.listReplicationPeers().stream()
        .anyMatch(d -> REPLICA_REPLICATION_PEER.equals(d.getPeerId()));
      if (found) {
        admin.removeReplicationPeer(REPLICA_REPLICATION_PEER);
        progress("[" + c.name() + "] removed the replication peer " + REPLICA_REPLICATION_PEER
          + " an earlier configuration left on the local cluster");
      }
    }
  }

  /** The first {@code n} lines of the thread pool section of a profile summary. */
  static String topLines(String profile, int n) {
    String[] lines = profile.split("\n");
    StringBuilder b = new StringBuilder();
    boolean in = false;
    int taken = 0;
    for (String l : lines) {
      if (l.startsWith("by thread pool")) {
        in = true;
      } else if (in && l.startsWith("  ") && taken < n) {
        b.append(taken == 0 ? "" : "\n").append(l);
        taken++;
      }
    }
    return b.toString();
  }

  /** The number of live region servers; fails with one line when the cluster does not answer. */
  private int checkReachable(Configuration conf) throws Exception {
    Configuration quick = ClientSettings.failFast(conf, 3,
      (int) HConstants.DEFAULT_HBASE_CLIENT_PAUSE, 10_000, 30_000, 15_000);
    ExecutorService pool = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "reachability");
      t.setDaemon(true);
      return t;
    });
    Future<Integer> f = pool.submit(() -> {
      try (Connection conn = ConnectionFactory.createConnection(quick);
        Admin admin = conn.getAdmin()) {
        ClusterMetrics m = admin.getClusterMetrics(EnumSet.of(ClusterMetrics.Option.LIVE_SERVERS));
        return m.getLiveServerMetrics().size();
      }
    });
    try {
      int live = f.get(60, TimeUnit.SECONDS);
      if (live == 0) {
        throw new BenchException("the target cluster (" + target.describe() + ") has no live "
          + "region server");
      }
      return live;
    } catch (TimeoutException e) {
      f.cancel(true);
      throw new BenchException("cannot reach the target cluster (" + target.describe() + ", "
        + "ZooKeeper " + conf.get("hbase.zookeeper.quorum") + ":"
        + conf.get("hbase.zookeeper.property.clientPort") + "): no answer in 60s");
    } catch (ExecutionException e) {
      throw new BenchException("cannot reach the target cluster (" + target.describe() + ", "
        + "ZooKeeper " + conf.get("hbase.zookeeper.quorum") + ":"
        + conf.get("hbase.zookeeper.property.clientPort") + "): " + firstLine(rootCause(e)));
    } finally {
      pool.shutdownNow();
    }
  }

  /** Returns the REGION_REPLICATION the configuration gives its table, 1 if none. */
  static int regionReplication(WriteConfig c) {
    String v = c.tableConf().get("REGION_REPLICATION");
    return v == null ? 1 : Integer.parseInt(v.trim());
  }

  /** Creates the pre-split table; a table of that name made by the benchmark is replaced. */
  private void createTable(Connection conn, TableName tn, WriteConfig c, int regions)
    throws Exception {
    try (Admin admin = conn.getAdmin()) {
      TableDescriptorBuilder b = TableDescriptorBuilder.newBuilder(tn)
        .setColumnFamily(ColumnFamilyDescriptorBuilder.of(WriteLoad.FAMILY))
        .setValue(MARK, "write");
      for (Map.Entry<String, String> e : c.tableConf().entrySet()) {
        if (e.getKey().equals("SPLIT_POLICY")) {
          b.setRegionSplitPolicyClassName(e.getValue());
        } else {
          b.setValue(e.getKey(), e.getValue());
        }
      }
      List<byte[]> splits = KeyValues.splitKeys(regions);
      Tables.createOrReplace(admin, b.build(), splits.toArray(new byte[0][]),
        WriteBench::notOurs);
    }
  }

  /** Why an existing table is not one the benchmark made (to be replaced), or null. */
  private static String notOurs(TableDescriptor old) {
    Set<String> fams = new TreeSet<>();
    for (ColumnFamilyDescriptor f : old.getColumnFamilies()) {
      fams.add(f.getNameAsString());
    }
    boolean ours = "write".equals(old.getValue(MARK)) && fams.size() == 1
      && fams.contains(Bytes.toString(WriteLoad.FAMILY));
    return ours ? null : "table " + old.getTableName() + " exists with another schema (families "
      + String.join(",", fams) + ", not made by bench write); drop it or pass --table";
  }

  private void dropTable(Connection conn, TableName tn) {
    try (Admin admin = conn.getAdmin()) {
      Tables.drop(admin, tn);
    } catch (IOException e) {
      progress("could not drop " + tn + " after the run: " + e.getMessage());
    }
  }

  public static void main(String[] args) {
    launch(new WriteBench(true), args);
  }

  /**
   * Runs the benchmark in this JVM (its logging stays as it is); returns the exit status: 0, 1 on
   * a failure, 2 on a bad command line.
   */
  public static int execute(String[] args) {
    return new WriteBench(false).run(args);
  }
}
