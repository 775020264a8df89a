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

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.hbase.harness.util.HarnessTool;
import org.apache.hadoop.hbase.harness.util.ToolException;

import org.apache.hbase.thirdparty.org.apache.commons.cli.CommandLine;

/**
 * Where the time of one measurement of {@code scripts/harness bench recovery} went, read back
 * from the logs of the local cluster: the master's, the restarted RegionServer's and the other
 * RegionServers' (a WAL split may run on any of them), each from the byte offset it had when the
 * RegionServer was killed.
 *
 * <p>The steps, in seconds from the restart of the killed RegionServer (the harness's clock; the
 * logs' timestamps are the same machine's local time):
 * <ul>
 * <li>{@code serving_s}: the restarted RegionServer logs "Serving as": its JVM started and it
 * registered with the master; {@code scan_s} of it is the scan of its persistent memstore space
 * ("Scanned ... in N ms", 0 without the option).</li>
 * <li>{@code scp_s}: the master starts the ServerCrashProcedure of the dead incarnation, the
 * server the layout names (the new one registering tells the master).</li>
 * <li>{@code split_s}: its WAL split, from that procedure's "Splitting WALs" until the master
 * counts no WAL of the dead server left ("WAL count=0"); {@code lease_s} is the longest open of
 * a split WAL, which is mostly its HDFS lease recovery (WALSplitter's "Open ... took N ms"; a
 * WAL its writer left open waits out {@code hbase.lease.recovery.first.pause} at least).
 * {@code split_end_s} is when the split ended (the procedure's start when it split nothing).</li>
 * <li>{@code opened_s}: the last region of the table is OPEN in hbase:meta; {@code open_s} is
 * that less {@code split_end_s} (assignment and open: the rebuild from persistent memory, or the
 * replay of the recovered edits and the flush after it). {@code rebuild_s} adds up the
 * RegionServer's per-region rebuild times, {@code flush_s} its flushes from the restart until the
 * last region opened (both run on several open threads at once, so they may exceed
 * {@code open_s}).</li>
 * <li>{@code seen_s}: from the last region OPEN until the harness's client got a row of every
 * region ({@code --online-ms}).</li>
 * </ul>
 *
 * <p>Usage: {@code RecoveryTimeline --restart-ms EPOCH_MS --online-ms MS --regions FILE --master
 * LOG@OFFSET --restarted LOG@OFFSET [--other LOG@OFFSET]...}; {@code --regions} is the layout
 * the harness wrote before the kill ({@code REGION SERVER} per line, every region on the server
 * that is killed). The RegionServers' lines count from the restart on. It prints one
 * line, {@code harness-recovery timeline} and the fields as {@code name=seconds}. A log that
 * lacks a step (no "Serving as", no crash procedure, a region never OPEN) is one
 * {@code harness: error:} line and exit 1.
 */
public final class RecoveryTimeline extends HarnessTool {
  /** The fields of the output line, in order. */
  public static final String[] FIELDS = { "serving_s", "scan_s", "scp_s", "split_s", "lease_s",
    "split_end_s", "opened_s", "open_s", "rebuild_s", "flush_s", "seen_s" };

  private static final DateTimeFormatter TIME =
    DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss,SSS", Locale.ROOT);
  private static final Pattern STAMP =
    Pattern.compile("^(\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d,\\d{3}) ");
  private static final Pattern SCANNED =
    Pattern.compile("PersistentMemStoreSpace: Scanned \\d+ chunks of \\S+ in (\\d+) ms");
  private static final Pattern LEASE = Pattern.compile("WALSplitter: Open \\S+ took (\\d+)ms");
  private static final Pattern REBUILT =
    Pattern.compile("PersistentMemStoreRecovery: \\S+: rebuilt \\d+ cells .* in (\\d+) ms;");
  private static final Pattern FLUSHED =
    Pattern.compile("HRegion: Finished flush of .* in (\\d+)ms, sequenceid=");
  private static final Pattern OPEN_IN_META = Pattern
    .compile("RegionStateStore: pid=-?\\d+ updating hbase:meta row=(\\w+), regionState=OPEN,");
  private static final Pattern SCP_START = Pattern.compile(
    "procedure\\.ServerCrashProcedure: Start pid=(\\d+), .*ServerCrashProcedure (\\S+),");

  private long restartMs;
  private long onlineMs;
  private Path regionsFile;
  private LogFrom master;
  private LogFrom restarted;
  private final List<LogFrom> others = new ArrayList<>();

  /** A log and the byte offset from which its lines count. */
  record LogFrom(Path file, long offset) {
  }

  /** A line of a log: its time (epoch ms) and its text. */
  record Line(long ms, String text) {
  }

