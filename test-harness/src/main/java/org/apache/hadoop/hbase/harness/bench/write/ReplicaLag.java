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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.HdrHistogram.Histogram;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Consistency;
import org.apache.hadoop.hbase.client.Durability;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * How far behind its primary each secondary replica of the benchmark's table reads, measured
 * beside the load. Once every {@code intervalMs} a probe put goes to the next region in turn (a
 * row of its own, just above the region's start key), with the load's durability; once it is
 * acknowledged, every secondary replica of that region is read with TIMELINE gets that name it,
 * again and again, until the probe's value is there. A probe's lag on a replica is the time from
 * the put's acknowledgement to the start of the first read that saw it, so that a read's own
 * latency does not count: a probe the first read saw has a lag near zero.
 * <p>
 * Under synchronous replication the first read must see it, as the write was acknowledged only
 * once every secondary in sync had applied it; {@link #seenFirst} counts those reads. Stock's
 * asynchronous replicas lag by what their WAL reader and the replay RPC take. A probe not seen
 * within {@code giveUpMs} counts in {@link #notSeen}, not in the histogram.
 */
public final class ReplicaLag implements AutoCloseable {

  /** What a probe row's key is, after its region's start key; no load row has it. */
  static final byte[] PROBE_SUFFIX = Bytes.toBytes("\u0000replica-lag");

  private final Table table;
  private final int replicas;
  private final Durability durability;
  private final long intervalMs;
  private final long giveUpMs;
  private final List<byte[]> rows = new ArrayList<>();
  private final Thread thread;
  private final long base = System.nanoTime();
  private volatile boolean stop;

  /** Lags in microseconds, one per probe and secondary that saw it. */
  public final Histogram lagUs = new Histogram(3_600_000_000L, 3);
  /** Probes read back, one per probe and secondary. */
  public long reads;
  /** Of {@link #reads}: seen by the first read after the acknowledgement. */
  public long seenFirst;
  /** Of {@link #reads}: not seen within the give-up time. */
  public long notSeen;
  /** Probe puts that failed, and were not read back. */
  public long putsFailed;

  /**
   * Starts probing {@code table}, whose regions have {@code replicas} replicas each, the primary
   * included.
   */
  public static ReplicaLag start(Connection conn, TableName table, int replicas,
    Durability durability, long intervalMs, long giveUpMs) throws IOException {
    ReplicaLag lag = new ReplicaLag(conn, table, replicas, durability, intervalMs, giveUpMs);
    lag.thread.start();
    return lag;
  }

  private ReplicaLag(Connection conn, TableName tn, int replicas, Durability durability,
    long intervalMs, long giveUpMs) throws IOException {
    if (replicas < 2) {
      throw new IllegalArgumentException("replica lag needs 2 or more replicas, not " + replicas);
    }
    this.replicas = replicas;
    this.durability = durability;
    this.intervalMs = intervalMs;
    this.giveUpMs = giveUpMs;
    try (RegionLocator locator = conn.getRegionLocator(tn)) {
      for (byte[] start : locator.getStartKeys()) {
        rows.add(probeRow(start));
      }
    }
    this.table = conn.getTable(tn);
    this.thread = new Thread(this::run, "replica-lag-" + tn.getNameAsString());
    this.thread.setDaemon(true);
  }

  /** Returns the probe row of the region that starts at {@code startKey}. */
  static byte[] probeRow(byte[] startKey) {
    return Bytes.add(startKey, PROBE_SUFFIX);
  }

  private void run() {
    long n = 0;
    try {
      while (!stop) {
        long next = System.currentTimeMillis() + intervalMs;
        byte[] row = rows.get((int) (n % rows.size()));
        // Unique to this probe, also against an earlier run's value in the same row.
        byte[] value = Bytes.toBytes(base + ++n);
        Put probe = new Put(row).addColumn(WriteLoad.FAMILY, WriteLoad.QUALIFIER, value);
        if (durability != null) {
          probe.setDurability(durability);
        }
        boolean written = false;
        try {
          table.put(probe);
          written = true;
        } catch (IOException e) {
          // The load's own errors say why; a probe that failed has nothing to read back.
          synchronized (this) {
            putsFailed++;
          }
        }
        long acked = System.nanoTime();
        for (int replica = 1; written && replica < replicas && !stop; replica++) {
          readBack(row, value, replica, acked);
        }
        long sleep = next - System.currentTimeMillis();
        if (sleep > 0 && !stop) {
          Thread.sleep(sleep);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void readBack(byte[] row, byte[] value, int replica, long acked)
    throws InterruptedException {
    boolean first = true;
    while (true) {
      Get get = new Get(row).addColumn(WriteLoad.FAMILY, WriteLoad.QUALIFIER);
      get.setConsistency(Consistency.TIMELINE).setReplicaId(replica);
      long sent = System.nanoTime();
      byte[] seen;
      try {
        Result r = table.get(get);
        seen = r.getValue(WriteLoad.FAMILY, WriteLoad.QUALIFIER);
      } catch (IOException e) {
        // A secondary that is not open, or serves no reads yet, has not seen it.
        seen = null;
      }
      long now = System.nanoTime();
      synchronized (this) {
        if (seen != null && Arrays.equals(seen, value)) {
          reads++;
          seenFirst += first ? 1 : 0;
          lagUs.recordValue(Math.max(0, (sent - acked) / 1000));
          return;
        }
        if (stop) {
          // The run ended first: this read counts neither way.
          return;
        }
        if ((now - acked) / 1_000_000 >= giveUpMs) {
          reads++;
          notSeen++;
          return;
        }
      }
      first = false;
      Thread.sleep(5);
    }
  }

  /** Stops probing; the read under way ends first. */
  @Override
  public void close() throws IOException {
    stop = true;
    try {
      thread.join(giveUpMs + 60_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    table.close();
  }

  /** One line for the summary: the reads, how many the first read saw, and the lag's spread. */
  public synchronized String describe() {
    if (reads == 0) {
      return "no probe read back";
    }
    return String.format(Locale.ROOT,
      "%d probe reads on %d secondaries: %d seen by the first read after the ack, %d not seen "
        + "within %.1f s (%d probe puts failed); lag p50 %.2f ms, p99 %.2f ms, max %.2f ms",
      reads, replicas - 1, seenFirst, notSeen, giveUpMs / 1000.0, putsFailed,
      lagUs.getTotalCount() == 0 ? 0 : lagUs.getValueAtPercentile(50) / 1000.0,
      lagUs.getTotalCount() == 0 ? 0 : lagUs.getValueAtPercentile(99) / 1000.0,
      lagUs.getMaxValue() / 1000.0);
  }
}
