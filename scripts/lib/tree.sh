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
# tree.sh owns 'scripts/harness prepare', 'apply' and 'export': the git
# work tree (work/tree) that the series applies to, made from the released
# -sources jars or from an HBase checkout, with the baseline commit tagged
# harness-baseline; applying patches/ onto it with git am; and writing the
# work tree's commits back to patches/.

# Paths inside a released -sources jar that upstream generates at build time
# and that therefore must not pose as sources in the baseline. Their compiled
# form is taken from the released jar at build time (see build.sh).
generated_main_paths() {
  case $1 in
    hbase-server)
      # Jamon templates compiled to Java, and the web.xml files that jspc writes.
      echo 'org/apache/hadoop/hbase/tmpl/*'
      echo 'hbase-webapps/*/WEB-INF/web.xml'
      ;;
    hbase-common)
      # Written by src/saveVersion.sh.
      echo 'org/apache/hadoop/hbase/Version.java'
      ;;
    hbase-protocol-shaded)
      echo 'org/apache/hadoop/hbase/shaded/protobuf/generated/*'
      ;;
  esac
}

generated_test_paths() {
  case $1 in
    hbase-server)
      # Copies of the main webapps that the build puts on the test classpath.
      echo 'hbase-webapps/*'
      ;;
  esac
}

# is_generated PATH GLOB...: true when PATH matches one of the globs.
is_generated() {
  local p=$1 g
  shift
  for g in "$@"; do
    # shellcheck disable=SC2053
    [[ $p == $g ]] && return 0
  done
  return 1
}

