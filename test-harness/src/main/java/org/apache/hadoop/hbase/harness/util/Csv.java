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
package org.apache.hadoop.hbase.harness.util;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The results.csv files of the benchmarks (bench wal, bench recovery), read back by their
 * reports: a header line, then a line of comma-separated fields per measurement.
 */
public final class Csv {
  private Csv() {
  }

  /** Makes a row of a line's fields; a {@link NumberFormatException} says what is wrong. */
  @FunctionalInterface
  public interface RowParser<T> {
    T parse(String[] fields);
  }

  /**
   * The rows of the file. Its first line must be {@code header} exactly; blank lines are passed
   * over; every other line must have as many fields as the header.
   * @throws IllegalArgumentException on a wrong header or a malformed line, naming the file and
   *                                  the line
   */
  public static <T> List<T> read(Path csv, String header, RowParser<T> parser) throws IOException {
    List<String> lines = Files.readAllLines(csv, StandardCharsets.UTF_8);
    if (lines.isEmpty() || !lines.get(0).trim().equals(header)) {
      throw new IllegalArgumentException(csv + ": the first line must be '" + header + "'");
    }
    int fields = header.split(",", -1).length;
    List<T> rows = new ArrayList<>();
    for (int n = 1; n < lines.size(); n++) {
      String line = lines.get(n).trim();
      if (line.isEmpty()) {
        continue;
      }
      String[] f = line.split(",", -1);
      try {
        if (f.length != fields) {
          throw new NumberFormatException(fields + " fields expected");
        }
        rows.add(parser.parse(f));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(csv + " line " + (n + 1) + ": '" + line + "': "
          + e.getMessage());
      }
    }
    return rows;
  }
}
