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

import org.apache.hadoop.conf.Configuration;

/**
 * Client settings of the harness's tools that must not wait minutes for a cluster that does not
 * answer (cluster status, the reachability check of bench write, crash's region watch).
 */
public final class ClientSettings {
  private ClientSettings() {
  }

  /**
   * A copy of {@code conf} whose calls give up soon: few retries, short RPC and operation
   * timeouts (meta operations included), one ZooKeeper retry; and the ZooKeeper session timeout
   * where {@code zkSessionTimeoutMs} is positive.
   */
  public static Configuration failFast(Configuration conf, int retries, int pauseMs,
    int rpcTimeoutMs, int operationTimeoutMs, int zkSessionTimeoutMs) {
    Configuration c = new Configuration(conf);
    c.setInt("hbase.client.retries.number", retries);
    c.setInt("hbase.client.pause", pauseMs);
    c.setInt("zookeeper.recovery.retry", 1);
    c.setInt("hbase.rpc.timeout", rpcTimeoutMs);
    c.setInt("hbase.client.operation.timeout", operationTimeoutMs);
    c.setInt("hbase.client.meta.operation.timeout", operationTimeoutMs);
    if (zkSessionTimeoutMs > 0) {
      c.setInt("zookeeper.session.timeout", zkSessionTimeoutMs);
    }
    return c;
  }
}
