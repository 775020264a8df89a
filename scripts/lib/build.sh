# shellcheck shell=bash
#
# Licensed to the Apache Software Foundation (ASF) under one
# or more contributor license agreements.  See the NOTICE file
# distributed with this work for additional information
# regarding copyright ownership.  The ASF licenses this file
# to you under the Apache License, Version 2.0 (the
# "License"); you may not use this file except in compliance
# with the License.  You may obtain a copy of the License at
#
#     http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.
#
# build.sh owns 'scripts/harness build': compiling every module the series
# touches, main and test sources, with --release 8 against the released
# artifacts of all other modules, counting javac warnings, and installing
# the patched jars as VERSION-patched; also the baseline build the review
# compares warnings against.
#
# Global it owns: SUREFIRE_ARGLINE (the JVM flags of the series' tests, and
# of bench wal's JVMs).

# Compiled classes that upstream generates at build time (jamon, jspc,
# saveVersion.sh). The baseline holds no sources for them, so the build
# takes them from the released jar of the same module.
generated_classes() {
  case $1 in
    hbase-server) echo 'org/apache/hadoop/hbase/tmpl/**,org/apache/hadoop/hbase/generated/**,hbase-webapps/*/WEB-INF/web.xml' ;;
    hbase-common) echo 'org/apache/hadoop/hbase/Version.class' ;;
    hbase-protocol-shaded) echo 'org/apache/hadoop/hbase/shaded/protobuf/generated/**' ;;
  esac
}

# module_resources MODULE: the <resource> elements of MODULE's project.
# hbase-common's hbase-default.xml is filtered: upstream's build writes the
# version into its hbase.defaults.for.version (@@@VERSION@@@), and
# HBaseConfiguration refuses a file whose version is not the one of the
# Version class (which, like the rest of the generated classes, comes from
# the released jar: hence the stock version).
module_resources() {
  # A Maven property, expanded by Maven, not by the shell.
  # shellcheck disable=SC2016
  local dir='${harness.tree}/src/main/resources'
  if [[ $1 == hbase-common ]]; then
    printf '<resource><directory>%s</directory><filtering>true</filtering><includes><include>hbase-default.xml</include></includes></resource>' "$dir"
    printf '<resource><directory>%s</directory><excludes><exclude>hbase-default.xml</exclude></excludes></resource>' "$dir"
  else
    printf '<resource><directory>%s</directory></resource>' "$dir"
  fi
}

# The JVM options HBase's tests need on JDK 17.
SUREFIRE_ARGLINE="-Xmx3g -XX:+HeapDumpOnOutOfMemoryError -Dio.netty.eventLoopThreads=3 ${JVM_FLAGS[*]}"