# lay_out_jar JAR DEST JAVA_DIR RES_DIR GENERATED...: unpacks a -sources jar
# into upstream's layout: Java files under JAVA_DIR, the rest under RES_DIR.
# The files Maven adds to every jar (manifest, license, pom) are dropped.
lay_out_jar() {
  local jar=$1 dest=$2 javadir=$3 resdir=$4
  shift 4
  local x
  x=$(mktemp -d "$WORK/.unpack.XXXXXX")
  unzip -q -o "$jar" -d "$x" || { rm -rf "$x"; die "cannot unpack $jar (corrupt download? delete it and retry)"; }
  local f rel
  while IFS= read -r -d '' f; do
    rel=${f#"$x"/}
    case $rel in
      META-INF/MANIFEST.MF | META-INF/DEPENDENCIES | META-INF/LICENSE | META-INF/NOTICE | META-INF/maven/*) continue ;;
    esac
    if is_generated "$rel" "$@"; then
      continue
    fi
    if [[ $rel == *.java ]]; then
      mkdir -p "$dest/$javadir/$(dirname "$rel")"
      mv "$f" "$dest/$javadir/$rel"
    else
      mkdir -p "$dest/$resdir/$(dirname "$rel")"
      mv "$f" "$dest/$resdir/$rel"
    fi
  done < <(find "$x" -type f -print0)
  rm -rf "$x"
}

# fetch_jar MODULE CLASSIFIER: copies one released jar into $WORK/downloads
# and prints its path.
fetch_jar() {
  fetch_artifact "$1" jar "$2"
}

# fetch_artifact MODULE TYPE CLASSIFIER: copies one released artifact of
# org.apache.hbase into $WORK/downloads and prints its path.
fetch_artifact() {
  local module=$1 type=$2 classifier=$3 version
  version=$(stock_version)
  local name=$module-$version${classifier:+-$classifier}.$type
  local out=$WORK/downloads/$name
  if [[ -s $out ]]; then
    printf '%s' "$out"
    return 0
  fi
  mkdir -p "$WORK/downloads"
  local coords=org.apache.hbase:$module:$version:$type${classifier:+:$classifier}
  if ! mvn_run "$LOGS/fetch-$module-$classifier.log" \
    org.apache.maven.plugins:maven-dependency-plugin:3.8.1:copy \
    -Dartifact="$coords" -DoutputDirectory="$WORK/downloads" -Dmdep.overWriteReleases=true; then
    if [[ $MVN_FAILURE == cannot\ reach* ]]; then
      die "$MVN_FAILURE"
    elif grep -q -E 'Could not find artifact|Failure to find|was not found in' "$LOGS/fetch-$module-$classifier.log"; then
      die "HBase $(hbase_version) is unknown: $coords is not in the Maven repository"
    fi
    mvn_fail_die "$LOGS/fetch-$module-$classifier.log" "cannot fetch $coords"
  fi
  [[ -s $out ]] || die "Maven reported success but $out is missing"
  printf '%s' "$out"
}

cmd_prepare() {
  local hbase_dir="" version=$DEFAULT_HBASE_VERSION force=0
  while [[ $# -gt 0 ]]; do
    case $1 in
      --hbase-dir)
        [[ $# -ge 2 ]] || usage_error "--hbase-dir needs a directory"
        hbase_dir=$2
        shift 2
        ;;
      --hbase-version)
        [[ $# -ge 2 ]] || usage_error "--hbase-version needs a version"
        version=$2
        shift 2
        ;;
      --force)
        force=1
        shift
        ;;
      *) usage_error "prepare: unknown argument '$1'" ;;
    esac
  done
  [[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] ||
    usage_error "prepare: '$version' is not an HBase release version (expected X.Y.Z, e.g. $DEFAULT_HBASE_VERSION)"

  local source
  if [[ -n $hbase_dir ]]; then
    check_hbase_dir "$hbase_dir" "$version"
    hbase_dir=$(cd "$hbase_dir" && pwd)
    source="checkout $hbase_dir@$(git -C "$hbase_dir" rev-parse HEAD)"
  else
    require_java
    require_mvn
    source="jars $version $(series_modules | paste -sd' ' -)"
  fi

  if [[ -f $STATE/prepared && $(cat "$STATE/prepared") == "$source" && -d $TREE/.git ]]; then
    info "prepare: work tree up to date ($TREE)"
    return 0
  fi
  if [[ -d $TREE/.git && $force -eq 0 ]] && tree_has_unsaved_work; then
    die "the work tree $TREE holds commits or changes that are not exported to patches/; run 'scripts/harness export' first, or 'prepare --force' to discard them"
  fi

  mkdir -p "$WORK" "$STATE" "$LOGS"
  local tmp
  tmp=$(mktemp -d "$WORK/.tree.XXXXXX")
  # A failed or interrupted prepare leaves no tree that later steps trust.
  rm -f "$STATE/prepared" "$STATE/applied" "$STATE/apply-failed"
  printf '%s' "$version" >"$STATE/hbase-version"
  if [[ -n $hbase_dir ]]; then
    make_tree_from_checkout "$hbase_dir" "$tmp"
  else
    make_tree_from_jars "$tmp"
  fi
  rm -rf "$TREE"
  mv "$tmp" "$TREE"
  printf '%s' "$source" >"$STATE/prepared"
  info "prepare: baseline $(tgit rev-parse --short "$BASELINE_TAG") in $TREE ($source)"
}

# check_hbase_dir DIR VERSION: refuses anything but a clean HBase checkout
# at VERSION.
check_hbase_dir() {
  local dir=$1 version=$2
  [[ -d $dir ]] || die "--hbase-dir $dir: no such directory"
  local top
  top=$(git -C "$dir" rev-parse --show-toplevel 2>/dev/null) ||
    die "--hbase-dir $dir is not a git checkout"
  [[ $(cd "$dir" && pwd -P) == "$(cd "$top" && pwd -P)" ]] ||
    die "--hbase-dir $dir is inside the checkout $top; give its top folder"
  [[ -f $dir/pom.xml && -d $dir/hbase-server ]] ||
    die "--hbase-dir $dir is not an HBase checkout (no pom.xml and hbase-server/)"
  if [[ -n $(git -C "$dir" status --porcelain --untracked-files=no) ]]; then
    die "--hbase-dir $dir has uncommitted changes; commit or stash them first"
  fi
  local found
  found=$(checkout_version "$dir")
  [[ $found == "$version" ]] ||
    die "--hbase-dir $dir is at HBase ${found:-an unknown version}, not $version (check out rel/$version)"
}

# checkout_version DIR: the HBase version of a checkout: a rel/X.Y.Z tag on
# HEAD, else the <revision> property of the root pom.
checkout_version() {
  local dir=$1 tag
  tag=$(git -C "$dir" tag --points-at HEAD 2>/dev/null | sed -n -E 's#^rel/([0-9]+\.[0-9]+\.[0-9]+)$#\1#p' | head -n 1)
  if [[ -n $tag ]]; then
    printf '%s' "$tag"
    return 0
  fi
  sed -n -E 's#.*<revision>([^<]+)</revision>.*#\1#p' "$dir/pom.xml" | head -n 1
}

make_tree_from_checkout() {
  local dir=$1 tmp=$2 head
  head=$(git -C "$dir" rev-parse HEAD)
  git clone -q --no-checkout "$dir" "$tmp" || die "cannot clone $dir"
  git -C "$tmp" checkout -q -B series "$head" || die "cannot check out $head in $tmp"
  git -C "$tmp" tag -f "$BASELINE_TAG" "$head" >/dev/null
}

make_tree_from_jars() {
  local tmp=$1 module jar version
  version=$(stock_version)
  while read -r module; do
    info "prepare: $module $version: -sources and -test-sources jars"
    local gen_main=() gen_test=()
    mapfile -t gen_main < <(generated_main_paths "$module")
    mapfile -t gen_test < <(generated_test_paths "$module")
    jar=$(fetch_jar "$module" sources)
    lay_out_jar "$jar" "$tmp/$module" src/main/java src/main/resources "${gen_main[@]}"
    jar=$(fetch_jar "$module" test-sources)
    lay_out_jar "$jar" "$tmp/$module" src/test/java src/test/resources "${gen_test[@]}"
  done < <(series_modules)
  git -C "$tmp" init -q -b series
  git -C "$tmp" add -A
  local date="2000-01-01T00:00:00Z"
  GIT_AUTHOR_DATE=$date GIT_COMMITTER_DATE=$date \
    git -C "$tmp" -c user.name=harness -c user.email=harness@localhost -c commit.gpgsign=false \
    commit -q -m "HBase $(hbase_version) baseline from the released -sources and -test-sources jars" \
    -m "Modules: $(series_modules | tr '\n' ' ')" ||
    die "cannot commit the baseline in $tmp"
  git -C "$tmp" tag -f "$BASELINE_TAG" >/dev/null
}

# tree_has_unsaved_work: true when the work tree holds changes or commits
# that patches/ does not have.
tree_has_unsaved_work() {
  [[ -n $(tgit status --porcelain) ]] && return 0
  local head
  head=$(tgit rev-parse HEAD)
  [[ $head == "$(tgit rev-parse "$BASELINE_TAG")" ]] && return 1
  [[ -f $STATE/applied && $head == "$(sed -n 2p "$STATE/applied")" ]] && return 1
  return 0
}

# series_hash: a hash of the series file and every patch it lists.
series_hash() {
  local entry
  {
    series_entries
    while read -r entry; do
      cat "$PATCHES/$entry"
    done < <(series_entries)
  } | git hash-object --stdin
}

# check_series: every entry has a file and every file is a well-formed
# patch, before anything is applied.
check_series() {
  local entry out err=$WORK/.numstat.err
  while read -r entry; do
    [[ $entry != */* ]] || die "series entry '$entry' must be a file name inside patches/"
    [[ -f $PATCHES/$entry ]] || die "series entry '$entry' has no file $PATCHES/$entry"
  done < <(series_entries)
  while read -r entry; do
    grep -q '^Subject: ' "$PATCHES/$entry" ||
      die "patch $entry is corrupt: no 'Subject:' header (not a git format-patch file)"
    mkdir -p "$WORK"
    if ! out=$(git apply --numstat "$PATCHES/$entry" 2>"$err") || [[ -s $err ]]; then
      die "patch $entry is corrupt: $(head -n 1 "$err")"
    fi
    [[ -n $out ]] || die "patch $entry is corrupt: it holds no diff"
  done < <(series_entries)
}

