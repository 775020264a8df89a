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
import com.codahale.metrics.Meter;
import com.codahale.metrics.MetricRegistry;
import com.codahale.metrics.Snapshot;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import jdk.jfr.Configuration;
import jdk.jfr.Recording;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.harness.util.HarnessTool;
import org.apache.hadoop.hbase.harness.util.ParentWatchdog;
import org.apache.hadoop.hbase.harness.util.ToolException;
import org.apache.hadoop.hbase.regionserver.wal.FSHLog;
import org.apache.hadoop.hbase.wal.WALPerformanceEvaluation;
import org.apache.hadoop.util.ToolRunner;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.apache.hbase.thirdparty.org.apache.commons.cli.CommandLine;

/**
 * One measurement of {@code scripts/harness bench wal}: runs HBase's own
 * {@link WALPerformanceEvaluation} (WALPE) once, in this JVM, and prints one machine-readable
 * result line.
 *
 * <p>Usage: {@code WalBenchClient [--expect-jar JAR] [--expect-edits N] [--timeout-s S]
 * [--parent-pid PID] [--warmup-iterations N] [--dfs-pid PID --clk-tck N] [--jfr FILE] --
 * WALPE-ARGS}.
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
 * <li>A warm-up. With {@code --warmup-iterations N}, WALPE first runs with {@code -iterations N}
 * on a path of its own ({@code -path} with {@code -warmup} appended), in this JVM, and only the
 * run after it is measured: its writer threads then run code the JIT compiler has compiled
 * already, as a RegionServer's handlers do, instead of sharing the machine with the compiler.</li>
 * <li>A watchdog ({@link ParentWatchdog}). A run that takes longer than {@code --timeout-s}
 * seconds (a WAL that locked up) prints a thread dump of this JVM to stderr and exits with status
 * 3. With {@code --parent-pid}, it also exits (status 4) as soon as that process (the harness) is
 * gone.</li>
 * </ul>
 *
 * <p>Throughput is not computed here: WALPE logs it itself, as {@code Summary: threads=T,
 * iterations=I, syncInterval=0 took Xs Yops/s}, from the wall time between starting its writer
 * threads and the last one finishing; the harness reads that line.
 *
 * <p>CPU. The CPU time of this JVM (every thread: WALPE's writers, the WAL's threads, the DFS
 * client, GC and JIT) is read from the platform's {@code OperatingSystemMXBean} just before and
 * just after WALPE's measured run, so JVM start, class loading and the warm-up are left out. With
 * {@code --dfs-pid}, the CPU time of that process (the MiniDFSCluster's JVM) is read from
 * {@code /proc/PID/stat} over the same window, in ticks of {@code --clk-tck} per second.
 *
 * <p>Profile. With {@code --jfr FILE}, a Flight Recorder recording with the JDK's
 * {@code profile} settings covers the measured run, and only it, and is written to FILE.
 *
 * <p>Output on stdout: {@code harness-wal-result edits=N p50_us=A p99_us=B max_us=C mean_us=D
 * cpu_ms=E [dfs_cpu_ms=F] syncs=S latency_source=hdr|walpe-sampled}, where S is the count of
 * WALPE's
 * {@code syncMeter}: the WAL's postSync calls, one per filesystem sync the WAL issued. Errors are
 * one {@code harness-wal: ERROR:} line on stderr.
 * Exit status: 0 on success, 1 when WALPE or a check fails, 2 on a bad command line, 3 on
 * timeout, 4 when the parent is gone.
 */
public final class WalBenchClient extends HarnessTool {
  /** The prefix of the result line that {@code scripts/lib/bench_wal.sh} parses. */
  public static final String RESULT_PREFIX = "harness-wal-result";
  /** Exit status when the run took longer than --timeout-s. */
  static final int EXIT_TIMEOUT = 3;
  /** Exit status when the --parent-pid process is gone. */
  static final int EXIT_PARENT_GONE = 4;

  private static final Logger LOG = LoggerFactory.getLogger(WalBenchClient.class);

  private String expectJar;
  private long expectEdits;
  private long timeoutS;
  private long parentPid;
  private long warmupIterations;
  private String[] warmupArgs;
  private long dfsPid;
  private long clkTck;
  private String jfr;
  private String[] walpeArgs = new String[0];

  public WalBenchClient() {
    super("WalBenchClient", "WalBenchClient [--expect-jar JAR] [--expect-edits N] "
      + "[--timeout-s S] [--parent-pid PID] [--warmup-iterations N] "
      + "[--dfs-pid PID --clk-tck N] [--jfr FILE] -- WALPE-ARGS",
      "harness-wal: ERROR: ",
      "harness-wal: ERROR: ");
  }

  /** The options end at the first "--"; WALPE gets the rest. */
  @Override
  protected String[] optionArgs(String[] args) {
    int dash = Arrays.asList(args).indexOf("--");
    walpeArgs = dash < 0 ? new String[0] : Arrays.copyOfRange(args, dash + 1, args.length);
    return dash < 0 ? args : Arrays.copyOfRange(args, 0, dash);
  }

