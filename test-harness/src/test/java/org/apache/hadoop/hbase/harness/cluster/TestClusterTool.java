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
package org.apache.hadoop.hbase.harness.cluster;

import static org.junit.Assert.assertEquals;

import java.util.Arrays;
import org.apache.hadoop.hbase.harness.util.ToolRun;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * The command line of {@code ClusterTool}, which 'scripts/harness cluster status' runs: a bad one
 * is one line and exit 2, a missing site file one line and exit 1, -h the usage.
 */
public class TestClusterTool {
  @Rule
  public TemporaryFolder tmp = new TemporaryFolder();

  @Test
  public void testCommandLineErrorsAreOneLineAndExit2() throws Exception {
    String site = tmp.newFile("hbase-site.xml").getPath();
    String p = "harness: usage error: ClusterTool: ";
    ToolRun.of(new ClusterTool(), "servers", site, "twenty")
      .assertUsageError(p, "TIMEOUT_S 'twenty' is not a number");
    ToolRun.of(new ClusterTool(), "servers", site, "0")
      .assertUsageError(p, "TIMEOUT_S must be from 1 to 86400, not 0");
    ToolRun.of(new ClusterTool(), "servers", site, "--timeout", "20")
      .assertUsageError(p, "unknown option '--timeout'");
    ToolRun.of(new ClusterTool(), "regions", site).assertUsageError(p, "unknown command 'regions'");
    ToolRun.of(new ClusterTool(), "servers")
      .assertUsageError(p, "needs servers HBASE_SITE_XML [TIMEOUT_S]");
  }

  @Test
  public void testMissingSiteIsAFailureOfOneLine() {
    String site = tmp.getRoot().getPath() + "/nope.xml";
    ToolRun r = ToolRun.of(new ClusterTool(), "servers", site, "5");
    assertEquals(1, r.rc);
    assertEquals("", r.out);
    assertEquals(Arrays.asList("harness: error: no such file: " + site), r.errLines());
  }

  @Test
  public void testHelp() {
    ToolRun.of(new ClusterTool(), "-h").assertHelp("ClusterTool servers HBASE_SITE_XML");
  }
}