cmd_apply() {
  local force=0
  while [[ $# -gt 0 ]]; do
    case $1 in
      --force)
        force=1
        shift
        ;;
      *) usage_error "apply: unknown argument '$1'" ;;
    esac
  done
  require_tree
  check_series
  local hash
  hash=$(series_hash)
  if [[ -f $STATE/applied && ! -f $STATE/apply-failed && -z $(tgit status --porcelain) ]] &&
    [[ $(sed -n 1p "$STATE/applied") == "$hash" && $(sed -n 2p "$STATE/applied") == "$(tgit rev-parse HEAD)" ]]; then
    info "apply: series already applied ($(series_entries | wc -l) patches)"
    return 0
  fi
  if [[ $force -eq 0 ]] && tree_has_unsaved_work; then
    die "the work tree $TREE holds commits or changes that are not exported to patches/; run 'scripts/harness export' first, or 'apply --force' to discard them"
  fi
  rm -f "$STATE/applied"
  tgit am --abort >/dev/null 2>&1 || true
  tgit reset -q --hard "$BASELINE_TAG"
  tgit clean -q -fdx
  local entry n=0 total out files
  total=$(series_entries | wc -l)
  while read -r entry; do
    n=$((n + 1))
    if ! out=$(tgit am -q --whitespace=nowarn "$PATCHES/$entry" 2>&1); then
      tgit am --abort >/dev/null 2>&1 || true
      files=$(printf '%s\n' "$out" | sed -n -E \
        -e 's/^error: patch failed: (.*):[0-9]+$/\1/p' \
        -e 's/^error: (.*): (does not exist in index|already exists in index|patch does not apply|No such file or directory|does not match index)$/\1/p' |
        sort -u | paste -sd, - | sed 's/,/, /g')
      printf 'patch %d/%d %s failed on %s' "$n" "$total" "$entry" "${files:-unknown files}" >"$STATE/apply-failed"
      die "patch $n/$total $entry does not apply: ${files:-$(printf '%s' "$out" | head -n 1)} (tree left at patch $((n - 1)))"
    fi
  done < <(series_entries)
  rm -f "$STATE/apply-failed"
  printf '%s\n%s\n' "$hash" "$(tgit rev-parse HEAD)" >"$STATE/applied"
  info "apply: $total patches applied on $BASELINE_TAG"
}