  @Override
  protected void addOptions() {
    addOptWithArg(null, "expect-jar", "JAR: the WAL classes must come from JAR.jar and WALPE "
      + "from JAR-tests.jar");
    addOptWithArg(null, "expect-edits", "the number of edits WALPE must time");
    addOptWithArg(null, "timeout-s", "seconds the run may take (default 600)");
    addOptWithArg(null, "parent-pid", "exit when this process is gone");
    addOptWithArg(null, "warmup-iterations", "iterations per thread of an unmeasured WALPE run "
      + "before the measured one, in this JVM (default 0: none)");
    addOptWithArg(null, "dfs-pid", "also report the CPU time of this process over the measured "
      + "run, from /proc");
    addOptWithArg(null, "clk-tck", "the kernel's clock ticks per second, for --dfs-pid");
    addOptWithArg(null, "jfr", "record the measured run with Flight Recorder into this file");
  }

  @Override
  protected void processOptions(CommandLine cmd) {
    noArguments(cmd);
    expectJar = value(cmd, "expect-jar");
    expectEdits = longValue(cmd, "expect-edits", -1, 0, Long.MAX_VALUE);
    timeoutS = longValue(cmd, "timeout-s", 600, 1, Long.MAX_VALUE / 1_000_000_000L);
    parentPid = longValue(cmd, "parent-pid", -1, 1, Long.MAX_VALUE);
    warmupIterations = longValue(cmd, "warmup-iterations", 0, 0, Integer.MAX_VALUE);
    warmupArgs = warmupIterations > 0 ? warmupArgs(walpeArgs, warmupIterations) : null;
    dfsPid = longValue(cmd, "dfs-pid", -1, 1, Long.MAX_VALUE);
    clkTck = longValue(cmd, "clk-tck", -1, 1, 1_000_000);
    if ((dfsPid > 0) != (clkTck > 0)) {
      throw new UsageException("--dfs-pid and --clk-tck go together");
    }
    jfr = value(cmd, "jfr");
  }

  @Override
  protected int doWork() throws Exception {
    if (expectJar != null) {
      checkJar(FSHLog.class, expectJar + ".jar");
      checkJar(WALPerformanceEvaluation.class, expectJar + "-tests.jar");
    }
    startWatchdog();

    if (warmupArgs != null) {
      int rc =
        ToolRunner.run(HBaseConfiguration.create(), new WALPerformanceEvaluation(), warmupArgs);
      if (rc != 0) {
        throw new ToolException("the warm-up run of WALPerformanceEvaluation exited with " + rc);
      }
      LOG.info("warm-up of {} iterations per thread done; the measured run starts",
        warmupIterations);
    }
    WALPerformanceEvaluation walpe = new WALPerformanceEvaluation();
    HdrReservoir reservoir = new HdrReservoir();
    String source = installReservoir(walpe, reservoir) ? "hdr" : "walpe-sampled";
    if (source.equals("walpe-sampled")) {
      LOG.warn("could not replace WALPE's latencyHistogram; p50/p99 come from its sampled "
        + "reservoir");
    }

    Recording recording = null;
    if (jfr != null) {
      recording = new Recording(Configuration.getConfiguration("profile"));
      recording.setDestination(Paths.get(jfr));
      recording.start();
    }
    long dfsBefore = dfsPid > 0 ? procCpuTicks(dfsPid) : 0;
    long cpuBefore = processCpuNanos();
    int rc = ToolRunner.run(HBaseConfiguration.create(), walpe, walpeArgs);
    long cpuNanos = processCpuNanos() - cpuBefore;
    long dfsTicks = dfsPid > 0 ? procCpuTicks(dfsPid) - dfsBefore : 0;
    if (recording != null) {
      // Writes the recording to its destination.
      recording.stop();
      recording.close();
    }
    if (rc != 0) {
      throw new ToolException("WALPerformanceEvaluation exited with " + rc);
    }
    Histogram h = latencyHistogram(walpe);
    long count = h.getCount();
    if (expectEdits >= 0 && count != expectEdits) {
      throw new ToolException("WALPerformanceEvaluation timed " + count + " edits, expected "
        + expectEdits + " (a writer thread failed; see the log above)");
    }
    Snapshot s = h.getSnapshot();
    System.out.println(String.format(Locale.ROOT,
      "%s edits=%d p50_us=%.1f p99_us=%.1f max_us=%.1f mean_us=%.1f cpu_ms=%.1f%s syncs=%d"
        + " latency_source=%s",
      RESULT_PREFIX, count, s.getMedian() / 1e3, s.get99thPercentile() / 1e3, s.getMax() / 1e3,
      s.getMean() / 1e3, cpuNanos / 1e6,
      dfsPid > 0 ? String.format(Locale.ROOT, " dfs_cpu_ms=%.1f", dfsTicks * 1000.0 / clkTck) : "",
      syncCount(walpe), source));
    // WALPE leaves daemon and non-daemon threads (the log roller, DFS client threads) behind:
    // launch() ends the JVM.
    return EXIT_SUCCESS;
  }

  public static void main(String[] args) {
    launch(new WalBenchClient(), args);
  }

