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
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Durability;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;

/**
 * The workload of one configuration: writer threads that each put one row at a time and wait
 * for its acknowledgement (no client-side buffering), every latency recorded in HdrHistogram,
 * cut into one-second intervals with the client JVM's and the machine's CPU use; then, on
 * request, the read-back of a sample of the acknowledged rows.
 */
public final class WriteLoad {
  static final byte[] FAMILY = "f".getBytes(StandardCharsets.UTF_8);
  static final byte[] QUALIFIER = "q".getBytes(StandardCharsets.UTF_8);
  private static final long MAX_MICROS = 3_600_000_000L;

  /** The workload's parameters. */
  public static final class Params {
    public int threads = 100;
    public long rows;
    public int keySize = 120;
    public int valueSize = 1024;
    public int durationS = 60;
    public Durability durability;
    public int verifySample = 10000;
    public int progressEveryS = 5;
  }

  private final Connection conn;
  private final TableName table;
  private final Params p;
  private final Consumer<String> progress;

  public WriteLoad(Connection conn, TableName table, Params p, Consumer<String> progress) {
    this.conn = conn;
    this.table = table;
    this.p = p;
    this.progress = progress;
  }

  /** A fixed-size uniform sample of the keys one writer had acknowledged (Algorithm R). */
  static final class Reservoir {
    final byte[][] keys;
    long seen;

    Reservoir(int size) {
      keys = new byte[Math.max(1, size)][];
    }

    void offer(byte[] key) {
      seen++;
      if (seen <= keys.length) {
        keys[(int) seen - 1] = key;
      } else {
        long j = ThreadLocalRandom.current().nextLong(seen);
        if (j < keys.length) {
          keys[(int) j] = key;
        }
      }
    }

    List<byte[]> sample() {
      List<byte[]> l = new ArrayList<>();
      for (byte[] k : keys) {
        if (k != null) {
          l.add(k);
        }
      }
      return l;
    }
  }

  /** CPU time of this JVM and of the whole machine (from /proc/stat when there is one). */
  static final class Cpu {
    private final com.sun.management.OperatingSystemMXBean os =
      (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private final int cores = Runtime.getRuntime().availableProcessors();
    private long lastWall = System.nanoTime();
    private long lastProc = os.getProcessCpuTime();
    private long[] lastStat = stat();

    private static long[] stat() {
      try {
        String line = Files.readAllLines(Paths.get("/proc/stat")).get(0);
        String[] f = line.trim().split("\\s+");
        long total = 0;
        for (int i = 1; i < f.length && i <= 8; i++) {
          total += Long.parseLong(f[i]);
        }
        long idle = Long.parseLong(f[4]) + (f.length > 5 ? Long.parseLong(f[5]) : 0);
        return new long[] { total, idle };
      } catch (IOException | RuntimeException e) {
        return null;
      }
    }

    /** {client %, machine %} since the last call, in percent of all cores. */
    double[] sample() {
      long wall = System.nanoTime();
      long proc = os.getProcessCpuTime();
      long[] st = stat();
      double client = 100.0 * (proc - lastProc) / Math.max(1, (wall - lastWall)) / cores;
      double machine;
      if (st != null && lastStat != null && st[0] > lastStat[0]) {
        machine = 100.0 * (1.0 - (double) (st[1] - lastStat[1]) / (st[0] - lastStat[0]));
      } else {
        machine = Math.max(0, os.getCpuLoad() * 100.0);
      }
      lastWall = wall;
      lastProc = proc;
      lastStat = st;
      return new double[] { client, machine };
    }
  }

