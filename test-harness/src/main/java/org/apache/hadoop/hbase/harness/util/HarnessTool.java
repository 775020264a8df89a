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

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.util.AbstractHBaseTool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.apache.hbase.thirdparty.org.apache.commons.cli.CommandLine;
import org.apache.hbase.thirdparty.org.apache.commons.cli.CommandLineParser;
import org.apache.hbase.thirdparty.org.apache.commons.cli.DefaultParser;
import org.apache.hbase.thirdparty.org.apache.commons.cli.MissingArgumentException;
import org.apache.hbase.thirdparty.org.apache.commons.cli.MissingOptionException;
import org.apache.hbase.thirdparty.org.apache.commons.cli.Option;
import org.apache.hbase.thirdparty.org.apache.commons.cli.ParseException;
import org.apache.hbase.thirdparty.org.apache.commons.cli.UnrecognizedOptionException;

/**
 * The base of the harness's command-line tools: HBase's {@link AbstractHBaseTool} (options
 * declared in {@link #addOptions()}, read in {@link #processOptions(CommandLine)}, the work done
 * in {@link #doWork()}), with the harness's rules for what a tool says and how it exits, which
 * scripts/harness relies on:
 * <ul>
 * <li>{@code -h} or {@code --help}: the usage on stdout, exit 0;</li>
 * <li>a bad command line (an unknown option, a missing value, a number that is no number or out
 * of range, a stray argument): one line on stderr, the tool's usage error prefix then the reason,
 * exit {@value #EXIT_USAGE}, never a stack trace;</li>
 * <li>a failure the user can act on ({@link ToolException}): one line on stderr,
 * {@link #errorPrefix()} then the reason, exit 1; any other exception likewise, its stack trace
 * logged.</li>
 * </ul>
 * Options are taken exactly as written: no prefix of a long option stands for it, and no quotes
 * are stripped from values. {@link #launch} runs a tool as a JVM's program; tests call
 * {@link #run(String[])}, which never exits the JVM.
 */
public abstract class HarnessTool extends AbstractHBaseTool {
  /** The exit status of a bad command line. */
  public static final int EXIT_USAGE = 2;

  private static final Logger LOG = LoggerFactory.getLogger(HarnessTool.class);