  /**
   * WALPE's arguments for the warm-up: {@code -iterations} set to {@code iterations}, and
   * {@code -path} with {@code -warmup} appended, so that the warm-up's WAL files and the measured
   * run's never meet.
   * @throws UsageException if the arguments have no {@code -iterations} or no {@code -path}
   */
  static String[] warmupArgs(String[] walpeArgs, long iterations) {
    String[] args = walpeArgs.clone();
    boolean sawIterations = false;
    boolean sawPath = false;
    for (int i = 0; i + 1 < args.length; i++) {
      if (args[i].equals("-iterations")) {
        args[++i] = Long.toString(iterations);
        sawIterations = true;
      } else if (args[i].equals("-path")) {
        args[i + 1] = args[i + 1] + "-warmup";
        i++;
        sawPath = true;
      }
    }
    if (!sawIterations || !sawPath) {
      throw new UsageException("--warmup-iterations needs WALPE's -iterations and -path");
    }
    return args;
  }

  /** The user plus system CPU time of a process so far, in clock ticks, from /proc. */
  static long procCpuTicks(long pid) throws ToolException {
    String stat;
    try {
      stat = new String(Files.readAllBytes(Paths.get("/proc", Long.toString(pid), "stat")),
        StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new ToolException("cannot read the CPU time of process " + pid + ": " + e);
    }
    return statCpuTicks(stat);
  }

  /**
   * utime plus stime (fields 14 and 15) of a {@code /proc/PID/stat} line. The command name, field
   * 2, is in parentheses and may hold spaces and parentheses: the fields are counted from the
   * last ')'.
   */
  static long statCpuTicks(String stat) throws ToolException {
    int close = stat.lastIndexOf(')');
    String[] f = close < 0 ? new String[0] : stat.substring(close + 1).trim().split(" +");
    // f[0] is field 3 (the state): utime is f[11], stime f[12].
    if (f.length < 13) {
      throw new ToolException("not a /proc stat line: " + stat.trim());
    }
    try {
      return Long.parseLong(f[11]) + Long.parseLong(f[12]);
    } catch (NumberFormatException e) {
      throw new ToolException("not a /proc stat line: " + stat.trim());
    }
  }

  /** The CPU time this JVM used so far, in nanoseconds. */
  static long processCpuNanos() throws ToolException {
    java.lang.management.OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
    if (!(os instanceof com.sun.management.OperatingSystemMXBean)) {
      throw new ToolException("this JVM does not report its CPU time (" + os.getClass() + ")");
    }
    long nanos = ((com.sun.management.OperatingSystemMXBean) os).getProcessCpuTime();
    if (nanos < 0) {
      throw new ToolException("this JVM does not report its CPU time");
    }
    return nanos;
  }

  /** Fails unless {@code cls} was loaded from a jar file named {@code jarName}. */
  private static void checkJar(Class<?> cls, String jarName) throws Exception {
    String loc = cls.getProtectionDomain().getCodeSource().getLocation().toURI().getPath();
    String name = Paths.get(loc).getFileName().toString();
    LOG.info("{} loaded from {}", cls.getSimpleName(), loc);
    if (!name.equals(jarName)) {
      throw new ToolException(cls.getName() + " comes from " + name + ", expected " + jarName);
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
      LOG.warn("cannot replace WALPE's latencyHistogram: {}", e.toString());
      return false;
    }
  }

  private static Histogram latencyHistogram(WALPerformanceEvaluation walpe) throws Exception {
    Field f = WALPerformanceEvaluation.class.getDeclaredField("latencyHistogram");
    f.setAccessible(true);
    return (Histogram) f.get(walpe);
  }

  /**
   * The count of WALPE's {@code syncMeter}, which its WALActionsListener marks on every postSync:
   * the filesystem syncs the WAL issued during the run.
   */
  static long syncCount(WALPerformanceEvaluation walpe) throws ToolException {
    try {
      Field f = WALPerformanceEvaluation.class.getDeclaredField("syncMeter");
      f.setAccessible(true);
      return ((Meter) f.get(walpe)).getCount();
    } catch (ReflectiveOperationException | RuntimeException e) {
      throw new ToolException("cannot read WALPE's syncMeter: " + e);
    }
  }

  /** Ends the JVM on timeout (a thread dump first) or when the parent is gone. */
  private void startWatchdog() {
    ParentWatchdog.builder().parent(parentPid).timeout(timeoutS, TimeUnit.SECONDS).pollMs(500)
      .build().start("harness-wal-watchdog", reason -> {
        PrintStream err = System.err;
        if (reason == ParentWatchdog.Reason.PARENT_GONE) {
          err.println("harness-wal: ERROR: the harness (pid " + parentPid + ") is gone");
          err.flush();
          Runtime.getRuntime().halt(EXIT_PARENT_GONE);
        }
        err.println("harness-wal: TIMEOUT: still running after " + timeoutS + " s; thread dump:");
        for (ThreadInfo ti : ManagementFactory.getThreadMXBean().dumpAllThreads(true, true)) {
          err.print(fullThreadInfo(ti));
        }
        err.flush();
        Runtime.getRuntime().halt(EXIT_TIMEOUT);
      });
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