  public RecoveryTimeline() {
    super("RecoveryTimeline",
      "RecoveryTimeline --restart-ms EPOCH_MS --online-ms MS --regions FILE --master LOG@OFFSET "
        + "--restarted LOG@OFFSET [--other LOG@OFFSET]...",
      "harness: usage error: RecoveryTimeline: ", "harness: error: RecoveryTimeline: ");
  }

  @Override
  protected void addOptions() {
    addRequiredOptWithArg(null, "restart-ms", "when the restart began, in ms since the epoch");
    addRequiredOptWithArg(null, "online-ms", "ms from the restart until every region served");
    addRequiredOptWithArg(null, "regions", "the layout before the kill: an encoded region name "
      + "first on each line");
    addRequiredOptWithArg(null, "master", "LOG@OFFSET: the master's log, from that byte");
    addRequiredOptWithArg(null, "restarted", "LOG@OFFSET: the restarted RegionServer's log");
    addOptWithArg(null, "other", "LOG@OFFSET: another RegionServer's log (repeatable)");
  }

  @Override
  protected void processOptions(CommandLine cmd) {
    noArguments(cmd);
    restartMs = longValue(cmd, "restart-ms", 0, 1, Long.MAX_VALUE);
    onlineMs = longValue(cmd, "online-ms", 0, 0, Long.MAX_VALUE);
    regionsFile = Paths.get(value(cmd, "regions"));
    master = logFrom("--master", value(cmd, "master"));
    restarted = logFrom("--restarted", value(cmd, "restarted"));
    String[] o = cmd.getOptionValues("other");
    if (o != null) {
      for (String v : o) {
        others.add(logFrom("--other", v));
      }
    }
  }

  private static LogFrom logFrom(String what, String v) {
    int at = v.lastIndexOf('@');
    if (at <= 0) {
      throw new UsageException(what + " '" + v + "' is not LOG@OFFSET");
    }
    return new LogFrom(Paths.get(v.substring(0, at)),
      number(what + " offset", v.substring(at + 1), 0, Long.MAX_VALUE));
  }

  @Override
  protected int doWork() throws IOException, ToolException {
    List<String> regions = new ArrayList<>();
    String server = null;
    try {
      int n = 0;
      for (String l : Files.readAllLines(regionsFile, StandardCharsets.UTF_8)) {
        n++;
        if (l.isBlank()) {
          continue;
        }
        String[] f = l.trim().split("\\s+");
        if (f.length != 2) {
          throw new ToolException(
            regionsFile + " line " + n + ": not 'REGION SERVER': '" + l + "'");
        }
        if (server != null && !server.equals(f[1])) {
          throw new ToolException(regionsFile + " line " + n + ": " + f[0] + " is on " + f[1]
            + ", not on " + server + " as the regions before it");
        }
        regions.add(f[0]);
        server = f[1];
      }
    } catch (NoSuchFileException e) {
      throw new ToolException(regionsFile + ": no such file");
    }
    if (regions.isEmpty()) {
      throw new ToolException(regionsFile + " names no region");
    }
    ZoneId zone = ZoneId.systemDefault();
    List<List<Line>> otherLines = new ArrayList<>();
    for (LogFrom l : others) {
      otherLines.add(read(l, zone));
    }
    Map<String, Double> t = timeline(restartMs, onlineMs, server, regions, read(master, zone),
      read(restarted, zone), otherLines);
    StringBuilder sb = new StringBuilder("harness-recovery timeline");
    t.forEach((k, v) -> sb.append(' ').append(k).append('=').append(RecoveryReport.oneDecimal(v)));
    System.out.println(sb);
    return EXIT_SUCCESS;
  }

  public static void main(String[] args) {
    launch(new RecoveryTimeline(), args);
  }

  /**
   * The timestamped lines of the log from its offset, their local times read in {@code zone};
   * lines without a timestamp are skipped.
   */
  static List<Line> read(LogFrom log, ZoneId zone) throws IOException, ToolException {
    List<Line> lines = new ArrayList<>();
    try (FileChannel ch = FileChannel.open(log.file(), StandardOpenOption.READ)) {
      if (log.offset() > ch.size()) {
        throw new ToolException(log.file() + " is shorter than its offset " + log.offset());
      }
      ch.position(log.offset());
      BufferedReader r = new BufferedReader(
        new InputStreamReader(Channels.newInputStream(ch), StandardCharsets.UTF_8));
      for (String l = r.readLine(); l != null; l = r.readLine()) {
        Matcher m = STAMP.matcher(l);
        if (m.find()) {
          try {
            lines.add(new Line(
              LocalDateTime.parse(m.group(1), TIME).atZone(zone).toInstant().toEpochMilli(), l));
          } catch (DateTimeParseException e) {
            // Not a log line's timestamp after all.
          }
        }
      }
    } catch (NoSuchFileException e) {
      throw new ToolException(log.file() + ": no such file");
    }
    return lines;
  }

