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
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * Ends a JVM the harness started when the one that started it is gone, so that no benchmark or
 * mini cluster outlives its run: it waits until the parent process is gone, or standard input
 * (a pipe from the parent) closes, or a stop file appears, or a deadline passes, whichever comes
 * first, and says which. Used by bench wal's client (parent and deadline) and MiniDFSCluster
 * server (parent and stop file), and by bench write's embedded cluster (standard input).
 */
public final class ParentWatchdog {
  /** Why the wait ended. */
  public enum Reason {
    /** The parent process is gone (or was not running to begin with). */
    PARENT_GONE,
    /** Standard input reached its end: the parent closed it or died. */
    INPUT_CLOSED,
    /** The stop file appeared. */
    STOP_FILE,
    /** The deadline passed. */
    TIMEOUT
  }

  private final long parentPid;
  private final InputStream input;
  private final Path stopFile;
  private final long timeoutNanos;
  private final long pollMs;

  private ParentWatchdog(Builder b) {
    this.parentPid = b.parentPid;
    this.input = b.input;
    this.stopFile = b.stopFile;
    this.timeoutNanos = b.timeoutNanos;
    this.pollMs = b.pollMs;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** What to watch; nothing by default, so that {@link #await()} waits for ever. */
  public static final class Builder {
    private long parentPid = -1;
    private InputStream input;
    private Path stopFile;
    private long timeoutNanos = -1;
    private long pollMs = 200;

    private Builder() {
    }

    /** Watches the process of this pid (none when not positive). */
    public Builder parent(long pid) {
      this.parentPid = pid;
      return this;
    }

    /** Watches this stream (the parent's pipe) for its end; nothing is read from it but that. */
    public Builder input(InputStream in) {
      this.input = in;
      return this;
    }

    /** Watches for this file to appear. */
    public Builder stopFile(Path file) {
      this.stopFile = file;
      return this;
    }

    /** Ends the wait after this long (none when not positive). */
    public Builder timeout(long amount, TimeUnit unit) {
      this.timeoutNanos = amount > 0 ? unit.toNanos(amount) : -1;
      return this;
    }

    /** How often the conditions are checked; 200 ms by default. */
    public Builder pollMs(long ms) {
      this.pollMs = Math.max(1, ms);
      return this;
    }

    public ParentWatchdog build() {
      return new ParentWatchdog(this);
    }
  }

  /** Blocks until one of the conditions holds; returns which. */
  public Reason await() throws InterruptedException {
    Optional<ProcessHandle> parent =
      parentPid > 0 ? ProcessHandle.of(parentPid) : Optional.empty();
    AtomicBoolean inputClosed = new AtomicBoolean();
    if (input != null) {
      Thread reader = new Thread(() -> {
        try {
          int b = 0;
          while (b >= 0) {
            // Nothing is sent: the stream only ends.
            b = input.read();
          }
        } catch (IOException e) {
          // The parent is gone.
        }
        inputClosed.set(true);
      }, "parent-input-watch");
      reader.setDaemon(true);
      reader.start();
    }
    long start = System.nanoTime();
    while (true) {
      if (parentPid > 0 && !parent.map(ProcessHandle::isAlive).orElse(false)) {
        return Reason.PARENT_GONE;
      }
      if (inputClosed.get()) {
        return Reason.INPUT_CLOSED;
      }
      if (stopFile != null && Files.exists(stopFile)) {
        return Reason.STOP_FILE;
      }
      if (timeoutNanos > 0 && System.nanoTime() - start >= timeoutNanos) {
        return Reason.TIMEOUT;
      }
      TimeUnit.MILLISECONDS.sleep(pollMs);
    }
  }

  /**
   * Waits in a daemon thread of this name, then hands the reason to {@code then} (which usually
   * ends the JVM); returns the thread.
   */
  public Thread start(String threadName, Consumer<Reason> then) {
    Thread t = new Thread(() -> {
      Reason r;
      try {
        r = await();
      } catch (InterruptedException e) {
        return;
      }
      then.accept(r);
    }, threadName);
    t.setDaemon(true);
    t.start();
    return t;
  }
}
