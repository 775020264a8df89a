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
package org.apache.hadoop.hbase.harness.crash;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.ClusterMetrics;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.RegionMetrics;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.Abortable;
import org.apache.hadoop.hbase.Size;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Consistency;
import org.apache.hadoop.hbase.client.Durability;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.RegionReplicaUtil;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.harness.util.ClientSettings;
import org.apache.hadoop.hbase.harness.util.HarnessTool;
import org.apache.hadoop.hbase.harness.util.Tables;
import org.apache.hadoop.hbase.harness.util.ToolException;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.zookeeper.ZKUtil;
import org.apache.hadoop.hbase.zookeeper.ZKWatcher;
import org.apache.hadoop.hbase.zookeeper.ZNodePaths;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.apache.hbase.thirdparty.org.apache.commons.cli.CommandLine;
import org.apache.hbase.thirdparty.org.apache.commons.cli.Option;

/**
 * The client side of {@code scripts/harness crash} and {@code bench recovery}, one step per
 * call, so that the script can kill and restart servers between the steps:
 * <ul>
 * <li>{@code create SITE TABLE [--regions 8] [--replicas 1]}: the pre-split test table (replaced
 * if the harness made it), region splits off, the balancer off; with 2 replicas or more, each
 * region's secondaries fed synchronously (the series' {@code SYNCHRONOUS_REGION_REPLICATION}
 * table option);</li>
 * <li>{@code load SITE TABLE --rows N --ledger FILE --tag T [--threads 8] [--batch 50]
 * [--value-size 1024] [--durability SKIP_WAL]}: puts rows and records each acknowledged key in
 * the ledger only after its put returned;</li>
 * <li>{@code layout SITE TABLE}: which server holds each region of the table, and hbase:meta;</li>
 * <li>{@code gather SITE TABLE --port P}: every region of the table onto the RegionServer of
 * port P, every other region off it;</li>
 * <li>{@code isolate SITE TABLE}: picks the RegionServer that holds the most secondary replicas of
 * the table (one without hbase:meta if it can) and moves every primary of the table off it, each
 * to a server that holds no replica of its region;</li>
 * <li>{@code primaries SITE TABLE}: picks the RegionServer without hbase:meta that holds the most
 * primaries of the table, moves every secondary of the table off it, each to a server that holds
 * no replica of its region, then every primary of the table onto it;</li>
 * <li>{@code insync SITE TABLE [--since MS] [--timeout 600]}: waits until the in-sync record of
 * every region of the table (its znode) names every secondary; reports the time since MS (epoch
 * ms, default the start of the step);</li>
 * <li>{@code watch SITE TABLE --go FILE --out FILE [--timeout S]}: learns the regions, writes
 * OUT.ready, waits for the go file (the time of the restart, epoch ms), then times until a get
 * succeeds on every region;</li>
 * <li>{@code verify SITE TABLE --ledger FILE[,FILE] [--value-size 1024] [--sample N]
 * [--missing FILE] [--replica-id 0|N|in-sync]}: reads back the acknowledged rows and compares
 * their values; from secondary replica N with TIMELINE gets, or, with {@code in-sync}, from every
 * secondary the in-sync record of the row's region names; exit 3 when one is missing or
 * wrong;</li>
 * <li>{@code memstore SITE TABLE}: the table's memstore and store file bytes, from the
 * servers;</li>
 * <li>{@code drop SITE TABLE}.</li>
 * </ul>
 * Results are lines on stdout starting with {@code harness-crash}; progress lines on stderr start
 * with {@code harness: STEP:}. A failure is one {@code harness: error:} line and exit 1; a bad
 * command line (an unknown step or option, an option the step does not take, a bad number) one
 * {@code harness: error:} line too, which scripts/harness quotes, and exit 2.
 */
public final class CrashTool extends HarnessTool {
  static final byte[] FAMILY = "f".getBytes(StandardCharsets.UTF_8);
  static final byte[] QUALIFIER = "q".getBytes(StandardCharsets.UTF_8);
  /** The table attribute that marks a table the harness made. */
  static final String MARK = "harness.crash";
  /** The table option of the series that feeds the secondaries synchronously. */
  static final String SYNCHRONOUS = "SYNCHRONOUS_REGION_REPLICATION";
  /** The znode, under HBase's base znode, of the series' in-sync records, a child per table. */
  static final String IN_SYNC_PARENT = "sync-region-replication";
  /** verify --replica-id in-sync: every secondary the in-sync records name. */
  static final int IN_SYNC = -1;
  /** Exit status of verify when an acknowledged row is missing or wrong. */
  static final int EXIT_LOST = 3;

  private static final Logger LOG = LoggerFactory.getLogger(CrashTool.class);

  /** The steps, each with the options it takes. */
  enum Step {
    CREATE("regions", "replicas"),
    LOAD("rows", "threads", "batch", "value-size", "tag", "durability", "ledger"),
    LAYOUT,
    GATHER("port"),
    ISOLATE,
    PRIMARIES,
    INSYNC("since", "timeout"),
    WATCH("go", "out", "timeout"),
    VERIFY("ledger", "value-size", "sample", "missing", "replica-id"),
    MEMSTORE,
    DROP;

