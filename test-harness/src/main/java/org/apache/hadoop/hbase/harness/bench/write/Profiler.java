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

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

/**
 * Where the servers' time goes while a configuration runs: a JDK Flight Recorder recording of each
 * RegionServer JVM over the measured window, started and stopped with {@code jcmd}, and a summary
 * of its CPU samples (jdk.ExecutionSample) by thread pool, by the method on top of the stack, and
 * by the HBase method nearest the top; and of its garbage collection pauses.
 */
public final class Profiler {
  private static final String NAME = "harness-bench";
  private static final Pattern DIGITS = Pattern.compile("[0-9]+");

  private final List<Long> pids;
  private final List<Path> files = new ArrayList<>();

  private Profiler(List<Long> pids) {
    this.pids = pids;
  }

  /** Starts a recording in each JVM, to {@code dir/profile-TAG-PID.jfr}. */
  public static Profiler start(List<Long> pids, Path dir, String tag) throws IOException {
    Profiler p = new Profiler(pids);
    for (long pid : pids) {
      Path f = dir.resolve("profile-" + tag + "-" + pid + ".jfr").toAbsolutePath();
      jcmd(pid, "JFR.start", "name=" + NAME, "settings=profile", "filename=" + f);
      p.files.add(f);
    }
    return p;
  }

  /** Stops the recordings, which the JVMs then write; returns the files. */
  public List<Path> stop() throws IOException {
    for (long pid : pids) {
      jcmd(pid, "JFR.stop", "name=" + NAME);
    }
    return files;
  }

  private static void jcmd(long pid, String... args) throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Paths.get(System.getProperty("java.home"), "bin", "jcmd").toString());
    cmd.add(Long.toString(pid));
    for (String a : args) {
      cmd.add(a);
    }
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true)
      .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
    String out;
    try {
      out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
      if (!p.waitFor(60, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new IOException("jcmd " + pid + " " + args[0] + " did not end in 60s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted running jcmd", e);
    }
    if (p.exitValue() != 0 || out.contains("Could not") || out.contains("Exception")) {
      throw new IOException("jcmd " + pid + " " + args[0] + " failed: "
        + out.replace('\n', ' '));
    }
  }

  /** The counts of a summary, by key. */
  static final class Tally {
    final Map<String, Long> counts = new HashMap<>();
    long total;

    void add(String key) {
      counts.merge(key, 1L, Long::sum);
      total++;
    }

    List<Map.Entry<String, Long>> top(int n) {
      return counts.entrySet().stream()
        .sorted(Map.Entry.<String, Long> comparingByValue().reversed()
          .thenComparing(Map.Entry.comparingByKey()))
        .limit(n).collect(Collectors.toList());
    }
  }

  /** The summary of recordings: CPU samples by thread pool, top method and HBase method. */
  static final class Summary {
    final Tally threads = new Tally();
    final Tally methods = new Tally();
    final Tally hbase = new Tally();
    long gcPauses;
    Duration gcPauseTime = Duration.ZERO;
  }

  /** Reads the recordings. */
  static Summary summarize(List<Path> recordings) throws IOException {
    Summary s = new Summary();
    for (Path f : recordings) {
      try (RecordingFile r = new RecordingFile(f)) {
        while (r.hasMoreEvents()) {
          RecordedEvent e = r.readEvent();
          String type = e.getEventType().getName();
          if ("jdk.ExecutionSample".equals(type)) {
            sample(s, e);
          } else if ("jdk.GarbageCollection".equals(type)) {
            s.gcPauses++;
            s.gcPauseTime = s.gcPauseTime.plus(e.getDuration("sumOfPauses"));
          }
        }
      }
    }
    return s;
  }

  private static void sample(Summary s, RecordedEvent e) {
    RecordedThread t = e.getThread("sampledThread");
    String name = t == null || t.getJavaName() == null ? "?" : t.getJavaName();
    s.threads.add(DIGITS.matcher(name).replaceAll("#"));
    RecordedStackTrace st = e.getStackTrace();
    List<RecordedFrame> frames = st == null ? new ArrayList<>() : st.getFrames();
    s.methods.add(frames.isEmpty() ? "?" : method(frames.get(0)));
    String ours = "(no HBase frame)";
    for (RecordedFrame f : frames) {
      if (f.getMethod().getType().getName().startsWith("org.apache.hadoop.hbase.")) {
        ours = method(f);
        break;
      }
    }
    s.hbase.add(ours);
  }

  private static String method(RecordedFrame f) {
    String type = f.getMethod().getType().getName();
    return type.substring(type.lastIndexOf('.') + 1) + "." + f.getMethod().getName();
  }

  /** The summary as text: the top entries of each tally, with their share of the samples. */
  static String format(String title, Summary s, int n) {
    StringBuilder b = new StringBuilder(title).append('\n');
    b.append(String.format(Locale.ROOT, "%,d CPU samples (jdk.ExecutionSample, every 10-20 ms of "
      + "a running thread); %,d GC pauses, %.1f s in all%n", s.threads.total, s.gcPauses,
      s.gcPauseTime.toNanos() / 1e9));
    section(b, "by thread pool (digits as #)", s.threads, n);
    section(b, "by the method on top of the stack (self time)", s.methods, n);
    section(b, "by the HBase method nearest the top", s.hbase, n);
    return b.toString();
  }

  private static void section(StringBuilder b, String what, Tally t, int n) {
    b.append('\n').append(what).append(":\n");
    for (Map.Entry<String, Long> e : t.top(n)) {
      b.append(String.format(Locale.ROOT, "  %5.1f%%  %7d  %s%n",
        t.total == 0 ? 0.0 : 100.0 * e.getValue() / t.total, e.getValue(), e.getKey()));
    }
  }

  /** Summarizes the recordings into {@code out}; returns the text. */
  public static String write(String title, List<Path> recordings, Path out) throws IOException {
    String text = format(title, summarize(recordings), 25);
    Files.write(out, text.getBytes(StandardCharsets.UTF_8));
    return text;
  }
}
