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

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The benchmark's files: the per-second CSV, the events CSV and the summary table. */
public final class Report {
  private Report() {
  }

  public static final String INTERVAL_HEADER =
    "config,second,ops,errors,p50_ms,p99_ms,p999_ms,max_ms,client_cpu_pct,machine_cpu_pct";

  /** Every second of every configuration. */
  public static String intervalsCsv(List<RunResult> results) {
    StringBuilder sb = new StringBuilder(INTERVAL_HEADER).append('\n');
    for (RunResult r : results) {
      for (RunResult.Interval i : r.intervals) {
        sb.append(String.format(Locale.ROOT, "%s,%d,%d,%d,%.3f,%.3f,%.3f,%.3f,%.1f,%.1f%n",
          r.config.name(), i.second, i.ops, i.errors, i.p50, i.p99, i.p999, i.max, i.clientCpu,
          i.machineCpu));
      }
    }
    return sb.toString();
  }

  /** Every server event, at its second of the run. */
  public static String eventsCsv(List<RunResult> results) {
    StringBuilder sb = new StringBuilder("config,second,type,message\n");
    for (RunResult r : results) {
      for (ServerEvents.Event e : r.events) {
        sb.append(String.format(Locale.ROOT, "%s,%.3f,%s,\"%s\"%n", r.config.name(),
          (e.timeMs - r.startMs) / 1000.0, e.type.name().toLowerCase(Locale.ROOT),
          e.message.replace("\"", "\"\"")));
      }
    }
    return sb.toString();
  }

  /** The summary table, Markdown. */
  public static String summary(List<RunResult> results) {
    StringWriter sw = new StringWriter();
    PrintWriter w = new PrintWriter(sw);
    w.println("| config | puts acked | errors | ops/s | p50 ms | p99 ms | p99.9 ms | max ms "
      + "| client CPU | machine CPU | flushes | WAL rolls | compactions | splits "
      + "| delayed flushes | blocked | verify |");
    w.println("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|");
    for (RunResult r : results) {
      Map<ServerEvents.Type, Integer> ev = r.eventCounts();
      String verify;
      if (r.verifySampled < 0) {
        verify = "-";
      } else if (r.verifyFailed()) {
        verify = String.format(Locale.ROOT, "FAILED: %d missing, %d wrong of %d", r.verifyMissing,
          r.verifyWrong, r.verifySampled);
      } else {
        verify = String.format(Locale.ROOT, "%d of %d ok", r.verifySampled, r.verifySampled);
      }
      w.println(String.format(Locale.ROOT,
        "| %s | %d | %d | %.0f | %.2f | %.2f | %.2f | %.2f | %.0f%% | %.0f%% | %s | %s | %s | %s "
          + "| %s | %s | %s |",
        r.config.name(), r.acked, r.errors, r.throughput(), RunResult.ms(pct(r, 50)),
        RunResult.ms(pct(r, 99)), RunResult.ms(pct(r, 99.9)), RunResult.ms(r.total.getMaxValue()),
        r.clientCpu, r.machineCpu, count(r, ev, ServerEvents.Type.FLUSH),
        count(r, ev, ServerEvents.Type.WAL_ROLL), count(r, ev, ServerEvents.Type.COMPACTION),
        count(r, ev, ServerEvents.Type.SPLIT), count(r, ev, ServerEvents.Type.FLUSH_DELAYED),
        count(r, ev, ServerEvents.Type.BLOCKED), verify));
    }
    boolean header = false;
    for (RunResult r : results) {
      if (r.replicaLag != null) {
        if (!header) {
          w.println();
          w.println("Replica lag, from a probe put's acknowledgement until the start of the"
            + " first TIMELINE get on each secondary that saw it:");
          header = true;
        }
        w.println("- " + r.config.name() + ": " + r.replicaLag);
      }
    }
    w.flush();
    return sw.toString();
  }

  private static long pct(RunResult r, double p) {
    return r.total.getTotalCount() == 0 ? 0 : r.total.getValueAtPercentile(p);
  }

  private static String count(RunResult r, Map<ServerEvents.Type, Integer> ev,
    ServerEvents.Type t) {
    return r.eventsRead ? String.valueOf(ev.get(t)) : "n/a";
  }

  public static void write(Path file, String text) throws IOException {
    Files.write(file, text.getBytes(StandardCharsets.UTF_8));
  }
}
