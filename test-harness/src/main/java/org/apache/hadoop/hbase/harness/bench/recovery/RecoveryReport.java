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
package org.apache.hadoop.hbase.harness.bench.recovery;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.hbase.harness.util.Csv;
import org.apache.hadoop.hbase.harness.util.HarnessTool;
import org.apache.hadoop.hbase.harness.util.Stats;
import org.apache.hadoop.hbase.harness.util.ToolException;

import org.apache.hbase.thirdparty.org.apache.commons.cli.CommandLine;

/**
 * The summary of {@code scripts/harness bench recovery}: reads its results.csv (one line per
 * measurement, columns {@value #HEADER}) and writes a Markdown table, one row per size: the
 * memstore MiB, the median over the repetitions of the time until every region served again
 * with the memstore rebuilt from persistent memory (mode pmem) and with WAL replay (mode wal),
 * their ratio, the same from the moment the restarted RegionServer was up, and the acknowledged
 * rows lost (all modes); then where the time went, step by step (the columns of
 * {@link RecoveryTimeline}), per size and mode.
 *
 * <p>Usage: {@code RecoveryReport --csv FILE --summary FILE [--sizes SIZE,...]}: the rows in the
 * order of {@code --sizes} (the labels of the run's --sizes, as in the CSV's size column), by
 * default in the order the CSV first names them. The summary is written under a temporary name,
 * then renamed into place. A bad command line is one {@code harness: usage error:} line and exit
 * 2, a bad CSV one {@code harness: error:} line and exit 1.
 */
public final class RecoveryReport extends HarnessTool {
  /** The header line of results.csv, exactly. */
  public static final String HEADER =
    "mode,size,rep,rows,memstore_mb,storefile_mb,load_s,rs_up_s,online_s,sampled,lost,"
      + String.join(",", RecoveryTimeline.FIELDS);

  /** The column of results.csv where the steps of {@link RecoveryTimeline} begin. */
  private static final int STEPS_FROM = 11;

  private Path csvFile;
  private Path summaryFile;
  private List<String> sizes;

  /**
   * One measurement: a line of results.csv, with the fields the summary uses (memstore_mb as the
   * CSV writes it).
   */
  record Row(String mode, String size, String memstoreMb, double rsUpS, double onlineS,
    double lost, double[] steps) {
  }

  public RecoveryReport() {
    super("RecoveryReport", "RecoveryReport --csv FILE --summary FILE [--sizes SIZE,...]",
      "harness: usage error: RecoveryReport: ", "harness: error: RecoveryReport: ");
  }

  @Override
  protected void addOptions() {
    addRequiredOptWithArg(null, "csv", "results.csv of the run");
    addRequiredOptWithArg(null, "summary", "the Markdown summary to write");
    addOptWithArg(null, "sizes", "SIZE,...: the sizes, in the order of the rows (default: as "
      + "the CSV first names them)");
  }

  @Override
  protected void processOptions(CommandLine cmd) {
    noArguments(cmd);
    csvFile = Paths.get(value(cmd, "csv"));
    summaryFile = Paths.get(value(cmd, "summary"));
    String s = value(cmd, "sizes");
    if (s != null) {
      sizes = Arrays.asList(s.split(",", -1));
      if (sizes.contains("")) {
        throw new UsageException("--sizes '" + s + "' has an empty size");
      }
    }
  }

  @Override
  protected int doWork() throws IOException, ToolException {
    List<Row> rows;
    try {
      rows = read(csvFile);
    } catch (IllegalArgumentException e) {
      throw new ToolException(e.getMessage());
    }
    List<String> order = sizes;
    if (order == null) {
      Set<String> seen = new LinkedHashSet<>();
      rows.forEach(r -> seen.add(r.size()));
      order = new ArrayList<>(seen);
    }
    Path tmp = summaryFile.resolveSibling(summaryFile.getFileName() + ".tmp");
    Files.write(tmp, summary(rows, order).getBytes(StandardCharsets.UTF_8));
    Files.move(tmp, summaryFile, StandardCopyOption.REPLACE_EXISTING);
    return EXIT_SUCCESS;
  }

  public static void main(String[] args) {
    launch(new RecoveryReport(), args);
  }

  /**
   * Reads results.csv.
   * @throws IllegalArgumentException on a wrong header or a malformed line, naming the line
   */
  static List<Row> read(Path csv) throws IOException {
    return Csv.read(csv, HEADER, f -> {
      if (f[0].isEmpty() || f[1].isEmpty()) {
        throw new NumberFormatException("no mode or size");
      }
      number(f[4]);
      double[] steps = new double[RecoveryTimeline.FIELDS.length];
      for (int i = 0; i < steps.length; i++) {
        steps[i] = number(f[STEPS_FROM + i]);
      }
      return new Row(f[0], f[1], f[4], number(f[7]), number(f[8]), number(f[10]), steps);
    });
  }

  private static double number(String field) {
    double v = Double.parseDouble(field);
    if (!Double.isFinite(v)) {
      throw new NumberFormatException("'" + field + "' is not a finite number");
    }
    return v;
  }

