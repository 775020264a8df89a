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
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The named configurations of the write benchmark, all in this one place: adding a configuration
 * (persistent memory, WAL-less, ...) is adding a name here. A configuration sets the servers'
 * build, server settings (need a cluster the harness starts), table settings (reach any cluster
 * through the table's descriptor), client settings and the puts' durability.
 */
public final class WriteConfigs {
  private static final String MAX = String.valueOf(Integer.MAX_VALUE);
  /**
   * "Never" for the compaction thresholds. Integer.MAX_VALUE would not do: 2.x's exploring policy
   * adds the minimum to an index when a store may be stuck, which would overflow.
   */
  private static final String NEVER = "1000000";
  private static final Map<String, WriteConfig> KNOWN = new LinkedHashMap<>();

  static {
    add(WriteConfig.builder("default").describe("HBase's defaults on the run's default build"));
    // The builds.
    add(WriteConfig.builder("stock").describe("the released hbase-server").build("stock"));
    add(WriteConfig.builder("patched").describe("hbase-server with the patch series")
      .build("patched"));
    // The WAL provider.
    add(WriteConfig.builder("wal-fshlog").describe("FSHLog (hbase.wal.provider=filesystem)")
      .server("hbase.wal.provider", "filesystem"));
    add(WriteConfig.builder("wal-asyncfs").describe("AsyncFSWAL (hbase.wal.provider=asyncfs)")
      .server("hbase.wal.provider", "asyncfs"));
    // Durability of the puts.
    for (String d : new String[] { "SYNC_WAL", "FSYNC_WAL", "ASYNC_WAL", "SKIP_WAL" }) {
      add(WriteConfig.builder(d.toLowerCase().replace('_', '-')).describe("puts with " + d)
        .durability(d));
    }
    // The scenarios of a production write benchmark, each on top of the one before.
    add(WriteConfig.builder("client-tuned")
      .describe("a tuned client: pause 20 ms, 11 retries, TCP no-delay")
      .client("hbase.client.pause", 20).client("hbase.client.retries.number", 11)
      .client("hbase.ipc.client.tcpnodelay", true));
    WriteConfig splitsOff = add(WriteConfig.builder("splits-off")
      .describe("no splits (DisabledRegionSplitPolicy on the table)")
      .table("SPLIT_POLICY", "org.apache.hadoop.hbase.regionserver.DisabledRegionSplitPolicy"));
    WriteConfig compactionsOff = add(WriteConfig.builder("compactions-off")
      .describe("no splits and no compactions (compactionThreshold never reached)")
      .with(splitsOff).table("hbase.hstore.compactionThreshold", NEVER)
      .table("hbase.hstore.compaction.min", NEVER));
    add(WriteConfig.builder("blocking-raised")
      .describe("no splits, no compactions, blockingStoreFiles=Integer.MAX_VALUE and "
        + "memstore block multiplier 8")
      .with(compactionsOff).table("hbase.hstore.blockingStoreFiles", MAX)
      .table("hbase.hregion.memstore.block.multiplier", 8));
    // HBASE-20003: MSLAB chunks on persistent memory with and without the
    // WAL, against the released build's on-heap MSLAB chunks with the WAL.
    add(WriteConfig.builder("pmem-skip-wal")
      .describe("persistent-memory MSLAB chunks (HBASE-20003), puts with SKIP_WAL").build("patched")
      .pmem().durability("SKIP_WAL"));
    add(WriteConfig.builder("pmem-sync-wal")
      .describe("persistent-memory MSLAB chunks (HBASE-20003), puts with SYNC_WAL").build("patched")
      .pmem().durability("SYNC_WAL"));
    add(WriteConfig.builder("stock-sync-wal")
      .describe("the released hbase-server: on-heap MSLAB chunks (its default), puts with SYNC_WAL")
      .build("stock").durability("SYNC_WAL"));
    // HBASE-20003, part 2: no WAL, every write on 3 replicas synchronously, against the released
    // build's replicas, fed asynchronously from the WAL.
    add(WriteConfig.builder("walless-replicas")
      .describe("persistent-memory MSLAB chunks, 3 replicas replicated synchronously, SKIP_WAL")
      .build("patched").pmem().durability("SKIP_WAL").table("REGION_REPLICATION", 3)
      .table("SYNCHRONOUS_REGION_REPLICATION", true));
    add(WriteConfig.builder("stock-async-replicas")
      .describe("the released hbase-server, 3 replicas fed asynchronously from the WAL, SYNC_WAL")
      .build("stock").durability("SYNC_WAL").table("REGION_REPLICATION", 3)
      .server("hbase.region.replica.replication.enabled", true));
  }

  private WriteConfigs() {
  }

  private static WriteConfig add(WriteConfig.Builder b) {
    WriteConfig c = b.build();
    KNOWN.put(c.name(), c);
    return c;
  }

  /** Every named configuration, in the order of this file. */
  public static Map<String, WriteConfig> known() {
    return Collections.unmodifiableMap(KNOWN);
  }

  /** One configuration: a name, or names joined with '+'. */
  public static WriteConfig parseOne(String spec) {
    String s = spec.trim();
    if (s.isEmpty()) {
      throw new IllegalArgumentException("an empty configuration name in --configs");
    }
    List<WriteConfig> parts = new ArrayList<>();
    for (String n : s.split("\\+", -1)) {
      WriteConfig c = KNOWN.get(n.trim());
      if (c == null) {
        throw new IllegalArgumentException("unknown configuration '" + n.trim() + "' (known: "
          + String.join(", ", KNOWN.keySet()) + "; join names with '+')");
      }
      parts.add(c);
    }
    return parts.size() == 1 ? parts.get(0) : WriteConfig.compose(s, parts);
  }

  /** A comma-separated list of configurations; each may appear once. */
  public static List<WriteConfig> parse(String list) {
    List<WriteConfig> out = new ArrayList<>();
    Set<String> seen = new LinkedHashSet<>();
    for (String spec : list.split(",", -1)) {
      WriteConfig c = parseOne(spec);
      if (!seen.add(c.name())) {
        throw new IllegalArgumentException("configuration '" + c.name() + "' is listed twice");
      }
      out.add(c);
    }
    return out;
  }
}
