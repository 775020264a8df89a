# shellcheck shell=bash
cmd_bench() { die "bench: not yet"; }