  /** A bad command line: its message is the one line printed, exit {@value #EXIT_USAGE}. */
  public static class UsageException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public UsageException(String message) {
      super(message);
    }
  }

  private final String name;
  private final String synopsis;
  private final String usageErrorPrefix;
  private final String errorPrefix;

  /**
   * @param name             the tool's name in its log, e.g. {@code bench write}
   * @param synopsis         the first line of the usage, after "usage: "
   * @param usageErrorPrefix the start of the one line of a bad command line, naming the tool,
   *                         e.g. {@code harness: usage error: bench write: }
   * @param errorPrefix      the start of the one line of a failure
   */
  protected HarnessTool(String name, String synopsis, String usageErrorPrefix,
    String errorPrefix) {
    this.name = name;
    this.synopsis = synopsis;
    this.usageErrorPrefix = usageErrorPrefix;
    this.errorPrefix = errorPrefix;
  }

  protected final String name() {
    return name;
  }

  protected final String synopsis() {
    return synopsis;
  }

  protected final String errorPrefix() {
    return errorPrefix;
  }

  /** What the usage says below the options; none by default. */
  protected String usageFooter() {
    return "";
  }

  /** Declares no options: a tool of positional arguments only. */
  @Override
  protected void addOptions() {
  }

  /** The arguments that hold the tool's options: all of them, unless a tool passes some on. */
  protected String[] optionArgs(String[] args) {
    return args;
  }

  /** The one line of an exception that is not a {@link ToolException}. */
  protected String failureLine(Exception e) {
    return firstLine(rootCause(e));
  }

  @Override
  protected CommandLineParser newParser() {
    return DefaultParser.builder().setAllowPartialMatching(false)
      .setStripLeadingAndTrailingQuotes(false).build();
  }

  @Override
  protected void printUsage() {
    printUsage(synopsis(), "Options:", usageFooter());
  }

  /**
   * Parses the command line, then does the work; returns the exit status. Unlike
   * {@link AbstractHBaseTool#run(String[])}, a bad command line is one line and exit
   * {@value #EXIT_USAGE}, whether the parser or {@link #processOptions(CommandLine)} finds it.
   */
  @Override
  public int run(String[] args) {
    cmdLineArgs = args;
    if (getConf() == null) {
      setConf(HBaseConfiguration.create());
    }
    addOptions();
    addOptNoArg("h", "help", "print this usage and exit");
    String[] own = optionArgs(args);
    if (wantsHelp(own)) {
      printUsage();
      System.out.flush();
      return EXIT_SUCCESS;
    }
    try {
      processOptions(newParser().parse(options, own));
      return doWork();
    } catch (ParseException e) {
      return usageError(describe(e));
    } catch (UsageException e) {
      return usageError(e.getMessage());
    } catch (ToolException e) {
      System.err.println(errorPrefix() + e.getMessage());
      return EXIT_FAILURE;
    } catch (Exception e) {
      LOG.error("{} failed", name(), e);
      System.err.println(errorPrefix() + failureLine(e));
      return EXIT_FAILURE;
    }
  }

  private int usageError(String message) {
    System.err.println(usageErrorPrefix + message);
    return EXIT_USAGE;
  }

  private static boolean wantsHelp(String[] args) {
    for (String a : args) {
      if (a.equals("--")) {
        return false;
      }
      if (a.equals("-h") || a.equals("--help")) {
        return true;
      }
    }
    return false;
  }

  /** The reason of a parse error, naming the option as the command line writes it. */
  private String describe(ParseException e) {
    if (e instanceof UnrecognizedOptionException) {
      return "unknown option '" + ((UnrecognizedOptionException) e).getOption() + "'";
    }
    if (e instanceof MissingArgumentException) {
      Option o = ((MissingArgumentException) e).getOption();
      return display(o.getLongOpt() != null ? o.getLongOpt() : o.getOpt()) + " needs a value";
    }
    if (e instanceof MissingOptionException) {
      List<String> names = new ArrayList<>();
      for (Object o : ((MissingOptionException) e).getMissingOptions()) {
        names.add(display(String.valueOf(o)));
      }
      return String.join(", ", names) + (names.size() == 1 ? " is required" : " are required");
    }
    return e.getMessage();
  }

  private static String display(String option) {
    return (option.length() == 1 ? "-" : "--") + option;
  }

  /**
   * The positional arguments, from {@code min} to {@code max} of them; else a
   * {@link UsageException} that says what the tool needs.
   */
  protected String[] arguments(CommandLine cmd, int min, int max, String needs) {
    String[] args = cmd.getArgs();
    if (args.length < min || args.length > max) {
      throw new UsageException(args.length > max ? "unexpected argument '" + args[max] + "'"
        : "needs " + needs);
    }
    return args;
  }

  /** Refuses positional arguments: this tool takes options only. */
  protected void noArguments(CommandLine cmd) {
    if (cmd.getArgs().length > 0) {
      throw new UsageException("unexpected argument '" + cmd.getArgs()[0] + "'");
    }
  }

  /** The option's value, the last one where it is given more than once; or null. */
  protected static String value(CommandLine cmd, String option) {
    String[] v = cmd.getOptionValues(option);
    return v == null || v.length == 0 ? null : v[v.length - 1];
  }

  /** The option's value, or the default when it is not given. */
  protected static String value(CommandLine cmd, String option, String dflt) {
    String v = value(cmd, option);
    return v == null ? dflt : v;
  }

  /** The option's value as a whole number in [min, max], or the default when not given. */
  protected static long longValue(CommandLine cmd, String option, long dflt, long min, long max) {
    String v = value(cmd, option);
    return v == null ? dflt : number("--" + option, v, min, max);
  }

  /** The option's value as a whole number in [min, max], or the default when not given. */
  protected static int intValue(CommandLine cmd, String option, int dflt, int min, int max) {
    return (int) longValue(cmd, option, dflt, min, max);
  }

  /**
   * A whole number in [min, max] ('_' may group the digits), or a {@link UsageException} that
   * names {@code what}: "--threads 'x' is not a number", "--threads must be from 1 to 5000, not
   * 0"; with a max of int or long range, "--rows must be at least 1, not 0".
   */
  public static long number(String what, String v, long min, long max) {
    long n;
    try {
      n = Long.parseLong(v.replace("_", ""));
    } catch (NumberFormatException e) {
      throw new UsageException(what + " '" + v + "' is not a number");
    }
    // A bound of int or long range is no range the user need be told of.
    boolean wide = max >= Integer.MAX_VALUE;
    if (n < min || n > max) {
      throw new UsageException(what + (!wide ? " must be from " + min + " to " + max
        : n < min ? " must be at least " + min : " must be at most " + max) + ", not " + v);
    }
    return n;
  }

  /** The innermost cause of the throwable. */
  public static Throwable rootCause(Throwable t) {
    Throwable c = t;
    while (c.getCause() != null && c.getCause() != c) {
      c = c.getCause();
    }
    return c;
  }

  /** "SimpleClassName: the first line of the message". */
  public static String firstLine(Throwable t) {
    return t.getClass().getSimpleName() + ": " + String.valueOf(t.getMessage()).split("\n", 2)[0];
  }

  /**
   * Runs the tool as the JVM's program, with HBase's configuration, and ends the JVM with the
   * tool's exit status (threads that HBase or Hadoop leave behind do not keep it up). The command
   * line goes to the tool as it is: no generic Hadoop options are taken from it.
   */
  public static void launch(HarnessTool tool, String[] args) {
    int rc;
    try {
      tool.setConf(HBaseConfiguration.create());
      rc = tool.run(args);
    } catch (RuntimeException | Error e) {
      LOG.error("{} failed", tool.name(), e);
      System.err.println(tool.errorPrefix() + firstLine(rootCause(e)));
      rc = EXIT_FAILURE;
    }
    System.out.flush();
    System.err.flush();
    System.exit(rc);
  }
}
