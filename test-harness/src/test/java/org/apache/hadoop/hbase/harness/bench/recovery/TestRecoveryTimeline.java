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
import static org.junit.Assert.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.harness.util.ToolRun;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * The per-step breakdown of bench recovery, read from logs whose lines are those the local
 * cluster wrote in a real run (trimmed): one restart with the persistent memstore rebuilt after
 * a split of a WAL with no data (one lease recovery), one with a WAL split on two RegionServers
 * and a replay with flushes; the lines before the offsets (the previous incarnation) do not
 * count; a log without a step, and a bad command line, in one line.
 */
public class TestRecoveryTimeline {
  @Rule
  public TemporaryFolder tmp = new TemporaryFolder();

  private static final String OLD_RS = "2026-11-28T15:07:37,543 INFO  "
    + "[regionserver/localhost:17050] regionserver.HRegionServer: Serving as "
    + "localhost,17050,1795878451119, RpcServer on x\n"
    + "2026-11-28T15:07:40,000 INFO  [RS_OPEN_REGION-regionserver/localhost:17050-0] "
    + "regionserver.PersistentMemStoreRecovery: aaaa: rebuilt 1 cells (1 bytes, up to sequence id "
    + "1) from 1 persistent memstore chunks in 99999 ms; 0 uncommitted cells dropped\n";

  private static final String DEAD = "localhost,17050,1795878451119";

  // Written by the killed incarnation after the offset was taken, before the restart: not the
  // recovery's.
  private static final String PMEM_RS = "2026-11-28T15:08:29,000 INFO  [MemStoreFlusher.0] "
    + "regionserver.HRegion: Finished flush of dataSize ~1 MB/1, heapSize ~1 MB/1, "
    + "currentSize=0 B/0 for 92e7 in 800ms, sequenceid=2, compaction requested=false\n"
    + "2026-11-28T15:08:29,100 INFO  [RS_LOG_REPLAY_OPS-regionserver/localhost:17050-0] "
    + "wal.WALSplitter: Open hdfs://h/old took 9000ms\n"
    + "2026-11-28T15:08:30,061 INFO  [main] "
    + "regionserver.HRegionServer: STARTING executorService HRegionServer\n"
    + "2026-11-28T15:08:34,164 INFO  [regionserver/localhost:17050] "
    + "regionserver.PersistentMemStoreSpace: Scanned 1536 chunks of /dev/shm/p/rs1/memstore.pmem "
    + "in 419 ms: 528 hold data of 2 regions\n"
    + "2026-11-28T15:08:34,211 INFO  [regionserver/localhost:17050] regionserver.HRegionServer: "
    + "Serving as localhost,17050,1795878510355, RpcServer on localhost/127.0.0.1:17050\n"
    + "java.io.IOException: a stack trace's line has no timestamp\n"
    + "2026-11-28T15:08:41,252 INFO  [RS_OPEN_REGION-regionserver/localhost:17050-0] "
    + "regionserver.PersistentMemStoreRecovery: 92e7: rebuilt 125663 cells (134333747 bytes, up "
    + "to sequence id 10054) from 66 persistent memstore chunks in 2120 ms; 0 uncommitted cells "
    + "dropped; 0 nonces registered\n"
    + "2026-11-28T15:08:43,228 INFO  [RS_OPEN_REGION-regionserver/localhost:17050-0] "
    + "regionserver.PersistentMemStoreRecovery: bfc2: rebuilt 125346 cells (133994874 bytes, up "
    + "to sequence id 10057) from 66 persistent memstore chunks in 656 ms; 0 uncommitted cells "
    + "dropped; 0 nonces registered\n"
    // A flush after the last region opened is the load's, not the open's.
    + "2026-11-28T15:08:50,000 INFO  [MemStoreFlusher.0] regionserver.HRegion: Finished flush of "
    + "dataSize ~1 MB/1, heapSize ~1 MB/1, currentSize=0 B/0 for 92e7 in 500ms, sequenceid=2, "
    + "compaction requested=false\n";

  // The split ran on rs2, as in the real runs.
  private static final String PMEM_RS2 = "2026-11-28T15:08:34,366 INFO  [RS_LOG_REPLAY_OPS-"
    + "regionserver/localhost:17052-0] util.RecoverLeaseFSUtils: Failed to recover lease, "
    + "attempt=0 on file=hdfs://h/w after 62ms\n"
    + "2026-11-28T15:08:38,368 INFO  [RS_LOG_REPLAY_OPS-regionserver/localhost:17052-0] "
    + "util.RecoverLeaseFSUtils: Recovered lease, attempt=1 on file=hdfs://h/w after 4016ms\n"
    + "2026-11-28T15:08:38,380 INFO  [RS_LOG_REPLAY_OPS-regionserver/localhost:17052-0] "
    + "wal.WALSplitter: Open hdfs://h/w took 4050ms\n";

