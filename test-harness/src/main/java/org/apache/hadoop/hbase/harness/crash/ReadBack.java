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
import java.util.Arrays;
import java.util.List;

/**
 * The comparison of acknowledged rows with what the cluster returns: each key of the ledger is
 * read back and is either there with its value, missing (no row: lost), or there with another
 * value (wrong: corrupt or from another write).
 */
public final class ReadBack {
  /** How many of the missing and wrong keys the tally keeps for the report. */
  static final int KEEP = 1000;

  /** The outcome of one key. */
  public enum Outcome {
    OK, MISSING, WRONG
  }

  /** Classifies what a get returned for a key: null or empty is a missing row. */
  public static Outcome compare(byte[] expected, byte[] got) {
    if (got == null || got.length == 0) {
      return Outcome.MISSING;
    }
    return Arrays.equals(expected, got) ? Outcome.OK : Outcome.WRONG;
  }

  /** Counts of a read-back, and the first missing and wrong keys. */
  public static final class Tally {
    long checked;
    long ok;
    long missing;
    long wrong;
    final List<String> missingKeys = new ArrayList<>();
    final List<String> wrongKeys = new ArrayList<>();

    /** Adds one key's outcome. */
    public void add(byte[] key, Outcome o) {
      checked++;
      switch (o) {
        case OK:
          ok++;
          break;
        case MISSING:
          missing++;
          if (missingKeys.size() < KEEP) {
            missingKeys.add(new String(key, StandardCharsets.US_ASCII));
          }
          break;
        default:
          wrong++;
          if (wrongKeys.size() < KEEP) {
            wrongKeys.add(new String(key, StandardCharsets.US_ASCII));
          }
          break;
      }
    }

    public long checked() {
      return checked;
    }

    public long ok() {
      return ok;
    }

    public long missing() {
      return missing;
    }

    public long wrong() {
      return wrong;
    }

    /** Every acknowledged row that was checked came back with its value. */
    public boolean clean() {
      return missing == 0 && wrong == 0;
    }

    public List<String> missingKeys() {
      return missingKeys;
    }

    public List<String> wrongKeys() {
      return wrongKeys;
    }

    /** The machine-readable line the harness's scripts parse. */
    public String line(long acked) {
      return "harness-crash verify acked=" + acked + " checked=" + checked + " read=" + ok
        + " missing=" + missing + " wrong=" + wrong;
    }
  }
}
