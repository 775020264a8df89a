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

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The server-side events that explain latency spikes, read from the Master's and RegionServers'
 * logs (HBase 2.6's messages): memstore flushes, WAL rolls, compactions, splits, flushes delayed
 * by too many store files, blocked updates, and WAL counts that force flushes.
 */
public final class ServerEvents {
  /** The kinds of event, in the order the chart and the summary show them. */
  public enum Type {
    FLUSH("flush", "Finished flush of "),
    WAL_ROLL("wal roll", "Rolled WAL "),
    COMPACTION("compaction", "Completed compaction of |Completed major compaction of "),
    SPLIT("split", "splitting \\d+ storefiles, region="),
    FLUSH_DELAYED("flush delayed", "has too many store files\\(\\d+\\); delaying flush"),
    BLOCKED("updates blocked",
      "Blocking updates: |Region is too busy due to exceeding memstore size limit"),
    TOO_MANY_WALS("too many WALs", "Too many WALs; count=");

    private final String label;
    private final Pattern pattern;

    Type(String label, String regex) {
      this.label = label;
      this.pattern = Pattern.compile(regex);
    }

    public String label() {
      return label;
    }
  }

  /** One event: when (epoch ms), what, and the log line's message. */
  public static final class Event {
    public final long timeMs;
    public final Type type;
    public final String message;

    Event(long timeMs, Type type, String message) {
      this.timeMs = timeMs;
      this.type = type;
      this.message = message;
    }
  }

  // log4j2's ISO8601 ("2026-11-22T05:44:38,446") and the older space-separated form.
  private static final Pattern STAMP =
    Pattern.compile("^(\\d{4}-\\d{2}-\\d{2})[T ](\\d{2}:\\d{2}:\\d{2}),(\\d{3})\\s+(\\S+)\\s+(.*)$");
  private static final DateTimeFormatter FORMAT =
    DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss,SSS");

  private ServerEvents() {
  }

  /** The event on one log line, or null. */
  public static Event parseLine(String line, ZoneId zone) {
    Matcher m = STAMP.matcher(line);
    if (!m.matches()) {
      return null;
    }
    String rest = m.group(5);
    for (Type t : Type.values()) {
      if (t.pattern.matcher(rest).find()) {
        try {
          long ms = LocalDateTime.parse(m.group(1) + " " + m.group(2) + "," + m.group(3), FORMAT)
            .atZone(zone).toInstant().toEpochMilli();
          int colon = rest.indexOf(": ");
          String msg = colon >= 0 ? rest.substring(colon + 2) : rest;
          return new Event(ms, t, msg.length() > 200 ? msg.substring(0, 200) : msg);
        } catch (DateTimeParseException e) {
          return null;
        }
      }
    }
    return null;
  }

  /** The events of a log from a byte offset on, within [fromMs, toMs]. */
  public static List<Event> read(Path log, long offset, long fromMs, long toMs)
    throws IOException {
    List<Event> out = new ArrayList<>();
    if (!Files.isRegularFile(log)) {
      return out;
    }
    ZoneId zone = ZoneId.systemDefault();
    try (InputStream in = Files.newInputStream(log)) {
      long skip = offset;
      while (skip > 0) {
        long n = in.skip(skip);
        if (n <= 0) {
          break;
        }
        skip -= n;
      }
      BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
      for (String line; (line = r.readLine()) != null;) {
        Event e = parseLine(line, zone);
        if (e != null && e.timeMs >= fromMs && e.timeMs <= toMs) {
          out.add(e);
        }
      }
    }
    return out;
  }

  /** The byte size of each log now: where a run's events start. */
  public static Map<Path, Long> offsets(List<Path> logs) {
    Map<Path, Long> m = new LinkedHashMap<>();
    for (Path p : logs) {
      try {
        m.put(p, Files.isRegularFile(p) ? Files.size(p) : 0L);
      } catch (IOException e) {
        m.put(p, 0L);
      }
    }
    return m;
  }

  /** The events of every log since its offset, sorted by time. */
  public static List<Event> readAll(Map<Path, Long> offsets, long fromMs, long toMs)
    throws IOException {
    List<Event> all = new ArrayList<>();
    for (Map.Entry<Path, Long> e : offsets.entrySet()) {
      all.addAll(read(e.getKey(), e.getValue(), fromMs, toMs));
    }
    all.sort((a, b) -> Long.compare(a.timeMs, b.timeMs));
    return all;
  }
}
