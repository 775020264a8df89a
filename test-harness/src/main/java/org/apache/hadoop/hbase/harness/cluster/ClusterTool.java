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
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.ClusterMetrics;
import org.apache.hadoop.hbase.ClusterMetrics.Option;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.harness.util.ClientSettings;
import org.apache.hadoop.hbase.harness.util.HarnessTool;
import org.apache.hadoop.hbase.harness.util.ToolException;

import org.apache.hbase.thirdparty.org.apache.commons.cli.CommandLine;

/**
 * What the master of a cluster says about it, for {@code scripts/harness cluster status} and the
 * harness's tests: the active master and the live and dead region servers, one per line on
 * stdout, as {@code master|live|dead HOST,PORT,STARTCODE}. Usage:
 * {@code ClusterTool servers HBASE_SITE_XML [TIMEOUT_SECONDS]} (20 s by default). Exits 1 with one
 * {@code harness: error:} line on stderr when the cluster cannot be reached in time, 2 with one
 * {@code harness: usage error:} line on a bad command line.
 */
public final class ClusterTool extends HarnessTool {
  private File site;
  private int timeoutS;

  public ClusterTool() {
    super("ClusterTool", "ClusterTool servers HBASE_SITE_XML [TIMEOUT_S]",
      "harness: usage error: ClusterTool: ", "harness: error: ");
  }

  @Override
  protected void processOptions(CommandLine cmd) {
    String[] args = arguments(cmd, 2, 3, "servers HBASE_SITE_XML [TIMEOUT_S]");
    if (!args[0].equals("servers")) {
      throw new UsageException("unknown command '" + args[0] + "' (servers)");
    }
    site = new File(args[1]);
    timeoutS = args.length > 2 ? (int) number("TIMEOUT_S", args[2], 1, 86_400) : 20;
  }

  /** Client settings that make an unreachable cluster fail in seconds, not minutes. */
  static Configuration quickClientConf(Configuration base, File siteXml, int timeoutSeconds) {
    Configuration conf = new Configuration(base);
    conf.addResource(new Path(siteXml.getAbsolutePath()));
    int ms = Math.max(2000, timeoutSeconds * 1000);
    return ClientSettings.failFast(conf, 3, 200, ms / 2, ms, ms);
  }

  /** The master's view: one line per server. */
  public static List<String> servers(Configuration conf) throws Exception {
    List<String> lines = new ArrayList<>();
    try (Connection conn = ConnectionFactory.createConnection(conf);
      Admin admin = conn.getAdmin()) {
      ClusterMetrics m = admin.getClusterMetrics(
        EnumSet.of(Option.MASTER, Option.LIVE_SERVERS, Option.DEAD_SERVERS));
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

  @Override
  protected int doWork() throws ToolException, InterruptedException {
    if (!site.isFile()) {
      throw new ToolException("no such file: " + site);
    }
    Configuration conf = quickClientConf(getConf(), site, timeoutS);
    ExecutorService pool = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "cluster-tool");
      t.setDaemon(true);
      return t;
    });
    Future<List<String>> f = pool.submit(() -> servers(conf));
    try {
      for (String line : f.get(timeoutS, TimeUnit.SECONDS)) {
        System.out.println(line);
      }
      return EXIT_SUCCESS;
    } catch (TimeoutException e) {
      throw new ToolException("the master did not answer within " + timeoutS + "s");
    } catch (ExecutionException e) {
      Throwable c = e.getCause() != null ? e.getCause() : e;
      throw new ToolException("cannot reach the cluster: " + firstLine(c));
    } finally {
      pool.shutdownNow();
    }
  }

  public static void main(String[] args) {
    launch(new ClusterTool(), args);
  }
}
