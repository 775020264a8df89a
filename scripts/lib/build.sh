# shellcheck shell=bash
# build and test: compile the patched modules and run tests against them.

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

# The JVM options HBase's tests need on JDK 17.
SUREFIRE_ARGLINE="-Xmx3g -XX:+HeapDumpOnOutOfMemoryError -Dio.netty.eventLoopThreads=3 ${JDK17_JVM_OPTS[*]}"

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
    <resources><resource><directory>\${harness.tree}/src/main/resources</directory></resource></resources>
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
          <!-- As upstream: every test class in a JVM of its own. -->
          <forkCount>1</forkCount>
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

build_stamp() {
  {
    tree_state_hash
    cat "$HARNESS_ROOT/scripts/lib/build.sh" "$HARNESS_ROOT/scripts/conf/test-dependencies.xml"
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
  if [[ -f $STATE/build && $(cat "$STATE/build") == "$stamp" ]]; then
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
  printf '%s' "$stamp" >"$STATE/build"
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

# stock_tests [--quick]: the stock HBase test classes of the list kept in
# test-harness/stock-tests.txt (a 'quick' word marks the quick subset).
stock_tests() {
  local quick=$1
  # A '#' starts a comment at the start of a line or after a blank; Class#method is a name.
  sed -e 's/^#.*$//' -e 's/[[:space:]]#.*$//' "$HARNESS_ROOT/test-harness/stock-tests.txt" | awk -v q="$quick" '
    NF == 0 { next }
    q == 1 && $2 != "quick" { next }
    { print $1 }'
}

# patch_tests: the test classes the series adds or changes.
patch_tests() {
  tgit diff --name-only --diff-filter=AM "$BASELINE_TAG" HEAD -- '*/src/test/java/*' |
    sed -n -E 's#.*/(Test[A-Za-z0-9_]*)\.java$#\1#p' | sort -u
}

# find_test_class NAME: "tree MODULE" or "harness" for where NAME lives.
find_test_class() {
  local name=${1%%#*} f
  f=$(cd "$TREE" && find . -path '*/src/test/java/*' -name "$name.java" -print -quit)
  if [[ -n $f ]]; then
    f=${f#./}
    printf 'tree %s' "${f%%/*}"
    return 0
  fi
  if [[ -n $(find "$HARNESS_ROOT/test-harness/src/test/java" -name "$name.java" -print -quit 2>/dev/null) ]]; then
    printf 'harness'
    return 0
  fi
  return 1
}

# flaky_tests LOG: the tests Surefire lists under "Flakes:", one per line.
flaky_tests() {
  awk '/^\[WARNING\] Flakes:/ { on = 1; next }
    on && /^\[WARNING\] [A-Za-z0-9_.$]+\.[A-Za-z0-9_]+/ { print $2; next }
    on && /^\[(INFO|ERROR)\]   Run [0-9]+:/ { next }
    on { on = 0 }' "$1"
}

# surefire_summary LOG: Surefire's per-class and total lines.
surefire_summary() {
  grep -E 'Tests run: [0-9]+|Flakes|FAIL|Tests in error|Failed tests|^\[ERROR\]   [A-Za-z]|There are test failures|Crashed tests|ExecutionException|timeout' "$1" |
    grep -v -E '^\[ERROR\] (To see|Re-run|-> \[Help|For more|$)|Please refer to' || true
}

# run_tree_tests [--rerun N] MODULE CLASSES...: runs these classes of MODULE's test
# tree. With --rerun, a failed test is run up to N more times, and one that then passes
# is reported as flaky by Surefire and by the line this prints.
run_tree_tests() {
  local rerun=0
  if [[ $1 == --rerun ]]; then
    rerun=$2
    shift 2
  fi
  local module=$1
  shift
  local log
  log=$LOGS/test-$module-$(date +%Y%m%d-%H%M%S)-$$-$RANDOM.log
  info "test: $module: $# classes, each in its own JVM (log: $log)"
  local rc=0
  mvn_run "$log" -f "$WORK/build/$module/pom.xml" surefire:test -Dtest="$(
    IFS=,
    echo "$*"
  )" -Dsurefire.failIfNoSpecifiedTests=false -Dsurefire.rerunFailingTestsCount="$rerun" || rc=$?
  surefire_summary "$log"
  local flaky
  flaky=$(flaky_tests "$log")
  if [[ -n $flaky ]]; then
    info "test: $module: flaky (failed, then passed on a rerun): $(paste -sd' ' <<<"$flaky")"
  fi
  if [[ $rc -ne 0 ]] && ! grep -q 'Tests run:' "$log"; then
    info "test: $module: ${MVN_FAILURE:-Maven failed}"
  fi
  return "$rc"
}

run_harness_tests() {
  local log
  log=$LOGS/test-harness-$(date +%Y%m%d-%H%M%S).log
  info "test: test-harness: ${*:-all classes} (log: $log)"
  local rc=0 args=()
  if [[ $# -gt 0 ]]; then
    args=("-Dtest=$(
      IFS=,
      echo "$*"
    )")
  fi
  mvn_run "$log" -f "$HARNESS_ROOT/test-harness/pom.xml" test \
    -Dhbase.patched.version="$(patched_version)" -Dhbase.stock.version="$(stock_version)" \
    -Dsurefire.failIfNoSpecifiedTests=false "${args[@]}" || rc=$?
  surefire_summary "$log"
  if [[ $rc -ne 0 ]] && ! grep -q 'Tests run:' "$log"; then
    info "test: test-harness: ${MVN_FAILURE:-Maven failed}"
  fi
  return "$rc"
}

run_bats() {
  command -v bats >/dev/null 2>&1 || die "bats is not installed (Debian: apt-get install bats)"
  info "test: bats test-harness/bats"
  bats --tap "$HARNESS_ROOT/test-harness/bats"
}

run_shellcheck() {
  command -v shellcheck >/dev/null 2>&1 || die "shellcheck is not installed (Debian: apt-get install shellcheck)"
  info "test: shellcheck"
  # The libraries are checked through scripts/harness, which sources them.
  shellcheck -x -P SCRIPTDIR "$HARNESS_ROOT/scripts/harness" "$HARNESS_ROOT/ci/run" \
    "$HARNESS_ROOT/.ci/run" "$HARNESS_ROOT"/test-harness/bats/*.bats "$HARNESS_ROOT"/test-harness/bats/*.bash
  echo "shellcheck: clean"
}

cmd_test() {
  local quick=0 only="" names=()
  while [[ $# -gt 0 ]]; do
    case $1 in
      --quick)
        quick=1
        shift
        ;;
      --tests)
        [[ $# -ge 2 && -n $2 ]] || usage_error "--tests needs CLASS[,CLASS...]"
        only=$2
        shift 2
        ;;
      *) usage_error "test: unknown argument '$1'" ;;
    esac
  done
  local name
  if [[ -n $only ]]; then
    [[ $only != ,* && $only != *, && $only != *,,* ]] || usage_error "test: --tests '$only' has an empty entry"
    IFS=, read -r -a names <<<"$only"
    for name in "${names[@]}"; do
      [[ $name =~ ^[A-Za-z_][A-Za-z0-9_]*(#[A-Za-z0-9_*!+]+)?$ ]] || usage_error "test: '$name' is not a test class name"
    done
  fi
  require_applied
  local -A by_module=() stock_by_module=()
  local harness=() cls where failed=0 t0
  t0=$(now_s)
  if [[ -n $only ]]; then
    for cls in "${names[@]}"; do
      where=$(find_test_class "$cls") || die "no test class named ${cls%%#*} in the work tree or test-harness/"
      if [[ $where == harness ]]; then
        harness+=("$cls")
      else
        by_module[${where#tree }]+="$cls "
      fi
    done
  else
    # The series' own tests run once. Stock tests get one rerun, because some race on
    # stock code: TestLogRolling#testLogRolling reads the rolled WAL size while the
    # asynchronous archiver may not have subtracted it yet. A rerun that passes is
    # reported as flaky, so it stays visible.
    local -a series=() list=()
    mapfile -t series < <(patch_tests)
    for cls in "${series[@]}"; do
      where=$(find_test_class "$cls") || die "test class ${cls%%#*} of the series is not in the work tree"
      by_module[${where#tree }]+="$cls "
    done
    # Stock classes the series also changes run once, with the series' tests.
    mapfile -t list < <(stock_tests "$quick" |
      awk 'NR == FNR { s[$0]; next } !($0 in s)' <(printf '%s\n' "${series[@]}") -)
    for cls in "${list[@]}"; do
      where=$(find_test_class "$cls") || die "test class ${cls%%#*} (test-harness/stock-tests.txt) is not in the work tree"
      stock_by_module[${where#tree }]+="$cls "
    done
  fi
  cmd_build
  local module
  for module in "${!by_module[@]}"; do
    # shellcheck disable=SC2086
    run_tree_tests "$module" ${by_module[$module]} || failed=1
  done
  for module in "${!stock_by_module[@]}"; do
    # shellcheck disable=SC2086
    run_tree_tests --rerun 1 "$module" ${stock_by_module[$module]} || failed=1
  done
  if [[ -z $only ]]; then
    run_harness_tests || failed=1
    run_shellcheck || failed=1
    run_bats || failed=1
  elif [[ ${#harness[@]} -gt 0 ]]; then
    run_harness_tests "${harness[@]}" || failed=1
  fi
  if [[ $failed -ne 0 ]]; then
    die "test: FAILED after $(fmt_duration $(($(now_s) - t0)))"
  fi
  info "test: all passed in $(fmt_duration $(($(now_s) - t0)))"
}
