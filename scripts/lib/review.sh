# shellcheck shell=bash
cmd_review() { :; }
