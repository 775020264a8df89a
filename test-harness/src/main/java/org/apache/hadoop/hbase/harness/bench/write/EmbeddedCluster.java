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

import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.StartMiniClusterOption;
import org.apache.hadoop.hbase.harness.util.HarnessTool;
import org.apache.hadoop.hbase.harness.util.ParentWatchdog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.apache.hbase.thirdparty.org.apache.commons.cli.CommandLine;

/**
 * The embedded target of the write benchmark: a mini cluster (HBaseTestingUtility: ZooKeeper, a
 * MiniDFSCluster, a master and region servers in one JVM) in a JVM of its own, started by the
 * benchmark's driver with the build of the configuration under test. It writes the client's
 * hbase-site.xml and a "ready" file into its folder, then serves until its standard input closes
 * (the driver ended or died). Usage: {@code EmbeddedCluster DIR REGIONSERVERS DATANODES
 * [KEY=VALUE ...]}; a bad command line is one {@code EmbeddedCluster: ERROR:} line and exit 2.
 */
public final class EmbeddedCluster extends HarnessTool {
  /** The persistent-memory folder of this JVM's region servers: removed when the driver goes. */
  static final String PMEM_DIR_PROPERTY = "harness.pmem.dir";

  private static final Logger LOG = LoggerFactory.getLogger(EmbeddedCluster.class);

  private File dir;
  private int regionServers;
  private int dataNodes;
  private final Map<String, String> settings = new LinkedHashMap<>();

  public EmbeddedCluster() {
    super("EmbeddedCluster", "EmbeddedCluster DIR REGIONSERVERS DATANODES [KEY=VALUE ...]",
      "EmbeddedCluster: ERROR: ", "EmbeddedCluster: ERROR: ");
  }

  @Override
  protected String usageFooter() {
    return "Starts a mini cluster with these server settings, writes DIR/client-site.xml and "
      + "DIR/ready, and serves until standard input closes.";
  }

  @Override
  protected void processOptions(CommandLine cmd) {
    String[] args =
      arguments(cmd, 3, Integer.MAX_VALUE, "DIR REGIONSERVERS DATANODES [KEY=VALUE ...]");
    dir = new File(args[0]);
    regionServers = (int) number("REGIONSERVERS", args[1], 1, 10);
    dataNodes = (int) number("DATANODES", args[2], 1, 10);
    for (int i = 3; i < args.length; i++) {
      int eq = args[i].indexOf('=');
      if (eq <= 0) {
        throw new UsageException("'" + args[i] + "' is not KEY=VALUE");
      }
      settings.put(args[i].substring(0, eq), args[i].substring(eq + 1));
    }
  }

  /** Ports nothing listens on now, for the region servers. */
  static List<Integer> freePorts(int n) throws IOException {
    List<Integer> ports = new ArrayList<>();
    List<ServerSocket> held = new ArrayList<>();
    try {
      for (int i = 0; i < n; i++) {
        ServerSocket s = new ServerSocket(0);
        held.add(s);
        ports.add(s.getLocalPort());
      }
    } finally {
      for (ServerSocket s : held) {
        s.close();
      }
    }
    return ports;
  }

  @Override
  protected int doWork() throws Exception {
    System.setProperty("test.build.data.basedirectory", new File(dir, "data").getAbsolutePath());
    Configuration conf = getConf();
    // Each region server of the JVM sizes its memstores and block cache from the whole heap:
    // give each its share, unless the configuration says otherwise.
    conf.setFloat("hbase.regionserver.global.memstore.size", 0.4f / regionServers);
    conf.setFloat("hfile.block.cache.size", 0.3f / regionServers);
    for (Map.Entry<String, String> e : settings.entrySet()) {
      conf.set(e.getKey(), e.getValue());
    }
    HBaseTestingUtility util = new HBaseTestingUtility(conf);
    Thread watcher = ParentWatchdog.builder().input(System.in).build().start("driver-watch", r -> {
      LOG.info("the driver is gone ({}): stopping", r);
      String pmem = System.getProperty(PMEM_DIR_PROPERTY);
      if (pmem != null) {
        // The driver deletes it too, unless it died first.
        Targets.deleteTree(new File(pmem).toPath());
      }
      Runtime.getRuntime().halt(0);
    });
    StartMiniClusterOption.Builder option =
      StartMiniClusterOption.builder().numRegionServers(regionServers).numDataNodes(dataNodes);
    String pmem = System.getProperty(PMEM_DIR_PROPERTY);
    if (pmem != null) {
      // The option wants a folder per region server (each creates its chunk file there). The
      // region servers of a mini cluster share one Configuration, but each gets its port set in a
      // copy of it: with fixed ports, ${hbase.regionserver.port} names a folder of its own.
      List<Integer> ports = freePorts(regionServers);
      for (int port : ports) {
        Files.createDirectory(new File(pmem, "rs-" + port).toPath(), PosixFilePermissions
          .asFileAttribute(PosixFilePermissions.fromString("rwx------")));
      }
      util.getConfiguration().set(WriteConfig.PMEM_PATH_KEY,
        pmem + "/rs-${hbase.regionserver.port}");
      option.rsPorts(ports);
    }
    util.startMiniCluster(option.build());
    Configuration c = util.getConfiguration();
    Configuration client = new Configuration(false);
    for (String key : new String[] { "hbase.zookeeper.quorum",
      "hbase.zookeeper.property.clientPort", "zookeeper.znode.parent" }) {
      if (c.get(key) != null) {
        client.set(key, c.get(key));
      }
    }
    File site = new File(dir, "client-site.xml");
    File tmp = new File(dir, "client-site.xml.tmp");
    try (FileOutputStream out = new FileOutputStream(tmp)) {
      client.writeXml(out);
    }
    Files.move(tmp.toPath(), site.toPath(), StandardCopyOption.ATOMIC_MOVE);
    Files.write(new File(dir, "ready").toPath(), "ready\n".getBytes(StandardCharsets.UTF_8));
    LOG.info("mini cluster of {} region servers and {} DataNodes ready", regionServers,
      dataNodes);
    watcher.join();
    return EXIT_SUCCESS;
  }

  public static void main(String[] args) {
    launch(new EmbeddedCluster(), args);
  }
}
