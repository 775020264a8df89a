# shellcheck shell=bash
# Shared by the bats files: a harness with a work folder and an empty series
# of the test's own, so that no test touches the real work/ or patches/.

harness_sandbox() {
  # shellcheck disable=SC2034 # used by the .bats files that load this one
  HARNESS="$BATS_TEST_DIRNAME/../../scripts/harness"
  export HARNESS_WORK="$BATS_TEST_TMPDIR/work"
  export HARNESS_PATCHES="$BATS_TEST_TMPDIR/patches"
  mkdir -p "$HARNESS_PATCHES"
  printf '# empty series\n' >"$HARNESS_PATCHES/series"
}
