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

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * The profile of {@code bench write --profile}: a real JFR recording of this JVM, started and
 * stopped with jcmd as the benchmark does for each RegionServer, then summarized.
 */
public class TestProfiler {
  @Rule
  public TemporaryFolder tmp = new TemporaryFolder();

  private static volatile long sink;

  /** Busy on the CPU for about the given time, in a method of this class. */
  private static void spin(long ms) {
    long end = System.nanoTime() + ms * 1_000_000L;
    long x = 17;
    while (System.nanoTime() < end) {
      for (int i = 0; i < 10_000; i++) {
        x = x * 6364136223846793005L + 1442695040888963407L;
      }
    }
    sink = x;
  }

  @Test
  public void testRecordingOfThisJvmCountsTheBusyThreadAndItsMethod() throws Exception {
    Path dir = tmp.newFolder().toPath();
    long pid = ProcessHandle.current().pid();
    Profiler p = Profiler.start(Collections.singletonList(pid), dir, "self");
    Thread t = new Thread(() -> spin(2000), "harness-busy-42");
    t.start();
    t.join();
    List<Path> files = p.stop();
    assertEquals(1, files.size());
    assertTrue(files.get(0) + " was not written", Files.size(files.get(0)) > 0);
    Profiler.Summary s = Profiler.summarize(files);
    Long busy = s.threads.counts.get("harness-busy-#");
    assertTrue("no sample of the busy thread in " + s.threads.counts, busy != null && busy > 0);
    assertTrue("the busy method is not the HBase-side method of its samples: " + s.hbase.counts,
      s.hbase.counts.getOrDefault("TestProfiler.spin", 0L) > 0);
    Path out = dir.resolve("profile-self.txt");
    String text = Profiler.write("[self] profile", files, out);
    assertEquals(text, new String(Files.readAllBytes(out), StandardCharsets.UTF_8));
    assertTrue(text, text.contains("harness-busy-#"));
    assertTrue(text, text.contains("by the HBase method nearest the top"));
  }

  @Test
  public void testJcmdOfNoSuchProcessFailsInOneLine() throws Exception {
    try {
      Profiler.start(Collections.singletonList(Long.MAX_VALUE / 2), tmp.newFolder().toPath(),
        "gone");
      fail("a recording of no process started");
    } catch (IOException e) {
      assertTrue(e.getMessage(), e.getMessage().startsWith("jcmd "));
      assertTrue(e.getMessage(), !e.getMessage().contains("\n"));
    }
  }

  @Test
  public void testTopLinesAreTheThreadPoolsFirst() {
    String text = "t\n\nby thread pool (digits as #):\n   50.0%  5  a\n   40.0%  4  b\n"
      + "   10.0%  1  c\n\nby the method on top of the stack (self time):\n   90.0%  9  m\n";
    assertEquals("   50.0%  5  a\n   40.0%  4  b", WriteBench.topLines(text, 2));
  }
}