    final Set<String> options;

    Step(String... options) {
      this.options = new LinkedHashSet<>(Arrays.asList(options));
    }

    String label() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  private Step step;
  private File site;
  private TableName table;
  private int regions;
  private long rows;
  private int threads;
  private int batch;
  private int valueSize;
  private String tag;
  private Durability durability;
  private String ledger;
  private int port;
  private Path go;
  private Path out;
  private long timeoutS;
  private int sample;
  private Path missing;
  private int replicas;
  // A replica id, or IN_SYNC.
  private int replicaId;
  private long since;

  /** Its bad command lines are "harness: error:" lines too: scripts/harness quotes those. */
  public CrashTool() {
    super("crash tool", "CrashTool create|load|layout|gather|isolate|primaries|insync|watch|verify|"
      + "memstore|"
      + "drop "
      + "HBASE_SITE_XML TABLE [--option value ...]", "harness: error: ", "harness: error: ");
  }

  @Override
  protected String usageFooter() {
    StringBuilder sb = new StringBuilder("Options by step:");
    for (Step s : Step.values()) {
      sb.append("\n  ").append(s.label()).append(": ")
        .append(s.options.isEmpty() ? "none" : "--" + String.join(", --", s.options));
    }
    return sb.toString();
  }

  @Override
  protected String failureLine(Exception e) {
    return (step == null ? name() : step.label()) + ": " + super.failureLine(e);
  }

  @Override
  protected void addOptions() {
    addOptWithArg(null, "regions", "create: regions of the table (default 8)");
    addOptWithArg(null, "replicas", "create: replicas of each region, synchronous from 2 "
      + "(default 1)");
    addOptWithArg(null, "rows", "load: rows to put");
    addOptWithArg(null, "threads", "load: writer threads (default 8)");
    addOptWithArg(null, "batch", "load: rows per put call (default 50)");
    addOptWithArg(null, "value-size", "load, verify: bytes of a value (default 1024)");
    addOptWithArg(null, "tag", "load: the tag in the row keys");
    addOptWithArg(null, "durability", "load: SKIP_WAL (the default), ASYNC_WAL, SYNC_WAL, ...");
    addOptWithArg(null, "ledger", "load: the ledger to write; verify: FILE[,FILE] to read");
    addOptWithArg(null, "port", "gather: the RPC port of the RegionServer");
    addOptWithArg(null, "go", "watch: the file of the restart time (epoch ms)");
    addOptWithArg(null, "out", "watch: the result file");
    addOptWithArg(null, "timeout", "watch: seconds to wait for the go file, then the regions; "
      + "insync: seconds to wait (default 600)");
    addOptWithArg(null, "since", "insync: the time (epoch ms) to report from");
    addOptWithArg(null, "replica-id", "verify: the replica to read from (default 0), or "
      + "'in-sync': every secondary the in-sync record of its region names");
    addOptWithArg(null, "sample", "verify: rows to read back, 0 for all (default 0)");
    addOptWithArg(null, "missing", "verify: the file of the missing and wrong keys");
  }

