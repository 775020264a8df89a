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

import com.codahale.metrics.Reservoir;
import com.codahale.metrics.Snapshot;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;
import org.HdrHistogram.Recorder;

/**
 * A Dropwizard (codahale) metrics {@link Reservoir} that keeps every recorded value in an
 * HdrHistogram, so that percentiles are taken over all values (to three significant digits)
 * rather than over the 1,028-value sample of the default exponentially decaying reservoir.
 *
 * <p>Recording goes through an HdrHistogram {@link Recorder}, which is wait-free for writers, so
 * hundreds of benchmark threads recording at once do not serialize on a lock the way a
 * synchronized reservoir would. Readers fold what was recorded since the last read into a running
 * total under this object's monitor.
 */
public final class HdrReservoir implements Reservoir {
  private final Recorder recorder = new Recorder(3);
  private final Histogram total = new Histogram(3);
  private Histogram interval;

  @Override
  public void update(long value) {
    recorder.recordValue(Math.max(0L, value));
  }

  @Override
  public synchronized int size() {
    return (int) Math.min(Integer.MAX_VALUE, fold().getTotalCount());
  }

  /** A copy of everything recorded so far. */
  public synchronized Histogram histogram() {
    return fold().copy();
  }

  @Override
  public synchronized Snapshot getSnapshot() {
    return new HdrSnapshot(fold().copy());
  }

  private Histogram fold() {
    interval = recorder.getIntervalHistogram(interval);
    total.add(interval);
    return total;
  }

  /** A {@link Snapshot} of a copy of the histogram. */
  private static final class HdrSnapshot extends Snapshot {
    private final Histogram h;

    HdrSnapshot(Histogram h) {
      this.h = h;
    }

    @Override
    public double getValue(double quantile) {
      if (h.getTotalCount() == 0) {
        return 0;
      }
      return h.getValueAtPercentile(Math.min(100.0, Math.max(0.0, quantile * 100.0)));
    }

    @Override
    public long[] getValues() {
      long[] values = new long[size()];
      int i = 0;
      for (HistogramIterationValue v : h.recordedValues()) {
        long value = h.highestEquivalentValue(v.getValueIteratedTo());
        for (long c = 0; c < v.getCountAtValueIteratedTo() && i < values.length; c++) {
          values[i++] = value;
        }
      }
      return values;
    }

    @Override
    public int size() {
      return (int) Math.min(Integer.MAX_VALUE, h.getTotalCount());
    }

    @Override
    public long getMax() {
      return h.getTotalCount() == 0 ? 0 : h.getMaxValue();
    }

    @Override
    public double getMean() {
      return h.getTotalCount() == 0 ? 0 : h.getMean();
    }

    @Override
    public long getMin() {
      return h.getTotalCount() == 0 ? 0 : h.getMinValue();
    }

    @Override
    public double getStdDev() {
      return h.getTotalCount() == 0 ? 0 : h.getStdDeviation();
    }

    @Override
    public void dump(OutputStream output) {
      PrintWriter out = new PrintWriter(new OutputStreamWriter(output, StandardCharsets.UTF_8));
      for (long v : getValues()) {
        out.println(v);
      }
      out.flush();
    }
  }
}
