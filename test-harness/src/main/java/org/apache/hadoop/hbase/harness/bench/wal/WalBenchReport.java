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

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Polygon;
import java.awt.Shape;
import java.awt.geom.Ellipse2D;
import java.awt.geom.Rectangle2D;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.text.DecimalFormat;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;
import org.apache.hadoop.hbase.harness.util.ChartColors;
import org.apache.hadoop.hbase.harness.util.Csv;
import org.apache.hadoop.hbase.harness.util.HarnessTool;
import org.apache.hadoop.hbase.harness.util.Stats;
import org.apache.hadoop.hbase.harness.util.ToolException;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.plot.CombinedDomainXYPlot;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.title.TextTitle;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

import org.apache.hbase.thirdparty.org.apache.commons.cli.CommandLine;

/**
 * The report of {@code scripts/harness bench wal}: reads its {@code results.csv} (one line per
 * measurement, columns {@value #HEADER}) and writes
 * <ul>
 * <li>a Markdown summary: per thread count, the median over the repetitions of each
 * implementation's throughput (with its spread: half the range over the repetitions, in percent
 * of the median), p99, p50 and CPU time per edit (the WAL's JVM plus the DataNodes' JVM), the
 * ratios patched-fshlog / stock-fshlog and patched-fshlog / stock-asyncfs of the throughput, p99
 * and CPU medians, and every measurement that lasted less than {@value #SHORT_SECONDS} s;</li>
 * <li>a PNG chart (JFreeChart, headless): median throughput and median p99 against the number of
 * writer threads, one series per implementation, threads on a log-2 axis, p99 (in milliseconds)
 * on a log-2 axis.</li>
 * </ul>
 *
 * <p>Usage: {@code WalBenchReport --csv FILE --summary FILE --chart FILE [--title TEXT]
 * [--note TEXT]...}. Each {@code --note} becomes a paragraph under the summary's title. A bad
 * command line or CSV is one {@code WalBenchReport:} line on stderr, exit 2 or 1.
 */
public final class WalBenchReport extends HarnessTool {
  /** The header line of results.csv, exactly. */
  public static final String HEADER = "impl,threads,rep,ops_per_sec,p50_us,p99_us,seconds,"
    + "wal_cpu_us_per_edit,dfs_cpu_us_per_edit,edits_per_sync";
  /** A measurement shorter than this many seconds is named in the summary. */
  static final double SHORT_SECONDS = 3.0;
  static final String STOCK = "stock-fshlog";
  static final String PATCHED = "patched-fshlog";
  static final String ASYNC = "stock-asyncfs";
  private static final List<String> KNOWN = Arrays.asList(STOCK, PATCHED, ASYNC);
  private static final Shape[] SHAPES =
    { new Rectangle2D.Double(-4, -4, 8, 8), new Ellipse2D.Double(-4.5, -4.5, 9, 9),
      new Polygon(new int[] { 0, 5, -5 }, new int[] { -5, 4, 4 }, 3),
      new Polygon(new int[] { 0, 5, 0, -5 }, new int[] { -5, 0, 5, 0 }, 4) };

  /** One measurement: a line of results.csv. */
  static final class Row {
    final String impl;
    final int threads;
    final int rep;
    final double opsPerSec;
    final double p50Us;
    final double p99Us;
    final double seconds;
    final double walCpuUs;
    final double dfsCpuUs;
    final double editsPerSync;

    Row(String impl, int threads, int rep, double opsPerSec, double p50Us, double p99Us,
      double seconds, double walCpuUs, double dfsCpuUs, double editsPerSync) {
      this.impl = impl;
      this.threads = threads;
      this.rep = rep;
      this.opsPerSec = opsPerSec;
      this.p50Us = p50Us;
      this.p99Us = p99Us;
      this.seconds = seconds;
      this.walCpuUs = walCpuUs;
      this.dfsCpuUs = dfsCpuUs;
      this.editsPerSync = editsPerSync;
    }
  }

  /** The medians of one (implementation, threads) pair over its repetitions. */
  static final class Medians {
    final double opsPerSec;
    final double p50Us;
    final double p99Us;
    final double walCpuUs;
    final double dfsCpuUs;
    final double editsPerSync;
    /** Half the range of the throughput over the repetitions, in percent of its median. */
    final double opsSpreadPct;
    final int reps;

    Medians(List<Row> cell) {
      this.opsPerSec = median(cell, r -> r.opsPerSec);
      this.p50Us = median(cell, r -> r.p50Us);
      this.p99Us = median(cell, r -> r.p99Us);
      this.walCpuUs = median(cell, r -> r.walCpuUs);
      this.dfsCpuUs = median(cell, r -> r.dfsCpuUs);
      this.editsPerSync = median(cell, r -> r.editsPerSync);
      double min = cell.stream().mapToDouble(r -> r.opsPerSec).min().getAsDouble();
      double max = cell.stream().mapToDouble(r -> r.opsPerSec).max().getAsDouble();
      this.opsSpreadPct = opsPerSec == 0 ? 0 : (max - min) / 2 / opsPerSec * 100;
      this.reps = cell.size();
    }

