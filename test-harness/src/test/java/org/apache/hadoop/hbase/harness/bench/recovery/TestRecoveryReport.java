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
package org.apache.hadoop.hbase.harness.bench.recovery;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.hbase.harness.util.ToolRun;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * The summary of bench recovery from its results.csv: the medians per mode and size (an even
 * number of repetitions included), the ratios, the rows lost, a size without measurements, the
 * rounding of C's printf (which the summary's numbers always had); a bad CSV and a bad command
 * line in one line.
 */
public class TestRecoveryReport {
  @Rule
  public TemporaryFolder tmp = new TemporaryFolder();

  // The steps of RecoveryTimeline: the same for every row but those that say otherwise.
  private static final String STEPS = ",4.5,0.4,3.9,5.3,4.0,9.2,14.0,4.8,2.8,0.0,0.8";

  private static final List<String> CSV = Arrays.asList(RecoveryReport.HEADER,
    // 128m: two repetitions of each mode; the pmem median 4.25 rounds (half to even) to 4.2.
    "pmem,128m,1,100,130,0,10.0,3.0,4.0,10000,0" + STEPS,
    "pmem,128m,2,100,131,0,10.0,3.5,4.5,10000,0,5.5,0.6,4.9,6.3,5.0,10.2,15.0,5.8,3.8,1.0,1.8",
    // 1g: pmem only, three repetitions.
    "pmem,1g,1,900,1030,0,80.1,10.0,12.3,10000,0" + STEPS,
    "pmem,1g,2,900,1031,0,80.2,10.0,11.1,10000,0" + STEPS,
    "pmem,1g,3,900,1032,0,80.3,10.0,13.0,10000,0" + STEPS,
    "wal,128m,1,100,129,0,10.0,5.0,20.0,10000,0" + STEPS,
    "wal,128m,2,100,128,0,10.0,5.0,30.0,10000,1" + STEPS,
    // 256m: wal only, online before the restart command returned.
    "wal,256m,1,200,260,0,20.0,4.04,4.0,10000,2" + STEPS);

  /** What the harness's summary (an awk script before this tool) made of CSV. */
  private static final String EXPECTED = "# Recovery of a killed RegionServer: memstore rebuilt "
    + "from persistent memory against WAL replay\n\n"
    + "Time from the restart of the killed RegionServer until a get succeeds on every region of "
    + "the table\n"
    + "(median over the repetitions; \"after RS up\": from the RegionServer serving until "
    + "then).\n\n"
    + "| size | memstore MiB | pmem rebuild s | WAL replay s | WAL / pmem | pmem after RS up s "
    + "| WAL after RS up s | WAL / pmem after RS up | lost |\n"
    + "|---|---|---|---|---|---|---|---|---|\n"
    + "| 128m | 131 | 4.2 | 25.0 | 5.9x | 1.0 | 20.0 | 20.0x | 1 |\n"
    + "| 1g | 1032 | 12.3 | - | - | 2.3 | - | - | 0 |\n"
    + "| 256m | 260 | - | 4.0 | - | - | -0.0 | - | 2 |\n"
    + "| 2g |  | - | - | - | - | - | - | 0 |\n"
    + "\nEvery row: results.csv (load_s is the time the load took; storefile_mb > 0 means a "
    + "flush happened during the load).\n"
    + "\n## Where the time goes\n\n"
    + "Median seconds, read from the logs of the master and the RegionServers "
    + "(RecoveryTimeline). \"at\": from the\nrestart of the killed RegionServer; the others are "
    + "durations. The sums add up the regions' times on\nthe RegionServer's open threads.\n\n"
    + "| size | mode | RS serving at | pmem scan | crash procedure at | WAL split "
    + "| longest WAL open | split done at | regions open, after the split | rebuild (sum) "
    + "| flush (sum) | last region open at | every region serves at |\n"
    + "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n"
    // The medians of two repetitions: 4.5 and 5.5 give 5.0; 0.4 and 0.6, 0.5.
    + "| 128m | pmem | 5.0 | 0.5 | 4.4 | 5.8 | 4.5 | 9.7 | 5.3 | 3.3 | 0.5 | 14.5 | 4.2 |\n"
    + "| 128m | wal | 4.5 | 0.4 | 3.9 | 5.3 | 4.0 | 9.2 | 4.8 | 2.8 | 0.0 | 14.0 | 25.0 |\n"
    + "| 1g | pmem | 4.5 | 0.4 | 3.9 | 5.3 | 4.0 | 9.2 | 4.8 | 2.8 | 0.0 | 14.0 | 12.3 |\n"
    + "| 256m | wal | 4.5 | 0.4 | 3.9 | 5.3 | 4.0 | 9.2 | 4.8 | 2.8 | 0.0 | 14.0 | 4.0 |\n";

  private Path csv() throws Exception {
    Path f = tmp.getRoot().toPath().resolve("results.csv");
    Files.write(f, CSV, StandardCharsets.UTF_8);
    return f;
  }

