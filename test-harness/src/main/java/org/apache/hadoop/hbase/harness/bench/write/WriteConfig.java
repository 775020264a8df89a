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
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One configuration of the write benchmark: which build the servers run, and the settings of the
 * servers, the table, the client and the puts. The named ones are in {@link WriteConfigs}; a
 * configuration on the command line is a name or several joined with '+', the later ones winning
 * ("patched+skip-wal").
 */
public final class WriteConfig {
  /** The persistent-memory option of the memstore (HBASE-20003): a folder per RegionServer. */
  public static final String PMEM_PATH_KEY = "hbase.regionserver.memstore.pmem.path";
  /**
   * The value of {@link #PMEM_PATH_KEY} in a configuration: the target gives each server a folder
   * of its own (the local cluster: {@code cluster start --pmem}; the embedded target: a folder
   * per mini-cluster JVM under /dev/shm, removed afterwards).
   */
  public static final String PMEM_AUTO = "<harness: a pmem folder per server>";
  /** The build of the servers: "stock", "patched", or null for the run's default build. */
  private final String build;
  private final String name;
  private final String description;
  private final Map<String, String> serverConf;
  private final Map<String, String> tableConf;
  private final Map<String, String> clientConf;
  /** A Durability name, or null for the run's --durability. */
  private final String durability;

  private WriteConfig(Builder b) {
    this.name = b.name;
    this.description = b.description;
    this.build = b.build;
    this.serverConf = Collections.unmodifiableMap(new LinkedHashMap<>(b.serverConf));
    this.tableConf = Collections.unmodifiableMap(new LinkedHashMap<>(b.tableConf));
    this.clientConf = Collections.unmodifiableMap(new LinkedHashMap<>(b.clientConf));
    this.durability = b.durability;
  }

  public static Builder builder(String name) {
    return new Builder(name);
  }

  public String name() {
    return name;
  }

  public String description() {
    return description;
  }

  public String build() {
    return build;
  }

  /** Settings of every Master and RegionServer (hbase-site.xml): need a (re)started cluster. */
  public Map<String, String> serverConf() {
    return serverConf;
  }

  /** Settings of the table's descriptor: they reach its regions and stores on any cluster. */
  public Map<String, String> tableConf() {
    return tableConf;
  }

  public Map<String, String> clientConf() {
    return clientConf;
  }

  public String durability() {
    return durability;
  }

  /** The configuration turns the persistent-memory option on (its folders come from the target). */
  public boolean pmem() {
    return PMEM_AUTO.equals(serverConf.get(PMEM_PATH_KEY));
  }

  /** The server settings without the persistent-memory folder, which the target provides. */
  public Map<String, String> serverConfWithoutPmem() {
    Map<String, String> m = new LinkedHashMap<>(serverConf);
    if (pmem()) {
      m.remove(PMEM_PATH_KEY);
    }
    return m;
  }

  /** The configurations applied in order, each overriding what the earlier ones set. */
  public static WriteConfig compose(String name, List<WriteConfig> parts) {
    Builder b = builder(name);
    List<String> desc = new ArrayList<>();
    for (WriteConfig p : parts) {
      if (p.build != null) {
        b.build = p.build;
      }
      if (p.durability != null) {
        b.durability = p.durability;
      }
      b.serverConf.putAll(p.serverConf);
      b.tableConf.putAll(p.tableConf);
      b.clientConf.putAll(p.clientConf);
      desc.add(p.description);
    }
    b.description = String.join("; ", desc);
    return b.build();
  }

  /** This configuration with the build filled in and extra server settings appended. */
  public WriteConfig resolve(String defaultBuild, Map<String, String> extraServerConf) {
    Builder b = builder(name).describe(description);
    b.build = build != null ? build : defaultBuild;
    b.durability = durability;
    b.serverConf.putAll(serverConf);
    b.serverConf.putAll(extraServerConf);
    b.tableConf.putAll(tableConf);
    b.clientConf.putAll(clientConf);
    return b.build();
  }

  /** One line: what this configuration sets. */
  public String settings() {
    StringBuilder sb = new StringBuilder();
    sb.append("build=").append(build == null ? "default" : build);
    if (durability != null) {
      sb.append(" durability=").append(durability);
    }
    append(sb, "server", serverConf);
    append(sb, "table", tableConf);
    append(sb, "client", clientConf);
    return sb.toString();
  }

  private static void append(StringBuilder sb, String what, Map<String, String> m) {
    for (Map.Entry<String, String> e : m.entrySet()) {
      sb.append(' ').append(what).append(':').append(e.getKey()).append('=').append(e.getValue());
    }
  }

  @Override
  public String toString() {
    return name + " (" + settings() + ")";
  }

  /** Builds a configuration. */
  public static final class Builder {
    private final String name;
    private String description = "";
    private String build;
    private String durability;
    private final Map<String, String> serverConf = new LinkedHashMap<>();
    private final Map<String, String> tableConf = new LinkedHashMap<>();
    private final Map<String, String> clientConf = new LinkedHashMap<>();

    private Builder(String name) {
      this.name = name;
    }

    public Builder describe(String d) {
      this.description = d;
      return this;
    }

    public Builder build(String b) {
      this.build = b;
      return this;
    }

    public Builder durability(String d) {
      this.durability = d;
      return this;
    }

    public Builder server(String key, Object value) {
      serverConf.put(key, String.valueOf(value));
      return this;
    }

    public Builder table(String key, Object value) {
      tableConf.put(key, String.valueOf(value));
      return this;
    }

    public Builder client(String key, Object value) {
      clientConf.put(key, String.valueOf(value));
      return this;
    }

    /** The persistent-memory option on, in a folder per server that the target provides. */
    public Builder pmem() {
      return server(PMEM_PATH_KEY, PMEM_AUTO);
    }

    public Builder with(WriteConfig other) {
      if (other.build != null) {
        build = other.build;
      }
      if (other.durability != null) {
        durability = other.durability;
      }
      serverConf.putAll(other.serverConf);
      tableConf.putAll(other.tableConf);
      clientConf.putAll(other.clientConf);
      return this;
    }

    public WriteConfig build() {
      return new WriteConfig(this);
    }
  }
}