    double cpuUs() {
      return walCpuUs + dfsCpuUs;
    }
  }

  private Path csvFile;
  private Path summaryFile;
  private Path chartFile;
  private String title;
  private List<String> notes;

  public WalBenchReport() {
    super("WalBenchReport", "WalBenchReport --csv FILE --summary FILE --chart FILE "
      + "[--title TEXT] [--note TEXT]...", "WalBenchReport: ", "WalBenchReport: ");
  }

  @Override
  protected void addOptions() {
    addRequiredOptWithArg(null, "csv", "results.csv of the run");
    addRequiredOptWithArg(null, "summary", "the Markdown summary to write");
    addRequiredOptWithArg(null, "chart", "the PNG chart to write");
    addOptWithArg(null, "title", "the title of both (default: WAL benchmark)");
    addOptWithArg(null, "note", "a paragraph under the summary's title (again for more)");
  }

  @Override
  protected void processOptions(CommandLine cmd) {
    noArguments(cmd);
    csvFile = Paths.get(value(cmd, "csv"));
    summaryFile = Paths.get(value(cmd, "summary"));
    chartFile = Paths.get(value(cmd, "chart"));
    title = value(cmd, "title", "WAL benchmark");
    String[] n = cmd.getOptionValues("note");
    notes = n == null ? new ArrayList<>() : Arrays.asList(n);
  }

  @Override
  protected int doWork() throws IOException, ToolException {
    System.setProperty("java.awt.headless", "true");
    List<Row> rows;
    try {
      rows = read(csvFile);
    } catch (IllegalArgumentException e) {
      throw new ToolException(e.getMessage());
    }
    Files.write(summaryFile, summary(rows, title, notes).getBytes(StandardCharsets.UTF_8));
    chart(rows, title, chartFile);
    return EXIT_SUCCESS;
  }

  public static void main(String[] args) {
    launch(new WalBenchReport(), args);
  }

  /**
   * Reads results.csv.
   * @throws IllegalArgumentException on a wrong header or a malformed line, naming the line
   */
  static List<Row> read(Path csv) throws IOException {
    List<Row> rows = Csv.read(csv, HEADER, f -> {
      if (f[0].isEmpty()) {
        throw new NumberFormatException("no implementation");
      }
      return new Row(f[0], Integer.parseInt(f[1]), Integer.parseInt(f[2]),
        Double.parseDouble(f[3]), Double.parseDouble(f[4]), Double.parseDouble(f[5]),
        Double.parseDouble(f[6]), Double.parseDouble(f[7]), Double.parseDouble(f[8]),
        Double.parseDouble(f[9]));
    });
    if (rows.isEmpty()) {
      throw new IllegalArgumentException(csv + ": no measurements");
    }
    return rows;
  }

  /** The implementations in a stable order: the three known ones first, then any others. */
  static List<String> impls(List<Row> rows) {
    List<String> out = new ArrayList<>();
    for (String k : KNOWN) {
      if (rows.stream().anyMatch(r -> r.impl.equals(k))) {
        out.add(k);
      }
    }
    rows.stream().map(r -> r.impl).filter(i -> !out.contains(i)).distinct().forEach(out::add);
    return out;
  }

  /** impl -> threads -> medians over the repetitions. */
  static Map<String, SortedMap<Integer, Medians>> medians(List<Row> rows) {
    Map<String, SortedMap<Integer, Medians>> out = new LinkedHashMap<>();
    for (String impl : impls(rows)) {
      SortedMap<Integer, Medians> byThreads = new TreeMap<>();
      SortedSet<Integer> threads = new TreeSet<>();
      rows.stream().filter(r -> r.impl.equals(impl)).forEach(r -> threads.add(r.threads));
      for (int t : threads) {
        List<Row> cell = new ArrayList<>();
        rows.stream().filter(r -> r.impl.equals(impl) && r.threads == t).forEach(cell::add);
        byThreads.put(t, new Medians(cell));
      }
      out.put(impl, byThreads);
    }
    return out;
  }

  private static double median(List<Row> cell, ToDoubleFunction<Row> f) {
    return Stats.median(cell.stream().mapToDouble(f).toArray());
  }

