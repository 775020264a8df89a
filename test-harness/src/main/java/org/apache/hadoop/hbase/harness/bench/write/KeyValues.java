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
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The seed's rows: keys and values of random characters from [A-Z0-9]. A value is derived from
 * its key (a generator seeded by the key's hash), so the read-back check can tell a right value
 * from a wrong one without keeping the values.
 */
public final class KeyValues {
  /** In byte order: the digits sort before the letters. */
  static final byte[] ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ".getBytes();

  private KeyValues() {
  }

  /** A random key of the given length. */
  public static byte[] randomKey(int length) {
    ThreadLocalRandom r = ThreadLocalRandom.current();
    byte[] k = new byte[length];
    for (int i = 0; i < length; i++) {
      k[i] = ALPHABET[r.nextInt(ALPHABET.length)];
    }
    return k;
  }

  /** The value that belongs to a key. */
  public static byte[] valueFor(byte[] key, int length) {
    SplittableRandom r = new SplittableRandom(hash64(key));
    byte[] v = new byte[length];
    for (int i = 0; i < length; i++) {
      v[i] = ALPHABET[r.nextInt(ALPHABET.length)];
    }
    return v;
  }

  /** FNV-1a, 64 bits. */
  static long hash64(byte[] b) {
    long h = 0xcbf29ce484222325L;
    for (byte x : b) {
      h ^= x & 0xff;
      h *= 0x100000001b3L;
    }
    return h;
  }

  /**
   * Split keys that cut the key space into {@code regions} equal parts, by the first two
   * characters ({@code regions - 1} keys, ascending, no duplicates).
   */
  public static List<byte[]> splitKeys(int regions) {
    int n = ALPHABET.length;
    int slots = n * n;
    if (regions < 1 || regions > slots) {
      throw new IllegalArgumentException("regions must be from 1 to " + slots);
    }
    List<byte[]> keys = new ArrayList<>();
    for (int i = 1; i < regions; i++) {
      int p = (int) ((long) i * slots / regions);
      keys.add(new byte[] { ALPHABET[p / n], ALPHABET[p % n] });
    }
    return keys;
  }
}
