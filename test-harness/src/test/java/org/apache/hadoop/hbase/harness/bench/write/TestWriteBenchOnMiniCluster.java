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

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * The write benchmark's driver against a mini cluster given by its hbase-site.xml (the target a
 * real cluster uses): a short run of two configurations writes the CSV, the summary and the
 * chart and reads every sampled acknowledged row back; a table of that name with another schema,
 * server settings on such a target and an unreachable cluster each fail with one line and leave
 * no finished-looking result.
 */
public class TestWriteBenchOnMiniCluster {
  private static final HBaseTestingUtility UTIL = new HBaseTestingUtility();
  @ClassRule
  public static final TemporaryFolder TMP = new TemporaryFolder();
  private static File site;

  @BeforeClass
  public static void setUp() throws Exception {
    // Secondary replicas pick up flushed files at once, for the replica lag test.
    UTIL.getConfiguration().setInt("hbase.regionserver.storefile.refresh.period", 100);
    UTIL.startMiniCluster(1);
    Configuration c = UTIL.getConfiguration();
    Configuration client = new Configuration(false);
    client.set("hbase.zookeeper.quorum", c.get("hbase.zookeeper.quorum"));
    client.set("hbase.zookeeper.property.clientPort", c.get("hbase.zookeeper.property.clientPort"));
    client.set("zookeeper.znode.parent", c.get("zookeeper.znode.parent", "/hbase"));
    site = TMP.newFile("hbase-site.xml");
    try (FileOutputStream out = new FileOutputStream(site)) {
      client.writeXml(out);
    }
  }

  @AfterClass
  public static void tearDown() throws Exception {
    UTIL.shutdownMiniCluster();
  }

  /** Runs the driver; returns {exit code, stderr}. */
  private static Object[] run(String... args) {
    PrintStream old = System.err;
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    System.setErr(new PrintStream(err, true));
    try {
      int rc = WriteBench.execute(args);
      return new Object[] { rc, err.toString() };
    } finally {
      System.setErr(old);
      old.print(err);
    }
  }

  private static String lastLine(Object[] r) {
    String[] lines = ((String) r[1]).trim().split("\n");
    return lines[lines.length - 1];
  }

  /**
   * The replica lag probe on a stock table of two replicas fed by no replication: its secondaries
   * see only what the primary flushed. Without flushes every probe read counts as not seen; with
   * a flush every 300 ms, every one is seen, with a lag above zero. Each probe went to the primary
   * of a region of its own, round robin.
   */
  @Test
  public void testReplicaLagOfSecondariesThatSeeOnlyFlushedData() throws Exception {
    TableName tn = TableName.valueOf("harness_replica_lag");
    Admin admin = UTIL.getAdmin();
    admin.createTable(TableDescriptorBuilder.newBuilder(tn)
      .setColumnFamily(ColumnFamilyDescriptorBuilder.of(WriteLoad.FAMILY)).setRegionReplication(2)
      .build(), new byte[][] { Bytes.toBytes("m") });
    UTIL.waitTableAvailable(tn);
    try (Connection conn = ConnectionFactory.createConnection(UTIL.getConfiguration())) {
      ReplicaLag stale = ReplicaLag.start(conn, tn, 2, null, 100, 500);
      Thread.sleep(2000);
      stale.close();
      assertTrue(stale.describe(), stale.reads >= 2);
      assertEquals(stale.describe(), stale.reads, stale.notSeen);
      assertEquals(stale.describe(), 0, stale.seenFirst);
      assertEquals(stale.describe(), 0, stale.lagUs.getTotalCount());

      ReplicaLag flushed = ReplicaLag.start(conn, tn, 2, null, 100, 20_000);
      long end = System.currentTimeMillis() + 3000;
      while (System.currentTimeMillis() < end) {
        admin.flush(tn);
        Thread.sleep(300);
      }
      flushed.close();
      assertTrue(flushed.describe(), flushed.reads >= 2);
      assertEquals(flushed.describe(), 0, flushed.notSeen);
      assertEquals(flushed.describe(), flushed.reads, flushed.lagUs.getTotalCount());
      assertTrue(flushed.describe(), flushed.lagUs.getMaxValue() > 0);

      try (RegionLocator locator = conn.getRegionLocator(tn); Table t = conn.getTable(tn)) {
        for (byte[] start : locator.getStartKeys()) {
          assertFalse(Bytes.toStringBinary(start),
            t.get(new Get(ReplicaLag.probeRow(start))).isEmpty());
        }
      }
    } finally {
      UTIL.deleteTable(tn);
    }
  }