  @Override
  protected void processOptions(CommandLine cmd) {
    String[] args = arguments(cmd, 3, 3, "STEP HBASE_SITE_XML TABLE");
    try {
      step = Step.valueOf(args[0].toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new UsageException("unknown step '" + args[0] + "'");
    }
    for (Option o : cmd.getOptions()) {
      if (!step.options.contains(o.getLongOpt())) {
        throw new UsageException(step.label() + " takes no --" + o.getLongOpt());
      }
    }
    site = new File(args[1]);
    try {
      table = TableName.valueOf(args[2]);
    } catch (IllegalArgumentException e) {
      throw new UsageException("'" + args[2] + "' is not a table name: " + e.getMessage());
    }
    regions = intValue(cmd, "regions", 8, 1, Integer.MAX_VALUE);
    rows = longValue(cmd, "rows", 0, 1, Long.MAX_VALUE);
    threads = intValue(cmd, "threads", 8, 1, Integer.MAX_VALUE);
    batch = intValue(cmd, "batch", 50, 1, Integer.MAX_VALUE);
    valueSize = intValue(cmd, "value-size", 1024, 1, Integer.MAX_VALUE);
    port = intValue(cmd, "port", 0, 1, 65535);
    timeoutS = longValue(cmd, "timeout", 600, 1, Long.MAX_VALUE / 1000);
    sample = intValue(cmd, "sample", 0, 0, Integer.MAX_VALUE);
    // HBase's own bound on REGION_REPLICATION is far higher; ten is plenty for a test.
    replicas = intValue(cmd, "replicas", 1, 1, 10);
    replicaId = "in-sync".equals(value(cmd, "replica-id"))
      ? IN_SYNC
      : intValue(cmd, "replica-id", 0, 0, 9);
    since = longValue(cmd, "since", System.currentTimeMillis(), 1, Long.MAX_VALUE);
    tag = value(cmd, "tag");
    String d = value(cmd, "durability", "SKIP_WAL");
    try {
      durability = Durability.valueOf(d);
    } catch (IllegalArgumentException e) {
      throw new UsageException("unknown durability '" + d + "'");
    }
    ledger = value(cmd, "ledger");
    go = path(value(cmd, "go"));
    out = path(value(cmd, "out"));
    missing = path(value(cmd, "missing"));
    switch (step) {
      case LOAD:
        required(cmd, "rows", "tag", "ledger");
        break;
      case GATHER:
        required(cmd, "port");
        break;
      case WATCH:
        required(cmd, "go", "out");
        break;
      case VERIFY:
        required(cmd, "ledger");
        break;
      default:
        break;
    }
  }

  private static Path path(String p) {
    return p == null ? null : Paths.get(p);
  }

  private void required(CommandLine cmd, String... names) {
    for (String n : names) {
      if (!cmd.hasOption(n)) {
        throw new UsageException(step.label() + " needs --" + n);
      }
    }
  }

  /** One line of progress: on stderr, which scripts/harness shows, and in the log. */
  static void progress(String msg) {
    LOG.info(msg);
    System.err.println("harness: " + msg);
  }

  @Override
  protected int doWork() throws Exception {
    if (!site.isFile()) {
      throw new ToolException("no such file: " + site);
    }
    // The tool's configuration becomes the cluster's.
    conf = new Configuration(getConf());
    conf.addResource(new org.apache.hadoop.fs.Path(site.getAbsoluteFile().toURI()));
    switch (step) {
      case CREATE:
        create();
        break;
      case LOAD:
        load();
        break;
      case LAYOUT:
        layout();
        break;
      case GATHER:
        gather();
        break;
      case ISOLATE:
        isolate();
        break;
      case PRIMARIES:
        primaries();
        break;
      case INSYNC:
        inSync();
        break;
      case WATCH:
        watch();
        break;
      case VERIFY:
        return verify();
      case MEMSTORE:
        memstore();
        break;
      case DROP:
        drop();
        break;
      default:
        throw new IllegalStateException(step.label());
    }
    return EXIT_SUCCESS;
  }

  private void create() throws Exception {
    try (Connection conn = ConnectionFactory.createConnection(conf);
      Admin admin = conn.getAdmin()) {
      TableDescriptorBuilder b = TableDescriptorBuilder.newBuilder(table)
        .setColumnFamily(ColumnFamilyDescriptorBuilder.of(FAMILY)).setValue(MARK, "1")
        .setRegionSplitPolicyClassName(
          "org.apache.hadoop.hbase.regionserver.DisabledRegionSplitPolicy");
      if (replicas > 1) {
        b.setRegionReplication(replicas).setValue(SYNCHRONOUS, "true");
      }
      TableDescriptor d = b.build();
      Tables.createOrReplace(admin, d, RowKeys.splits(regions).toArray(new byte[0][]),
        old -> "1".equals(old.getValue(MARK)) ? null : "table " + table + " exists and was not "
          + "made by the harness; drop it or pick another table");
      // Regions stay where they are put: the test compares hosts before and after a crash.
      admin.balancerSwitch(false, true);
      reopenInPlace(admin);
      System.out.println(
        "harness-crash create table=" + table + " regions=" + regions + " replicas=" + replicas);
    }
  }

  private void load() throws Exception {
    Path ledgerFile = Paths.get(ledger);
    AtomicLong next = new AtomicLong();
    AtomicLong errors = new AtomicLong();
    AtomicLong lastOk = new AtomicLong(System.currentTimeMillis());
    AtomicBoolean stop = new AtomicBoolean();
    AtomicReference<String> firstError = new AtomicReference<>();
    long t0 = System.currentTimeMillis();
    try (Connection conn = ConnectionFactory.createConnection(conf);
      Ledger.Writer ledger = new Ledger.Writer(ledgerFile)) {
      ExecutorService pool = Executors.newFixedThreadPool(threads);
      List<Future<?>> fs = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        fs.add(pool.submit(() -> {
          try (Table tbl = conn.getTable(table)) {
            while (!stop.get()) {
              long first = next.getAndAdd(batch);
              if (first >= rows) {
                return null;
              }
              long end = Math.min(rows, first + batch);
              List<Put> puts = new ArrayList<>();
              List<byte[]> keys = new ArrayList<>();
              for (long s = first; s < end; s++) {
                byte[] k = RowKeys.key(tag, s);
                Put p = new Put(k).addColumn(FAMILY, QUALIFIER, RowKeys.value(k, valueSize));
                p.setDurability(durability);
                puts.add(p);
                keys.add(k);
              }
              try {
                tbl.put(puts);
              } catch (IOException e) {
                // Not acknowledged: never in the ledger, though some rows may be stored.
                errors.addAndGet(keys.size());
                firstError.compareAndSet(null, firstLine(e));
                if (System.currentTimeMillis() - lastOk.get() > 60_000) {
                  stop.set(true);
                }
                continue;
              }
              ledger.acked(keys);
              lastOk.set(System.currentTimeMillis());
            }
          }
          return null;
        }));
      }
      pool.shutdown();
      long lastReport = t0;
      while (!pool.awaitTermination(1, TimeUnit.SECONDS)) {
        long now = System.currentTimeMillis();
        if (now - lastReport >= 5000) {
          lastReport = now;
          long n = ledger.count();
          progress(String.format(Locale.ROOT, "load: %,d of %,d rows acknowledged (%,.0f/s)", n,
            rows, n * 1000.0 / Math.max(1, now - t0)));
        }
      }
      for (Future<?> f : fs) {
        f.get();
      }
      double s = (System.currentTimeMillis() - t0) / 1000.0;
      System.out.println(String.format(Locale.ROOT,
        "harness-crash load acked=%d errors=%d seconds=%.1f durability=%s", ledger.count(),
        errors.get(), s, durability));
      if (errors.get() > 0) {
        throw new ToolException(errors.get() + " puts failed during the load (first: "
          + firstError.get() + ")");
      }
    }
  }

