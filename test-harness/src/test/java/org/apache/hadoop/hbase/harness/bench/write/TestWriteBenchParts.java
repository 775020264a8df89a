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

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.File;
import java.nio.file.Files;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.apache.hadoop.hbase.harness.util.ToolRun;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * The parts of the write benchmark that need no cluster: the named configurations, the keys,
 * values and split points, the parsing of the servers' log lines into events, the reports and
 * the chart, and the command line's bad input.
 */
public class TestWriteBenchParts {
  private static final List<String> NO_FLAGS = Collections.emptyList();

  @Rule
  public TemporaryFolder tmp = new TemporaryFolder();

  @Test
  public void testProductionScenariosAreNamedAndBuildOnEachOther() {
    for (String n : new String[] { "default", "stock", "patched", "wal-fshlog", "wal-asyncfs",
      "sync-wal", "fsync-wal", "async-wal", "skip-wal", "splits-off", "compactions-off",
      "blocking-raised", "client-tuned" }) {
      assertNotNull(n, WriteConfigs.known().get(n));
    }
    WriteConfig blocking = WriteConfigs.parseOne("blocking-raised");
    assertEquals("org.apache.hadoop.hbase.regionserver.DisabledRegionSplitPolicy",
      blocking.tableConf().get("SPLIT_POLICY"));
    assertEquals("1000000", blocking.tableConf().get("hbase.hstore.compactionThreshold"));
    assertEquals(String.valueOf(Integer.MAX_VALUE),
      blocking.tableConf().get("hbase.hstore.blockingStoreFiles"));
    assertEquals("8", blocking.tableConf().get("hbase.hregion.memstore.block.multiplier"));
    assertTrue(blocking.serverConf().isEmpty());
  }

  @Test
  public void testComposedConfigurationLaterPartsWin() {
    WriteConfig c = WriteConfigs.parseOne("stock+wal-fshlog+skip-wal+patched");
    assertEquals("stock+wal-fshlog+skip-wal+patched", c.name());
    assertEquals("patched", c.build());
    assertEquals("SKIP_WAL", c.durability());
    assertEquals("filesystem", c.serverConf().get("hbase.wal.provider"));
    WriteConfig r = WriteConfigs.parseOne("default").resolve("stock",
      java.util.Collections.singletonMap("k", "v"));
    assertEquals("stock", r.build());
    assertEquals("v", r.serverConf().get("k"));
  }

  @Test
  public void testBadConfigurationLists() {
    for (String bad : new String[] { "nope", "default,,stock", "stock+nope", "stock,stock" }) {
      try {
        WriteConfigs.parse(bad);
        fail(bad);
      } catch (IllegalArgumentException e) {
        assertNotNull(e.getMessage());
      }
    }
  }

  @Test
  public void testKeysValuesAndSplits() {
    byte[] k = KeyValues.randomKey(120);
    assertEquals(120, k.length);
    for (byte b : k) {
      assertTrue(Character.isDigit(b) || (b >= 'A' && b <= 'Z'));
    }
    byte[] v = KeyValues.valueFor(k, 1024);
    assertEquals(1024, v.length);
    assertArrayEquals(v, KeyValues.valueFor(k.clone(), 1024));
    assertFalse(Arrays.equals(v, KeyValues.valueFor(KeyValues.randomKey(120), 1024)));
    assertTrue(KeyValues.splitKeys(1).isEmpty());
    List<byte[]> s = KeyValues.splitKeys(4);
    assertEquals(3, s.size());
    assertEquals("90", Bytes.toString(s.get(0)));
    assertEquals("I0", Bytes.toString(s.get(1)));
    assertEquals("R0", Bytes.toString(s.get(2)));
    List<byte[]> many = KeyValues.splitKeys(1296);
    for (int i = 1; i < many.size(); i++) {
      assertTrue(Bytes.compareTo(many.get(i - 1), many.get(i)) < 0);
    }
  }

