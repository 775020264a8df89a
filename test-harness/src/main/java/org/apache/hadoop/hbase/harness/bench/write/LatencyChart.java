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

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Shape;
import java.awt.geom.Ellipse2D;
import java.awt.geom.Rectangle2D;
import java.io.File;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.hbase.harness.util.ChartColors;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.axis.SymbolAxis;
import org.jfree.chart.plot.CombinedDomainXYPlot;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.util.ShapeUtils;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * The chart of a run: latency over time, one line per configuration (p99 solid,
 * p50 dashed, log scale), throughput below it, and the server events of each configuration on a
 * strip at the bottom. Rendered headless to PNG.
 */
public final class LatencyChart {
  /** The colours of the server events, in the order of {@link ServerEvents.Type}. */
  private static final Color[] EVENT_COLORS = { ChartColors.get(ChartColors.BLUE),
    ChartColors.get(ChartColors.GREEN), ChartColors.get(ChartColors.ORANGE),
    ChartColors.get(ChartColors.RED), ChartColors.get(ChartColors.PURPLE), Color.BLACK,
    ChartColors.get(ChartColors.BROWN) };

  private LatencyChart() {
  }

  public static void write(File png, String title, List<RunResult> results) throws IOException {
    NumberAxis time = new NumberAxis("seconds since the start of the configuration's load");
    time.setStandardTickUnits(NumberAxis.createIntegerTickUnits());
    CombinedDomainXYPlot plot = new CombinedDomainXYPlot(time);
    plot.setGap(8);

    XYSeriesCollection lat = new XYSeriesCollection();
    XYLineAndShapeRenderer latR = new XYLineAndShapeRenderer(true, false);
    XYSeriesCollection tput = new XYSeriesCollection();
    XYLineAndShapeRenderer tputR = new XYLineAndShapeRenderer(true, false);
    int s = 0;
    for (int c = 0; c < results.size(); c++) {
      RunResult r = results.get(c);
      Color color = ChartColors.get(c);
      XYSeries p99 = new XYSeries(r.config.name() + " p99", false, true);
      XYSeries p50 = new XYSeries(r.config.name() + " p50", false, true);
      XYSeries ops = new XYSeries(r.config.name() + " puts/s", false, true);
      for (RunResult.Interval i : r.intervals) {
        if (i.ops > 0) {
          p99.add(i.second, Math.max(0.01, i.p99));
          p50.add(i.second, Math.max(0.01, i.p50));
        } else {
          p99.add(i.second, null);
          p50.add(i.second, null);
        }
        ops.add(i.second, i.ops);
      }
      lat.addSeries(p99);
      latR.setSeriesPaint(s, color);
      latR.setSeriesStroke(s, new BasicStroke(1.6f));
      lat.addSeries(p50);
      latR.setSeriesPaint(s + 1, color);
      latR.setSeriesStroke(s + 1, new BasicStroke(1.0f, BasicStroke.CAP_BUTT,
        BasicStroke.JOIN_MITER, 1f, new float[] { 4f, 4f }, 0f));
      s += 2;
      tput.addSeries(ops);
      tputR.setSeriesPaint(c, color);
      tputR.setSeriesStroke(c, new BasicStroke(1.4f));
    }
    LogAxis latAxis = new LogAxis("put latency, ms (log)");
    latAxis.setSmallestValue(0.01);
    latAxis.setNumberFormatOverride(new java.text.DecimalFormat("0.###"));
    // Labels at the powers of ten only, minor ticks between them.
    latAxis.setTickUnit(new NumberTickUnit(1.0));
    latAxis.setMinorTickMarksVisible(true);
    latAxis.setMinorTickCount(9);
    XYPlot latPlot = new XYPlot(lat, null, latAxis, latR);
    latPlot.setBackgroundPaint(Color.WHITE);
    latPlot.setRangeGridlinePaint(Color.LIGHT_GRAY);
    latPlot.setDomainGridlinePaint(Color.LIGHT_GRAY);
    plot.add(latPlot, 5);

    NumberAxis tputAxis = new NumberAxis("acked puts/s");
    tputAxis.setAutoRangeIncludesZero(true);
    XYPlot tputPlot = new XYPlot(tput, null, tputAxis, tputR);
    tputPlot.setBackgroundPaint(Color.WHITE);
    tputPlot.setRangeGridlinePaint(Color.LIGHT_GRAY);
    tputPlot.setDomainGridlinePaint(Color.LIGHT_GRAY);
    plot.add(tputPlot, 2);

    String[] names = new String[results.size()];
    for (int c = 0; c < results.size(); c++) {
      names[c] = results.get(c).config.name();
    }
    XYSeriesCollection ev = new XYSeriesCollection();
    XYLineAndShapeRenderer evR = new XYLineAndShapeRenderer(false, true);
    ServerEvents.Type[] types = ServerEvents.Type.values();
    Shape[] shapes = { new Ellipse2D.Double(-3, -3, 6, 6), ShapeUtils.createUpTriangle(4f),
      new Rectangle2D.Double(-3, -3, 6, 6), ShapeUtils.createDiamond(5f),
      ShapeUtils.createDownTriangle(4f), ShapeUtils.createDiagonalCross(4f, 1f),
      ShapeUtils.createRegularCross(4f, 1f) };
    boolean anyRead = false;
    for (int t = 0; t < types.length; t++) {
      XYSeries series = new XYSeries(types[t].label(), false, true);
      double offset = (t - (types.length - 1) / 2.0) * 0.09;
      for (int c = 0; c < results.size(); c++) {
        RunResult r = results.get(c);
        anyRead |= r.eventsRead;
        for (ServerEvents.Event e : r.events) {
          if (e.type == types[t]) {
            series.add((e.timeMs - r.startMs) / 1000.0, c + offset);
          }
        }
      }
      ev.addSeries(series);
      evR.setSeriesShape(t, shapes[t % shapes.length]);
      evR.setSeriesPaint(t, EVENT_COLORS[t % EVENT_COLORS.length]);
    }
    SymbolAxis evAxis = new SymbolAxis(anyRead ? "server events" : "server events (not read)",
      names);
    evAxis.setRange(-0.6, results.size() - 0.4);
    evAxis.setGridBandsVisible(false);
    XYPlot evPlot = new XYPlot(ev, null, evAxis, evR);
    evPlot.setBackgroundPaint(Color.WHITE);
    evPlot.setDomainGridlinePaint(Color.LIGHT_GRAY);
    plot.add(evPlot, Math.max(1, Math.min(3, results.size())));

    JFreeChart chart = new JFreeChart(title, new Font("SansSerif", Font.BOLD, 14), plot, true);
    chart.setBackgroundPaint(Color.WHITE);
    int height = 820 + 40 * Math.max(0, results.size() - 2);
    ChartUtils.saveChartAsPNG(png, chart, 1400, height);
  }
}