# format_series DIR: writes the commits above the baseline into DIR as
# git format-patch files and a series file. The output only depends on the
# commits' content, author and message, so it is stable across re-exports.
format_series() {
  local dir=$1
  mkdir -p "$dir"
  tgit format-patch -q --zero-commit --no-signature --full-index --no-binary \
    --no-numbered --no-thread --stat=100 --encode-email-headers \
    -o "$dir" "$BASELINE_TAG..HEAD" >/dev/null
  (cd "$dir" && find . -maxdepth 1 -name '*.patch' -printf '%f\n' | sort) >"$dir/series.tmp"
  {
    echo "# The patch series, in the order 'scripts/harness apply' applies it."
    echo "# Written by 'scripts/harness export'; do not edit the patches by hand."
    cat "$dir/series.tmp"
  } >"$dir/series"
  rm -f "$dir/series.tmp"
}

cmd_export() {
  require_tree
  [[ ! -f $STATE/apply-failed ]] ||
    die "the last apply failed ($(cat "$STATE/apply-failed")); exporting now would drop patches"
  [[ -z $(tgit status --porcelain) ]] ||
    die "the work tree $TREE has uncommitted changes; commit them there first"
  local tmp
  tmp=$(mktemp -d "$WORK/.export.XXXXXX")
  format_series "$tmp"
  mkdir -p "$PATCHES"
  find "$PATCHES" -maxdepth 1 -name '*.patch' -delete
  find "$tmp" -maxdepth 1 -name '*.patch' -exec mv {} "$PATCHES/" \;
  mv "$tmp/series" "$PATCHES/series"
  rm -rf "$tmp"
  printf '%s\n%s\n' "$(series_hash)" "$(tgit rev-parse HEAD)" >"$STATE/applied"
  info "export: $(series_entries | wc -l) patches written to $PATCHES"
}

tree_usage() {
  cat <<'USAGE'
usage: scripts/harness prepare [--hbase-dir DIR] [--hbase-version X.Y.Z] [--force]
       scripts/harness apply [--force]
       scripts/harness export
prepare makes the git work tree work/tree with the baseline source of every
module the series touches, from the released -sources jars (default) or from
the HBase checkout DIR at that version; the baseline commit is tagged
harness-baseline. apply runs git am on patches/ in series order onto the
baseline; it never discards commits not exported (--force does). export
rewrites patches/ from the work tree's commits above the baseline.
USAGE
}
