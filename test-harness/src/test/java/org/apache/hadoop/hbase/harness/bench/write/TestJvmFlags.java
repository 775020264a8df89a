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

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.hbase.harness.bench.write.Targets.BenchException;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * The JVM flags of the JVMs the write benchmark starts, read from the one file that defines them
 * (scripts/conf/jvm.properties): the file the build passes, continuation lines, and a clear error
 * for an unset property, a missing file and a missing key.
 */
public class TestJvmFlags {
  @Rule
  public TemporaryFolder tmp = new TemporaryFolder();

  @Test
  public void testTheHarnessFileTheBuildPasses() throws Exception {
    String file = System.getProperty(JvmFlags.PROPERTY);
    assertTrue("the build passes " + JvmFlags.PROPERTY, file != null);
    List<String> flags = JvmFlags.fromSystemProperty();
    assertTrue(flags.toString(), flags.contains("--add-opens"));
    assertTrue(flags.toString(), flags.contains("java.base/java.lang=ALL-UNNAMED"));
    assertTrue(flags.toString(), flags.contains("-Djava.net.preferIPv4Stack=true"));
    for (String f : flags) {
      assertTrue(f, !f.isEmpty() && !f.contains("\\") && !f.contains(" "));
    }
    // The file also defines this JVM's flags (surefire's argLine).
    assertTrue(java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments()
      .contains("-Dio.netty.tryReflectionSetAccessible=true"));
  }

  @Test
  public void testContinuationLinesAndComments() throws Exception {
    Path f = write("# comment\n" + JvmFlags.KEY
      + "=--add-opens java.base/java.lang=ALL-UNNAMED \\\n"
      + "   --add-exports java.base/jdk.internal.misc=ALL-UNNAMED \\\n"
      + "\t-Dx=y\nother=1\n");
    assertEquals(Arrays.asList("--add-opens", "java.base/java.lang=ALL-UNNAMED", "--add-exports",
      "java.base/jdk.internal.misc=ALL-UNNAMED", "-Dx=y"), JvmFlags.read(f));
  }

  @Test
  public void testMissingFile() {
    assertRefused(Paths.get(tmp.getRoot().getPath(), "nope.properties"), "does not exist");
  }

  @Test
  public void testMissingOrEmptyKey() throws Exception {
    assertRefused(write("other=1\n"), "has no " + JvmFlags.KEY);
    assertRefused(write(JvmFlags.KEY + "=   \n"), "has no " + JvmFlags.KEY);
  }

  @Test
  public void testUnsetProperty() {
    String saved = System.getProperty(JvmFlags.PROPERTY);
    System.clearProperty(JvmFlags.PROPERTY);
    try {
      JvmFlags.fromSystemProperty();
      fail("no property, no flags");
    } catch (BenchException e) {
      assertTrue(e.getMessage(), e.getMessage().startsWith("the system property "
        + JvmFlags.PROPERTY + " is not set"));
    } finally {
      if (saved != null) {
        System.setProperty(JvmFlags.PROPERTY, saved);
      }
    }
  }

  private Path write(String text) throws Exception {
    Path f = tmp.newFile().toPath();
    Files.write(f, text.getBytes(StandardCharsets.UTF_8));
    return f;
  }

  private static void assertRefused(Path f, String why) {
    try {
      JvmFlags.read(f);
      fail(f.toString());
    } catch (BenchException e) {
      assertTrue(e.getMessage(), e.getMessage().contains(why));
      assertTrue(e.getMessage(), e.getMessage().contains(f.toString()));
    }
  }
}
