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

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.harness.util.ParentWatchdog.Reason;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * The helpers the harness's tools share: the number check of their command lines, the median of
 * the reports, the chart palette and the parent-death watchdog (each reason it stops for).
 */
public class TestHarnessUtil {
  @Rule
  public TemporaryFolder tmp = new TemporaryFolder();

  @Test
  public void testNumbers() {
    assertEquals(1_000_000L, HarnessTool.number("--rows", "1_000_000", 1, Long.MAX_VALUE));
    assertEquals(5000L, HarnessTool.number("--threads", "5000", 1, 5000));
    assertRefused("--threads", "x", 1, 5000, "--threads 'x' is not a number");
    assertRefused("--threads", "", 1, 5000, "--threads '' is not a number");
    assertRefused("--threads", "0", 1, 5000, "--threads must be from 1 to 5000, not 0");
    assertRefused("--rows", "-3", 1, Long.MAX_VALUE, "--rows must be at least 1, not -3");
    assertRefused("--rows", "99999999999999999999", 1, Long.MAX_VALUE,
      "--rows '99999999999999999999' is not a number");
  }

  private static void assertRefused(String what, String v, long min, long max, String why) {
    try {
      HarnessTool.number(what, v, min, max);
      fail(v);
    } catch (HarnessTool.UsageException e) {
      assertEquals(why, e.getMessage());
    }
  }

  @Test
  public void testMedian() {
    assertEquals(3.0, Stats.median(new double[] { 5, 1, 3 }), 0);
    assertEquals(2.5, Stats.median(new double[] { 4, 1, 3, 2 }), 0);
    assertEquals(7.0, Stats.median(new double[] { 7 }), 0);
    double[] v = { 3, 1, 2 };
    Stats.median(v);
    assertEquals(3.0, v[0], 0);
    try {
      Stats.median(new double[0]);
      fail();
    } catch (IllegalArgumentException e) {
      // Expected.
    }
  }

  @Test
  public void testPaletteRepeats() {
    assertEquals(ChartColors.get(0), ChartColors.get(10));
    assertEquals(ChartColors.get(9), ChartColors.get(-1));
    assertNotEquals(ChartColors.get(ChartColors.BLUE), ChartColors.get(ChartColors.RED));
  }

  @Test
  public void testWatchdogStopFile() throws Exception {
    Path stop = tmp.getRoot().toPath().resolve("x.stop");
    Files.write(stop, new byte[0]);
    assertEquals(Reason.STOP_FILE,
      ParentWatchdog.builder().stopFile(stop).pollMs(10).build().await());
  }

  @Test
  public void testWatchdogParentGone() throws Exception {
    Process p = new ProcessBuilder("true").start();
    long pid = p.pid();
    p.waitFor();
    assertEquals(Reason.PARENT_GONE,
      ParentWatchdog.builder().parent(pid).pollMs(10).build().await());
  }

  @Test
  public void testWatchdogInputClosed() throws Exception {
    assertEquals(Reason.INPUT_CLOSED, ParentWatchdog.builder()
      .input(new ByteArrayInputStream(new byte[] { 1, 2 })).pollMs(10).build().await());
  }

  @Test
  public void testWatchdogTimeoutWithALiveParent() throws Exception {
    assertEquals(Reason.TIMEOUT, ParentWatchdog.builder().parent(ProcessHandle.current().pid())
      .timeout(50, TimeUnit.MILLISECONDS).pollMs(10).build().await());
  }

  @Test
  public void testWatchdogThreadHandsOverTheReason() throws Exception {
    Reason[] seen = new Reason[1];
    Thread t = ParentWatchdog.builder().timeout(10, TimeUnit.MILLISECONDS).pollMs(5).build()
      .start("test-watchdog", r -> seen[0] = r);
    t.join();
    assertTrue(t.isDaemon());
    assertEquals(Reason.TIMEOUT, seen[0]);
  }
}
