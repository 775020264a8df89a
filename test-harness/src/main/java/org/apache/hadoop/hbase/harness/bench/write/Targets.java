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
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.harness.util.ToolException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where the write benchmark sends its puts: the embedded mini cluster (a JVM of its own per
 * configuration, started with that configuration's build and server settings), the harness's
 * local cluster of separate processes (restarted when a configuration needs another build or
 * other server settings), or a cluster given by an hbase-site.xml (table and client settings
 * only).
 */
public final class Targets {
  private static final Logger LOG = LoggerFactory.getLogger(Targets.class);

  private Targets() {
  }

  /** A target of the benchmark. */
  public interface Target {
    /** One line for the report. */
    String describe();

    /** Why the configuration cannot run on this target, or null. */
    String refuse(WriteConfig config);

    /** Gets the servers ready for the configuration; returns the client's settings. */
    Configuration prepare(WriteConfig config, File runDir) throws Exception;

    /** The logs that hold the servers' events; none by default (they cannot be read). */
    default List<Path> logs() {
      return new ArrayList<>();
    }

    /** The process ids of the RegionServers, when they are processes of their own; none else. */
    default List<Long> serverPids() throws BenchException {
      return new ArrayList<>();
    }

    /** After the configuration's run; nothing by default. */
    default void finish(WriteConfig config) {
    }

    /** Stops whatever the target started and must not outlive the driver; nothing by default. */
    default void close() {
    }
  }

  /** A failure of the benchmark the user can act on; its message is the one line printed. */
  public static final class BenchException extends ToolException {
    private static final long serialVersionUID = 1L;

    public BenchException(String message) {
      super(message);
    }
  }

  static String classpathOf(String build) throws BenchException {
    String file = System.getProperty("harness.classpath." + build);
    if (file == null || !new File(file).isFile()) {
      throw new BenchException("the " + build + " build is not installed; run 'scripts/harness "
        + "build' first (or leave '" + build + "' out of --configs)");
    }
    try {
      String cp = new String(Files.readAllBytes(Paths.get(file)), StandardCharsets.UTF_8).trim();
      return System.getProperty("harness.classes") + File.pathSeparator + cp;
    } catch (IOException e) {
      throw new BenchException("cannot read the classpath file " + file + ": " + e.getMessage());
    }
  }

  /** The embedded mini cluster, one JVM per configuration. */
  public static final class Embedded implements Target {
    private final int regionServers;
    private final String heap;
    private final long startTimeoutMs;
    private final List<String> jvmFlags;
    private Process child;
    private File dir;
    private Path log;
    /** The persistent-memory folder of the running mini cluster's JVM, or null. */
    private Path pmemDir;

    /**
     * @param jvmFlags the JDK 17 flags of the mini cluster's JVM ({@link JvmFlags})
     */
    public Embedded(int regionServers, String heap, long startTimeoutMs, List<String> jvmFlags) {
      this.regionServers = regionServers;
      this.heap = heap;
      this.startTimeoutMs = startTimeoutMs;
      this.jvmFlags = new ArrayList<>(jvmFlags);
    }

    @Override
    public String describe() {
      return "embedded mini cluster (" + regionServers + " region servers, 3 DataNodes, "
        + "one JVM of -Xmx" + heap + " per configuration)";
    }

    @Override
    public String refuse(WriteConfig config) {
      if (config.pmem() && regionServers > 1) {
        // The patched RegionServer refuses a second persistent-memory space in its JVM.
        return "configuration '" + config.name() + "' needs --regionservers 1 on the embedded "
          + "target: its region servers share one JVM, which holds one persistent-memory space; "
          + "use --target cluster for more";
      }
      return null;
    }

    @Override
    public Configuration prepare(WriteConfig config, File runDir) throws Exception {
      String cp = classpathOf(config.build());
      dir = new File(runDir, "embedded-" + safe(config.name()));
      Files.createDirectories(dir.toPath());
      log = new File(runDir, "logs/embedded-" + safe(config.name()) + ".log").toPath();
      Files.createDirectories(log.getParent());
      List<String> cmd = new ArrayList<>();
      cmd.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
      cmd.add("-Xmx" + heap);
      cmd.add("-XX:+UseG1GC");
      cmd.add("-XX:+ExitOnOutOfMemoryError");
      cmd.addAll(jvmFlags);
      cmd.add("-Dlog4j2.configurationFile=" + System.getProperty("log4j2.configurationFile"));
      cmd.add("-Dharness.log.file=" + log);
      cmd.add("-Dharness.bench.driver=" + ManagementFactory.getRuntimeMXBean().getPid());
      if (config.pmem()) {
        // One folder for the JVM, with a folder per region server in it (EmbeddedCluster).
        pmemDir = pmemFolder(runDir, config.name());
        cmd.add("-D" + EmbeddedCluster.PMEM_DIR_PROPERTY + "=" + pmemDir);
      }
      cmd.add("-cp");
      cmd.add(cp);
      cmd.add(EmbeddedCluster.class.getName());
      cmd.add(dir.getAbsolutePath());
      cmd.add(String.valueOf(regionServers));
      cmd.add("3");
      for (Map.Entry<String, String> e : config.serverConfWithoutPmem().entrySet()) {
        cmd.add(e.getKey() + "=" + e.getValue());
      }
      if (pmemDir != null) {
        cmd.add(WriteConfig.PMEM_PATH_KEY + "=" + pmemDir);
      }
      File out = new File(runDir, "logs/embedded-" + safe(config.name()) + ".out");
      child = new ProcessBuilder(cmd).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(out)).start();
      File ready = new File(dir, "ready");
      long deadline = System.currentTimeMillis() + startTimeoutMs;
      while (!ready.isFile()) {
        if (!child.isAlive()) {
          throw new BenchException("the embedded cluster of '" + config.name()
            + "' did not start: " + lastError(log, out.toPath()) + " (log: " + log + ")");
        }
        if (System.currentTimeMillis() > deadline) {
          close();
          throw new BenchException("the embedded cluster of '" + config.name()
            + "' was not up after " + startTimeoutMs / 1000 + "s (log: " + log + ")");
        }
        Thread.sleep(200);
      }
      Configuration conf = HBaseConfiguration.create();
      conf.addResource(new org.apache.hadoop.fs.Path(new File(dir, "client-site.xml").toURI()));
      return conf;
    }

    @Override
    public List<Path> logs() {
      List<Path> l = new ArrayList<>();
      if (log != null) {
        l.add(log);
      }
      return l;
    }

    @Override
    public void finish(WriteConfig config) {
      close();
      if (dir != null) {
        // The mini cluster's data (hundreds of MB) is deleted before the next configuration
        // starts: deleting it in the background would load the disk under the next one and bias
        // the comparison towards the configuration that runs first.
        deleteTree(dir.toPath());
        dir = null;
      }
    }

    @Override
    public void close() {
      Process p = child;
      if (p != null) {
        p.destroyForcibly();
        try {
          p.waitFor();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        child = null;
      }
      Path pm = pmemDir;
      if (pm != null) {
        deleteTree(pm);
        pmemDir = null;
      }
    }

    /** The persistent-memory folder of the mini cluster that runs this configuration. */
    Path pmemDir() {
      return pmemDir;
    }
  }

  /**
   * A fresh folder of mode 0700 for a mini cluster's persistent-memory chunks: under /dev/shm
   * (tmpfs, as a DAX file system stands in here), else in the run folder.
   */
  static Path pmemFolder(File runDir, String config) throws IOException {
    File shm = new File("/dev/shm");
    File base = shm.isDirectory() && shm.canWrite() ? shm : runDir;
    String uid;
    try {
      uid = String.valueOf(Files.getAttribute(Paths.get("/proc/self"), "unix:uid"));
    } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
      uid = System.getProperty("user.name", "user");
    }
    Path p = new File(base, "hbase-harness-pmem-" + uid + "-embedded-"
      + ManagementFactory.getRuntimeMXBean().getPid() + "-" + safe(config)).toPath();
    deleteTree(p);
    try {
      Files.createDirectory(p, PosixFilePermissions.asFileAttribute(
        PosixFilePermissions.fromString("rwx------")));
    } catch (UnsupportedOperationException e) {
      Files.createDirectory(p);
    }
    return p;
  }

  /** The harness's local cluster ('scripts/harness cluster'). */
  public static final class LocalCluster implements Target {
    private final File clusterDir;
    private final String script;

    public LocalCluster(File clusterDir, String script) {
      this.clusterDir = clusterDir;
      this.script = script;
    }

    @Override
    public String describe() {
      return "the local cluster of separate processes in " + clusterDir;
    }

    @Override
    public String refuse(WriteConfig config) {
      return null;
    }

    @Override
    public List<Long> serverPids() throws BenchException {
      List<Long> pids = new ArrayList<>();
      File[] roles = clusterDir.listFiles((d, n) -> n.matches("rs[0-9]+"));
      for (File role : roles == null ? new File[0] : roles) {
        Path pid = new File(role, "pid").toPath();
        try {
          if (Files.isRegularFile(pid)) {
            pids.add(Long.parseLong(
              new String(Files.readAllBytes(pid), StandardCharsets.UTF_8).trim()));
          }
        } catch (IOException | NumberFormatException e) {
          throw new BenchException("cannot read the pid of " + role.getName() + " in " + pid
            + ": " + e.getMessage());
        }
      }
      if (pids.isEmpty()) {
        throw new BenchException("no RegionServer pid in " + clusterDir + " to profile");
      }
      return pids;
    }

    /** The settings of the cluster's last start (cluster.env), or empty. */
    Map<String, List<String>> env() {
      Map<String, List<String>> m = new LinkedHashMap<>();
      Path f = new File(clusterDir, "cluster.env").toPath();
      if (!Files.isRegularFile(f)) {
        return m;
      }
      try {
        for (String line : Files.readAllLines(f, StandardCharsets.UTF_8)) {
          int eq = line.indexOf('=');
          if (eq > 0) {
            m.computeIfAbsent(line.substring(0, eq), k -> new ArrayList<>())
              .add(line.substring(eq + 1));
          }
        }
      } catch (IOException e) {
        return new LinkedHashMap<>();
      }
      return m;
    }

    private int harness(List<String> args) throws Exception {
      return harness(args, ProcessBuilder.Redirect.INHERIT);
    }

    private int harnessQuiet(List<String> args) throws Exception {
      return harness(args, ProcessBuilder.Redirect.DISCARD);
    }

    /** Runs scripts/harness with these arguments, its output to {@code out}; its exit code. */
    private int harness(List<String> args, ProcessBuilder.Redirect out) throws Exception {
      List<String> cmd = new ArrayList<>();
      cmd.add(script);
      cmd.addAll(args);
      Process p = new ProcessBuilder(cmd).redirectInput(ProcessBuilder.Redirect.from(
        new File("/dev/null"))).redirectOutput(out).redirectError(out).start();
      return p.waitFor();
    }

    @Override
    public Configuration prepare(WriteConfig config, File runDir) throws Exception {
      List<String> want = new ArrayList<>();
      for (Map.Entry<String, String> e : config.serverConfWithoutPmem().entrySet()) {
        want.add(e.getKey() + "=" + e.getValue());
      }
      Map<String, List<String>> env = env();
      boolean same = config.build().equals(first(env.get("BUILD")))
        && want.equals(env.getOrDefault("CONF", new ArrayList<>()))
        && config.pmem() == env.containsKey("PMEM");
      List<String> status = new ArrayList<>();
      status.add("cluster");
      status.add("status");
      boolean up = !env.isEmpty() && harnessQuiet(status) == 0;
      if (!(same && up)) {
        if (!env.isEmpty()) {
          WriteBench.progress("restarting the local cluster for '" + config.name() + "' ("
            + config.build() + " build" + (config.pmem() ? ", --pmem" : "")
            + (want.isEmpty() ? "" : ", " + String.join(" ", want)) + ")");
          List<String> stop = new ArrayList<>();
          stop.add("cluster");
          stop.add("stop");
          if (harness(stop) != 0) {
            throw new BenchException("cannot stop the local cluster for '" + config.name() + "'");
          }
        }
        List<String> start = new ArrayList<>();
        start.add("cluster");
        start.add("start");
        start.add("--build");
        start.add(config.build());
        if (config.pmem()) {
          // A folder per RegionServer under /dev/shm; 'cluster stop' removes them.
          start.add("--pmem");
        }
        for (String kv : want) {
          start.add("--conf");
          start.add(kv);
        }
        if (harness(start) != 0) {
          throw new BenchException("the local cluster did not start for '" + config.name()
            + "' (see the cluster's error above)");
        }
      }
      Configuration conf = HBaseConfiguration.create();
      conf.addResource(new org.apache.hadoop.fs.Path(
        new File(clusterDir, "client/hbase-site.xml").toURI()));
      return conf;
    }

    private static String first(List<String> l) {
      return l == null || l.isEmpty() ? null : l.get(0);
    }

    @Override
    public List<Path> logs() {
      List<Path> l = new ArrayList<>();
      File[] roles = clusterDir.listFiles();
      if (roles == null) {
        return l;
      }
      for (File role : roles) {
        String n = role.getName();
        if (n.equals("master") || n.matches("rs\\d+")) {
          l.add(new File(role, "logs/" + n + ".log").toPath());
        }
      }
      return l;
    }

  }

  /** A cluster given by its hbase-site.xml: only table and client settings apply. */
  public static final class Site implements Target {
    private final File site;

    public Site(File site) {
      this.site = site;
    }

    @Override
    public String describe() {
      return "the cluster of " + site;
    }

    @Override
    public String refuse(WriteConfig config) {
      if (config.build() != null) {
        return "configuration '" + config.name() + "' picks the " + config.build() + " build, "
          + "which the harness cannot install on a cluster given by hbase-site.xml";
      }
      if (!config.serverConf().isEmpty()) {
        return "configuration '" + config.name() + "' needs server settings ("
          + String.join(", ", config.serverConf().keySet()) + "), which the harness cannot set "
          + "on a cluster given by hbase-site.xml; use --target embedded or cluster";
      }
      return null;
    }

    @Override
    public Configuration prepare(WriteConfig config, File runDir) {
      Configuration conf = HBaseConfiguration.create();
      conf.addResource(new org.apache.hadoop.fs.Path(site.getAbsoluteFile().toURI()));
      return conf;
    }

  }

  static String safe(String name) {
    return name.replaceAll("[^A-Za-z0-9_.-]", "_");
  }

  /** The first line that says why a JVM failed, from its log or its output. */
  static String lastError(Path log, Path out) {
    // The tool's own one-line reason first: its log's first ERROR line may only say that it failed.
    try {
      if (Files.isRegularFile(out)) {
        for (String l : Files.readAllLines(out, StandardCharsets.UTF_8)) {
          if (l.startsWith("EmbeddedCluster: ERROR: ")) {
            return l.length() > 300 ? l.substring(0, 300) : l;
          }
        }
      }
    } catch (IOException e) {
      // Look in the log then.
    }
    for (Path p : new Path[] { log, out }) {
      try {
        if (!Files.isRegularFile(p)) {
          continue;
        }
        List<String> lines = Files.readAllLines(p, StandardCharsets.UTF_8);
        for (String l : lines) {
          if (l.contains("Exception") || l.contains("Error") || l.contains("ERROR")) {
            return l.length() > 300 ? l.substring(0, 300) : l;
          }
        }
      } catch (IOException e) {
        // Try the next file.
      }
    }
    return "no error in its log";
  }

  static void deleteTree(Path root) {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> s = Files.walk(root)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).collect(Collectors.toList())) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      // Best effort: the run folder keeps what could not be removed.
      LOG.warn("could not delete all of {}: {}", root, e.toString());
    }
  }
}
