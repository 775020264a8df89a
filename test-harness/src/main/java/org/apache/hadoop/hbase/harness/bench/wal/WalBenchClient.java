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

import com.codahale.metrics.Histogram;
import com.codahale.metrics.MetricRegistry;
import com.codahale.metrics.Snapshot;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.reflect.Field;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.regionserver.wal.FSHLog;
import org.apache.hadoop.hbase.wal.WALPerformanceEvaluation;
import org.apache.hadoop.util.ToolRunner;

/**
 * One measurement of {@code scripts/harness bench wal}: runs HBase's own
 * {@link WALPerformanceEvaluation} (WALPE) once, in this JVM, and prints one machine-readable
 * result line.
 *
 * <p>Usage: {@code WalBenchClient [--expect-jar JAR] [--expect-edits N] [--timeout-s S]
 * [--parent-pid PID] -- WALPE-ARGS}.
 * The WALPE arguments, {@code -Dkey=value} included, go to {@link ToolRunner} unchanged.
 *
 * <p>What it adds to WALPE:
 * <ul>
 * <li>Latency. WALPE times each iteration of its writer loop (building the Put, {@code
 * WAL.appendData} and {@code WAL.sync}) and records it in its {@code latencyHistogram}, a
 * Dropwizard histogram whose default reservoir keeps a 1,028-value sample. Before the run this
 * class swaps that histogram, by reflection, for one backed by an {@link HdrReservoir}, so the
 * printed p50 and p99 are WALPE's own per-edit timings, taken over every edit. If the swap is not
 * possible (another WALPE), it falls back to WALPE's sampled histogram and says so.</li>
 * <li>Checks. The WAL classes must come from {@code --expect-jar} (so a stock run cannot
 * silently load the patched jar, or the other way round), and the histogram must hold exactly
 * {@code --expect-edits} values: WALPE logs a failed writer thread and carries on, which would
 * otherwise report a throughput for edits that were never written.</li>
 * <li>A watchdog. A run that takes longer than {@code --timeout-s} seconds (a WAL that locked up)
 * prints a thread dump of this JVM to stderr and exits with status 3. With {@code --parent-pid},
 * it also exits (status 4) as soon as that process (the harness) is gone.</li>
 * </ul>
 *
 * <p>Throughput is not computed here: WALPE logs it itself, as {@code Summary: threads=T,
 * iterations=I, syncInterval=0 took Xs Yops/s}, from the wall time between starting its writer
 * threads and the last one finishing; the harness reads that line.
 *
 * <p>Output on stdout: {@code harness-wal-result edits=N p50_us=A p99_us=B max_us=C mean_us=D
 * latency_source=hdr|walpe-sampled}. Exit status: 0 on success, 1 when WALPE or a check fails,
 * 2 on a bad command line, 3 on timeout, 4 when the parent is gone.
 */
public final class WalBenchClient {
  /** The prefix of the result line that {@code scripts/lib/bench_wal.sh} parses. */
  public static final String RESULT_PREFIX = "harness-wal-result";

  private WalBenchClient() {
  }

  public static void main(String[] args) throws Exception {
    String expectJar = null;
    long expectEdits = -1;
    long timeoutS = 600;
    long parentPid = -1;
    int i = 0;
    for (; i < args.length; i++) {
      String a = args[i];
      if (a.equals("--")) {
        i++;
        break;
      }
      if (i + 1 >= args.length) {
        usage("option " + a + " needs a value");
      }
      switch (a) {
        case "--expect-jar":
          expectJar = args[++i];
          break;
        case "--expect-edits":
          expectEdits = Long.parseLong(args[++i]);
          break;
        case "--timeout-s":
          timeoutS = Long.parseLong(args[++i]);
          break;
        case "--parent-pid":
          parentPid = Long.parseLong(args[++i]);
          break;
        default:
          usage("unknown option " + a);
      }
    }
    String[] walpeArgs = Arrays.copyOfRange(args, Math.min(i, args.length), args.length);

    if (expectJar != null) {
      checkJar(FSHLog.class, expectJar + ".jar");
      checkJar(WALPerformanceEvaluation.class, expectJar + "-tests.jar");
    }
    startWatchdog(timeoutS, parentPid);

    WALPerformanceEvaluation walpe = new WALPerformanceEvaluation();
    HdrReservoir reservoir = new HdrReservoir();
    String source = installReservoir(walpe, reservoir) ? "hdr" : "walpe-sampled";
    if (source.equals("walpe-sampled")) {
      System.err.println("harness-wal: WARNING: could not replace WALPE's latencyHistogram; "
        + "p50/p99 come from its sampled reservoir");
    }

    int rc = ToolRunner.run(HBaseConfiguration.create(), walpe, walpeArgs);
    if (rc != 0) {
      fail("WALPerformanceEvaluation exited with " + rc);
    }
    Histogram h = latencyHistogram(walpe);
    long count = h.getCount();
    if (expectEdits >= 0 && count != expectEdits) {
      fail("WALPerformanceEvaluation timed " + count + " edits, expected " + expectEdits
        + " (a writer thread failed; see the log above)");
    }
    Snapshot s = h.getSnapshot();
    System.out.println(String.format(Locale.ROOT,
      "%s edits=%d p50_us=%.1f p99_us=%.1f max_us=%.1f mean_us=%.1f latency_source=%s",
      RESULT_PREFIX, count, s.getMedian() / 1e3, s.get99thPercentile() / 1e3, s.getMax() / 1e3,
      s.getMean() / 1e3, source));
    System.out.flush();
    // WALPE leaves daemon and non-daemon threads (the log roller, DFS client threads) behind.
    System.exit(0);
  }

