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
package org.apache.hadoop.hbase.harness.bench.wal;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.harness.util.HarnessTool;
import org.apache.hadoop.hbase.harness.util.ParentWatchdog;
import org.apache.hadoop.hbase.harness.util.ToolException;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.apache.hbase.thirdparty.org.apache.commons.cli.CommandLine;

/**
 * A MiniDFSCluster in a JVM of its own, for {@code scripts/harness bench wal}: the benchmark's
 * client JVMs write their WALs to it over loopback, so every sync crosses a real three-DataNode
 * pipeline, and the cluster's own threads do not share a JVM (heap, GC, JIT) with the WAL under
 * test.
 *
 * <p>Usage: {@code MiniDfsServer URI_FILE [DATANODES [PARENT_PID]]}. It starts the cluster the way
 * HBase's tests do ({@link HBaseTestingUtility#startMiniDFSCluster(int)}, under the directory of
 * the {@code test.build.data.basedirectory} system property), then writes the cluster's
 * {@code hdfs://} URI to {@code URI_FILE} (atomically: a temporary file renamed into place) and
 * stays up until ({@link ParentWatchdog}):
 * <ul>
 * <li>a file named {@code URI_FILE.stop} appears: it stops the cluster and exits with 0 (the
 * orderly way, which the harness uses first);</li>
 * <li>it gets SIGTERM or SIGINT: a shutdown hook stops the cluster, though Hadoop's own shutdown
 * hooks then run at the same time and log errors;</li>
 * <li>the process {@code PARENT_PID} is gone (the harness was killed with SIGKILL): it stops the
 * cluster and exits by itself, so a MiniDFSCluster never outlives its benchmark run.</li>
 * </ul>
 * A bad command line is one {@code MiniDfsServer: usage error:} line and exit 2; a parent that is
 * not running at the start one {@code MiniDfsServer: error:} line and exit 1.
 */
public final class MiniDfsServer extends HarnessTool {
  private static final Logger LOG = LoggerFactory.getLogger(MiniDfsServer.class);

  private Path uriFile;
  private int dataNodes;
  private long parentPid;

  public MiniDfsServer() {
    super("MiniDfsServer", "MiniDfsServer URI_FILE [DATANODES [PARENT_PID]]",
      "MiniDfsServer: usage error: ", "MiniDfsServer: error: ");
  }

  @Override
  protected void processOptions(CommandLine cmd) {
    String[] args = arguments(cmd, 1, 3, "URI_FILE [DATANODES [PARENT_PID]]");
    uriFile = Paths.get(args[0]);
    dataNodes = args.length > 1 ? (int) number("DATANODES", args[1], 1, 64) : 3;
    parentPid = args.length > 2 ? number("PARENT_PID", args[2], 1, Long.MAX_VALUE) : -1;
  }

  @Override
  protected int doWork() throws Exception {
    if (parentPid > 0 && !ProcessHandle.of(parentPid).isPresent()) {
      throw new ToolException("parent process " + parentPid + " is not running");
    }
    Path stopFile = uriFile.resolveSibling(uriFile.getFileName() + ".stop");
    HBaseTestingUtility util = new HBaseTestingUtility(getConf());
    AtomicBoolean stopping = new AtomicBoolean();
    Runtime.getRuntime().addShutdownHook(new Thread(() -> stop(util, stopping),
      "MiniDfsServer-shutdown"));

    MiniDFSCluster cluster = util.startMiniDFSCluster(dataNodes);
    cluster.waitActive();
    String uri = cluster.getFileSystem().getUri().toString();
    Path tmp = uriFile.resolveSibling(uriFile.getFileName() + ".tmp");
    Files.write(tmp, (uri + "\n").getBytes(StandardCharsets.UTF_8));
    Files.move(tmp, uriFile, StandardCopyOption.ATOMIC_MOVE);
    LOG.info("{} DataNodes up at {}", dataNodes, uri);

    ParentWatchdog.Reason why =
      ParentWatchdog.builder().parent(parentPid).stopFile(stopFile).build().await();
    LOG.info(why == ParentWatchdog.Reason.STOP_FILE ? stopFile + " appeared"
      : "parent process " + parentPid + " is gone");
    stop(util, stopping);
    return EXIT_SUCCESS;
  }

  public static void main(String[] args) {
    launch(new MiniDfsServer(), args);
  }

  /** Stops the cluster once, whoever asks first. */
  private static void stop(HBaseTestingUtility util, AtomicBoolean stopping) {
    if (!stopping.compareAndSet(false, true)) {
      return;
    }
    LOG.info("stopping the MiniDFSCluster");
    try {
      util.shutdownMiniDFSCluster();
      // The NameNode's and DataNodes' directories: nothing of a benchmark run needs them.
      util.cleanupTestDir();
      LOG.info("stopped");
    } catch (Exception e) {
      LOG.warn("shutdown: {}", e.toString());
    }
  }
}