  private static final String OLD_MASTER = "2026-11-28T15:07:31,000 INFO  [PEWorker-1] "
    + "procedure.ServerCrashProcedure: Start pid=1, state=RUNNABLE:SERVER_CRASH_START; old\n";

  private static final String PMEM_MASTER = "2026-11-28T15:08:33,300 INFO  [PEWorker-2] "
    + "procedure.ServerCrashProcedure: Start pid=99, state=RUNNABLE:SERVER_CRASH_START, "
    + "locked=true; ServerCrashProcedure localhost,17052,1795878451200, splitWal=true, "
    + "meta=false\n"
    + "2026-11-28T15:08:33,320 INFO  [PEWorker-2] procedure.ServerCrashProcedure: Splitting WALs "
    + "pid=99, state=RUNNABLE:SERVER_CRASH_SPLIT_LOGS, locked=true; ServerCrashProcedure y\n"
    + "2026-11-28T15:08:33,320 INFO  [PEWorker-2] master.SplitWALManager: "
    + "localhost,17052,1795878451200 WAL count=0, meta=false\n"
    + "2026-11-28T15:08:33,320 INFO  [PEWorker-1] "
    + "procedure.ServerCrashProcedure: Start pid=108, "
    + "state=RUNNABLE:SERVER_CRASH_START, locked=true; ServerCrashProcedure "
    + "localhost,17050,1795878451119, splitWal=true, meta=false\n"
    + "2026-11-28T15:08:33,325 INFO  [PEWorker-1] procedure.ServerCrashProcedure: Splitting WALs "
    + "pid=108, state=RUNNABLE:SERVER_CRASH_SPLIT_LOGS, locked=true; ServerCrashProcedure x\n"
    + "2026-11-28T15:08:33,346 INFO  [PEWorker-1] master.SplitWALManager: "
    + "localhost,17050,1795878451119 WAL count=1, meta=false\n"
    + "2026-11-28T15:08:38,582 INFO  [PEWorker-10] master.SplitWALManager: "
    + "localhost,17050,1795878451119 WAL count=0, meta=false\n"
    + "2026-11-28T15:08:38,746 INFO  [PEWorker-16] assignment.RegionStateStore: pid=117 updating "
    + "hbase:meta row=92e7, regionState=OPENING, regionLocation=localhost,17050,1795878510355\n"
    + "2026-11-28T15:08:41,502 INFO  [PEWorker-16] assignment.RegionStateStore: pid=117 updating "
    + "hbase:meta row=92e7, regionState=OPEN, openSeqNum=10055, regionLocation=l,17050,1\n"
    + "2026-11-28T15:08:43,400 INFO  [PEWorker-3] assignment.RegionStateStore: pid=111 updating "
    + "hbase:meta row=bfc2, regionState=OPEN, openSeqNum=10058, regionLocation=l,17050,1\n"
    // Another table's region is not the table's.
    + "2026-11-28T15:08:49,000 INFO  [PEWorker-3] assignment.RegionStateStore: pid=140 updating "
    + "hbase:meta row=ffff, regionState=OPEN, openSeqNum=2, regionLocation=l,17050,1\n";

  private static final String WAL_RS = "2026-11-28T15:10:54,845 INFO  "
    + "[regionserver/localhost:17050] regionserver.HRegionServer: Serving as "
    + "localhost,17050,1795878651022, RpcServer on x\n"
    + "2026-11-28T15:10:55,008 INFO  [RS_LOG_REPLAY_OPS-regionserver/localhost:17050-1] "
    + "util.RecoverLeaseFSUtils: Recovered lease, attempt=0 on file=hdfs://h/w1 after 44ms\n"
    + "2026-11-28T15:10:55,283 INFO  [RS_LOG_REPLAY_OPS-regionserver/localhost:17050-1] "
    + "wal.WALSplitter: Open hdfs://h/w1 took 331ms\n"
    // A WAL whose lease recovery ended without a "Recovered lease" line.
    + "2026-11-28T15:10:59,048 INFO  [RS_LOG_REPLAY_OPS-regionserver/localhost:17050-0] "
    + "util.RecoverLeaseFSUtils: Failed to recover lease, attempt=1 on file=hdfs://h/w3 after "
    + "4065ms\n"
    + "2026-11-28T15:11:01,127 INFO  [RS_LOG_REPLAY_OPS-regionserver/localhost:17050-0] "
    + "wal.WALSplitter: Open hdfs://h/w3 took 6146ms\n"
    + "2026-11-28T15:11:22,429 INFO  [RS_OPEN_REGION-regionserver/localhost:17050-0] "
    + "regionserver.HRegion: Finished flush of dataSize ~128.08 MB/134304204, heapSize ~137.20 "
    + "MB/143861672, currentSize=0 B/0 for ef65 in 6061ms, sequenceid=10063, compaction "
    + "requested=false; wal=null\n"
    + "2026-11-28T15:11:22,438 INFO  [RS_OPEN_REGION-regionserver/localhost:17050-2] "
    + "regionserver.HRegion: Finished flush of dataSize ~127.79 MB/133992348, heapSize ~136.88 "
    + "MB/143527624, currentSize=0 B/0 for 474c in 4263ms, sequenceid=10066, compaction "
    + "requested=false; wal=null\n";