  /** The Markdown summary, a row per size in the given order. */
  static String summary(List<Row> rows, List<String> sizes) {
    StringBuilder sb = new StringBuilder();
    sb.append("# Recovery of a killed RegionServer: memstore rebuilt from persistent memory "
      + "against WAL replay\n\n");
    sb.append("Time from the restart of the killed RegionServer until a get succeeds on every "
      + "region of the table\n");
    sb.append("(median over the repetitions; \"after RS up\": from the RegionServer serving "
      + "until then).\n\n");
    sb.append("| size | memstore MiB | pmem rebuild s | WAL replay s | WAL / pmem "
      + "| pmem after RS up s | WAL after RS up s | WAL / pmem after RS up | lost |\n");
    sb.append("|---|---|---|---|---|---|---|---|---|\n");
    for (String size : sizes) {
      Double[] online = new Double[2];
      Double[] afterUp = new Double[2];
      String[] memstore = new String[2];
      double lost = 0;
      String[] modes = { "pmem", "wal" };
      for (int m = 0; m < modes.length; m++) {
        List<Double> on = new ArrayList<>();
        List<Double> after = new ArrayList<>();
        for (Row r : rows) {
          if (r.size().equals(size) && r.mode().equals(modes[m])) {
            on.add(r.onlineS());
            after.add(r.onlineS() - r.rsUpS());
            // The last measurement's, as the CSV has them.
            memstore[m] = r.memstoreMb();
          }
        }
        if (!on.isEmpty()) {
          online[m] = Stats.median(on.stream().mapToDouble(Double::doubleValue).toArray());
          afterUp[m] = Stats.median(after.stream().mapToDouble(Double::doubleValue).toArray());
        }
      }
      for (Row r : rows) {
        if (r.size().equals(size)) {
          lost += r.lost();
        }
      }
      sb.append("| ").append(size).append(" | ")
        .append(memstore[0] != null ? memstore[0] : memstore[1] != null ? memstore[1] : "")
        .append(" | ").append(seconds(online[0])).append(" | ").append(seconds(online[1]))
        .append(" | ").append(ratio(online[1], online[0])).append(" | ")
        .append(seconds(afterUp[0])).append(" | ").append(seconds(afterUp[1])).append(" | ")
        .append(ratio(afterUp[1], afterUp[0])).append(" | ").append((long) lost).append(" |\n");
    }
    sb.append("\nEvery row: results.csv (load_s is the time the load took; storefile_mb > 0 "
      + "means a flush happened during the load).\n");
    sb.append(breakdown(rows, sizes));
    return sb.toString();
  }

  /** The columns of the breakdown: a step of {@link RecoveryTimeline#FIELDS} and its title. */
  private static final String[][] STEP_COLUMNS = { { "serving_s", "RS serving at" },
    { "scan_s", "pmem scan" }, { "scp_s", "crash procedure at" }, { "split_s", "WAL split" },
    { "lease_s", "longest WAL open" }, { "split_end_s", "split done at" },
    { "open_s", "regions open, after the split" }, { "rebuild_s", "rebuild (sum)" },
    { "flush_s", "flush (sum)" }, { "opened_s", "last region open at" } };

  /**
   * Where the time went, per size and mode: the median of each step of {@link RecoveryTimeline},
   * and of the time until every region served.
   */
  static String breakdown(List<Row> rows, List<String> sizes) {
    StringBuilder sb = new StringBuilder();
    sb.append("\n## Where the time goes\n\n");
    sb.append("Median seconds, read from the logs of the master and the RegionServers "
      + "(RecoveryTimeline). \"at\": from the\nrestart of the killed RegionServer; the others "
      + "are durations. The sums add up the regions' times on\nthe RegionServer's open threads."
      + "\n\n");
    sb.append("| size | mode |");
    for (String[] c : STEP_COLUMNS) {
      sb.append(' ').append(c[1]).append(" |");
    }
    sb.append(" every region serves at |\n|---|---|");
    for (int i = 0; i <= STEP_COLUMNS.length; i++) {
      sb.append("---|");
    }
    sb.append('\n');
    List<String> fields = Arrays.asList(RecoveryTimeline.FIELDS);
    for (String size : sizes) {
      for (String mode : new String[] { "pmem", "wal" }) {
        List<Row> m = new ArrayList<>();
        for (Row r : rows) {
          if (r.size().equals(size) && r.mode().equals(mode)) {
            m.add(r);
          }
        }
        if (m.isEmpty()) {
          continue;
        }
        sb.append("| ").append(size).append(" | ").append(mode).append(" |");
        for (String[] c : STEP_COLUMNS) {
          int i = fields.indexOf(c[0]);
          sb.append(' ')
            .append(oneDecimal(Stats.median(m.stream().mapToDouble(r -> r.steps()[i]).toArray())))
            .append(" |");
        }
        sb.append(' ')
          .append(oneDecimal(Stats.median(m.stream().mapToDouble(Row::onlineS).toArray())))
          .append(" |\n");
      }
    }
    return sb.toString();
  }

  /** "-" for no value, else the value to one decimal. */
  private static String seconds(Double v) {
    return v == null ? "-" : oneDecimal(v);
  }

  /** wal / pmem as "N.Nx", or "-" without both or with a pmem time of 0 or less. */
  private static String ratio(Double wal, Double pmem) {
    return wal == null || pmem == null || pmem <= 0 ? "-" : oneDecimal(wal / pmem) + "x";
  }

  /**
   * The value to one decimal as C's printf("%.1f") writes it: the exact binary value rounded,
   * half to even (Java's %.1f rounds the shortest decimal form half up: 0.25 is 0.3 there, 0.2
   * here), and -0.0 for a negative value that rounds to zero.
   */
  static String oneDecimal(double v) {
    BigDecimal b = new BigDecimal(v).setScale(1, RoundingMode.HALF_EVEN);
    String s = b.toPlainString();
    return b.signum() == 0 && (v < 0 || 1 / v < 0) ? "-" + s : s;
  }
}