  @Test
  public void testLogLinesBecomeEvents() {
    ZoneId z = ZoneId.systemDefault();
    String[] lines = {
      "2026-11-22T05:53:42,057 INFO  [MemStoreFlusher.1] regionserver.HRegion: Finished flush of "
        + "dataSize ~3.78 MB/3960902, heapSize ~4.02 MB/4212520, currentSize=290.36 KB/297330 for "
        + "969b03b0ab7dbf2115438031ef5f62bf in 942ms, sequenceid=3401, compaction requested=false",
      "2026-11-22T05:53:43,000 INFO  [regionserver/localhost:17050.logRoller] wal.AbstractFSWAL: "
        + "Rolled WAL /hbase/WALs/x/a.1 with entries=10, filesize=1 MB; new WAL /hbase/WALs/x/a.2",
      "2026-11-22 05:53:44,000 INFO  [RS:0;localhost:1-longCompactions-0] regionserver.HStore: "
        + "Completed major compaction of 3 (all) file(s) in f of t,,1.abc. into x(size=1 M)",
      "2026-11-22T05:53:45,000 INFO  [PEWorker-3] assignment.SplitTableRegionProcedure: pid=7 "
        + "splitting 2 storefiles, region=abc, threads=2",
      "2026-11-22T05:53:46,000 WARN  [MemStoreFlusher.0] regionserver.MemStoreFlusher: abc has too "
        + "many store files(17); delaying flush up to 90000 ms",
      "2026-11-22T05:53:47,000 INFO  [h=1] regionserver.MemStoreFlusher: Blocking updates: "
        + "global memstore heapsize 800 M is >= blocking 800 M",
      "2026-11-22T05:53:48,000 INFO  [roller] wal.AbstractFSWAL: Too many WALs; count=33, max=32;"
        + " forcing (partial) flush of 1 region(s): abc[f]" };
    ServerEvents.Type[] want = { ServerEvents.Type.FLUSH, ServerEvents.Type.WAL_ROLL,
      ServerEvents.Type.COMPACTION, ServerEvents.Type.SPLIT, ServerEvents.Type.FLUSH_DELAYED,
      ServerEvents.Type.BLOCKED, ServerEvents.Type.TOO_MANY_WALS };
    for (int i = 0; i < lines.length; i++) {
      ServerEvents.Event e = ServerEvents.parseLine(lines[i], z);
      assertNotNull(lines[i], e);
      assertEquals(lines[i], want[i], e.type);
    }
    ServerEvents.Event f = ServerEvents.parseLine(lines[0], z);
    assertEquals(LocalDateTime.of(2026, 11, 22, 5, 53, 42, 57_000_000).atZone(z).toInstant()
      .toEpochMilli(), f.timeMs);
    assertTrue(f.message.startsWith("Finished flush of"));
    assertNull(ServerEvents.parseLine("2026-11-22T05:53:42,057 INFO  [main] x.Y: hello", z));
    assertNull(ServerEvents.parseLine("\tat org.apache.Foo(Finished flush of)", z));
  }

  @Test
  public void testEventsOfALogSinceItsOffsetAndWithinTheRun() throws Exception {
    File log = tmp.newFile("rs1.log");
    String old = "2026-11-22T05:00:00,000 INFO  [t] regionserver.HRegion: Finished flush of x\n";
    String late = "2026-11-22T07:00:00,000 INFO  [t] regionserver.HRegion: Finished flush of z\n";
    String now = "2026-11-22T06:00:00,000 INFO  [t] regionserver.HRegion: Finished flush of y\n";
    Files.write(log.toPath(), old.getBytes());
    long offset = log.length();
    Files.write(log.toPath(), (old + now + late).getBytes());
    long from = LocalDateTime.of(2026, 11, 22, 5, 30).atZone(ZoneId.systemDefault()).toInstant()
      .toEpochMilli();
    List<ServerEvents.Event> ev =
      ServerEvents.read(log.toPath(), offset, from, from + 3600_000L);
    assertEquals(1, ev.size());
    assertEquals("Finished flush of y", ev.get(0).message);
  }

