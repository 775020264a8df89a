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
package org.apache.hadoop.hbase.harness;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.HashSet;
import java.util.Set;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Durability;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.regionserver.HRegionServer;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.wal.AbstractFSWALProvider;
import org.apache.hadoop.hbase.wal.WAL;
import org.apache.hadoop.hbase.wal.WALFactory;
import org.apache.hadoop.hbase.wal.WALStreamReader;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * The patched build on a real MiniDFSCluster and mini HBase cluster: the region server classes
 * come from the jars 'scripts/harness build' installed, acknowledged puts can be read back, and
 * every one of them is in the region server's WAL file, read back with HBase's own WAL reader.
 */
public class TestPatchedBuildOnMiniCluster {
  private static final HBaseTestingUtility UTIL = new HBaseTestingUtility();
  private static final TableName TABLE = TableName.valueOf("harness_smoke");
  private static final byte[] FAMILY = Bytes.toBytes("f");
  private static final byte[] QUALIFIER = Bytes.toBytes("q");
  private static final int ROWS = 500;

  @BeforeClass
  public static void setUp() throws Exception {
    UTIL.getConfiguration().set("hbase.wal.provider", "filesystem");
    UTIL.startMiniCluster(1);
  }

  @AfterClass
  public static void tearDown() throws Exception {
    UTIL.shutdownMiniCluster();
  }

  @Test
  public void testRegionServerRunsThePatchedJar() {
    String jar =
      HRegionServer.class.getProtectionDomain().getCodeSource().getLocation().toString();
    String expected = System.getProperty("harness.hbase.version", "-patched");
    assertTrue("HRegionServer loaded from " + jar + ", expected hbase-server-" + expected,
      jar.contains("hbase-server-" + expected));
  }

  @Test
  public void testAcknowledgedPutsAreReadableAndInTheWal() throws Exception {
    try (Table table = UTIL.createTable(TABLE, FAMILY)) {
      for (int i = 0; i < ROWS; i++) {
        Put put = new Put(Bytes.toBytes(String.format("row-%05d", i)));
        put.addColumn(FAMILY, QUALIFIER, Bytes.toBytes("value-" + i));
        put.setDurability(Durability.SYNC_WAL);
        table.put(put);
      }
      int read = 0;
      try (ResultScanner scanner = table.getScanner(FAMILY)) {
        for (Result r : scanner) {
          assertEquals("value-" + read, Bytes.toString(r.getValue(FAMILY, QUALIFIER)));
          read++;
        }
      }
      assertEquals(ROWS, read);
    }

    HRegionServer rs = UTIL.getMiniHBaseCluster().getRegionServer(0);
    RegionInfo region = UTIL.getAdmin().getRegions(TABLE).get(0);
    WAL wal = rs.getWAL(region);
    Path walFile = AbstractFSWALProvider.getCurrentFileName(wal);
    // Close the file so that every edit in it is readable, then read it back.
    wal.rollWriter(true);
    FileSystem fs = walFile.getFileSystem(UTIL.getConfiguration());
    if (!fs.exists(walFile)) {
      walFile = new Path(AbstractFSWALProvider.getWALArchiveDirectoryName(
        UTIL.getConfiguration(), rs.getServerName().toString()), walFile.getName());
      walFile = new Path(UTIL.getDefaultRootDirPath(), walFile);
    }
    Set<String> rowsInWal = new HashSet<>();
    try (WALStreamReader reader =
      WALFactory.createStreamReader(fs, walFile, UTIL.getConfiguration())) {
      for (WAL.Entry entry = reader.next(); entry != null; entry = reader.next()) {
        if (!entry.getKey().getTableName().equals(TABLE)) {
          continue;
        }
        for (Cell cell : entry.getEdit().getCells()) {
          if (CellUtil.matchingFamily(cell, FAMILY)) {
            rowsInWal.add(Bytes.toString(CellUtil.cloneRow(cell)));
          }
        }
      }
    }
    assertEquals("rows of " + TABLE + " in " + walFile, ROWS, rowsInWal.size());
  }
}