  // The longest WAL open was on rs2.
  private static final String WAL_RS2 = "2026-11-28T15:11:00,000 INFO  [RS_LOG_REPLAY_OPS-"
    + "regionserver/localhost:17052-0] wal.WALSplitter: Open hdfs://h/w2 took 7000ms\n";

  private static final String WAL_MASTER = "2026-11-28T15:10:54,183 INFO  [PEWorker-14] "
    + "procedure.ServerCrashProcedure: Start pid=111, state=RUNNABLE:SERVER_CRASH_START, "
    + "locked=true; ServerCrashProcedure localhost,17050,1795878568311, splitWal=true\n"
    + "2026-11-28T15:10:54,189 INFO  [PEWorker-14] procedure.ServerCrashProcedure: Splitting WALs "
    + "pid=111, state=RUNNABLE:SERVER_CRASH_SPLIT_LOGS, locked=true; ServerCrashProcedure x\n"
    + "2026-11-28T15:11:12,366 INFO  [PEWorker-11] master.SplitWALManager: "
    + "localhost,17050,1795878568311 WAL count=0, meta=false\n"
    + "2026-11-28T15:11:22,577 INFO  [PEWorker-1] assignment.RegionStateStore: pid=130 updating "
    + "hbase:meta row=ef65, regionState=OPEN, openSeqNum=10064, regionLocation=l,17050,1\n"
    + "2026-11-28T15:11:32,409 INFO  [PEWorker-4] assignment.RegionStateStore: pid=132 updating "
    + "hbase:meta row=474c, regionState=OPEN, openSeqNum=10067, regionLocation=l,17050,1\n";

  private static long ms(String localTime) {
    return ms(localTime, ZoneId.systemDefault());
  }

  private static long ms(String localTime, ZoneId zone) {
    return LocalDateTime.parse(localTime).atZone(zone).toInstant().toEpochMilli();
  }

  private String write(String name, String before, String after) throws Exception {
    Path f = tmp.getRoot().toPath().resolve(name);
    Files.write(f, (before + after).getBytes(StandardCharsets.UTF_8));
    return f + "@" + before.getBytes(StandardCharsets.UTF_8).length;
  }

  private String regions(String... encoded) throws Exception {
    return regionsOn(DEAD, encoded);
  }

  private String regionsOn(String server, String... encoded) throws Exception {
    Path f = Files.createTempFile(tmp.getRoot().toPath(), "layout", ".txt");
    StringBuilder sb = new StringBuilder();
    for (String r : encoded) {
      sb.append(r).append(' ').append(server).append('\n');
    }
    Files.write(f, sb.toString().getBytes(StandardCharsets.UTF_8));
    return f.toString();
  }

  @Test
  public void testPersistentMemStoreRestart() throws Exception {
    long restart = ms("2026-11-28T15:08:29.400");
    ToolRun r = ToolRun.of(new RecoveryTimeline(), "--restart-ms", Long.toString(restart),
      "--online-ms", "14800", "--regions", regions("92e7", "bfc2"), "--master",
      write("master.log", OLD_MASTER, PMEM_MASTER), "--restarted",
      write("rs1.log", OLD_RS, PMEM_RS),
      "--other", write("rs2.log", "", PMEM_RS2));
    assertEquals(r.err, 0, r.rc);
    // Another server's crash procedure and split, in the same millisecond, are not this one's;
    // the flush and the WAL open rs1 logged before the restart do not count.
    assertEquals("harness-recovery timeline serving_s=4.8 scan_s=0.4 scp_s=3.9 split_s=5.3 "
      + "lease_s=4.0 split_end_s=9.2 opened_s=14.0 open_s=4.8 rebuild_s=2.8 flush_s=0.0 "
      + "seen_s=0.8\n", r.out);
  }