# write_module_pom BUILD_DIR TREE_DIR MODULE VERSION: the Maven project that
# compiles MODULE's sources from TREE_DIR, outside the tree so that the tree
# stays exactly upstream's layout.
write_module_pom() {
  local bdir=$1 tdir=$2 module=$3 version=$4 stock hadoop=3.4.2 deps
  stock=$(stock_version)
  deps=$(released_deps "$module" "$version") || exit 1
  mkdir -p "$bdir/$module"
  cat >"$bdir/$module/pom.xml" <<POM
<?xml version="1.0" encoding="UTF-8"?>
<!-- Written by scripts/harness build. Do not edit: it is rewritten on every build. -->
<project xmlns="http://maven.apache.org/POM/4.0.0"
    xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
    xsi:schemaLocation="http://maven.apache.org/POM/4.0.0 https://maven.apache.org/xsd/maven-4.0.0.xsd">
  <modelVersion>4.0.0</modelVersion>
  <groupId>org.apache.hbase</groupId>
  <artifactId>$module</artifactId>
  <version>$version</version>
  <description>$module $stock with the patch series applied, built by scripts/harness</description>
  <properties>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
    <stock.version>$stock</stock.version>
    <hbase.release>$(hbase_version)</hbase.release>
    <hadoop.version>$hadoop</hadoop.version>
    <harness.tree>$tdir/$module</harness.tree>
    <harness.test.forks>1</harness.test.forks>
    <VERSION>$stock</VERSION>
  </properties>
  <dependencies>
    <!-- The released module's own dependency list, as its published pom has it, so that the
         patched artifact resolves exactly the third-party versions the stock one does. -->
$deps
$(cat "$HARNESS_ROOT/scripts/conf/test-dependencies.xml")
  </dependencies>
  <build>
    <sourceDirectory>\${harness.tree}/src/main/java</sourceDirectory>
    <testSourceDirectory>\${harness.tree}/src/test/java</testSourceDirectory>
    <resources>$(module_resources "$module")</resources>
    <testResources><testResource><directory>\${harness.tree}/src/test/resources</directory></testResource></testResources>
    <plugins>
      <plugin>
        <groupId>org.apache.maven.plugins</groupId><artifactId>maven-dependency-plugin</artifactId><version>3.8.1</version>
        <executions><execution>
          <id>generated-classes</id><phase>generate-resources</phase><goals><goal>unpack</goal></goals>
          <configuration>
            <artifactItems><artifactItem>
              <groupId>org.apache.hbase</groupId><artifactId>$module</artifactId><version>\${stock.version}</version>
              <includes>$(generated_classes "$module")</includes>
              <outputDirectory>\${project.build.outputDirectory}</outputDirectory>
            </artifactItem></artifactItems>
            <overWriteReleases>false</overWriteReleases>
            <markersDirectory>\${project.build.directory}/dependency-markers</markersDirectory>
          </configuration>
        </execution></executions>
      </plugin>
      <plugin>
        <groupId>org.apache.maven.plugins</groupId><artifactId>maven-resources-plugin</artifactId><version>3.3.1</version>
        <!-- Only @@@NAME@@@ tokens are filtered, as upstream's build replaces @@@VERSION@@@: the
             \${...} in hbase-default.xml are HBase's own, resolved when the file is read. -->
        <configuration><useDefaultDelimiters>false</useDefaultDelimiters><delimiters><delimiter>@@@</delimiter></delimiters></configuration>
      </plugin>
      <plugin>
        <groupId>org.apache.maven.plugins</groupId><artifactId>maven-compiler-plugin</artifactId><version>3.13.0</version>
        <configuration>
          <release>8</release>
          <showWarnings>true</showWarnings>
          <showDeprecation>true</showDeprecation>
          <compilerArgs><arg>-Xlint:all,-options,-processing,-serial</arg><arg>-Xmaxwarns</arg><arg>100000</arg></compilerArgs>
        </configuration>
      </plugin>
      <plugin>
        <groupId>org.apache.maven.plugins</groupId><artifactId>maven-jar-plugin</artifactId><version>3.4.2</version>
        <!-- As upstream's tests jar: without the test cluster's site files, so that code using the
             tests jar (HBaseTestingUtility elsewhere) gets HBase's defaults. -->
        <executions><execution><goals><goal>test-jar</goal></goals><configuration><excludes>
          <exclude>hbase-site.xml</exclude><exclude>hdfs-site.xml</exclude>
          <exclude>mapred-queues.xml</exclude><exclude>mapred-site.xml</exclude>
          <exclude>log4j.properties</exclude><exclude>log4j2.properties</exclude>
        </excludes></configuration></execution></executions>
      </plugin>
      <plugin>
        <groupId>org.apache.maven.plugins</groupId><artifactId>maven-install-plugin</artifactId><version>3.1.3</version>
      </plugin>
      <plugin>
        <groupId>org.apache.maven.plugins</groupId><artifactId>maven-surefire-plugin</artifactId><version>3.5.2</version>
        <!-- HBase's tests are JUnit 4; a few use Jupiter's assertions only. -->
        <dependencies><dependency>
          <groupId>org.apache.maven.surefire</groupId><artifactId>surefire-junit4</artifactId><version>3.5.2</version>
        </dependency></dependencies>
        <configuration>
          <!-- As upstream: every test class in a JVM of its own; HARNESS_TEST_FORKS of them at a
               time (scripts/harness test sets harness.test.forks). -->
          <forkCount>\${harness.test.forks}</forkCount>
          <reuseForks>false</reuseForks>
          <argLine>$SUREFIRE_ARGLINE</argLine>
          <redirectTestOutputToFile>true</redirectTestOutputToFile>
          <trimStackTrace>false</trimStackTrace>
          <runOrder>alphabetical</runOrder>
          <forkedProcessTimeoutInSeconds>1800</forkedProcessTimeoutInSeconds>
          <failIfNoSpecifiedTests>false</failIfNoSpecifiedTests>
          <systemPropertyVariables>
            <test.build.classes>\${project.build.testOutputDirectory}</test.build.classes>
          </systemPropertyVariables>
        </configuration>
      </plugin>
    </plugins>
  </build>
</project>
POM
}

