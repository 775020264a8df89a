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

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.harness.bench.write.KeyValues;

/**
 * The crash test's rows. A key is {@code PP-TAG-SEQUENCE}: two characters of [0-9A-Z] spread
 * by a hash of the sequence number over the pre-split regions (split as the write benchmark
 * splits, on the first two characters), the load's tag, and a zero-padded sequence number, so
 * keys are unique per tag. The value is derived from the key, as in the write benchmark, so a
 * row read back can be checked without keeping its value.
 */
public final class RowKeys {
  private static final byte[] ALPHABET =
    "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ".getBytes(StandardCharsets.US_ASCII);

  private RowKeys() {
  }

  /** The key of row {@code seq} of the load tagged {@code tag}. */
  public static byte[] key(String tag, long seq) {
    if (!tag.matches("[A-Za-z0-9]{1,16}")) {
      throw new IllegalArgumentException("tag '" + tag + "' must be 1 to 16 of [A-Za-z0-9]");
    }
    int slots = ALPHABET.length * ALPHABET.length;
    int p = (int) Long.remainderUnsigned(mix(seq), slots);
    String s = String.format("%c%c-%s-%012d", (char) ALPHABET[p / ALPHABET.length],
      (char) ALPHABET[p % ALPHABET.length], tag, seq);
    return s.getBytes(StandardCharsets.US_ASCII);
  }

  /** The value that belongs to a key. */
  public static byte[] value(byte[] key, int length) {
    return KeyValues.valueFor(key, length);
  }

  /** The split points of {@code regions} regions (see {@link KeyValues#splitKeys}). */
  public static List<byte[]> splits(int regions) {
    return new ArrayList<>(KeyValues.splitKeys(regions));
  }

  /** SplitMix64's finalizer: consecutive numbers land far apart. */
  static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    return z ^ (z >>> 31);
  }
}
