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

import java.awt.Color;

/**
 * The colours of the harness's charts (bench write's latency chart, bench wal's chart), one
 * palette for all: matplotlib's "tab10", so that the same slot has the same colour in every chart
 * and every run.
 */
public final class ChartColors {
  private static final Color[] PALETTE = { new Color(0x1f77b4), new Color(0xd62728),
    new Color(0x2ca02c), new Color(0x9467bd), new Color(0xff7f0e), new Color(0x8c564b),
    new Color(0xe377c2), new Color(0x7f7f7f), new Color(0xbcbd22), new Color(0x17becf) };

  /** Slot 0: blue. */
  public static final int BLUE = 0;
  /** Slot 1: red. */
  public static final int RED = 1;
  /** Slot 2: green. */
  public static final int GREEN = 2;
  /** Slot 3: purple. */
  public static final int PURPLE = 3;
  /** Slot 4: orange. */
  public static final int ORANGE = 4;
  /** Slot 5: brown. */
  public static final int BROWN = 5;

  private ChartColors() {
  }

  /** The colour of a slot; the palette repeats past its end. */
  public static Color get(int slot) {
    return PALETTE[Math.floorMod(slot, PALETTE.length)];
  }
}
