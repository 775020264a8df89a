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

import java.io.IOException;
import java.util.function.Function;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.TableDescriptor;

/**
 * The tables the harness's tools make (crash's CrashTool, bench write's WriteBench): each marks
 * its tables with an attribute, replaces a table of its own on the next run, and never touches a
 * table it did not make.
 */
public final class Tables {
  private Tables() {
  }

  /**
   * Creates the table, pre-split at {@code splits}. A table of that name is dropped first when
   * {@code refusal} has nothing against it (null: the tool made it); else it stays, and the
   * refusal is the failure.
   */
  public static void createOrReplace(Admin admin, TableDescriptor table, byte[][] splits,
    Function<TableDescriptor, String> refusal) throws IOException, ToolException {
    TableName tn = table.getTableName();
    if (admin.tableExists(tn)) {
      String why = refusal.apply(admin.getDescriptor(tn));
      if (why != null) {
        throw new ToolException(why);
      }
      drop(admin, tn);
    }
    admin.createTable(table, splits);
  }

  /** Disables the table unless it is disabled, then deletes it. */
  public static void drop(Admin admin, TableName tn) throws IOException {
    if (admin.isTableEnabled(tn)) {
      admin.disableTable(tn);
    }
    admin.deleteTable(tn);
  }
}
