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
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hdfs.MiniDFSCluster;

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
 * stays up until:
 * <ul>
 * <li>a file named {@code URI_FILE.stop} appears: it stops the cluster and exits with 0 (the
 * orderly way, which the harness uses first);</li>
 * <li>it gets SIGTERM or SIGINT: a shutdown hook stops the cluster, though Hadoop's own shutdown
 * hooks then run at the same time and log errors;</li>
 * <li>the process {@code PARENT_PID} is gone (the harness was killed with SIGKILL): it stops the
 * cluster and exits by itself, so a MiniDFSCluster never outlives its benchmark run.</li>
 * </ul>
 */
public final class MiniDfsServer {
  private MiniDfsServer() {
  }

  public static void main(String[] args) throws Exception {
    if (args.length < 1 || args.length > 3) {
      System.err.println("usage: MiniDfsServer URI_FILE [DATANODES [PARENT_PID]]");
      System.exit(2);
    }
    Path uriFile = Paths.get(args[0]);
    int dataNodes = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    Optional<ProcessHandle> parent =
      args.length > 2 ? ProcessHandle.of(Long.parseLong(args[2])) : Optional.empty();
    if (args.length > 2 && !parent.isPresent()) {
      System.err.println("MiniDfsServer: parent process " + args[2] + " is not running");
      System.exit(1);
    }

    Path stopFile = uriFile.resolveSibling(uriFile.getFileName() + ".stop");
    HBaseTestingUtility util = new HBaseTestingUtility();
    AtomicBoolean stopping = new AtomicBoolean();
    Runtime.getRuntime().addShutdownHook(new Thread(() -> stop(util, stopping),
      "MiniDfsServer-shutdown"));

    MiniDFSCluster cluster = util.startMiniDFSCluster(dataNodes);
    cluster.waitActive();
    String uri = cluster.getFileSystem().getUri().toString();
    Path tmp = uriFile.resolveSibling(uriFile.getFileName() + ".tmp");
    Files.write(tmp, (uri + "\n").getBytes(StandardCharsets.UTF_8));
    Files.move(tmp, uriFile, StandardCopyOption.ATOMIC_MOVE);
    System.err.println("MiniDfsServer: " + dataNodes + " DataNodes up at " + uri);

    while (true) {
      TimeUnit.MILLISECONDS.sleep(200);
      if (Files.exists(stopFile)) {
        System.err.println("MiniDfsServer: " + stopFile + " appeared");
        break;
      }
      if (parent.isPresent() && !parent.get().isAlive()) {
        System.err.println("MiniDfsServer: parent process " + parent.get().pid() + " is gone");
        break;
      }
    }
    stop(util, stopping);
    System.exit(0);
  }

  /** Stops the cluster once, whoever asks first. */
  private static void stop(HBaseTestingUtility util, AtomicBoolean stopping) {
    if (!stopping.compareAndSet(false, true)) {
      return;
    }
    System.err.println("MiniDfsServer: stopping the MiniDFSCluster");
    try {
      util.shutdownMiniDFSCluster();
      // The NameNode's and DataNodes' directories: nothing of a benchmark run needs them.
      util.cleanupTestDir();
      System.err.println("MiniDfsServer: stopped");
    } catch (Exception e) {
      System.err.println("MiniDfsServer: shutdown: " + e);
    }
  }
}
