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

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.Test;

/**
 * The table of write-benchmark configurations in test-harness/README.md names exactly the
 * configurations of {@link WriteConfigs}, in its order: a configuration added, renamed or removed
 * in one place and not the other fails here.
 */
public class TestWriteConfigsDocumented {
  private static final String BEGIN = "<!-- write-configs:begin -->";
  private static final String END = "<!-- write-configs:end -->";
  private static final Pattern ROW = Pattern.compile("^\\| `([a-z0-9+-]+)` \\|");

  /** The names in the first column of the README's table, in order. */
  static List<String> documented(List<String> lines) {
    int begin = lines.indexOf(BEGIN);
    int end = lines.indexOf(END);
    assertTrue("README.md has no " + BEGIN + " ... " + END + " table", begin >= 0 && end > begin);
    List<String> names = new ArrayList<>();
    for (String line : lines.subList(begin + 1, end)) {
      Matcher m = ROW.matcher(line);
      if (m.find()) {
        names.add(m.group(1));
      }
    }
    return names;
  }

  @Test
  public void testReadmeTableIsTheRegistry() throws IOException {
    // Surefire runs in the project's folder, test-harness/.
    File readme = new File("README.md");
    assertTrue(readme.getAbsolutePath() + " is missing", readme.isFile());
    List<String> lines = Files.readAllLines(readme.toPath(), StandardCharsets.UTF_8);
    assertEquals("the configurations in test-harness/README.md",
      new ArrayList<>(WriteConfigs.known().keySet()), documented(lines));
  }

  @Test
  public void testATableThatDiffersIsSeen() {
    List<String> lines = new ArrayList<>();
    lines.add(BEGIN);
    lines.add("| name | sets |");
    lines.add("|---|---|");
    lines.add("| `stock` | the released build |");
    lines.add("| `nope` | nothing |");
    lines.add(END);
    List<String> names = documented(lines);
    assertEquals(2, names.size());
    assertTrue(!names.equals(new ArrayList<>(WriteConfigs.known().keySet())));
  }
}