# released_deps MODULE VERSION: the compile and runtime dependencies of the
# released module's (flattened) pom, with the other modules the series
# touches at VERSION, the patched build. Test-scope ones come from
# scripts/conf/test-dependencies.xml instead.
released_deps() {
  local pom touched
  pom=$(fetch_artifact "$1" pom "") || exit 1
  touched=" $(series_modules | paste -sd' ' -) "
  awk -v stock="$(stock_version)" -v patched="$2" -v touched="$touched" '
    /^  <dependencies>/ { top = 1; next }
    /^  <\/dependencies>/ { top = 0 }
    !top { next }
    /^    <dependency>/ { b = ""; inb = 1 }
    inb { b = b $0 "\n" }
    /^    <\/dependency>/ {
      inb = 0
      if (b ~ /<scope>test<\/scope>/) next
      if (match(b, /<artifactId>[^<]+<\/artifactId>/)) {
        a = substr(b, RSTART + 12, RLENGTH - 25)
        if (b ~ /<groupId>org.apache.hbase<\/groupId>/ && index(touched, " " a " ")) {
          sub("<version>" stock "</version>", "<version>" patched "</version>", b)
        }
      }
      printf "%s", b
    }' "$pom"
}

# write_reactor BUILD_DIR TREE_DIR VERSION: the aggregator of the module
# projects, in upstream's module order.
write_reactor() {
  local bdir=$1 tdir=$2 version=$3 module mods=""
  mkdir -p "$bdir"
  while read -r module; do
    write_module_pom "$bdir" "$tdir" "$module" "$version"
    mods+="<module>$module</module>"
  done < <(module_build_order)
  cat >"$bdir/pom.xml" <<POM
<?xml version="1.0" encoding="UTF-8"?>
<!-- Written by scripts/harness build. -->
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>org.apache.hbase.harness</groupId>
  <artifactId>patched-modules</artifactId>
  <version>$version</version>
  <packaging>pom</packaging>
  <modules>$mods</modules>
</project>
POM
}

# module_build_order: the touched modules in the order upstream builds them.
module_build_order() {
  local order="hbase-annotations hbase-logging hbase-common hbase-metrics-api hbase-metrics
    hbase-hadoop-compat hbase-hadoop2-compat hbase-protocol-shaded hbase-protocol hbase-client
    hbase-zookeeper hbase-replication hbase-balancer hbase-http hbase-asyncfs hbase-procedure
    hbase-server" m mods
  mods=$(series_modules)
  for m in $order; do
    grep -qx "$m" <<<"$mods" && echo "$m"
  done
  # Anything not in the list above goes last.
  for m in $mods; do
    # shellcheck disable=SC2086
    [[ " "$(printf '%s ' $order) == *" $m "* ]] || echo "$m"
  done
}