  /** Runs the workload; the result holds the intervals, totals and a sample of acked keys. */
  public RunResult run(RunResult result, List<byte[]> sampleOut) throws InterruptedException {
    Recorder recorder = new Recorder(MAX_MICROS, 3);
    LongAdder acked = new LongAdder();
    LongAdder errors = new LongAdder();
    AtomicLong claimed = new AtomicLong();
    AtomicBoolean stop = new AtomicBoolean();
    AtomicReference<String> firstError = new AtomicReference<>();
    AtomicLong lastExit = new AtomicLong();
    int perThread = (p.verifySample + p.threads - 1) / p.threads;
    Reservoir[] samples = new Reservoir[p.threads];
    Thread[] writers = new Thread[p.threads];
    Durability durability = p.durability;
    for (int t = 0; t < p.threads; t++) {
      Reservoir res = new Reservoir(perThread);
      samples[t] = res;
      writers[t] = new Thread(() -> {
        try (Table tbl = conn.getTable(table)) {
          while (!stop.get()) {
            if (p.rows > 0 && claimed.incrementAndGet() > p.rows) {
              break;
            }
            byte[] key = KeyValues.randomKey(p.keySize);
            Put put = new Put(key);
            put.addColumn(FAMILY, QUALIFIER, KeyValues.valueFor(key, p.valueSize));
            if (durability != null) {
              put.setDurability(durability);
            }
            long t0 = System.nanoTime();
            try {
              tbl.put(put);
              long us = (System.nanoTime() - t0) / 1000;
              recorder.recordValue(Math.min(Math.max(us, 1), MAX_MICROS));
              acked.increment();
              res.offer(key);
            } catch (IOException e) {
              errors.increment();
              firstError.compareAndSet(null, e.getClass().getSimpleName() + ": "
                + String.valueOf(e.getMessage()).split("\n", 2)[0]);
            }
          }
        } catch (IOException e) {
          errors.increment();
          firstError.compareAndSet(null, e.toString());
        }
        lastExit.accumulateAndGet(System.currentTimeMillis(), Math::max);
      }, "writer-" + t);
      writers[t].setDaemon(true);
    }
    Cpu cpu = new Cpu();
    Histogram interval = null;
    long start = System.currentTimeMillis();
    result.startMs = start;
    for (Thread w : writers) {
      w.start();
    }
    long end = p.durationS > 0 ? start + p.durationS * 1000L : Long.MAX_VALUE;
    long lastAcked = 0;
    long lastErrors = 0;
    double cpuClientSum = 0;
    double cpuMachineSum = 0;
    int second = 0;
    while (true) {
      long next = start + (second + 1) * 1000L;
      boolean last = next >= end;
      long sleep = Math.min(next, end) - System.currentTimeMillis();
      if (sleep > 0) {
        Thread.sleep(sleep);
      }
      boolean allDone = Arrays.stream(writers).noneMatch(Thread::isAlive);
      if (last || allDone) {
        stop.set(true);
      }
      interval = recorder.getIntervalHistogram(interval);
      result.total.add(interval);
      long a = acked.sum();
      long e = errors.sum();
      double[] c = cpu.sample();
      cpuClientSum += c[0];
      cpuMachineSum += c[1];
      long n = interval.getTotalCount();
      RunResult.Interval iv = new RunResult.Interval(second, a - lastAcked, e - lastErrors,
        n == 0 ? 0 : RunResult.ms(interval.getValueAtPercentile(50)),
        n == 0 ? 0 : RunResult.ms(interval.getValueAtPercentile(99)),
        n == 0 ? 0 : RunResult.ms(interval.getValueAtPercentile(99.9)),
        n == 0 ? 0 : RunResult.ms(interval.getMaxValue()), c[0], c[1]);
      result.intervals.add(iv);
      lastAcked = a;
      lastErrors = e;
      second++;
      if (p.progressEveryS > 0 && second % p.progressEveryS == 0 && !stop.get()) {
        progress.accept(String.format(Locale.ROOT,
          "%3ds  %,d puts acked  %,.0f puts/s  p99 %.1f ms  max %.1f ms  errors %d  "
            + "client CPU %.0f%%  machine CPU %.0f%%",
          second, a, avgOps(result, p.progressEveryS), iv.p99, iv.max, e, c[0], c[1]));
      }
      if (stop.get()) {
        break;
      }
    }
    result.endMs = System.currentTimeMillis();
    if (Arrays.stream(writers).noneMatch(Thread::isAlive) && lastExit.get() > start) {
      // Every writer ended on its own (--rows): the run ended with the last one.
      result.endMs = Math.min(result.endMs, lastExit.get());
    }
    // Puts still in flight at the end: wait for them, but not forever.
    long grace = System.currentTimeMillis() + 60_000;
    for (Thread w : writers) {
      w.join(Math.max(1, grace - System.currentTimeMillis()));
    }
    long inFlight = Arrays.stream(writers).filter(Thread::isAlive).count();
    if (inFlight > 0) {
      progress.accept(inFlight + " writers still waiting on a put 60s after the end; their "
        + "puts are not counted");
    }
    interval = recorder.getIntervalHistogram(interval);
    result.total.add(interval);
    result.acked = acked.sum();
    result.errors = errors.sum();
    result.firstError = firstError.get();
    result.clientCpu = cpuClientSum / Math.max(1, second);
    result.machineCpu = cpuMachineSum / Math.max(1, second);
    for (Reservoir r : samples) {
      sampleOut.addAll(r.sample());
    }
    return result;
  }

  private static double avgOps(RunResult r, int lastN) {
    int n = Math.min(lastN, r.intervals.size());
    long ops = 0;
    for (int i = r.intervals.size() - n; i < r.intervals.size(); i++) {
      ops += r.intervals.get(i).ops;
    }
    return n == 0 ? 0 : (double) ops / n;
  }

  /** Reads the sampled keys back: {missing, wrong}. */
  public long[] verify(List<byte[]> keys) throws IOException {
    long missing = 0;
    long wrong = 0;
    try (Table tbl = conn.getTable(table)) {
      for (int i = 0; i < keys.size(); i += 200) {
        List<Get> gets = new ArrayList<>();
        for (byte[] k : keys.subList(i, Math.min(keys.size(), i + 200))) {
          gets.add(new Get(k).addColumn(FAMILY, QUALIFIER));
        }
        Result[] rs = tbl.get(gets);
        for (int j = 0; j < rs.length; j++) {
          byte[] v = rs[j] == null ? null : rs[j].getValue(FAMILY, QUALIFIER);
          if (v == null) {
            missing++;
          } else if (!Arrays.equals(v, KeyValues.valueFor(gets.get(j).getRow(), p.valueSize))) {
            wrong++;
          }
        }
      }
    }
    return new long[] { missing, wrong };
  }
}
