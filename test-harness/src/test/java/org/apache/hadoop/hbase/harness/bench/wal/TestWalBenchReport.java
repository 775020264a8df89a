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
package org.apache.hadoop.hbase.harness.bench.wal;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import com.codahale.metrics.Histogram;
import com.codahale.metrics.Meter;
import com.codahale.metrics.Snapshot;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.wal.WALPerformanceEvaluation;
import org.junit.BeforeClass;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * The parts of {@code scripts/harness bench wal} that need no cluster: the report (CSV parsing,
 * medians, ratios, the Markdown tables and the PNG chart), the HdrHistogram reservoir, and the
 * swap of WALPerformanceEvaluation's latency histogram against the hbase-server tests jar this
 * project is built with.
 */
public class TestWalBenchReport {
  @Rule
  public TemporaryFolder tmp = new TemporaryFolder();

  @BeforeClass
  public static void headless() {
    System.setProperty("java.awt.headless", "true");
  }

  /** 3 implementations x 2 thread counts x 3 repetitions, with known medians. */
  private Path sampleCsv() throws Exception {
    List<String> lines = new ArrayList<>();
    lines.add(WalBenchReport.HEADER);
    for (int rep = 1; rep <= 3; rep++) {
      // Medians: stock 1000/4000 ops, patched 1500/10000, asyncfs 2000/8000, each +-50;
      // p99 medians: stock 900/2000, patched 450/1000, asyncfs 600/4000;
      // CPU per edit (WAL + DataNodes): stock 40+60, patched 30+50, asyncfs 20+60.
      // Edits per sync medians: stock 1.5/12, patched 1.2/7.5, asyncfs 2/20.
      // One measurement (stock-fshlog, 1 thread, rep 1) lasted less than 3 s.
      int d = rep - 2; // -1, 0, 1 around the median
      String secs = rep == 1 ? "2.5" : "5.0";
      lines.add(String.format("stock-fshlog,1,%d,%d,100,%d,%s,%d,60,1.%d", rep, 1000 + 50 * d,
        900 + d, secs, 40 + d, 5 + d));
      lines.add(String.format("patched-fshlog,1,%d,%d,90,%d,5.0,30,%d,1.2", rep, 1500 + 50 * d,
        450 + d, 50 + d));
      lines.add(String.format("stock-asyncfs,1,%d,%d,80,%d,5.0,20,60,2", rep, 2000 + 50 * d,
        600 + d));
      lines.add(String.format("stock-fshlog,64,%d,%d,1000,%d,5.0,40,60,%d", rep, 4000 + 50 * d,
        2000 + d, 12 + d));
      lines.add(String.format("patched-fshlog,64,%d,%d,900,%d,5.0,30,50,7.5", rep,
        10000 + 50 * d, 1000 + d));
      lines.add(String.format("stock-asyncfs,64,%d,%d,800,%d,5.0,20,60,20", rep, 8000 + 50 * d,
        4000 + d));
    }
    // Shuffled: the report must not depend on the order of the lines.
    List<String> body = new ArrayList<>(lines.subList(1, lines.size()));
    Collections.shuffle(body, new Random(42));
    body.add(0, lines.get(0));
    Path csv = tmp.newFile("results.csv").toPath();
    Files.write(csv, body, StandardCharsets.UTF_8);
    return csv;
  }

  @Test
  public void testGrouped() {
    assertEquals("1,234,568", WalBenchReport.grouped(1234567.8));
    assertEquals("999", WalBenchReport.grouped(999.4));
  }

  @Test
  public void testSummaryTablesHoldMediansAndRatios() throws Exception {
    List<WalBenchReport.Row> rows = WalBenchReport.read(sampleCsv());
    assertEquals(18, rows.size());
    String md = WalBenchReport.summary(rows, "T", Arrays.asList("a note"));
    assertTrue(md, md.startsWith("# T\n\na note\n\n"));
    assertTrue(md, md.contains("| threads | stock-fshlog | patched-fshlog | stock-asyncfs"
      + " | patched / stock-fshlog | patched / stock-asyncfs |\n"));
    // Throughput, with the spread: half the range over the repetitions, in percent.
    assertTrue(md, md.contains("| 1 | 1,000 ±5% | 1,500 ±3% | 2,000 ±3% | 1.50x | 0.75x |\n"));
    assertTrue(md, md.contains("| 64 | 4,000 ±1% | 10,000 ±1% | 8,000 ±1% | 2.50x | 1.25x |\n"));
    // p99.
    assertTrue(md, md.contains("| 1 | 900 | 450 | 600 | 0.50x | 0.75x |\n"));
    assertTrue(md, md.contains("| 64 | 2,000 | 1,000 | 4,000 | 0.50x | 0.25x |\n"));
    // p50: medians only.
    assertTrue(md, md.contains("| 64 | 1,000 | 900 | 800 |\n"));
    // CPU per edit: the sum of the medians, the ratios of the sums.
    assertTrue(md, md.contains("| 1 | 100 (40 + 60) | 80 (30 + 50) | 80 (20 + 60) | 0.80x"
      + " | 1.00x |\n"));
    // Edits per sync: medians only.
    assertTrue(md, md.contains("| 1 | 1.5 | 1.2 | 2.0 |\n"));
    assertTrue(md, md.contains("| 64 | 12.0 | 7.5 | 20.0 |\n"));
    assertTrue(md, md.contains("Shorter than 3 s, so noisier (give more --edits): stock-fshlog at"
      + " 1 threads, rep 1: 2.5 s.\n"));
    assertTrue(md, md.contains("(3 here)"));
    assertTrue(md, !md.contains("Not every cell"));
  }