  /** One line that the harness quotes, then exit status 1. */
  private static void fail(String why) {
    System.err.println("harness-wal: ERROR: " + why);
    System.exit(1);
  }

  private static void usage(String why) {
    System.err.println("harness-wal: ERROR: " + why + "\nusage: WalBenchClient [--expect-jar JAR]"
      + " [--expect-edits N] [--timeout-s S] [--parent-pid PID] -- WALPE-ARGS");
    System.exit(2);
  }

  /** Fails unless {@code cls} was loaded from a jar file named {@code jarName}. */
  private static void checkJar(Class<?> cls, String jarName) throws Exception {
    String loc = cls.getProtectionDomain().getCodeSource().getLocation().toURI().getPath();
    String name = Paths.get(loc).getFileName().toString();
    System.err.println("harness-wal: " + cls.getSimpleName() + " loaded from " + loc);
    if (!name.equals(jarName)) {
      fail(cls.getName() + " comes from " + name + ", expected " + jarName);
    }
  }

  /**
   * Replaces WALPE's {@code latencyHistogram} (and its entry in WALPE's metric registry, which
   * its console reporter prints) with a histogram on {@code reservoir}.
   * @return false when WALPE has no such field or it cannot be written
   */
  static boolean installReservoir(WALPerformanceEvaluation walpe, HdrReservoir reservoir) {
    try {
      Field f = WALPerformanceEvaluation.class.getDeclaredField("latencyHistogram");
      f.setAccessible(true);
      Histogram replacement = new Histogram(reservoir);
      f.set(walpe, replacement);
      if (f.get(walpe) != replacement) {
        return false;
      }
      try {
        Field m = WALPerformanceEvaluation.class.getDeclaredField("metrics");
        m.setAccessible(true);
        MetricRegistry registry = (MetricRegistry) m.get(walpe);
        String name =
          MetricRegistry.name(WALPerformanceEvaluation.class, "latencyHistogram", "nanos");
        registry.remove(name);
        registry.register(name, replacement);
      } catch (ReflectiveOperationException | RuntimeException e) {
        // Only the periodic console report would show the old, empty histogram.
      }
      return true;
    } catch (ReflectiveOperationException | RuntimeException e) {
      System.err.println("harness-wal: WARNING: " + e);
      return false;
    }
  }

  private static Histogram latencyHistogram(WALPerformanceEvaluation walpe) throws Exception {
    Field f = WALPerformanceEvaluation.class.getDeclaredField("latencyHistogram");
    f.setAccessible(true);
    return (Histogram) f.get(walpe);
  }

  private static void startWatchdog(long timeoutS, long parentPid) {
    Optional<ProcessHandle> parent =
      parentPid > 0 ? ProcessHandle.of(parentPid) : Optional.empty();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutS);
    Thread t = new Thread(() -> {
      try {
        while (System.nanoTime() < deadline) {
          TimeUnit.MILLISECONDS.sleep(500);
          if (parentPid > 0 && !parent.map(ProcessHandle::isAlive).orElse(false)) {
            System.err.println("harness-wal: the harness (pid " + parentPid + ") is gone");
            Runtime.getRuntime().halt(4);
          }
        }
      } catch (InterruptedException e) {
        return;
      }
      PrintStream err = System.err;
      err.println("harness-wal: TIMEOUT: still running after " + timeoutS + " s; thread dump:");
      for (ThreadInfo ti : ManagementFactory.getThreadMXBean().dumpAllThreads(true, true)) {
        err.print(fullThreadInfo(ti));
      }
      err.flush();
      Runtime.getRuntime().halt(3);
    }, "harness-wal-watchdog");
    t.setDaemon(true);
    t.start();
  }

  /** {@link ThreadInfo#toString()} cuts stacks at 8 frames; this prints all of them. */
  private static String fullThreadInfo(ThreadInfo ti) {
    StringBuilder sb = new StringBuilder();
    sb.append('"').append(ti.getThreadName()).append("\" ").append(ti.getThreadState());
    if (ti.getLockName() != null) {
      sb.append(" on ").append(ti.getLockName());
    }
    if (ti.getLockOwnerName() != null) {
      sb.append(" owned by \"").append(ti.getLockOwnerName()).append('"');
    }
    sb.append('\n');
    for (StackTraceElement e : ti.getStackTrace()) {
      sb.append("\tat ").append(e).append('\n');
    }
    sb.append('\n');
    return sb.toString();
  }
}
