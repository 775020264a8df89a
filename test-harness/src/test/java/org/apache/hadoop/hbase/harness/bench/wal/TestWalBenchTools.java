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

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.apache.hadoop.hbase.harness.util.ToolException;
import org.apache.hadoop.hbase.harness.util.ToolRun;
import org.junit.BeforeClass;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * The command lines of bench wal's three tools (WalBenchClient, MiniDfsServer, WalBenchReport):
 * a bad one is refused in one line with exit 2 before anything starts, -h prints the usage; and
 * the report run as a tool writes its summary and chart.
 */
public class TestWalBenchTools {
  @Rule
  public TemporaryFolder tmp = new TemporaryFolder();

  @BeforeClass
  public static void headless() {
    System.setProperty("java.awt.headless", "true");
  }

  @Test
  public void testClientCommandLine() {
    String p = "harness-wal: ERROR: ";
    ToolRun.of(new WalBenchClient(), "--expect-edits", "10", "--frob", "1", "--", "-threads", "1")
      .assertUsageError(p, "unknown option '--frob'");
    ToolRun.of(new WalBenchClient(), "--expect-edits", "ten", "--", "-threads", "1")
      .assertUsageError(p, "--expect-edits 'ten' is not a number");
    ToolRun.of(new WalBenchClient(), "--timeout-s", "0", "--")
      .assertUsageError(p, "--timeout-s must be at least 1, not 0");
    ToolRun.of(new WalBenchClient(), "--parent-pid", "--", "-threads", "1")
      .assertUsageError(p, "--parent-pid needs a value");
    ToolRun.of(new WalBenchClient(), "stray", "--", "-threads")
      .assertUsageError(p, "unexpected argument 'stray'");
    ToolRun.of(new WalBenchClient(), "--expect-jar", "x", "-h", "--", "-threads", "1")
      .assertHelp("WalBenchClient");
  }

  @Test
  public void testClientPassesWhatFollowsTheDashesToWalpe() {
    WalBenchClient c = new WalBenchClient();
    String[] own = c.optionArgs(new String[] { "--expect-edits", "4", "--", "-threads", "2",
      "--", "-h" });
    assertEquals(Arrays.asList("--expect-edits", "4"), Arrays.asList(own));
  }

  /**
   * The warm-up runs WALPE with its own iteration count on a path of its own; the measured run's
   * arguments stay as given. Without -iterations or -path to rewrite, the client is refused.
   */
  @Test
  public void testClientWarmupHasItsOwnIterationsAndPath() {
    String[] walpe = { "-Dhbase.wal.provider=filesystem", "-threads", "4", "-iterations", "100",
      "-path", "hdfs://localhost:1/bench/3-patched-fshlog-t4" };
    assertEquals(
      Arrays.asList("-Dhbase.wal.provider=filesystem", "-threads", "4", "-iterations", "7",
        "-path", "hdfs://localhost:1/bench/3-patched-fshlog-t4-warmup"),
      Arrays.asList(WalBenchClient.warmupArgs(walpe, 7)));
    assertEquals("the measured run's arguments are untouched", "100", walpe[4]);
    String p = "harness-wal: ERROR: ";
    ToolRun.of(new WalBenchClient(), "--warmup-iterations", "5", "--", "-threads", "1",
      "-iterations", "5").assertUsageError(p,
        "--warmup-iterations needs WALPE's -iterations and -path");
    ToolRun.of(new WalBenchClient(), "--warmup-iterations", "x", "--", "-iterations", "5",
      "-path", "/p").assertUsageError(p, "--warmup-iterations 'x' is not a number");
  }

  /**
   * The DataNodes' CPU time comes from /proc: fields 14 and 15, counted after the command name,
   * which may hold spaces and parentheses; this JVM's own ticks rise while it spins. A pid
   * without --clk-tck, or a line that is not a stat line, is refused.
   */
  @Test
  public void testClientReadsAProcessCpuTicksFromProc() throws Exception {
    assertEquals(1000, WalBenchClient.statCpuTicks(
      "42 (a (b) c) S 1 42 42 0 -1 4194560 100 0 0 0 700 300 0 0 20 0 1 0 5 0 0\n"));
    assertThrows(ToolException.class, () -> WalBenchClient.statCpuTicks("42 (java) S 1 2"));
    assertThrows(ToolException.class, () -> WalBenchClient.statCpuTicks("no stat here"));
    long pid = ProcessHandle.current().pid();
    long before = WalBenchClient.procCpuTicks(pid);
    long end = System.nanoTime() + 2_000_000_000L;
    long spin = 0;
    while (System.nanoTime() < end) {
      spin++;
    }
    assertTrue("spun " + spin, WalBenchClient.procCpuTicks(pid) > before);
    assertThrows(ToolException.class, () -> WalBenchClient.procCpuTicks(999_999_999L));
    String p = "harness-wal: ERROR: ";
    ToolRun.of(new WalBenchClient(), "--dfs-pid", "42", "--", "-threads", "1")
      .assertUsageError(p, "--dfs-pid and --clk-tck go together");
  }

