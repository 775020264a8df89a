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

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.hbase.harness.util.ToolRun;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * The parts of the crash test that need no cluster: the ledger of acknowledged rows (written by
 * many threads, read back whole, a torn last line left out, sampled), the row keys and values,
 * the comparison of what a read returns with what was acknowledged, and the tool's command line
 * (refused in one line, exit 2, before it connects to anything).
 */
public class TestCrashParts {
  @Rule
  public TemporaryFolder tmp = new TemporaryFolder();

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }

  @Test
  public void testLedgerKeepsEveryKeyOfManyWritersOnce() throws Exception {
    Path f = tmp.newFolder().toPath().resolve("sub/acked.txt");
    int threads = 8;
    int perThread = 2000;
    try (Ledger.Writer w = new Ledger.Writer(f)) {
      ExecutorService pool = Executors.newFixedThreadPool(threads);
      List<Future<?>> fs = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        final int tt = t;
        fs.add(pool.submit(() -> {
          for (int i = 0; i < perThread; i += 10) {
            List<byte[]> batch = new ArrayList<>();
            for (int j = i; j < i + 10; j++) {
              batch.add(RowKeys.key("t" + tt, j));
            }
            w.acked(batch);
          }
          return null;
        }));
      }
      for (Future<?> x : fs) {
        x.get();
      }
      pool.shutdown();
      assertEquals(threads * perThread, w.count());
    }
    List<byte[]> keys = Ledger.read(Arrays.asList(f));
    assertEquals(threads * perThread, keys.size());
    Set<String> distinct = new HashSet<>();
    for (byte[] k : keys) {
      distinct.add(Bytes.toString(k));
    }
    assertEquals(threads * perThread, distinct.size());
    assertTrue(distinct.contains(Bytes.toString(RowKeys.key("t3", 1999))));
  }

  @Test
  public void testLedgerAppendsAndReadsSeveralFilesWithoutDuplicates() throws Exception {
    Path a = tmp.newFile("a.txt").toPath();
    Path c = tmp.newFile("c.txt").toPath();
    try (Ledger.Writer w = new Ledger.Writer(a)) {
      w.acked(Arrays.asList(b("k1"), b("k2")));
    }
    // A second writer on the same file appends (a load resumed into the same ledger).
    try (Ledger.Writer w = new Ledger.Writer(a)) {
      w.acked(Arrays.asList(b("k3")));
    }
    try (Ledger.Writer w = new Ledger.Writer(c)) {
      w.acked(Arrays.asList(b("k2"), b("k4")));
    }
    List<byte[]> keys = Ledger.read(Arrays.asList(a, c));
    List<String> s = new ArrayList<>();
    for (byte[] k : keys) {
      s.add(Bytes.toString(k));
    }
    assertEquals(Arrays.asList("k1", "k2", "k3", "k4"), s);
  }

  @Test
  public void testTornLastLineIsNotAnAcknowledgedRow() throws Exception {
    Path f = tmp.newFile("torn.txt").toPath();
    Files.write(f, b("k1\nk2\n\nk3"));
    List<byte[]> keys = Ledger.read(Arrays.asList(f));
    assertEquals(2, keys.size());
    assertArrayEquals(b("k1"), keys.get(0));
    assertArrayEquals(b("k2"), keys.get(1));
  }

  @Test
  public void testLedgerRefusesKeysItCouldNotReadBack() throws Exception {
    Path f = tmp.newFile("bad.txt").toPath();
    try (Ledger.Writer w = new Ledger.Writer(f)) {
      for (byte[] bad : new byte[][] { b("has space"), b("new\nline"), new byte[0],
        new byte[] { 'a', (byte) 0xff } }) {
        try {
          w.acked(Arrays.asList(bad));
          fail("accepted " + Arrays.toString(bad));
        } catch (IllegalArgumentException e) {
          // Expected.
        }
      }
    }
    assertEquals(0, Files.size(f));
  }

  @Test
  public void testSampleIsUniformOrderedRepeatableAndWholeWhenSmall() {
    List<byte[]> keys = new ArrayList<>();
    for (int i = 0; i < 10000; i++) {
      keys.add(RowKeys.key("s", i));
    }
    assertEquals(10000, Ledger.sample(keys, 0, 1).size());
    assertEquals(10000, Ledger.sample(keys, 20000, 1).size());
    List<byte[]> s1 = Ledger.sample(keys, 1000, 7);
    List<byte[]> s2 = Ledger.sample(keys, 1000, 7);
    assertEquals(1000, s1.size());
    for (int i = 0; i < s1.size(); i++) {
      assertArrayEquals(s1.get(i), s2.get(i));
    }
    // In ledger order, and spread over the whole ledger: each tenth holds a fair share.
    int[] tenths = new int[10];
    long last = -1;
    for (byte[] k : s1) {
      String s = Bytes.toString(k);
      long seq = Long.parseLong(s.substring(s.lastIndexOf('-') + 1));
      assertTrue(seq > last);
      last = seq;
      tenths[(int) (seq / 1000)]++;
    }
    for (int t : tenths) {
      assertTrue(Arrays.toString(tenths), t > 50 && t < 150);
    }
  }

  @Test
  public void testKeysAreUniqueSpreadOverRegionsAndValuesFollowKeys() {
    int regions = 8;
    List<byte[]> splits = RowKeys.splits(regions);
    assertEquals(regions - 1, splits.size());
    int[] perRegion = new int[regions];
    Set<String> seen = new HashSet<>();
    for (long i = 0; i < 8000; i++) {
      byte[] k = RowKeys.key("rs", i);
      assertTrue(seen.add(Bytes.toString(k)));
      int r = 0;
      while (r < splits.size() && Bytes.compareTo(k, splits.get(r)) >= 0) {
        r++;
      }
      perRegion[r]++;
    }
    for (int n : perRegion) {
      assertTrue(Arrays.toString(perRegion), n > 700 && n < 1300);
    }
    // Another tag never makes the same key.
    assertNotEquals(Bytes.toString(RowKeys.key("rs", 5)),
      Bytes.toString(RowKeys.key("cluster", 5)));
    assertArrayEquals(RowKeys.value(RowKeys.key("rs", 5), 100),
      RowKeys.value(RowKeys.key("rs", 5), 100));
    assertFalse(Arrays.equals(RowKeys.value(RowKeys.key("rs", 5), 100),
      RowKeys.value(RowKeys.key("rs", 6), 100)));
    try {
      RowKeys.key("bad tag", 1);
      fail();
    } catch (IllegalArgumentException e) {
      // Expected.
    }
  }

  @Test
  public void testComparisonCountsLostAndWrongRows() {
    byte[] k1 = RowKeys.key("c", 1);
    byte[] v1 = RowKeys.value(k1, 64);
    assertEquals(ReadBack.Outcome.OK, ReadBack.compare(v1, v1.clone()));
    assertEquals(ReadBack.Outcome.MISSING, ReadBack.compare(v1, null));
    assertEquals(ReadBack.Outcome.MISSING, ReadBack.compare(v1, new byte[0]));
    assertEquals(ReadBack.Outcome.WRONG, ReadBack.compare(v1, Arrays.copyOf(v1, 63)));
    byte[] flipped = v1.clone();
    flipped[10] ^= 1;
    assertEquals(ReadBack.Outcome.WRONG, ReadBack.compare(v1, flipped));

    ReadBack.Tally t = new ReadBack.Tally();
    assertTrue(t.clean());
    for (int i = 0; i < 10; i++) {
      t.add(RowKeys.key("c", i), ReadBack.Outcome.OK);
    }
    t.add(b("lost-1"), ReadBack.Outcome.MISSING);
    t.add(b("bad-1"), ReadBack.Outcome.WRONG);
    assertFalse(t.clean());
    assertEquals(12, t.checked());
    assertEquals(10, t.ok());
    assertEquals(1, t.missing());
    assertEquals(1, t.wrong());
    assertEquals(Arrays.asList("lost-1"), t.missingKeys());
    assertEquals(Arrays.asList("bad-1"), t.wrongKeys());
    assertEquals("harness-crash verify acked=12 checked=12 read=10 missing=1 wrong=1",
      t.line(12));
  }

  @Test
  public void testTallyKeepsTheFirstKeysOnly() {
    ReadBack.Tally t = new ReadBack.Tally();
    for (int i = 0; i < ReadBack.KEEP + 500; i++) {
      t.add(RowKeys.key("m", i), ReadBack.Outcome.MISSING);
    }
    assertEquals(ReadBack.KEEP + 500, t.missing());
    assertEquals(ReadBack.KEEP, t.missingKeys().size());
    assertEquals(Bytes.toString(RowKeys.key("m", 0)), t.missingKeys().get(0));
  }

  @Test
  public void testCommandLineErrorsAreOneLineAndExit2() throws Exception {
    String site = tmp.newFile("hbase-site.xml").getPath();
    String p = "harness: error: ";
    ToolRun.of(new CrashTool(), "create", site, "t", "--regoins", "8")
      .assertUsageError(p, "unknown option '--regoins'");
    // Each step takes its own options only.
    ToolRun.of(new CrashTool(), "create", site, "t", "--rows", "8")
      .assertUsageError(p, "create takes no --rows");
    ToolRun.of(new CrashTool(), "create", site, "t", "--regions", "eight")
      .assertUsageError(p, "--regions 'eight' is not a number");
    ToolRun.of(new CrashTool(), "create", site, "t", "--regions", "0")
      .assertUsageError(p, "--regions must be at least 1, not 0");
    ToolRun.of(new CrashTool(), "gather", site, "t", "--port", "70000")
      .assertUsageError(p, "--port must be from 1 to 65535, not 70000");
    ToolRun.of(new CrashTool(), "watch", site, "t", "--go", "g", "--out", "o", "--timeout", "x")
      .assertUsageError(p, "--timeout 'x' is not a number");
    ToolRun.of(new CrashTool(), "load", site, "t", "--rows", "10", "--tag", "a")
      .assertUsageError(p, "load needs --ledger");
    ToolRun.of(new CrashTool(), "load", site, "t", "--rows", "1", "--tag", "a", "--ledger", "l",
      "--durability", "SOMETIMES").assertUsageError(p, "unknown durability 'SOMETIMES'");
    ToolRun.of(new CrashTool(), "verify", site, "t", "--ledger")
      .assertUsageError(p, "--ledger needs a value");
    ToolRun.of(new CrashTool(), "create", site, "t", "--replicas", "11")
      .assertUsageError(p, "--replicas must be from 1 to 10, not 11");
    ToolRun.of(new CrashTool(), "verify", site, "t", "--ledger", "l", "--replica-id", "-1")
      .assertUsageError(p, "--replica-id must be from 0 to 9, not -1");
    ToolRun.of(new CrashTool(), "isolate", site, "t", "--port", "1")
      .assertUsageError(p, "isolate takes no --port");
    ToolRun.of(new CrashTool(), "primaries", site, "t", "--replicas", "3")
      .assertUsageError(p, "primaries takes no --replicas");
    ToolRun.of(new CrashTool(), "insync", site, "t", "--since", "soon")
      .assertUsageError(p, "--since 'soon' is not a number");
    ToolRun.of(new CrashTool(), "explode", site, "t").assertUsageError(p, "unknown step 'explode'");
    ToolRun.of(new CrashTool(), "drop", site)
      .assertUsageError(p, "needs STEP HBASE_SITE_XML TABLE");
    ToolRun.of(new CrashTool(), "drop", site, "t", "u")
      .assertUsageError(p, "unexpected argument 'u'");
    ToolRun.of(new CrashTool(), "drop", site, "bad name")
      .assertUsageError(p, "'bad name' is not a table name");
  }

  @Test
  public void testInSyncRecordNamesItsReplicaIds() {
    assertEquals(new TreeSet<>(Arrays.asList(1, 2)), CrashTool.namedInSync("epoch=42 in-sync=1,2"));
    assertEquals(new TreeSet<>(Arrays.asList(2)), CrashTool.namedInSync("epoch=42 in-sync=2"));
    // No secondary in sync, no record, or not a record: nothing named.
    assertTrue(CrashTool.namedInSync("epoch=42 in-sync=").isEmpty());
    assertTrue(CrashTool.namedInSync(null).isEmpty());
    assertTrue(CrashTool.namedInSync("in-sync=1,2").isEmpty());
    assertTrue(CrashTool.namedInSync("epoch=42 in-sync=x").isEmpty());
  }

  @Test
  public void testMissingSiteIsAFailureOfOneLine() {
    ToolRun r = ToolRun.of(new CrashTool(), "drop", tmp.getRoot().getPath() + "/nope.xml", "t");
    assertEquals(1, r.rc);
    assertEquals(Arrays.asList("harness: error: no such file: " + tmp.getRoot().getPath()
      + "/nope.xml"), r.errLines());
  }

  @Test
  public void testHelp() {
    ToolRun r = ToolRun.of(new CrashTool(), "load", "-h").assertHelp("CrashTool create|load");
    assertTrue(r.out, r.out.contains("load: --rows, --threads, --batch, --value-size, --tag, "
      + "--durability, --ledger"));
  }
}
