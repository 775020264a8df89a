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

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/** What one configuration's run measured: per-second intervals, totals and server events. */
public final class RunResult {
  /** One second of the run. Latencies in milliseconds. */
  public static final class Interval {
    public final int second;
    public final long ops;
    public final long errors;
    public final double p50;
    public final double p99;
    public final double p999;
    public final double max;
    /** The client JVM's CPU use, in percent of all the machine's cores. */
    public final double clientCpu;
    /** The whole machine's CPU use, in percent. */
    public final double machineCpu;

    public Interval(int second, long ops, long errors, double p50, double p99, double p999,
      double max, double clientCpu, double machineCpu) {
      this.second = second;
      this.ops = ops;
      this.errors = errors;
      this.p50 = p50;
      this.p99 = p99;
      this.p999 = p999;
      this.max = max;
      this.clientCpu = clientCpu;
      this.machineCpu = machineCpu;
    }
  }

  public final WriteConfig config;
  public final List<Interval> intervals = new ArrayList<>();
  /** Latencies in microseconds. */
  public final Histogram total = new Histogram(3_600_000_000L, 3);
  public final List<ServerEvents.Event> events = new ArrayList<>();
  public long startMs;
  public long endMs;
  public long acked;
  public long errors;
  public double clientCpu;
  public double machineCpu;
  /** Whether the target's logs were read for events. */
  public boolean eventsRead;
  /** The read-back check: -1 when not asked for. */
  public long verifySampled = -1;
  public long verifyMissing;
  public long verifyWrong;
  public String firstError;
  /** {@link ReplicaLag#describe()} for a table with replicas, else null. */
  public String replicaLag;

  public RunResult(WriteConfig config) {
    this.config = config;
  }

  public double seconds() {
    return Math.max(0.001, (endMs - startMs) / 1000.0);
  }

  public double throughput() {
    return acked / seconds();
  }

  public static double ms(long micros) {
    return micros / 1000.0;
  }

  public Map<ServerEvents.Type, Integer> eventCounts() {
    Map<ServerEvents.Type, Integer> m = new EnumMap<>(ServerEvents.Type.class);
    for (ServerEvents.Type t : ServerEvents.Type.values()) {
      m.put(t, 0);
    }
    for (ServerEvents.Event e : events) {
      m.merge(e.type, 1, Integer::sum);
    }
    return m;
  }

  public boolean verifyFailed() {
    return verifySampled >= 0 && (verifyMissing > 0 || verifyWrong > 0);
  }
}