  /**
   * Closes and reopens every region of the table where it is (disable, enable). HBase 2.6's
   * retained assignment after a crash (hbase.master.scp.retain.assignment) sends a region to its
   * "last host", which the master records only when the region closes: after a create it has
   * none, after a move it is the server the region left. A disable and enable closes each
   * region on its server and reopens it there, so that a crash sends it back to that server.
   */
  private void reopenInPlace(Admin admin) throws IOException {
    admin.disableTable(table);
    admin.enableTable(table);
  }

  private void layout() throws Exception {
    try (Connection conn = ConnectionFactory.createConnection(conf);
      RegionLocator loc = conn.getRegionLocator(table)) {
      for (HRegionLocation l : loc.getAllRegionLocations()) {
        System.out.println("harness-crash region " + l.getRegion().getEncodedName() + " "
          + l.getServerName());
      }
      try (RegionLocator meta = conn.getRegionLocator(TableName.META_TABLE_NAME)) {
        for (HRegionLocation l : meta.getAllRegionLocations()) {
          System.out.println("harness-crash meta " + l.getServerName());
        }
      }
    }
  }

  private void gather() throws Exception {
    try (Connection conn = ConnectionFactory.createConnection(conf);
      Admin admin = conn.getAdmin()) {
      admin.balancerSwitch(false, true);
      List<ServerName> live = new ArrayList<>(
        admin.getClusterMetrics(EnumSet.of(ClusterMetrics.Option.LIVE_SERVERS))
          .getLiveServerMetrics().keySet());
      ServerName target = null;
      ServerName other = null;
      for (ServerName sn : live) {
        if (sn.getPort() == port) {
          target = sn;
        } else if (other == null) {
          other = sn;
        }
      }
      if (target == null) {
        throw new ToolException("no live RegionServer on port " + port + " (live: " + live + ")");
      }
      long deadline = System.currentTimeMillis() + 180_000;
      while (true) {
        int moved = 0;
        for (ServerName sn : live) {
          for (RegionInfo ri : admin.getRegions(sn)) {
            boolean ours = ri.getTable().equals(table);
            if (ours && !sn.equals(target)) {
              admin.move(ri.getEncodedNameAsBytes(), target);
              moved++;
            } else if (!ours && sn.equals(target) && other != null) {
              admin.move(ri.getEncodedNameAsBytes(), other);
              moved++;
            }
          }
        }
        if (moved == 0) {
          break;
        }
        if (System.currentTimeMillis() > deadline) {
          throw new ToolException("the regions did not settle on " + target + " in 180s");
        }
        Thread.sleep(1000);
      }
      reopenInPlace(admin);
      int off = 0;
      for (RegionInfo ri : admin.getRegions(table)) {
        boolean on = false;
        for (RegionInfo r : admin.getRegions(target)) {
          on |= r.equals(ri);
        }
        off += on ? 0 : 1;
      }
      if (off > 0) {
        throw new ToolException(off + " regions of " + table + " are not on " + target
          + " after they were moved there and reopened");
      }
      System.out.println("harness-crash gather server=" + target + " regions="
        + admin.getRegions(target).size());
    }
  }