  @Test
  public void testSummaryOfTheGivenSizes() throws Exception {
    Path summary = tmp.getRoot().toPath().resolve("summary.md");
    ToolRun r = ToolRun.of(new RecoveryReport(), "--csv", csv().toString(), "--summary",
      summary.toString(), "--sizes", "128m,1g,256m,2g");
    assertEquals(r.err, 0, r.rc);
    assertEquals("", r.out);
    assertEquals(EXPECTED, new String(Files.readAllBytes(summary), StandardCharsets.UTF_8));
    assertFalse(Files.exists(tmp.getRoot().toPath().resolve("summary.md.tmp")));
  }

  @Test
  public void testSizesDefaultToTheOrderOfTheCsv() throws Exception {
    String md = RecoveryReport.summary(RecoveryReport.read(csv()), Arrays.asList("128m", "1g",
      "256m"));
    Path summary = tmp.getRoot().toPath().resolve("summary.md");
    ToolRun r =
      ToolRun.of(new RecoveryReport(), "--csv", csv().toString(), "--summary", summary.toString());
    assertEquals(r.err, 0, r.rc);
    assertEquals(md, new String(Files.readAllBytes(summary), StandardCharsets.UTF_8));
    assertEquals(EXPECTED.replace("| 2g |  | - | - | - | - | - | - | 0 |\n", ""), md);
    assertTrue(md, md.contains("| 1g | pmem | 4.5 |"));
  }

  @Test
  public void testOneDecimalAsCPrintfWritesIt() {
    assertEquals("0.2", RecoveryReport.oneDecimal(0.25));
    // 0.35 is 0.34999... in binary: C writes 0.3 (Java's %.1f writes 0.4).
    assertEquals("0.3", RecoveryReport.oneDecimal(0.35));
    assertEquals("1.1", RecoveryReport.oneDecimal(1.05));
    assertEquals("-0.0", RecoveryReport.oneDecimal(-0.04));
    assertEquals("0.0", RecoveryReport.oneDecimal(0));
    assertEquals("-2.5", RecoveryReport.oneDecimal(-2.46));
    assertEquals("1234567.9", RecoveryReport.oneDecimal(1234567.89));
  }

  @Test
  public void testBadCsvIsOneLine() throws Exception {
    Path f = tmp.getRoot().toPath().resolve("bad.csv");
    Path summary = tmp.getRoot().toPath().resolve("summary.md");
    Files.write(f, Arrays.asList("mode,size", "pmem,1g"), StandardCharsets.UTF_8);
    assertRefused(f, summary, "the first line must be '" + RecoveryReport.HEADER + "'");
    Files.write(f,
      Arrays.asList(RecoveryReport.HEADER, "pmem,1g,1,900,1030,0,80.1,x,12.3,1,0" + STEPS),
      StandardCharsets.UTF_8);
    assertRefused(f, summary, "line 2: 'pmem,1g,1,900,1030,0,80.1,x,12.3,1,0" + STEPS + "'");
    Files.write(f, Arrays.asList(RecoveryReport.HEADER, "pmem,1g,1,900,1030,0,80.1,9,12.3,1,0"
      + STEPS.replace(",0.8", ",x")), StandardCharsets.UTF_8);
    assertRefused(f, summary, "line 2:");
    Files.write(f, Arrays.asList(RecoveryReport.HEADER, "pmem,1g,1"), StandardCharsets.UTF_8);
    assertRefused(f, summary, "22 fields expected");
    // A results.csv of a run before the breakdown names its header.
    Files.write(f, Arrays.asList(
      "mode,size,rep,rows,memstore_mb,storefile_mb,load_s,rs_up_s,online_s,sampled,lost"),
      StandardCharsets.UTF_8);
    assertRefused(f, summary, "the first line must be");
    assertFalse(Files.exists(summary));
  }

  private static void assertRefused(Path csv, Path summary, String why) {
    ToolRun r = ToolRun.of(new RecoveryReport(), "--csv", csv.toString(), "--summary",
      summary.toString());
    assertEquals(1, r.rc);
    assertEquals(r.err, 1, r.errLines().size());
    assertTrue(r.err, r.err.startsWith("harness: error: RecoveryReport: " + csv));
    assertTrue(r.err, r.err.contains(why));
  }

  @Test
  public void testCommandLine() throws Exception {
    String p = "harness: usage error: RecoveryReport: ";
    ToolRun.of(new RecoveryReport(), "--csv", "r.csv").assertUsageError(p, "--summary is required");
    ToolRun.of(new RecoveryReport(), "--csv", "r.csv", "--summary", "s.md", "--reps", "3")
      .assertUsageError(p, "unknown option '--reps'");
    ToolRun.of(new RecoveryReport(), "--csv", "r.csv", "--summary", "s.md", "--sizes", "1g,,2g")
      .assertUsageError(p, "--sizes '1g,,2g' has an empty size");
    ToolRun.of(new RecoveryReport(), "--csv", "r.csv", "--summary", "s.md", "extra")
      .assertUsageError(p, "unexpected argument 'extra'");
    ToolRun.of(new RecoveryReport(), "--help").assertHelp("RecoveryReport --csv FILE");
  }
}