  @Test
  public void testTwoConfigurationsWriteCsvSummaryChartAndVerify() throws Exception {
    File out = new File(TMP.getRoot(), "run");
    Object[] r = run("--target", site.getPath(), "--duration", "4", "--threads", "8",
      "--regions", "3", "--configs", "default,splits-off+async-wal", "--verify", "--out",
      out.getPath());
    assertEquals(r[1].toString(), 0, r[0]);
    assertTrue(new File(out, "latency.png").length() > 1000);
    List<String> csv = Files.readAllLines(new File(out, "intervals.csv").toPath());
    assertEquals(Report.INTERVAL_HEADER, csv.get(0));
    assertTrue(csv.stream().anyMatch(l -> l.startsWith("default,3,")));
    assertTrue(csv.stream().anyMatch(l -> l.startsWith("splits-off+async-wal,3,")));
    String summary = new String(Files.readAllBytes(new File(out, "summary.txt").toPath()),
      StandardCharsets.UTF_8);
    assertTrue(summary, summary.matches("(?s).*\\| default \\| [1-9]\\d* \\| 0 \\|.*"));
    assertTrue(summary, summary.matches("(?s).*\\| (\\d+) of \\1 ok \\|.*"));
    assertFalse(summary, summary.contains("FAILED"));
    assertFalse(new File(out.getPath() + ".partial").exists());
    // The benchmark drops its table from a cluster it does not own.
    assertFalse(UTIL.getAdmin().tableExists(TableName.valueOf("harness_bench_write")));
  }

  @Test
  public void testTableWithAnotherSchemaIsRefused() throws Exception {
    UTIL.createTable(TableName.valueOf("someone_elses"), Bytes.toBytes("x"));
    File out = new File(TMP.getRoot(), "other");
    Object[] r = run("--target", site.getPath(), "--duration", "2", "--threads", "2",
      "--table", "someone_elses", "--out", out.getPath());
    assertEquals(1, r[0]);
    assertTrue(lastLine(r), lastLine(r).startsWith("harness: error: bench write: table "
      + "someone_elses exists with another schema"));
    assertFalse(out.exists());
    assertTrue(new File(out.getPath() + ".failed", "FAILED").isFile());
    assertTrue(UTIL.getAdmin().tableExists(TableName.valueOf("someone_elses")));
  }

  @Test
  public void testServerSettingsOnAGivenClusterAreRefused() {
    File out = new File(TMP.getRoot(), "server");
    Object[] r = run("--target", site.getPath(), "--configs", "wal-fshlog", "--out",
      out.getPath());
    assertEquals(1, r[0]);
    assertTrue(lastLine(r), lastLine(r).contains("needs server settings (hbase.wal.provider)"));
    assertFalse(out.exists());
    assertFalse(new File(out.getPath() + ".partial").exists());
  }

  @Test
  public void testUnreachableClusterFailsInOneLine() throws Exception {
    Configuration nowhere = new Configuration(false);
    nowhere.set("hbase.zookeeper.quorum", "127.0.0.1");
    nowhere.set("hbase.zookeeper.property.clientPort", "9");
    File bad = TMP.newFile("nowhere.xml");
    try (FileOutputStream o = new FileOutputStream(bad)) {
      nowhere.writeXml(o);
    }
    File out = new File(TMP.getRoot(), "nowhere");
    Object[] r = run("--target", bad.getPath(), "--duration", "2", "--out", out.getPath());
    assertEquals(1, r[0]);
    assertTrue(lastLine(r), lastLine(r).startsWith("harness: error: bench write: cannot reach "
      + "the target cluster"));
    assertFalse(out.exists());
    assertTrue(new File(out.getPath() + ".failed").isDirectory());
  }
}