  /** The Markdown summary. */
  static String summary(List<Row> rows, String title, List<String> notes) {
    Map<String, SortedMap<Integer, Medians>> med = medians(rows);
    List<String> impls = impls(rows);
    SortedSet<Integer> threads = new TreeSet<>();
    rows.forEach(r -> threads.add(r.threads));
    SortedSet<Integer> reps = new TreeSet<>();
    rows.forEach(r -> reps.add(r.rep));

    StringBuilder sb = new StringBuilder();
    sb.append("# ").append(title).append("\n\n");
    for (String n : notes) {
      sb.append(n).append("\n\n");
    }
    sb.append("Every number is the median over the repetitions (").append(reps.size())
      .append(" here) of one implementation at one thread count; every measurement is in ")
      .append("`results.csv`.\n\n");

    sb.append("## Throughput (edits/s, higher is better)\n\n");
    sb.append("Beside each median, its spread: half the range over the repetitions, in percent of"
      + " the median.\n\n");
    table(sb, med, impls, threads, m -> m.opsPerSec, m -> String.format(Locale.ROOT, "%s ±%.0f%%",
      grouped(m.opsPerSec), m.opsSpreadPct), true);
    sb.append("\n## p99 latency of one append plus sync (us, lower is better)\n\n");
    table(sb, med, impls, threads, m -> m.p99Us, m -> grouped(m.p99Us), true);
    sb.append("\n## p50 latency of one append plus sync (us, lower is better)\n\n");
    table(sb, med, impls, threads, m -> m.p50Us, m -> grouped(m.p50Us), false);
    sb.append("\n## CPU time per edit (us, lower is better)\n\n");
    sb.append("The WAL's JVM (WALPE's writers, the WAL's threads, the DFS client, GC and JIT) plus"
      + " the DataNodes' JVM, each the median over the repetitions; the ratios are of the"
      + " sums.\n\n");
    table(sb, med, impls, threads, Medians::cpuUs, m -> String.format(Locale.ROOT,
      "%.0f (%.0f + %.0f)", m.cpuUs(), m.walCpuUs, m.dfsCpuUs), true);
    sb.append("\n## Edits per filesystem sync\n\n");
    sb.append("The edits over the syncs the WAL issued (WALPE's syncMeter, marked on every"
      + " postSync): how many edits one hflush or hsync carries.\n\n");
    table(sb, med, impls, threads, m -> m.editsPerSync,
      m -> String.format(Locale.ROOT, "%.1f", m.editsPerSync), false);

    List<String> brief = new ArrayList<>();
    rows.stream().filter(r -> r.seconds < SHORT_SECONDS)
      .sorted(Comparator.comparingInt((Row r) -> r.threads).thenComparing(r -> r.impl)
        .thenComparingInt(r -> r.rep))
      .forEach(r -> brief.add(String.format(Locale.ROOT, "%s at %d threads, rep %d: %.1f s",
        r.impl, r.threads, r.rep, r.seconds)));
    if (!brief.isEmpty()) {
      sb.append("\nShorter than ").append(String.format(Locale.ROOT, "%.0f", SHORT_SECONDS))
        .append(" s, so noisier (give more --edits): ").append(String.join("; ", brief))
        .append(".\n");
    }

    List<String> uneven = new ArrayList<>();
    med.forEach((impl, byT) -> byT.forEach((t, m) -> {
      if (m.reps != reps.size()) {
        uneven.add(impl + " at " + t + " threads: " + m.reps);
      }
    }));
    if (!uneven.isEmpty()) {
      sb.append("\nNot every cell has the same number of repetitions: ")
        .append(String.join("; ", uneven)).append(".\n");
    }
    return sb.toString();
  }

  private static void table(StringBuilder sb, Map<String, SortedMap<Integer, Medians>> med,
    List<String> impls, SortedSet<Integer> threads, ToDoubleFunction<Medians> f,
    Function<Medians, String> cellText, boolean ratios) {
    boolean withStock = ratios && impls.contains(PATCHED) && impls.contains(STOCK);
    boolean withAsync = ratios && impls.contains(PATCHED) && impls.contains(ASYNC);
    sb.append("| threads |");
    impls.forEach(i -> sb.append(' ').append(i).append(" |"));
    if (withStock) {
      sb.append(" patched / stock-fshlog |");
    }
    if (withAsync) {
      sb.append(" patched / stock-asyncfs |");
    }
    sb.append("\n|--:|");
    impls.forEach(i -> sb.append("--:|"));
    if (withStock) {
      sb.append("--:|");
    }
    if (withAsync) {
      sb.append("--:|");
    }
    sb.append('\n');
    for (int t : threads) {
      sb.append("| ").append(t).append(" |");
      for (String i : impls) {
        Medians m = med.get(i).get(t);
        sb.append(' ').append(m == null ? "-" : cellText.apply(m)).append(" |");
      }
      if (withStock) {
        sb.append(' ').append(ratio(med.get(PATCHED).get(t), med.get(STOCK).get(t), f))
          .append(" |");
      }
      if (withAsync) {
        sb.append(' ').append(ratio(med.get(PATCHED).get(t), med.get(ASYNC).get(t), f))
          .append(" |");
      }
      sb.append('\n');
    }
  }

