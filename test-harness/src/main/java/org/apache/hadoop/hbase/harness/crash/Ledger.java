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
package org.apache.hadoop.hbase.harness.crash;

import java.io.BufferedWriter;
import java.io.Closeable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * The ledger of acknowledged rows: one row key per line, written only after the put (or the
 * batch of puts) that carried the row returned without an error. A row whose put failed or timed
 * out is never in it, even though it may have been stored. The ledger is what the crash test
 * holds the cluster to: every key in it must read back with its value after the crash.
 */
public final class Ledger {
  private Ledger() {
  }

  /** Appends acknowledged keys; safe for many writer threads. */
  public static final class Writer implements Closeable {
    private final BufferedWriter out;
    private long count;

    public Writer(Path file) throws IOException {
      Path dir = file.toAbsolutePath().getParent();
      if (dir != null) {
        Files.createDirectories(dir);
      }
      this.out = Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
        StandardOpenOption.APPEND);
    }

    /** Records keys whose puts were acknowledged: call only after the put returned. */
    public synchronized void acked(List<byte[]> keys) throws IOException {
      for (byte[] k : keys) {
        out.write(check(k));
        out.write('\n');
      }
      // Whole lines reach the file at once, so that its lines count the rows acknowledged so far
      // while the load runs.
      out.flush();
      count += keys.size();
    }

    public synchronized long count() {
      return count;
    }

    @Override
    public synchronized void close() throws IOException {
      out.close();
    }
  }

  /** A key as a ledger line: printable ASCII without spaces, as the harness's keys are. */
  static String check(byte[] key) {
    if (key.length == 0) {
      throw new IllegalArgumentException("an empty row key cannot be in the ledger");
    }
    for (byte b : key) {
      if (b <= ' ' || b > '~') {
        throw new IllegalArgumentException("row key byte " + (b & 0xff) + " cannot be in the "
          + "ledger (printable ASCII only)");
      }
    }
    return new String(key, StandardCharsets.US_ASCII);
  }

  /**
   * Every key of the ledgers, each once, in the order first recorded. A last line without its
   * newline (a writer that died mid-line) is left out: it was never a whole record.
   */
  public static List<byte[]> read(List<Path> files) throws IOException {
    Set<String> seen = new LinkedHashSet<>();
    for (Path f : files) {
      byte[] all = Files.readAllBytes(f);
      int start = 0;
      for (int i = 0; i < all.length; i++) {
        if (all[i] == '\n') {
          if (i > start) {
            seen.add(new String(all, start, i - start, StandardCharsets.US_ASCII));
          }
          start = i + 1;
        }
      }
    }
    List<byte[]> keys = new ArrayList<>(seen.size());
    for (String s : seen) {
      keys.add(s.getBytes(StandardCharsets.US_ASCII));
    }
    return keys;
  }

  /**
   * A uniform sample of {@code n} keys (all of them when there are no more than n), in ledger
   * order; the same seed picks the same sample.
   */
  public static List<byte[]> sample(List<byte[]> keys, int n, long seed) {
    if (n <= 0 || n >= keys.size()) {
      return new ArrayList<>(keys);
    }
    // Selection sampling (Knuth's algorithm S): one pass, order kept.
    Random r = new Random(seed);
    List<byte[]> out = new ArrayList<>(n);
    int needed = n;
    int left = keys.size();
    for (byte[] k : keys) {
      if (r.nextInt(left) < needed) {
        out.add(k);
        needed--;
        if (needed == 0) {
          break;
        }
      }
      left--;
    }
    return out;
  }
}
