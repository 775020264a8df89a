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
import static org.junit.Assert.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;

/**
 * One run of a harness tool in the test's JVM ({@link HarnessTool#run(String[])}, which never
 * exits the JVM): its exit status and what it wrote on stdout and stderr; and the checks the
 * tools' tests share.
 */
public final class ToolRun {
  private static Configuration base;

  public final int rc;
  public final String out;
  public final String err;

  private ToolRun(int rc, String out, String err) {
    this.rc = rc;
    this.out = out;
    this.err = err;
  }

  /** Runs the tool with these arguments. */
  public static ToolRun of(HarnessTool tool, String... args) {
    synchronized (ToolRun.class) {
      if (base == null) {
        // Before stdout and stderr are swapped: logging starts here, on the real streams.
        base = HBaseConfiguration.create();
      }
    }
    tool.setConf(new Configuration(base));
    PrintStream oldOut = System.out;
    PrintStream oldErr = System.err;
    ByteArrayOutputStream o = new ByteArrayOutputStream();
    ByteArrayOutputStream e = new ByteArrayOutputStream();
    System.setOut(new PrintStream(o, true));
    System.setErr(new PrintStream(e, true));
    int rc;
    try {
      rc = tool.run(args);
    } finally {
      System.setOut(oldOut);
      System.setErr(oldErr);
    }
    ToolRun r = new ToolRun(rc, new String(o.toByteArray(), StandardCharsets.UTF_8),
      new String(e.toByteArray(), StandardCharsets.UTF_8));
    // Kept in the test's output, for a failure's sake.
    oldErr.print(r.err);
    return r;
  }

  /** The lines of stderr that are not empty. */
  public List<String> errLines() {
    List<String> l = new ArrayList<>();
    for (String s : err.split("\n")) {
      if (!s.trim().isEmpty()) {
        l.add(s);
      }
    }
    return l;
  }

  /**
   * A bad command line: exit 2, nothing on stdout, one line on stderr that starts with
   * {@code prefix} and holds {@code why}.
   */
  public ToolRun assertUsageError(String prefix, String why) {
    assertEquals(err, HarnessTool.EXIT_USAGE, rc);
    assertEquals("", out);
    List<String> lines = errLines();
    assertEquals(err, 1, lines.size());
    assertTrue(lines.get(0), lines.get(0).startsWith(prefix));
    assertTrue(lines.get(0), lines.get(0).contains(why));
    return this;
  }

  /** -h: exit 0, the usage on stdout starting with {@code usage: synopsis}, nothing on stderr. */
  public ToolRun assertHelp(String synopsis) {
    assertEquals(err, 0, rc);
    assertTrue(out, out.startsWith("usage: " + synopsis));
    assertTrue(out, out.contains("-h,--help"));
    assertEquals("", err);
    return this;
  }
}