  /**
   * The steps, by name in the order of {@link #FIELDS}, in seconds.
   * @throws ToolException if a log lacks a step
   */
  static Map<String, Double> timeline(long restartMs, long onlineMs, String dead,
    List<String> regions, List<Line> master, List<Line> restarted, List<List<Line>> others)
    throws ToolException {
    Line serving = first(restarted, "HRegionServer: Serving as ", 0);
    if (serving == null) {
      throw new ToolException("the restarted RegionServer's log has no 'Serving as' line");
    }
    // The crash procedure of the killed incarnation, and its own split: lines of the same
    // procedure id, and the count of the dead server's WALs, after them in the log.
    int scpAt = -1;
    String pid = null;
    for (int i = 0; i < master.size() && scpAt < 0; i++) {
      Matcher m = SCP_START.matcher(master.get(i).text());
      if (m.find() && m.group(2).equals(dead)) {
        scpAt = i;
        pid = m.group(1);
      }
    }
    if (scpAt < 0) {
      throw new ToolException("the master's log has no ServerCrashProcedure start of " + dead);
    }
    Line scp = master.get(scpAt);
    int splitAt = indexOf(master, scpAt,
      "procedure.ServerCrashProcedure: Splitting WALs pid=" + pid + ",");
    long splitEnd = scp.ms();
    if (splitAt >= 0) {
      int doneAt = indexOf(master, splitAt, "master.SplitWALManager: " + dead + " WAL count=0,");
      if (doneAt < 0) {
        throw new ToolException(
          "the master's log has no end of the WAL split of " + dead + " ('WAL count=0')");
      }
      splitEnd = master.get(doneAt).ms();
    }
    // The RegionServers' lines from the restart on: a line rs1 wrote before its kill is not the
    // recovery's.
    double lease = 0;
    List<List<Line>> servers = new ArrayList<>(others);
    servers.add(restarted);
    for (List<Line> s : servers) {
      for (Line l : s) {
        if (l.ms() >= restartMs) {
          lease = Math.max(lease, millis(LEASE, l));
        }
      }
    }
    Map<String, Long> open = new HashMap<>();
    for (Line l : master.subList(scpAt, master.size())) {
      Matcher m = OPEN_IN_META.matcher(l.text());
      if (m.find() && regions.contains(m.group(1))) {
        open.putIfAbsent(m.group(1), l.ms());
      }
    }
    long opened = 0;
    for (String r : regions) {
      Long ms = open.get(r);
      if (ms == null) {
        throw new ToolException("region " + r + " is never OPEN in the master's log");
      }
      opened = Math.max(opened, ms);
    }
    // What the restarted RegionServer did until the last region opened; a flush after that is
    // the load's, not the open's.
    double scan = 0;
    double rebuild = 0;
    double flush = 0;
    for (Line l : restarted) {
      if (l.ms() >= restartMs && l.ms() <= opened) {
        scan += millis(SCANNED, l);
        rebuild += millis(REBUILT, l);
        flush += millis(FLUSHED, l);
      }
    }
    Map<String, Double> t = new LinkedHashMap<>();
    t.put("serving_s", seconds(serving.ms() - restartMs));
    t.put("scan_s", scan / 1000);
    t.put("scp_s", seconds(scp.ms() - restartMs));
    t.put("split_s", splitAt < 0 ? 0 : seconds(splitEnd - master.get(splitAt).ms()));
    t.put("lease_s", lease / 1000);
    t.put("split_end_s", seconds(splitEnd - restartMs));
    t.put("opened_s", seconds(opened - restartMs));
    t.put("open_s", seconds(opened - splitEnd));
    t.put("rebuild_s", rebuild / 1000);
    t.put("flush_s", flush / 1000);
    t.put("seen_s", seconds(restartMs + onlineMs - opened));
    return t;
  }

  /** The index of the first line from {@code from} on that contains {@code text}, or -1. */
  private static int indexOf(List<Line> lines, int from, String text) {
    for (int i = from; i < lines.size(); i++) {
      if (lines.get(i).text().contains(text)) {
        return i;
      }
    }
    return -1;
  }

  private static Line first(List<Line> lines, String text, long notBefore) {
    for (Line l : lines) {
      if (l.ms() >= notBefore && l.text().contains(text)) {
        return l;
      }
    }
    return null;
  }

  private static double millis(Pattern p, Line l) {
    Matcher m = p.matcher(l.text());
    return m.find() ? Long.parseLong(m.group(1)) : 0;
  }

  private static double seconds(long ms) {
    return ms / 1000.0;
  }
}