  /**
   * Moves every primary of the table off the RegionServer with the most secondaries of it, so
   * that killing that server takes secondaries only. Each primary goes to a server holding no
   * replica of its region, as HBase never puts two replicas of a region on one server; then the
   * regions are reopened in place, so that retained assignment brings each back where it is.
   */
  private void isolate() throws Exception {
    try (Connection conn = ConnectionFactory.createConnection(conf);
      Admin admin = conn.getAdmin()) {
      admin.balancerSwitch(false, true);
      ServerName meta;
      try (RegionLocator loc = conn.getRegionLocator(TableName.META_TABLE_NAME)) {
        meta = loc.getRegionLocation(new byte[0], true).getServerName();
      }
      Map<ServerName, List<RegionInfo>> held = held(admin);
      ServerName victim = null;
      int most = 0;
      for (Map.Entry<ServerName, List<RegionInfo>> e : held.entrySet()) {
        int secondaries = 0;
        for (RegionInfo ri : e.getValue()) {
          secondaries += RegionReplicaUtil.isDefaultReplica(ri) ? 0 : 1;
        }
        // A server with hbase:meta only if no other holds a secondary: its loss would stop the
        // clients a while, which is another test.
        int weight = secondaries == 0 ? 0 : secondaries + (e.getKey().equals(meta) ? 0 : 1000);
        if (weight > most) {
          victim = e.getKey();
          most = weight;
        }
      }
      if (victim == null) {
        throw new ToolException("no RegionServer holds a secondary replica of " + table
          + "; was it created with --replicas 2 or more?");
      }
      int moved = 0;
      long deadline = System.currentTimeMillis() + 180_000;
      for (RegionInfo ri : held.get(victim)) {
        if (!RegionReplicaUtil.isDefaultReplica(ri)) {
          continue;
        }
        moveAndWait(admin, ri, freeServer(held, victim, ri), deadline);
        moved++;
        held = held(admin);
      }
      reopenInPlace(admin);
      int primaries = 0;
      int secondaries = 0;
      for (RegionInfo ri : admin.getRegions(victim)) {
        if (ri.getTable().equals(table)) {
          primaries += RegionReplicaUtil.isDefaultReplica(ri) ? 1 : 0;
          secondaries += RegionReplicaUtil.isDefaultReplica(ri) ? 0 : 1;
        }
      }
      if (primaries > 0 || secondaries == 0) {
        throw new ToolException(victim + " holds " + primaries + " primaries and " + secondaries
          + " secondaries of " + table + " after the moves and the reopen; expected none and"
          + " some");
      }
      System.out.println("harness-crash isolate server=" + victim + " port=" + victim.getPort()
        + " secondaries=" + secondaries + " moved=" + moved + " meta=" + victim.equals(meta));
    }
  }

  /**
   * Moves every primary of the table onto one RegionServer and every secondary off it, so that
   * killing that server takes every primary and no secondary: each region must then fail over to
   * a secondary. The server is the one without hbase:meta (whose loss would stop the clients a
   * while, which is another test) that holds the most primaries already. The secondaries move
   * first, each to a server holding no replica of its region, so that no two replicas of a region
   * ever share a server, as HBase never places them.
   */
  private void primaries() throws Exception {
    try (Connection conn = ConnectionFactory.createConnection(conf);
      Admin admin = conn.getAdmin()) {
      admin.balancerSwitch(false, true);
      ServerName meta;
      try (RegionLocator loc = conn.getRegionLocator(TableName.META_TABLE_NAME)) {
        meta = loc.getRegionLocation(new byte[0], true).getServerName();
      }
      Map<ServerName, List<RegionInfo>> held = held(admin);
      ServerName victim = null;
      int most = -1;
      for (Map.Entry<ServerName, List<RegionInfo>> e : held.entrySet()) {
        int primaries = 0;
        for (RegionInfo ri : e.getValue()) {
          primaries += RegionReplicaUtil.isDefaultReplica(ri) ? 1 : 0;
        }
        if (!e.getKey().equals(meta) && primaries > most) {
          victim = e.getKey();
          most = primaries;
        }
      }
      if (victim == null) {
        throw new ToolException("every RegionServer holds hbase:meta (" + meta + "): start more");
      }
      long deadline = System.currentTimeMillis() + 180_000;
      int moved = 0;
      for (RegionInfo ri : held.get(victim)) {
        if (RegionReplicaUtil.isDefaultReplica(ri)) {
          continue;
        }
        moveAndWait(admin, ri, freeServer(held, victim, ri), deadline);
        moved++;
        held = held(admin);
      }
      for (List<RegionInfo> ris : new ArrayList<>(held.values())) {
        for (RegionInfo ri : ris) {
          if (RegionReplicaUtil.isDefaultReplica(ri) && !held.get(victim).contains(ri)) {
            moveAndWait(admin, ri, victim, deadline);
            moved++;
          }
        }
      }
      int primaries = 0;
      int secondaries = 0;
      for (RegionInfo ri : admin.getRegions(victim)) {
        if (ri.getTable().equals(table)) {
          primaries += RegionReplicaUtil.isDefaultReplica(ri) ? 1 : 0;
          secondaries += RegionReplicaUtil.isDefaultReplica(ri) ? 0 : 1;
        }
      }
      int regions = 0;
      for (List<RegionInfo> ris : held(admin).values()) {
        for (RegionInfo ri : ris) {
          regions += RegionReplicaUtil.isDefaultReplica(ri) ? 1 : 0;
        }
      }
      if (primaries != regions || secondaries > 0) {
        throw new ToolException(victim + " holds " + primaries + " primaries and " + secondaries
          + " secondaries of " + table + " after the moves; expected all " + regions
          + " primaries and no secondary");
      }
      System.out.println("harness-crash primaries server=" + victim + " port=" + victim.getPort()
        + " primaries=" + primaries + " moved=" + moved);
    }
  }

  /**
   * Returns a server other than {@code victim} that holds no replica of the region of {@code ri},
   * for a move that never puts two replicas of a region on one server, as HBase never places them.
   */
  private static ServerName freeServer(Map<ServerName, List<RegionInfo>> held, ServerName victim,
    RegionInfo ri) throws ToolException {
    for (Map.Entry<ServerName, List<RegionInfo>> e : held.entrySet()) {
      boolean free = !e.getKey().equals(victim);
      for (RegionInfo other : e.getValue()) {
        free &= !RegionReplicaUtil.isReplicasForSameRegion(ri, other);
      }
      if (free) {
        return e.getKey();
      }
    }
    throw new ToolException("no RegionServer but " + victim + " is free of every replica of "
      + ri.getRegionNameAsString() + ": start at least one more RegionServer than replicas");
  }