# count_warnings LOG: javac warnings per compile execution, kept from the
# last time each execution really compiled.
record_warnings() {
  local log=$1 dir=$2 module
  mkdir -p "$dir"
  # Split the Maven log by module and compile execution.
  awk -v dir="$dir" '
    /--- maven-compiler-plugin:[^:]+:compile / { exec = "main" }
    /--- maven-compiler-plugin:[^:]+:testCompile / { exec = "test" }
    /--- / && !/maven-compiler-plugin/ { exec = "" }
    /Building / && /\[[0-9]+\/[0-9]+\]|Building hbase-/ { split($0, a, "Building "); mod = a[2]; sub(/ .*/, "", mod) }
    exec != "" && /Nothing to compile|Changes detected|Compiling [0-9]+ source file/ {
      if ($0 ~ /Nothing to compile/) { nothing[mod "." exec] = 1 } else { touched[mod "." exec] = 1 }
    }
    exec != "" && /^\[WARNING\] \/.*\.java:\[[0-9]+,[0-9]+\]/ { print > (dir "/" mod "." exec ".new") }
    END { for (k in touched) print k > (dir "/compiled.list") }
  ' "$log"
  local k
  if [[ -f $dir/compiled.list ]]; then
    while read -r k; do
      if [[ -f $dir/$k.new ]]; then mv "$dir/$k.new" "$dir/$k.warnings"; else : >"$dir/$k.warnings"; fi
    done <"$dir/compiled.list"
  fi
  rm -f "$dir"/*.new "$dir/compiled.list"
}

# warning_count DIR: total recorded javac warnings.
warning_count() {
  local dir=$1
  cat "$dir"/*.warnings 2>/dev/null | wc -l
}

# installed_jars_sum: a checksum of the patched jars in the Maven repository
# (missing ones count as such). A build is up to date only while the jars it
# installed are there unchanged: another HARNESS_M2_REPO, or another clone of
# the harness installing the same version, would otherwise leave the commands
# running jars of other sources.
installed_jars_sum() {
  local v m jar
  v=$(patched_version)
  for m in $(module_build_order); do
    jar=$(m2_repo)/org/apache/hbase/$m/$v/$m-$v.jar
    if [[ -f $jar ]]; then
      sha1sum "$jar" | cut -d' ' -f1
    else
      echo "missing $jar"
    fi
  done | git hash-object --stdin
}

build_stamp() {
  {
    tree_state_hash
    cat "$HARNESS_ROOT/scripts/lib/build.sh" "$HARNESS_ROOT/scripts/conf/test-dependencies.xml" "$JVM_PROPERTIES"
    series_modules
    hbase_version
  } | git hash-object --stdin
}

cmd_build() {
  require_java
  require_mvn
  require_applied
  # One build at a time per work folder: concurrent runs would share target/. The lock is held
  # by a subshell, so it is released when the build ends, however it ends.
  (
    flock 9
    build_locked
  ) 9>"$STATE/build.lock"
}

build_locked() {
  local stamp version bdir=$WORK/build
  stamp=$(build_stamp)
  version=$(patched_version)
  if [[ -f $STATE/build && $(cat "$STATE/build") == "$stamp $(installed_jars_sum)" ]]; then
    info "build: up to date ($version, $(warning_count "$STATE/javac") javac warnings)"
    return 0
  fi
  rm -f "$STATE/build"
  write_reactor "$bdir" "$TREE" "$version"
  local t0 log=$LOGS/build.log
  t0=$(now_s)
  info "build: compiling $(module_build_order | paste -sd' ' -) with --release 8 (log: $log)"
  if ! mvn_run "$log" -f "$bdir/pom.xml" install -DskipTests; then
    record_warnings "$log" "$STATE/javac"
    mvn_fail_die "$log" "build failed"
  fi
  record_warnings "$log" "$STATE/javac"
  printf '%s %s' "$stamp" "$(installed_jars_sum)" >"$STATE/build"
  info "build: installed org.apache.hbase:{$(module_build_order | paste -sd, -)}:$version (jar and tests jar) in $(($(now_s) - t0))s; javac warnings: $(warning_count "$STATE/javac")"
}

# baseline_build: compiles the unpatched baseline the same way (no install),
# for the javac warning comparison of review. Cached by baseline commit.
baseline_build() {
  local base bdir=$WORK/build-baseline btree=$WORK/baseline-tree log=$LOGS/build-baseline.log
  base=$(tgit rev-parse "$BASELINE_TAG")
  if [[ -f $STATE/baseline-build && $(cat "$STATE/baseline-build") == "$base $(series_modules | paste -sd' ' -)" ]]; then
    return 0
  fi
  rm -rf "$btree"
  tgit worktree prune
  tgit worktree add -q --detach "$btree" "$BASELINE_TAG" || return 1
  write_reactor "$bdir" "$btree" "$(stock_version)-baseline"
  if ! mvn_run "$log" -f "$bdir/pom.xml" test-compile; then
    return 1
  fi
  record_warnings "$log" "$STATE/javac-baseline"
  printf '%s' "$base $(series_modules | paste -sd' ' -)" >"$STATE/baseline-build"
}


build_usage() {
  cat <<'USAGE'
usage: scripts/harness build
Compiles every module the series touches (main and test sources, --release 8)
against the released artifacts of the other modules, counts javac warnings,
and installs the patched jars as org.apache.hbase:MODULE:VERSION-patched.
USAGE
}