  @Test
  public void testDfsServerCommandLine() {
    String p = "MiniDfsServer: usage error: ";
    String uri = tmp.getRoot().toPath().resolve("dfs.uri").toString();
    ToolRun.of(new MiniDfsServer(), uri, "three").assertUsageError(p,
      "DATANODES 'three' is not a number");
    ToolRun.of(new MiniDfsServer(), uri, "3", "pid").assertUsageError(p,
      "PARENT_PID 'pid' is not a number");
    ToolRun.of(new MiniDfsServer(), uri, "3", "1", "4").assertUsageError(p,
      "unexpected argument '4'");
    ToolRun.of(new MiniDfsServer()).assertUsageError(p, "needs URI_FILE [DATANODES [PARENT_PID]]");
    ToolRun.of(new MiniDfsServer(), uri, "--datanodes", "3").assertUsageError(p,
      "unknown option '--datanodes'");
    ToolRun.of(new MiniDfsServer(), "-h").assertHelp("MiniDfsServer URI_FILE");
    assertFalse(Files.exists(tmp.getRoot().toPath().resolve("dfs.uri")));
  }

  @Test
  public void testDfsServerRefusesAParentThatIsGone() throws Exception {
    Process p = new ProcessBuilder("true").start();
    p.waitFor();
    String uri = tmp.getRoot().toPath().resolve("dfs.uri").toString();
    ToolRun r = ToolRun.of(new MiniDfsServer(), uri, "3", String.valueOf(p.pid()));
    assertEquals(1, r.rc);
    assertEquals(Arrays.asList("MiniDfsServer: error: parent process " + p.pid()
      + " is not running"), r.errLines());
  }

  @Test
  public void testReportCommandLine() throws Exception {
    String p = "WalBenchReport: ";
    ToolRun.of(new WalBenchReport(), "--csv", "a.csv", "--summary", "s.md")
      .assertUsageError(p, "--chart is required");
    ToolRun.of(new WalBenchReport(), "--csv", "a.csv")
      .assertUsageError(p, "--summary, --chart are required");
    ToolRun.of(new WalBenchReport(), "--csv", "a.csv", "--summary", "s.md", "--chart", "c.png",
      "--colour", "red").assertUsageError(p, "unknown option '--colour'");
    ToolRun.of(new WalBenchReport(), "-h").assertHelp("WalBenchReport --csv FILE");
  }

  @Test
  public void testReportWritesSummaryAndChart() throws Exception {
    Path dir = tmp.getRoot().toPath();
    Path csv = dir.resolve("results.csv");
    Files.write(csv, Arrays.asList(WalBenchReport.HEADER, "stock-fshlog,1,1,10,1,2,5,1,1,1",
      "stock-fshlog,1,2,20,1,4,5,1,1,1", "patched-fshlog,1,1,30,1,2,5,1,1,1",
      "patched-fshlog,1,2,40,1,2,5,1,1,1"), StandardCharsets.UTF_8);
    ToolRun r = ToolRun.of(new WalBenchReport(), "--csv", csv.toString(), "--summary",
      dir.resolve("summary.md").toString(), "--chart", dir.resolve("chart.png").toString(),
      "--title", "T", "--note", "one", "--note", "two");
    assertEquals(r.err, 0, r.rc);
    String md = new String(Files.readAllBytes(dir.resolve("summary.md")), StandardCharsets.UTF_8);
    assertTrue(md, md.startsWith("# T\n\none\n\ntwo\n\n"));
    // Medians of two repetitions: the mean of both.
    assertTrue(md, md.contains("| 1 | 15 ±33% | 35 ±14% | 2.33x |\n"));
    assertTrue(Files.size(dir.resolve("chart.png")) > 1000);
  }

  @Test
  public void testReportRefusesABadCsvInOneLine() throws Exception {
    Path dir = tmp.getRoot().toPath();
    Path csv = dir.resolve("results.csv");
    Files.write(csv, Arrays.asList("nope"), StandardCharsets.UTF_8);
    ToolRun r = ToolRun.of(new WalBenchReport(), "--csv", csv.toString(), "--summary",
      dir.resolve("summary.md").toString(), "--chart", dir.resolve("chart.png").toString());
    assertEquals(1, r.rc);
    assertEquals(1, r.errLines().size());
    assertTrue(r.err, r.errLines().get(0).startsWith("WalBenchReport: " + csv
      + ": the first line must be"));
  }
}
