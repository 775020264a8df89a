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

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import org.apache.hadoop.hbase.harness.bench.write.Targets.BenchException;

/**
 * The JVM flags that HBase and Hadoop need on JDK 17, for the JVMs the write benchmark starts
 * (the embedded target's). They are defined once, as {@value #KEY} in scripts/conf/jvm.properties
 * (a Java properties file: a long value goes on over lines that end in a backslash), for every
 * JVM the harness starts; scripts/harness and the harness's Maven build pass that file's path as
 * the system property {@value #PROPERTY}.
 */
public final class JvmFlags {
  /** The system property that names the file. */
  public static final String PROPERTY = "harness.jvm.properties";
  /** The key of the flags in the file. */
  public static final String KEY = "harness.jvm.flags";

  private JvmFlags() {
  }

  /** The flags of the file that the system property {@value #PROPERTY} names. */
  public static List<String> fromSystemProperty() throws BenchException {
    String file = System.getProperty(PROPERTY);
    if (file == null || file.trim().isEmpty()) {
      throw new BenchException("the system property " + PROPERTY + " is not set: it names "
        + "scripts/conf/jvm.properties, which holds the JVM flags of the JVMs the harness starts "
        + "(scripts/harness passes it)");
    }
    return read(Paths.get(file));
  }

  /** The flags in the file, split on white space. */
  public static List<String> read(Path file) throws BenchException {
    if (!Files.isRegularFile(file)) {
      throw new BenchException("the JVM flags file " + file + " (system property " + PROPERTY
        + ") does not exist");
    }
    Properties p = new Properties();
    try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      p.load(r);
    } catch (IOException | IllegalArgumentException e) {
      throw new BenchException("cannot read the JVM flags file " + file + ": " + e.getMessage());
    }
    String flags = p.getProperty(KEY);
    if (flags == null || flags.trim().isEmpty()) {
      throw new BenchException("the JVM flags file " + file + " has no " + KEY);
    }
    return Arrays.asList(flags.trim().split("\\s+"));
  }
}