  @Test
  public void testWalSplitAndReplay() throws Exception {
    long restart = ms("2026-11-28T15:10:49.900");
    ToolRun r = ToolRun.of(new RecoveryTimeline(), "--restart-ms", Long.toString(restart),
      "--online-ms", "43000", "--regions",
      regionsOn("localhost,17050,1795878568311", "ef65", "474c"), "--master",
      write("master.log", "", WAL_MASTER), "--restarted", write("rs1.log", "", WAL_RS), "--other",
      write("rs2.log", "", WAL_RS2), "--other", write("rs3.log", "", ""));
    assertEquals(r.err, 0, r.rc);
    assertEquals("harness-recovery timeline serving_s=4.9 scan_s=0.0 scp_s=4.3 split_s=18.2 "
      + "lease_s=7.0 split_end_s=22.5 opened_s=42.5 open_s=20.0 rebuild_s=0.0 flush_s=10.3 "
      + "seen_s=0.5\n", r.out);
  }

  @Test
  public void testMissingStepIsOneLine() throws Exception {
    String layout = regions("92e7", "bfc2");
    String master = write("master.log", "", PMEM_MASTER);
    String p = "harness: error: RecoveryTimeline: ";
    assertFailure(p + "the restarted RegionServer's log has no 'Serving as' line", "--master",
      master, "--restarted", write("rs1.log", PMEM_RS + OLD_RS, ""), "--regions", layout);
    String rs = write("rs1.log", "", PMEM_RS);
    assertFailure(p + "region cccc is never OPEN in the master's log", "--master", master,
      "--restarted", rs, "--regions", regions("92e7", "cccc"));
    assertFailure(p + "the master's log has no ServerCrashProcedure start of " + DEAD, "--master",
      write("master.log", OLD_MASTER + PMEM_MASTER, ""), "--restarted", rs, "--regions", layout);
    assertFailure(p + "the master's log has no ServerCrashProcedure start of localhost,1,2",
      "--master", master, "--restarted", rs, "--regions", regionsOn("localhost,1,2", "92e7"));
    assertFailure(p + "the master's log has no end of the WAL split of " + DEAD
      + " ('WAL count=0')", "--master",
      write("master.log", "", PMEM_MASTER.replace(DEAD + " WAL count=0", DEAD + " WAL count=2")),
      "--restarted", rs, "--regions", layout);
    Path bad = tmp.getRoot().toPath().resolve("bad-layout.txt");
    Files.write(bad, ("92e7 " + DEAD + "\nbfc2\n").getBytes(StandardCharsets.UTF_8));
    assertFailure(p + bad + " line 2: not 'REGION SERVER': 'bfc2'", "--master", master,
      "--restarted", rs, "--regions", bad.toString());
    Files.write(bad, ("92e7 " + DEAD + "\nbfc2 localhost,17052,1\n")
      .getBytes(StandardCharsets.UTF_8));
    assertFailure(p + bad + " line 2: bfc2 is on localhost,17052,1, not on " + DEAD
      + " as the regions before it", "--master", master, "--restarted", rs, "--regions",
      bad.toString());
    Files.write(bad, "\n".getBytes(StandardCharsets.UTF_8));
    assertFailure(p + bad + " names no region", "--master", master, "--restarted", rs,
      "--regions", bad.toString());
    Path none = tmp.getRoot().toPath().resolve("no-layout.txt");
    assertFailure(p + none + ": no such file", "--master", master, "--restarted", rs,
      "--regions", none.toString());
    Path missing = tmp.getRoot().toPath().resolve("gone.log");
    assertFailure(p + missing + ": no such file", "--master", master, "--restarted",
      missing + "@0", "--regions", layout);
    assertFailure(p + tmp.getRoot().toPath().resolve("master.log") + " is shorter than its "
      + "offset 999999", "--master", master.replaceAll("@\\d+$", "@999999"), "--restarted", rs,
      "--regions", layout);
  }

  private void assertFailure(String line, String... args) {
    List<String> all = new ArrayList<>(Arrays.asList("--restart-ms", "1", "--online-ms",
      "1"));
    all.addAll(Arrays.asList(args));
    ToolRun r = ToolRun.of(new RecoveryTimeline(), all.toArray(new String[0]));
    assertEquals(r.err, 1, r.rc);
    assertEquals(Arrays.asList(line), r.errLines());
    assertEquals("", r.out);
  }