  /** Moves a region (a replica of it) to a server, and waits until that server holds it. */
  private static void moveAndWait(Admin admin, RegionInfo ri, ServerName target, long deadline)
    throws IOException, InterruptedException, ToolException {
    admin.move(ri.getEncodedNameAsBytes(), target);
    while (!admin.getRegions(target).contains(ri)) {
      if (System.currentTimeMillis() > deadline) {
        throw new ToolException(ri.getRegionNameAsString() + " did not move to " + target
          + " in 180s");
      }
      Thread.sleep(200);
    }
  }

  /** The regions of the table, replicas included, on each live RegionServer. */
  private Map<ServerName, List<RegionInfo>> held(Admin admin) throws IOException {
    Map<ServerName, List<RegionInfo>> held = new HashMap<>();
    for (ServerName sn : admin.getClusterMetrics(EnumSet.of(ClusterMetrics.Option.LIVE_SERVERS))
      .getLiveServerMetrics().keySet()) {
      List<RegionInfo> ours = new ArrayList<>();
      for (RegionInfo ri : admin.getRegions(sn)) {
        if (ri.getTable().equals(table)) {
          ours.add(ri);
        }
      }
      held.put(sn, ours);
    }
    return held;
  }

  /**
   * Waits until the in-sync record of every region of the table names every secondary: each of
   * them then holds every write acknowledged since, and the record is what a failover goes by.
   * The record is the series' znode
   * {@code <base>/sync-region-replication/<table>/<encoded primary>},
   * whose text is {@code epoch=<n> in-sync=<replica ids>}.
   */
  private void inSync() throws Exception {
    long deadline = System.currentTimeMillis() + timeoutS * 1000;
    try (Connection conn = ConnectionFactory.createConnection(conf);
      Admin admin = conn.getAdmin()) {
      int replication = admin.getDescriptor(table).getRegionReplication();
      if (replication < 2) {
        throw new ToolException(table + " has no secondary replicas");
      }
      long lastReport = System.currentTimeMillis();
      while (true) {
        Map<RegionInfo, String> records = inSyncRecords(conn);
        int behind = 0;
        String first = null;
        for (Map.Entry<RegionInfo, String> e : records.entrySet()) {
          if (namedInSync(e.getValue()).size() < replication - 1) {
            behind++;
            first = first != null ? first
              : e.getKey().getEncodedName() + " has "
                + (e.getValue() == null ? "no record" : "'" + e.getValue() + "'");
          }
        }
        long now = System.currentTimeMillis();
        if (behind == 0) {
          System.out.println(String.format(Locale.ROOT,
            "harness-crash insync regions=%d replicas=%d ms=%d", records.size(), replication,
            now - since));
          return;
        }
        if (now > deadline) {
          throw new ToolException(behind + " of " + records.size() + " regions of " + table
            + " do not have every secondary in sync after " + timeoutS + "s (first: " + first
            + ")");
        }
        if (now - lastReport >= 5000) {
          lastReport = now;
          progress("insync: " + behind + " of " + records.size() + " regions wait for a "
            + "secondary (" + first + ")");
        }
        Thread.sleep(200);
      }
    }
  }

  /**
   * The in-sync record of each region of the table, by its primary, in start key order: the text
   * of the series' znode {@code <base>/sync-region-replication/<table>/<encoded primary>}, which is
   * {@code epoch=<n> in-sync=<replica ids>}; null for a region without one.
   */
  private Map<RegionInfo, String> inSyncRecords(Connection conn) throws Exception {
    Abortable abortable = new Abortable() {
      private volatile boolean aborted;

      @Override
      public void abort(String why, Throwable e) {
        aborted = true;
        LOG.warn("ZooKeeper client aborted: {}", why, e);
      }

      @Override
      public boolean isAborted() {
        return aborted;
      }
    };
    try (Admin admin = conn.getAdmin();
      ZKWatcher zk = new ZKWatcher(conf, "harness-crash", abortable)) {
      String parent = ZNodePaths.joinZNode(
        ZNodePaths.joinZNode(zk.getZNodePaths().baseZNode, IN_SYNC_PARENT),
        table.getNameAsString());
      List<RegionInfo> primaries = new ArrayList<>();
      for (RegionInfo ri : admin.getRegions(table)) {
        if (RegionReplicaUtil.isDefaultReplica(ri)) {
          primaries.add(ri);
        }
      }
      primaries.sort(RegionInfo.COMPARATOR);
      Map<RegionInfo, String> records = new LinkedHashMap<>();
      for (RegionInfo ri : primaries) {
        byte[] data = ZKUtil.getData(zk, ZNodePaths.joinZNode(parent, ri.getEncodedName()));
        records.put(ri, data == null ? null : new String(data, StandardCharsets.UTF_8));
      }
      return records;
    }
  }

