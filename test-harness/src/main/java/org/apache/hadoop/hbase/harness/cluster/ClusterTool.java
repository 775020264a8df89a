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

import java.io.File;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.ClusterMetrics;
import org.apache.hadoop.hbase.ClusterMetrics.Option;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;

/**
 * What the master of a cluster says about it, for {@code scripts/harness cluster status} and the
 * harness's tests: the active master and the live and dead region servers, one per line, as
 * {@code master|live|dead HOST,PORT,STARTCODE}. Usage:
 * {@code ClusterTool servers HBASE_SITE_XML [TIMEOUT_SECONDS]}. Exits 1 with one line on stderr
 * when the cluster cannot be reached in time.
 */
public final class ClusterTool {
  private ClusterTool() {
  }

  /** Client settings that make an unreachable cluster fail in seconds, not minutes. */
  public static Configuration quickClientConf(String siteXml, int timeoutSeconds) {
    Configuration conf = HBaseConfiguration.create();
    conf.addResource(new Path(new File(siteXml).getAbsolutePath()));
    int ms = Math.max(2000, timeoutSeconds * 1000);
    conf.setInt("hbase.client.retries.number", 3);
    conf.setInt("hbase.client.pause", 200);
    conf.setInt("zookeeper.recovery.retry", 1);
    conf.setInt("hbase.rpc.timeout", ms / 2);
    conf.setInt("hbase.client.operation.timeout", ms);
    conf.setInt("hbase.client.meta.operation.timeout", ms);
    conf.setInt("zookeeper.session.timeout", ms);
    return conf;
  }

  /** The master's view: one line per server. */
  public static List<String> servers(Configuration conf) throws Exception {
    List<String> lines = new ArrayList<>();
    try (Connection conn = ConnectionFactory.createConnection(conf);
      Admin admin = conn.getAdmin()) {
      ClusterMetrics m =
        admin.getClusterMetrics(EnumSet.of(Option.MASTER, Option.LIVE_SERVERS, Option.DEAD_SERVERS));
      if (m.getMasterName() != null) {
        lines.add("master " + m.getMasterName());
      }
      List<ServerName> live = new ArrayList<>(m.getLiveServerMetrics().keySet());
      live.sort(null);
      for (ServerName sn : live) {
        lines.add("live " + sn);
      }
      List<ServerName> dead = new ArrayList<>(m.getDeadServerNames());
      dead.sort(null);
      for (ServerName sn : dead) {
        lines.add("dead " + sn);
      }
    }
    return lines;
  }

  public static void main(String[] args) {
    if (args.length < 2 || !"servers".equals(args[0])) {
      System.err.println("harness: usage error: ClusterTool servers HBASE_SITE_XML [TIMEOUT_S]");
      System.exit(2);
    }
    String site = args[1];
    int timeout = args.length > 2 ? Integer.parseInt(args[2]) : 20;
    if (!new File(site).isFile()) {
      System.err.println("harness: error: no such file: " + site);
      System.exit(1);
    }
    Configuration conf = quickClientConf(site, timeout);
    ExecutorService pool = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "cluster-tool");
      t.setDaemon(true);
      return t;
    });
    Future<List<String>> f = pool.submit(() -> servers(conf));
    try {
      for (String line : f.get(timeout, TimeUnit.SECONDS)) {
        System.out.println(line);
      }
      System.out.flush();
      System.exit(0);
    } catch (TimeoutException e) {
      System.err.println("harness: error: the master did not answer within " + timeout + "s");
    } catch (Exception e) {
      Throwable c = e.getCause() != null ? e.getCause() : e;
      String msg = String.valueOf(c.getMessage()).split("\n", 2)[0];
      System.err.println("harness: error: cannot reach the cluster: " + c.getClass().getSimpleName()
        + ": " + msg);
    }
    System.exit(1);
  }
}