  /** A crash procedure that split nothing: the split takes no time and ends at its start. */
  @Test
  public void testNoSplit() throws Exception {
    long restart = ms("2026-11-28T15:08:29.400");
    String master = PMEM_MASTER.substring(PMEM_MASTER.indexOf("2026-11-28T15:08:33,320 INFO  "
      + "[PEWorker-1]")).replaceAll("(?m)^.*(Splitting WALs pid=108|WAL count).*\n", "");
    ToolRun r = ToolRun.of(new RecoveryTimeline(), "--restart-ms", Long.toString(restart),
      "--online-ms", "14800", "--regions", regions("92e7", "bfc2"), "--master",
      write("master.log", "", master), "--restarted", write("rs1.log", OLD_RS, PMEM_RS));
    assertEquals(r.err, 0, r.rc);
    assertTrue(r.out, r.out.contains(" scp_s=3.9 split_s=0.0 lease_s=0.0 split_end_s=3.9 "
      + "opened_s=14.0 open_s=10.1 "));
  }

  /**
   * The logs' local times are read in the zone given: here one half an hour off from whole
   * hours, so that reading them in any other zone gives other steps.
   */
  @Test
  public void testLocalTimesAreReadInTheZoneGiven() throws Exception {
    ZoneId zone = ZoneId.of("Asia/Kolkata");
    String master = write("master.log", OLD_MASTER, PMEM_MASTER);
    String rs1 = write("rs1.log", OLD_RS, PMEM_RS);
    String rs2 = write("rs2.log", "", PMEM_RS2);
    Map<String, Double> t = RecoveryTimeline.timeline(
      ms("2026-11-28T15:08:29.400", zone), 14800, DEAD, Arrays.asList("92e7", "bfc2"),
      RecoveryTimeline.read(logFrom(master), zone), RecoveryTimeline.read(logFrom(rs1), zone),
      Arrays.asList(RecoveryTimeline.read(logFrom(rs2), zone)));
    assertEquals(Double.valueOf(4.811), t.get("serving_s"));
    assertEquals(Double.valueOf(14.0), t.get("opened_s"));
    assertEquals(Double.valueOf(0.8), t.get("seen_s"), 1e-9);
  }

  private static RecoveryTimeline.LogFrom logFrom(String fileAtOffset) {
    int at = fileAtOffset.lastIndexOf('@');
    return new RecoveryTimeline.LogFrom(Paths.get(fileAtOffset.substring(0, at)),
      Long.parseLong(fileAtOffset.substring(at + 1)));
  }

  /** bench_recovery.sh writes the steps' columns of results.csv in the order the tool has them. */
  @Test
  public void testTheBenchNamesTheToolsFields() throws Exception {
    String prefix = "BENCH_RECOVERY_STEPS=";
    List<String> lines = Files.readAllLines(Paths.get("..", "scripts", "lib",
      "bench_recovery.sh"), StandardCharsets.UTF_8);
    String steps = lines.stream().filter(l -> l.startsWith(prefix)).findFirst()
      .orElseThrow(() -> new AssertionError("bench_recovery.sh has no " + prefix))
      .substring(prefix.length());
    assertEquals(String.join(",", RecoveryTimeline.FIELDS), steps);
  }

  @Test
  public void testCommandLine() throws Exception {
    String p = "harness: usage error: RecoveryTimeline: ";
    String[] base = { "--restart-ms", "1", "--online-ms", "1", "--regions", "l", "--master",
      "m@0" };
    ToolRun.of(new RecoveryTimeline(), base).assertUsageError(p, "--restarted is required");
    ToolRun.of(new RecoveryTimeline(), concat(base, "--restarted", "rs1.log"))
      .assertUsageError(p, "--restarted 'rs1.log' is not LOG@OFFSET");
    ToolRun.of(new RecoveryTimeline(), concat(base, "--restarted", "rs1.log@x"))
      .assertUsageError(p, "--restarted offset 'x' is not a number");
    ToolRun.of(new RecoveryTimeline(), concat(base, "--restarted", "r@0", "--other", "@5"))
      .assertUsageError(p, "--other '@5' is not LOG@OFFSET");
    ToolRun.of(new RecoveryTimeline(), concat(base, "--restarted", "r@0", "--online-ms", "-1"))
      .assertUsageError(p, "--online-ms must be at least 0, not -1");
    ToolRun.of(new RecoveryTimeline(), concat(base, "--restarted", "r@0", "extra"))
      .assertUsageError(p, "unexpected argument 'extra'");
    ToolRun.of(new RecoveryTimeline(), "--help").assertHelp("RecoveryTimeline --restart-ms");
  }

  private static String[] concat(String[] a, String... b) {
    String[] all = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, all, a.length, b.length);
    return all;
  }
}
