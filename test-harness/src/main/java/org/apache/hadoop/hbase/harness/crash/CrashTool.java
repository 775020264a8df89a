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
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.ClusterMetrics;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.RegionMetrics;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.Size;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Durability;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;

/**
 * The client side of {@code scripts/harness crash} and {@code bench recovery}, one step per
 * call, so that the script can kill and restart servers between the steps:
 * <ul>
 * <li>{@code create SITE TABLE --regions N}: the pre-split test table (replaced if the harness
 * made it), region splits off, the balancer off;</li>
 * <li>{@code load SITE TABLE --rows N --ledger FILE --tag T [--threads 8] [--batch 50]
 * [--value-size 1024] [--durability SKIP_WAL]}: puts rows and records each acknowledged key in
 * the ledger only after its put returned;</li>
 * <li>{@code layout SITE TABLE}: which server holds each region of the table, and hbase:meta;</li>
 * <li>{@code gather SITE TABLE --port P}: every region of the table onto the RegionServer of
 * port P, every other region off it;</li>
 * <li>{@code watch SITE TABLE --go FILE --out FILE [--timeout S]}: learns the regions, writes
 * OUT.ready, waits for the go file (the time of the restart, epoch ms), then times until a get
 * succeeds on every region;</li>
 * <li>{@code verify SITE TABLE --ledger FILE[,FILE] [--value-size 1024] [--sample N]
 * [--missing FILE]}: reads back the acknowledged rows and compares their values; exit 3 when one
 * is missing or wrong;</li>
 * <li>{@code memstore SITE TABLE}: the table's memstore and store file bytes, from the servers;</li>
 * <li>{@code drop SITE TABLE}.</li>
 * </ul>
 * Results are lines starting with {@code harness-crash}; errors one {@code harness: error:} line
 * and exit 1.
 */
public final class CrashTool {
  static final byte[] FAMILY = "f".getBytes(StandardCharsets.UTF_8);
  static final byte[] QUALIFIER = "q".getBytes(StandardCharsets.UTF_8);
  /** The table attribute that marks a table the harness made. */
  static final String MARK = "harness.crash";

  /** A failure the user can act on; its message is the one line printed. */
  static final class ToolException extends Exception {
    private static final long serialVersionUID = 1L;

    ToolException(String message) {
      super(message);
    }
  }

  private final Configuration conf;
  private final TableName table;
  private final Map<String, String> opts;

  private CrashTool(Configuration conf, TableName table, Map<String, String> opts) {
    this.conf = conf;
    this.table = table;
    this.opts = opts;
  }