  /**
   * The replica ids an in-sync record names: its text is {@code epoch=<n> in-sync=<ids>}, the ids
   * separated by commas; none for no record or another text.
   */
  static Set<Integer> namedInSync(String text) {
    Set<Integer> ids = new TreeSet<>();
    String tag = " in-sync=";
    int at = text == null ? -1 : text.indexOf(tag);
    if (at < 0 || !text.startsWith("epoch=")) {
      return ids;
    }
    for (String id : text.substring(at + tag.length()).split(",")) {
      try {
        ids.add(Integer.parseInt(id.trim()));
      } catch (NumberFormatException e) {
        // Not an id: the record names nothing here.
      }
    }
    return ids;
  }

  private void watch() throws Exception {
    long timeoutMs = timeoutS * 1000;
    // Fail fast, try again soon: the watch times the regions, it must not sleep through them.
    Configuration quick = ClientSettings.failFast(conf, 1, 50, 2000, 3000, -1);
    List<RegionInfo> regions = new ArrayList<>();
    try (Connection conn = ConnectionFactory.createConnection(quick)) {
      try (RegionLocator loc = conn.getRegionLocator(table)) {
        for (HRegionLocation l : loc.getAllRegionLocations()) {
          regions.add(l.getRegion());
        }
      }
      if (regions.isEmpty()) {
        throw new ToolException("table " + table + " has no regions");
      }
      // Warm the location cache, so that the timed gets need meta only when a region moved.
      try (Table t = conn.getTable(table)) {
        for (RegionInfo ri : regions) {
          try {
            t.get(new Get(probeRow(ri)));
          } catch (IOException e) {
            // Only a warm-up.
          }
        }
      }
      Files.write(Paths.get(out + ".ready"), "ready\n".getBytes(StandardCharsets.UTF_8));
      long waitUntil = System.currentTimeMillis() + timeoutMs;
      while (!Files.isRegularFile(go)) {
        if (System.currentTimeMillis() > waitUntil) {
          throw new ToolException("no go file " + go + " in " + timeoutMs / 1000 + "s");
        }
        Thread.sleep(10);
      }
      long t0 = Long.parseLong(new String(Files.readAllBytes(go), StandardCharsets.UTF_8).trim());
      long deadline = t0 + timeoutMs;
      long[] online = new long[regions.size()];
      ExecutorService pool = Executors.newFixedThreadPool(Math.min(regions.size(), 64));
      List<Future<?>> fs = new ArrayList<>();
      for (int i = 0; i < regions.size(); i++) {
        final int idx = i;
        final byte[] row = probeRow(regions.get(i));
        online[i] = -1;
        fs.add(pool.submit(() -> {
          try (Table t = conn.getTable(table)) {
            while (System.currentTimeMillis() < deadline) {
              try {
                t.get(new Get(row));
                online[idx] = System.currentTimeMillis() - t0;
                return null;
              } catch (IOException e) {
                Thread.sleep(100);
              }
            }
          }
          return null;
        }));
      }
      pool.shutdown();
      for (Future<?> f : fs) {
        f.get();
      }
      long max = 0;
      int up = 0;
      StringBuilder sb = new StringBuilder();
      for (int i = 0; i < regions.size(); i++) {
        sb.append("harness-crash region-online ").append(regions.get(i).getEncodedName())
          .append(' ').append(online[i]).append('\n');
        if (online[i] >= 0) {
          up++;
          max = Math.max(max, online[i]);
        }
      }
      String head = String.format(Locale.ROOT, "harness-crash watch regions=%d online=%d "
        + "online_ms=%d%n", regions.size(), up, up == regions.size() ? max : -1);
      Path tmp = Paths.get(out + ".tmp");
      Files.write(tmp, (head + sb).getBytes(StandardCharsets.UTF_8));
      Files.move(tmp, out, StandardCopyOption.ATOMIC_MOVE);
      System.out.print(head);
      if (up < regions.size()) {
        throw new ToolException((regions.size() - up) + " of " + regions.size() + " regions of "
          + table + " did not serve a get within " + timeoutMs / 1000 + "s of the restart");
      }
    }
  }

  /** A row inside the region: its start key, or the smallest row for the first region. */
  static byte[] probeRow(RegionInfo ri) {
    byte[] start = ri.getStartKey();
    return start.length == 0 ? new byte[] { 0 } : start;
  }