  private static String ratio(Medians a, Medians b, ToDoubleFunction<Medians> f) {
    if (a == null || b == null || f.applyAsDouble(b) == 0) {
      return "-";
    }
    return String.format(Locale.ROOT, "%.2fx", f.applyAsDouble(a) / f.applyAsDouble(b));
  }

  /** 12345.6 -> "12,346". */
  static String grouped(double v) {
    return String.format(Locale.ROOT, "%,d", Math.round(v));
  }

  /** The PNG chart: throughput above, p99 below, a shared log-2 threads axis. */
  static void chart(List<Row> rows, String title, Path png) throws IOException {
    Map<String, SortedMap<Integer, Medians>> med = medians(rows);
    XYSeriesCollection ops = new XYSeriesCollection();
    XYSeriesCollection p99 = new XYSeriesCollection();
    med.forEach((impl, byT) -> {
      XYSeries o = new XYSeries(impl);
      XYSeries p = new XYSeries(impl);
      byT.forEach((t, m) -> {
        o.add(t.doubleValue(), m.opsPerSec);
        if (m.p99Us > 0) {
          p.add(t.doubleValue(), m.p99Us / 1000.0);
        }
      });
      ops.addSeries(o);
      p99.addSeries(p);
    });
    int minT = rows.stream().mapToInt(r -> r.threads).min().getAsInt();
    int maxT = rows.stream().mapToInt(r -> r.threads).max().getAsInt();

    LogAxis threadsAxis = log2Axis("writer threads (log scale)");
    threadsAxis.setRange(minT / 1.5, maxT * 1.5);
    CombinedDomainXYPlot plot = new CombinedDomainXYPlot(threadsAxis);
    plot.setGap(12);

    NumberAxis opsAxis = new NumberAxis("throughput (edits/s, median)");
    opsAxis.setAutoRangeIncludesZero(true);
    opsAxis.setNumberFormatOverride(new DecimalFormat("#,##0"));
    plot.add(new XYPlot(ops, null, opsAxis, renderer(new ArrayList<>(med.keySet()))), 1);

    // In milliseconds on a log-2 axis, so that the ticks are round: 0.5, 1, 2, 4 ms.
    LogAxis p99Axis = log2Axis("p99 of append + sync (ms, median, log scale)");
    p99Axis.setNumberFormatOverride(new DecimalFormat("#,##0.###"));
    XYLineAndShapeRenderer p99Renderer = renderer(new ArrayList<>(med.keySet()));
    // One legend for both plots.
    p99Renderer.setDefaultSeriesVisibleInLegend(false);
    plot.add(new XYPlot(p99, null, p99Axis, p99Renderer), 1);

    JFreeChart chart = new JFreeChart(title, new Font(Font.SANS_SERIF, Font.BOLD, 16), plot, true);
    SortedSet<Integer> reps = new TreeSet<>();
    rows.forEach(r -> reps.add(r.rep));
    chart.addSubtitle(new TextTitle("WALPerformanceEvaluation on a MiniDFSCluster of 3 DataNodes;"
      + " medians of " + reps.size() + " repetition" + (reps.size() == 1 ? "" : "s"),
      new Font(Font.SANS_SERIF, Font.PLAIN, 12)));
    chart.setBackgroundPaint(Color.WHITE);
    Path tmp = png.resolveSibling(png.getFileName() + ".tmp");
    ChartUtils.saveChartAsPNG(tmp.toFile(), chart, 1000, 1000);
    Files.move(tmp, png, StandardCopyOption.REPLACE_EXISTING);
  }

  private static LogAxis log2Axis(String label) {
    LogAxis axis = new LogAxis(label);
    axis.setBase(2);
    axis.setTickUnit(new NumberTickUnit(1));
    axis.setNumberFormatOverride(new DecimalFormat("#,##0"));
    axis.setMinorTickMarksVisible(true);
    return axis;
  }

  /** One color per implementation, the same in both plots and in every run. */
  private static XYLineAndShapeRenderer renderer(List<String> impls) {
    XYLineAndShapeRenderer r = new XYLineAndShapeRenderer(true, true);
    int other = KNOWN.size();
    for (int i = 0; i < impls.size(); i++) {
      int k = KNOWN.indexOf(impls.get(i));
      int slot = k >= 0 ? k : other++;
      r.setSeriesPaint(i, ChartColors.get(slot));
      r.setSeriesShape(i, SHAPES[slot % SHAPES.length]);
      r.setSeriesStroke(i, new BasicStroke(2f));
    }
    return r;
  }
}