  /** --key value pairs. */
  static Map<String, String> options(String[] args, int from) throws ToolException {
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = from; i < args.length; i++) {
      if (!args[i].startsWith("--") || i + 1 >= args.length) {
        throw new ToolException("bad argument '" + args[i] + "' (options are --name value)");
      }
      m.put(args[i].substring(2), args[++i]);
    }
    return m;
  }

  private String opt(String name, String dflt) throws ToolException {
    String v = opts.get(name);
    if (v == null && dflt == null) {
      throw new ToolException("--" + name + " is required");
    }
    return v == null ? dflt : v;
  }

  private long num(String name, long dflt, long min) throws ToolException {
    String v = opt(name, String.valueOf(dflt));
    try {
      long n = Long.parseLong(v);
      if (n < min) {
        throw new ToolException("--" + name + " must be at least " + min + ", not " + v);
      }
      return n;
    } catch (NumberFormatException e) {
      throw new ToolException("--" + name + " must be a number, not '" + v + "'");
    }
  }

  static void progress(String msg) {
    System.err.println("harness: " + msg);
  }

  // ---------------------------------------------------------------------------------------------

  private void create() throws Exception {
    int regions = (int) num("regions", 8, 1);
    try (Connection conn = ConnectionFactory.createConnection(conf); Admin admin = conn.getAdmin()) {
      if (admin.tableExists(table)) {
        TableDescriptor old = admin.getDescriptor(table);
        if (!"1".equals(old.getValue(MARK))) {
          throw new ToolException("table " + table + " exists and was not made by the harness; "
            + "drop it or pick another table");
        }
        if (admin.isTableEnabled(table)) {
          admin.disableTable(table);
        }
        admin.deleteTable(table);
      }
      TableDescriptor d = TableDescriptorBuilder.newBuilder(table)
        .setColumnFamily(ColumnFamilyDescriptorBuilder.of(FAMILY)).setValue(MARK, "1")
        .setRegionSplitPolicyClassName(
          "org.apache.hadoop.hbase.regionserver.DisabledRegionSplitPolicy")
        .build();
      admin.createTable(d, RowKeys.splits(regions).toArray(new byte[0][]));
      // Regions stay where they are put: the test compares hosts before and after a crash.
      admin.balancerSwitch(false, true);
      reopenInPlace(admin);
      System.out.println("harness-crash create table=" + table + " regions=" + regions);
    }
  }

  private void load() throws Exception {
    long rows = num("rows", 0, 1);
    int threads = (int) num("threads", 8, 1);
    int batch = (int) num("batch", 50, 1);
    int valueSize = (int) num("value-size", 1024, 1);
    String tag = opt("tag", null);
    Durability durability;
    try {
      durability = Durability.valueOf(opt("durability", "SKIP_WAL"));
    } catch (IllegalArgumentException e) {
      throw new ToolException("unknown durability '" + opts.get("durability") + "'");
    }
    Path ledgerFile = Paths.get(opt("ledger", null));
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
                firstError.compareAndSet(null, e.getClass().getSimpleName() + ": "
                  + String.valueOf(e.getMessage()).split("\n", 2)[0]);
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
    int port = (int) num("port", 0, 1);
    try (Connection conn = ConnectionFactory.createConnection(conf); Admin admin = conn.getAdmin()) {
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

  private void watch() throws Exception {
    Path go = Paths.get(opt("go", null));
    Path out = Paths.get(opt("out", null));
    long timeoutMs = num("timeout", 600, 1) * 1000;
    Configuration quick = new Configuration(conf);
    // Fail fast, try again soon: the watch times the regions, it must not sleep through them.
    quick.setInt("hbase.client.retries.number", 1);
    quick.setInt("hbase.client.pause", 50);
    quick.setInt("hbase.rpc.timeout", 2000);
    quick.setInt("hbase.client.operation.timeout", 3000);
    quick.setInt("hbase.client.meta.operation.timeout", 3000);
    quick.setInt("zookeeper.recovery.retry", 1);
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

  private void verify() throws Exception {
    List<Path> files = new ArrayList<>();
    for (String f : opt("ledger", null).split(",")) {
      Path p = Paths.get(f);
      if (!Files.isRegularFile(p)) {
        throw new ToolException("no ledger " + p);
      }
      files.add(p);
    }
    int valueSize = (int) num("value-size", 1024, 1);
    int sampleN = (int) num("sample", 0, 0);
    List<byte[]> acked = Ledger.read(files);
    List<byte[]> keys = Ledger.sample(acked, sampleN, 20031);
    ReadBack.Tally tally = new ReadBack.Tally();
    long t0 = System.currentTimeMillis();
    try (Connection conn = ConnectionFactory.createConnection(conf);
      Table t = conn.getTable(table)) {
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
    String missing = opts.get("missing");
    if (missing != null && !tally.clean()) {
      List<String> lines = new ArrayList<>();
      for (String k : tally.missingKeys()) {
        lines.add("missing " + k);
      }
      for (String k : tally.wrongKeys()) {
        lines.add("wrong " + k);
      }
      Files.write(Paths.get(missing), lines, StandardCharsets.UTF_8);
    }
    System.out.println(tally.line(acked.size()) + String.format(Locale.ROOT, " seconds=%.1f",
      (System.currentTimeMillis() - t0) / 1000.0));
    if (!tally.clean()) {
      System.out.flush();
      System.exit(3);
    }
  }

  private void memstore() throws Exception {
    long mem = 0;
    long files = 0;
    int regions = 0;
    try (Connection conn = ConnectionFactory.createConnection(conf); Admin admin = conn.getAdmin()) {
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
    try (Connection conn = ConnectionFactory.createConnection(conf); Admin admin = conn.getAdmin()) {
      if (!admin.tableExists(table)) {
        return;
      }
      if (!"1".equals(admin.getDescriptor(table).getValue(MARK))) {
        throw new ToolException("table " + table + " was not made by the harness; not dropped");
      }
      if (admin.isTableEnabled(table)) {
        admin.disableTable(table);
      }
      admin.deleteTable(table);
      System.out.println("harness-crash drop table=" + table);
    }
  }

  static int run(String[] args) throws Exception {
    if (args.length < 3) {
      throw new ToolException("usage: CrashTool create|load|layout|gather|watch|verify|memstore|"
        + "drop HBASE_SITE_XML TABLE [--option value ...]");
    }
    File site = new File(args[1]);
    if (!site.isFile()) {
      throw new ToolException("no such file: " + site);
    }
    Configuration conf = HBaseConfiguration.create();
    conf.addResource(new org.apache.hadoop.fs.Path(site.getAbsoluteFile().toURI()));
    CrashTool tool = new CrashTool(conf, TableName.valueOf(args[2]), options(args, 3));
    switch (args[0]) {
      case "create":
        tool.create();
        break;
      case "load":
        tool.load();
        break;
      case "layout":
        tool.layout();
        break;
      case "gather":
        tool.gather();
        break;
      case "watch":
        tool.watch();
        break;
      case "verify":
        tool.verify();
        break;
      case "memstore":
        tool.memstore();
        break;
      case "drop":
        tool.drop();
        break;
      default:
        throw new ToolException("unknown step '" + args[0] + "'");
    }
    return 0;
  }

  public static void main(String[] args) {
    int rc;
    PrintStream err = System.err;
    try {
      rc = run(args);
    } catch (ToolException e) {
      err.println("harness: error: " + e.getMessage());
      rc = 1;
    } catch (Throwable t) {
      t.printStackTrace();
      Throwable c = t;
      while (c.getCause() != null && c.getCause() != c) {
        c = c.getCause();
      }
      err.println("harness: error: " + (args.length > 0 ? args[0] : "crash tool") + ": "
        + c.getClass().getSimpleName() + ": " + String.valueOf(c.getMessage()).split("\n", 2)[0]);
      rc = 1;
    }
    System.out.flush();
    System.exit(rc);
  }
}