  /** Returns 0, or {@value #EXIT_LOST} when a row is missing or wrong. */
  private int verify() throws Exception {
    List<Path> files = new ArrayList<>();
    for (String f : ledger.split(",")) {
      Path p = Paths.get(f);
      if (!Files.isRegularFile(p)) {
        throw new ToolException("no ledger " + p);
      }
      files.add(p);
    }
    List<byte[]> acked = Ledger.read(files);
    List<byte[]> keys = Ledger.sample(acked, sample, 20031);
    ReadBack.Tally tally = new ReadBack.Tally();
    long t0 = System.currentTimeMillis();
    String from;
    try (Connection conn = ConnectionFactory.createConnection(conf);
      Table t = conn.getTable(table)) {
      if (replicaId == 0) {
        from = "0";
        readPrimary(t, keys, tally);
      } else {
        NavigableMap<byte[], Set<Integer>> replicasOf = new TreeMap<>(Bytes.BYTES_COMPARATOR);
        if (replicaId == IN_SYNC) {
          int named = 0;
          for (Map.Entry<RegionInfo, String> e : inSyncRecords(conn).entrySet()) {
            Set<Integer> ids = namedInSync(e.getValue());
            replicasOf.put(e.getKey().getStartKey(), ids);
            named += ids.size();
          }
          if (named == 0) {
            throw new ToolException("no in-sync record of " + table + " names a secondary");
          }
          from = "in-sync";
        } else {
          replicasOf.put(new byte[0], Collections.singleton(replicaId));
          from = Integer.toString(replicaId);
        }
        readSecondaries(t, keys, replicasOf, tally);
      }
    }
    if (missing != null && !tally.clean()) {
      List<String> lines = new ArrayList<>();
      for (String k : tally.missingKeys()) {
        lines.add("missing " + k);
      }
      for (String k : tally.wrongKeys()) {
        lines.add("wrong " + k);
      }
      Files.write(missing, lines, StandardCharsets.UTF_8);
    }
    System.out.println(tally.line(acked.size()) + String.format(Locale.ROOT,
      " replica=%s seconds=%.1f", from, (System.currentTimeMillis() - t0) / 1000.0));
    return tally.clean() ? EXIT_SUCCESS : EXIT_LOST;
  }

  private void readPrimary(Table t, List<byte[]> keys, ReadBack.Tally tally) throws IOException {
    int step = 500;
    for (int i = 0; i < keys.size(); i += step) {
      List<byte[]> part = keys.subList(i, Math.min(keys.size(), i + step));
      List<Get> gets = new ArrayList<>(part.size());
      for (byte[] k : part) {
        gets.add(new Get(k).addColumn(FAMILY, QUALIFIER));
      }
      Result[] rs = t.get(gets);
      for (int j = 0; j < part.size(); j++) {
        byte[] k = part.get(j);
        byte[] v = rs[j] == null ? null : rs[j].getValue(FAMILY, QUALIFIER);
        tally.add(k, ReadBack.compare(RowKeys.value(k, valueSize), v));
      }
    }
  }

  /**
   * Reads each key from each secondary replica that {@code replicasOf} gives for the region the
   * key falls in (by start key), with a TIMELINE get that names the replica: such a get goes to
   * that replica only. One get at a time per thread: the single get is the client path that
   * honours the replica id. A result that is not stale came from a primary, which is an error.
   */
  private void readSecondaries(Table t, List<byte[]> keys,
    NavigableMap<byte[], Set<Integer>> replicasOf, ReadBack.Tally tally) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<?>> fs = new ArrayList<>();
      int step = 200;
      for (int i = 0; i < keys.size(); i += step) {
        List<byte[]> part = keys.subList(i, Math.min(keys.size(), i + step));
        fs.add(pool.submit(() -> {
          for (byte[] k : part) {
            for (int id : replicasOf.floorEntry(k).getValue()) {
              Get g = new Get(k).addColumn(FAMILY, QUALIFIER);
              g.setConsistency(Consistency.TIMELINE).setReplicaId(id);
              Result r = t.get(g);
              if (!r.isEmpty() && !r.isStale()) {
                throw new ToolException("a TIMELINE get of replica " + id + " was answered by "
                  + "the primary");
              }
              ReadBack.Outcome o =
                ReadBack.compare(RowKeys.value(k, valueSize), r.getValue(FAMILY, QUALIFIER));
              synchronized (tally) {
                tally.add(k, o);
              }
            }
          }
          return null;
        }));
      }
      for (Future<?> f : fs) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
  }

  private void memstore() throws Exception {
    long mem = 0;
    long files = 0;
    int regions = 0;
    try (Connection conn = ConnectionFactory.createConnection(conf);
      Admin admin = conn.getAdmin()) {
      for (ServerName sn : admin.getClusterMetrics(EnumSet.of(ClusterMetrics.Option.LIVE_SERVERS))
        .getLiveServerMetrics().keySet()) {
        for (RegionMetrics m : admin.getRegionMetrics(sn, table)) {
          mem += (long) m.getMemStoreSize().get(Size.Unit.BYTE);
          files += (long) m.getStoreFileSize().get(Size.Unit.BYTE);
          regions++;
        }
      }
    }
    System.out.println("harness-crash memstore bytes=" + mem + " storefile_bytes=" + files
      + " regions=" + regions);
  }

  private void drop() throws Exception {
    try (Connection conn = ConnectionFactory.createConnection(conf);
      Admin admin = conn.getAdmin()) {
      if (!admin.tableExists(table)) {
        return;
      }
      if (!"1".equals(admin.getDescriptor(table).getValue(MARK))) {
        throw new ToolException("table " + table + " was not made by the harness; not dropped");
      }
      Tables.drop(admin, table);
      System.out.println("harness-crash drop table=" + table);
    }
  }

  public static void main(String[] args) {
    launch(new CrashTool(), args);
  }
}