  @Test
  public void testMissingRepetitionIsReported() throws Exception {
    Path csv = tmp.newFile("short.csv").toPath();
    Files.write(csv, Arrays.asList(WalBenchReport.HEADER, "stock-fshlog,1,1,10,1,2,5,1,1,1",
      "stock-fshlog,1,2,20,1,2,5,1,1,1", "patched-fshlog,1,1,30,1,2,5,1,1,1"),
      StandardCharsets.UTF_8);
    String md = WalBenchReport.summary(WalBenchReport.read(csv), "T", Collections.emptyList());
    assertTrue(md, md.contains("| 1 | 15 ±33% | 30 ±0% | 2.00x |\n"));
    assertTrue(md, !md.contains("Shorter than"));
    assertTrue(md, md.contains("patched-fshlog at 1 threads: 1"));
  }

  @Test
  public void testBadCsvIsRefused() throws Exception {
    Path csv = tmp.newFile("bad.csv").toPath();
    Files.write(csv, Arrays.asList("impl,threads,rep,ops,p50,p99"), StandardCharsets.UTF_8);
    assertRefused(csv, "the first line must be");
    Files.write(csv, Arrays.asList(WalBenchReport.HEADER, "stock-fshlog,1,1,10,1,2,5,1,1,1",
      "stock-fshlog,x,1,10,1,2,5,1,1,1"), StandardCharsets.UTF_8);
    assertRefused(csv, "line 3");
    Files.write(csv, Arrays.asList(WalBenchReport.HEADER, "stock-fshlog,1,1,10,1,2"),
      StandardCharsets.UTF_8);
    assertRefused(csv, "line 2");
    Files.write(csv, Arrays.asList(WalBenchReport.HEADER), StandardCharsets.UTF_8);
    assertRefused(csv, "no measurements");
  }

  private static void assertRefused(Path csv, String why) throws Exception {
    try {
      WalBenchReport.read(csv);
      fail("accepted " + csv);
    } catch (IllegalArgumentException e) {
      assertTrue(e.getMessage(), e.getMessage().contains(why));
    }
  }

  @Test
  public void testChartIsAPng() throws Exception {
    Path png = tmp.getRoot().toPath().resolve("chart.png");
    WalBenchReport.chart(WalBenchReport.read(sampleCsv()), "T", png);
    byte[] head = Arrays.copyOf(Files.readAllBytes(png), 8);
    assertArrayEquals(new byte[] { (byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' }, head);
    assertTrue(Files.size(png) > 10_000);
    assertTrue(!Files.exists(png.resolveSibling("chart.png.tmp")));
  }

  @Test
  public void testHdrReservoirKeepsEveryValue() throws Exception {
    HdrReservoir r = new HdrReservoir();
    Histogram h = new Histogram(r);
    ExecutorService pool = Executors.newFixedThreadPool(8);
    for (int t = 0; t < 8; t++) {
      int base = t;
      pool.execute(() -> {
        for (int v = 1 + base; v <= 100_000; v += 8) {
          h.update(v * 1000L);
        }
      });
    }
    pool.shutdown();
    assertTrue(pool.awaitTermination(1, TimeUnit.MINUTES));
    Snapshot s = h.getSnapshot();
    assertEquals(100_000, s.size());
    assertEquals(100_000, h.getCount());
    // HdrHistogram with 3 significant digits: within 0.1%.
    assertEquals(50_000_000, s.getMedian(), 50_000);
    assertEquals(99_000_000, s.get99thPercentile(), 99_000);
    assertEquals(100_000_000, s.getMax(), 100_000);
    assertEquals(100_000, s.getValues().length);
  }

  @Test
  public void testWalpeLatencyHistogramCanBeSwapped() {
    WALPerformanceEvaluation walpe = new WALPerformanceEvaluation();
    assertTrue("WALPerformanceEvaluation has no writable latencyHistogram field any more",
      WalBenchClient.installReservoir(walpe, new HdrReservoir()));
  }

  @Test
  public void testWalpeSyncMeterCanBeRead() throws Exception {
    WALPerformanceEvaluation walpe = new WALPerformanceEvaluation();
    assertEquals(0, WalBenchClient.syncCount(walpe));
    // The meter WALPE's WALActionsListener marks on every postSync.
    Field f = WALPerformanceEvaluation.class.getDeclaredField("syncMeter");
    f.setAccessible(true);
    ((Meter) f.get(walpe)).mark(3);
    assertEquals(3, WalBenchClient.syncCount(walpe));
  }
}