  /** The lag probe runs for the configurations whose table has replicas, and only those. */
  @Test
  public void testRegionReplicationOfAConfiguration() {
    assertEquals(3, WriteBench.regionReplication(WriteConfigs.parseOne("walless-replicas")));
    assertEquals(3, WriteBench.regionReplication(WriteConfigs.parseOne("stock-async-replicas")));
    assertEquals(1, WriteBench.regionReplication(WriteConfigs.parseOne("stock-sync-wal")));
  }

  @Test
  public void testReportsAndChart() throws Exception {
    RunResult a = fake("stock", 0);
    RunResult b = fake("patched", 1);
    List<RunResult> rs = Arrays.asList(a, b);
    String csv = Report.intervalsCsv(rs);
    String[] lines = csv.split("\n");
    assertEquals(Report.INTERVAL_HEADER, lines[0]);
    assertEquals(1 + 20, lines.length);
    assertTrue(lines[1].startsWith("stock,0,100,0,"));
    String summary = Report.summary(rs);
    assertFalse(summary, summary.contains("Replica lag"));
    b.replicaLag = "12 probe reads on 2 secondaries";
    summary = Report.summary(rs);
    assertTrue(summary, summary.contains("Replica lag, from a probe put's acknowledgement"));
    assertTrue(summary, summary.contains("\n- patched: 12 probe reads on 2 secondaries\n"));
    assertFalse(summary, summary.contains("- stock:"));
    assertTrue(summary, summary.contains("| stock | 1000 | 0 | 100 |"));
    assertTrue(summary, summary.contains("10000 of 10000 ok"));
    assertTrue(summary, summary.contains("FAILED: 1 missing"));
    String events = Report.eventsCsv(rs);
    assertTrue(events, events.contains("stock,3.000,flush,"));
    File png = tmp.newFile("latency.png");
    LatencyChart.write(png, "test", rs);
    byte[] head = Arrays.copyOf(Files.readAllBytes(png.toPath()), 8);
    assertArrayEquals(new byte[] { (byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' }, head);
  }

  private static RunResult fake(String name, int missing) {
    RunResult r = new RunResult(WriteConfigs.parseOne(name));
    r.startMs = 1_000_000;
    r.endMs = r.startMs + 10_000;
    for (int s = 0; s < 10; s++) {
      r.intervals.add(new RunResult.Interval(s, s == 5 ? 0 : 100, 0, 2, 20, 40, 50, 10, 90));
      for (int i = 0; i < 100; i++) {
        r.total.recordValue(2000 + i * 100);
      }
    }
    r.acked = 1000;
    r.eventsRead = true;
    r.events.add(new ServerEvents.Event(r.startMs + 3000, ServerEvents.Type.FLUSH, "flush"));
    r.events.add(new ServerEvents.Event(r.startMs + 6000, ServerEvents.Type.SPLIT, "split"));
    r.verifySampled = 10000;
    r.verifyMissing = missing;
    return r;
  }

  @Test
  public void testBadCommandLines() throws Exception {
    String out = new File(tmp.getRoot(), "run").getPath();
    String[][] bad = { { "--value-size", "0" }, { "--threads", "0" }, { "--threads", "x" },
      { "--durability", "USE_DEFAULT" }, { "--durability", "SOMETIMES" }, { "--configs", "nope" },
      { "--frobnicate", "1" }, { "--regions", "0" }, { "--duration" }, { "--table", "bad name" },
      { "--conf", "novalue" } };
    for (String[] b : bad) {
      String[] args = Arrays.copyOf(b, b.length + 2);
      args[b.length] = "--out";
      args[b.length + 1] = out;
      assertEquals(Arrays.toString(b), 2, WriteBench.execute(args));
    }
    assertEquals(1, WriteBench.execute(new String[] { "--target",
      new File(tmp.getRoot(), "missing.xml").getPath(), "--out", out }));
    assertFalse(new File(out).exists());
    assertFalse(new File(out + ".partial").exists());
  }

  @Test
  public void testCommandLineErrorsAreOneLineAndExit2() {
    String out = new File(tmp.getRoot(), "run").getPath();
    String prefix = "harness: usage error: bench write: ";
    ToolRun.of(new WriteBench(false), "--out", out, "--frobnicate", "1")
      .assertUsageError(prefix, "unknown option '--frobnicate'");
    ToolRun.of(new WriteBench(false), "--out", out, "--threads", "many")
      .assertUsageError(prefix, "--threads 'many' is not a number");
    ToolRun.of(new WriteBench(false), "--out", out, "--threads", "0")
      .assertUsageError(prefix, "--threads must be from 1 to 5000, not 0");
    ToolRun.of(new WriteBench(false), "--out", out, "--rows", "1e6")
      .assertUsageError(prefix, "--rows '1e6' is not a number");
    ToolRun.of(new WriteBench(false), "--out", out, "--duration")
      .assertUsageError(prefix, "--duration needs a value");
    ToolRun.of(new WriteBench(false), "--out", out, "extra")
      .assertUsageError(prefix, "unexpected argument 'extra'");
    ToolRun.of(new WriteBench(false), "--threads", "4")
      .assertUsageError(prefix, "--out is required");
    // A prefix of an option is no option.
    ToolRun.of(new WriteBench(false), "--out", out, "--thread", "4")
      .assertUsageError(prefix, "unknown option '--thread'");
    assertFalse(new File(out).exists());
    assertFalse(new File(out + ".partial").exists());
  }

  @Test
  public void testHelp() {
    ToolRun r = ToolRun.of(new WriteBench(false), "--threads", "4", "-h").assertHelp("bench write");
    for (String o : new String[] { "--target", "--threads", "--rows", "--key-size", "--value-size",
      "--regions", "--durability", "--configs", "--duration", "--verify", "--table",
      "--regionservers", "--conf", "--out" }) {
      assertTrue(o, r.out.contains(o));
    }
    ToolRun.of(new WriteBench(false), "--help").assertHelp("bench write");
  }

  @Test
  public void testEmbeddedClusterCommandLine() {
    String dir = tmp.getRoot().getPath();
    String prefix = "EmbeddedCluster: ERROR: ";
    ToolRun.of(new EmbeddedCluster(), dir, "1", "3", "--nope")
      .assertUsageError(prefix, "unknown option '--nope'");
    ToolRun.of(new EmbeddedCluster(), dir, "one", "3")
      .assertUsageError(prefix, "REGIONSERVERS 'one' is not a number");
    ToolRun.of(new EmbeddedCluster(), dir, "1", "0")
      .assertUsageError(prefix, "DATANODES must be from 1 to 10, not 0");
    ToolRun.of(new EmbeddedCluster(), dir, "1", "3", "novalue")
      .assertUsageError(prefix, "'novalue' is not KEY=VALUE");
    ToolRun.of(new EmbeddedCluster(), dir, "1")
      .assertUsageError(prefix, "needs DIR REGIONSERVERS DATANODES");
    ToolRun.of(new EmbeddedCluster(), "-h").assertHelp("EmbeddedCluster DIR");
  }

  @Test
  public void testPersistentMemoryConfigurationsOfIssue5() throws Exception {
    WriteConfig skip = WriteConfigs.parseOne("pmem-skip-wal");
    assertTrue(skip.pmem());
    assertEquals("patched", skip.build());
    assertEquals("SKIP_WAL", skip.durability());
    assertEquals(WriteConfig.PMEM_AUTO, skip.serverConf().get(WriteConfig.PMEM_PATH_KEY));
    assertTrue(skip.serverConfWithoutPmem().isEmpty());
    WriteConfig sync = WriteConfigs.parseOne("pmem-sync-wal");
    assertTrue(sync.pmem());
    assertEquals("SYNC_WAL", sync.durability());
    WriteConfig stock = WriteConfigs.parseOne("stock-sync-wal");
    assertFalse(stock.pmem());
    assertEquals("stock", stock.build());
    assertEquals("SYNC_WAL", stock.durability());
    assertTrue(stock.serverConf().isEmpty());
    // Composed, the option stays on and the other server settings go to the servers.
    WriteConfig fs = WriteConfigs.parseOne("pmem-sync-wal+wal-fshlog");
    assertTrue(fs.pmem());
    assertEquals("filesystem", fs.serverConfWithoutPmem().get("hbase.wal.provider"));
    assertFalse(fs.serverConfWithoutPmem().containsKey(WriteConfig.PMEM_PATH_KEY));
    // A folder given with --conf is the user's: no folder is made for it.
    WriteConfig given = skip.resolve("patched",
      java.util.Collections.singletonMap(WriteConfig.PMEM_PATH_KEY, "/mnt/pmem0"));
    assertFalse(given.pmem());
    assertEquals("/mnt/pmem0", given.serverConfWithoutPmem().get(WriteConfig.PMEM_PATH_KEY));

    String saved = System.getProperty("harness.pmem.builds");
    try {
      System.setProperty("harness.pmem.builds", "");
      String why = WriteBench.refusePmem(skip.resolve("patched", new java.util.HashMap<>()));
      assertNotNull(why);
      assertTrue(why, why.contains("'pmem-skip-wal' needs the persistent-memory option "
        + "(hbase.regionserver.memstore.pmem.path), which the patched build does not have"));
      System.setProperty("harness.pmem.builds", "stock,patched");
      assertNull(WriteBench.refusePmem(skip.resolve("patched", new java.util.HashMap<>())));
      System.setProperty("harness.pmem.builds", "patched");
      assertNull(WriteBench.refusePmem(stock));
      assertNotNull(WriteBench.refusePmem(WriteConfigs.parseOne("pmem-skip-wal+stock")));
    } finally {
      if (saved == null) {
        System.clearProperty("harness.pmem.builds");
      } else {
        System.setProperty("harness.pmem.builds", saved);
      }
    }
  }

  @Test
  public void testEmbeddedTargetRunsPmemWithOneRegionServerOnly() throws Exception {
    WriteConfig pmem = WriteConfigs.parseOne("pmem-skip-wal");
    String why = new Targets.Embedded(3, "1g", 1000, NO_FLAGS).refuse(pmem);
    assertNotNull(why);
    assertTrue(why, why.startsWith("configuration 'pmem-skip-wal' needs --regionservers 1 on the "
      + "embedded target"));
    assertNull(new Targets.Embedded(1, "1g", 1000, NO_FLAGS).refuse(pmem));
    assertNull(
      new Targets.Embedded(3, "1g", 1000, NO_FLAGS).refuse(WriteConfigs.parseOne("stock")));
  }

  @Test
  public void testEmbeddedPmemFolderIsPrivateAndRemoved() throws Exception {
    java.nio.file.Path p = Targets.pmemFolder(tmp.getRoot(), "pmem-skip-wal");
    assertTrue(Files.isDirectory(p));
    assertTrue(p.getFileName().toString().startsWith("hbase-harness-pmem-"));
    assertTrue(p.getFileName().toString().endsWith("-pmem-skip-wal"));
    assertEquals("rwx------", java.nio.file.attribute.PosixFilePermissions
      .toString(Files.getPosixFilePermissions(p)));
    Files.write(p.resolve("memstore.pmem"), new byte[4096]);
    // A second configuration of the same name (a rerun) starts from an empty folder.
    java.nio.file.Path again = Targets.pmemFolder(tmp.getRoot(), "pmem-skip-wal");
    assertEquals(p, again);
    assertFalse(Files.exists(again.resolve("memstore.pmem")));
    Targets.deleteTree(again);
    assertFalse(Files.exists(again));
  }
}
