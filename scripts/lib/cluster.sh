# shellcheck shell=bash
# cluster: a pseudo-distributed cluster on loopback, each role a JVM of its own.

cmd_cluster() {
  die "cluster: not implemented yet"
}
