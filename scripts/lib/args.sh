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
# args.sh owns the checks of command-line values: one family of functions,
# each of which either sets the caller's variable to the checked value or
# stops with a one-line usage error (exit 2) that names the option, before
# anything is started or created. Numbers are decimal even with leading
# zeros, and are bounds-checked before bash arithmetic could overflow. Their
# locals are prefixed, so that they never hide the caller's variable.

# need_value OPTION NARGS: OPTION has a value after it (NARGS is $# at OPTION).
need_value() {
  [[ $2 -ge 2 ]] || usage_error "$1 needs a value"
}

# parse_count VAR WHAT VALUE MIN MAX: VALUE is a whole decimal number from MIN
# to MAX (leading zeros are decimal, never octal); sets VAR to it. Otherwise a
# usage error that names WHAT, before anything is started.
parse_count() {
  local _pc_what=$2 _pc_value=$3 _pc_min=$4 _pc_max=$5 _pc_digits
  local _pc_msg="$_pc_what must be a whole number from $_pc_min to $_pc_max, not '$_pc_value'"
  [[ $_pc_value =~ ^[0-9]+$ ]] || usage_error "$_pc_msg"
  _pc_digits=${_pc_value#"${_pc_value%%[!0]*}"}
  # 18 digits stay below 2^63: longer ones are out of range before bash could overflow.
  [[ ${#_pc_digits} -le 18 ]] || usage_error "$_pc_msg"
  _pc_value=$((10#${_pc_digits:-0}))
  ((_pc_value >= _pc_min && _pc_value <= _pc_max)) || usage_error "$_pc_msg"
  printf -v "$1" '%s' "$_pc_value"
}

# size_bytes SIZE: 512m, 2g, 1048576 -> bytes; fails on anything else, and on
# a size of 2^62 bytes or more (it would overflow bash's arithmetic).
size_bytes() {
  local n unit shift=0 digits
  [[ $1 =~ ^([0-9]+)([kKmMgGtT]?)$ ]] || return 1
  n=${BASH_REMATCH[1]}
  unit=${BASH_REMATCH[2],,}
  digits=${n#"${n%%[!0]*}"}
  [[ ${#digits} -le 18 ]] || return 1
  n=$((10#${digits:-0}))
  case $unit in
    k) shift=10 ;;
    m) shift=20 ;;
    g) shift=30 ;;
    t) shift=40 ;;
  esac
  ((n < (1 << (62 - shift)))) || return 1
  printf '%s' $((n << shift))
}

# parse_size VAR WHAT VALUE MIN MAX: VALUE is a size (see size_bytes) from MIN
# to MAX bytes; sets VAR to the bytes. Otherwise a usage error naming WHAT.
parse_size() {
  local _ps_what=$2 _ps_value=$3 _ps_min=$4 _ps_max=$5 _ps_bytes
  if ! _ps_bytes=$(size_bytes "$_ps_value") || ((_ps_bytes < _ps_min || _ps_bytes > _ps_max)); then
    usage_error "$_ps_what must be a size from $(fmt_size "$_ps_min") to $(fmt_size "$_ps_max") such as 128m or 1g, not '$_ps_value'"
  fi
  printf -v "$1" '%s' "$_ps_bytes"
}

# fmt_size BYTES: the shortest exact form, 1048576 -> 1m.
fmt_size() {
  local n=$1 u
  for u in t g m k; do
    case $u in
      t) ((n >= 1 << 40 && n % (1 << 40) == 0)) && printf '%st' $((n >> 40)) && return ;;
      g) ((n >= 1 << 30 && n % (1 << 30) == 0)) && printf '%sg' $((n >> 30)) && return ;;
      m) ((n >= 1 << 20 && n % (1 << 20) == 0)) && printf '%sm' $((n >> 20)) && return ;;
      k) ((n >= 1 << 10 && n % (1 << 10) == 0)) && printf '%sk' $((n >> 10)) && return ;;
    esac
  done
  printf '%s' "$n"
}

# parse_choice VAR WHAT VALUE CHOICE...: VALUE is one of the CHOICEs; sets VAR.
parse_choice() {
  local _pch_var=$1 _pch_what=$2 _pch_value=$3 _pch_c _pch_list
  shift 3
  for _pch_c in "$@"; do
    if [[ $_pch_value == "$_pch_c" ]]; then
      printf -v "$_pch_var" '%s' "$_pch_value"
      return 0
    fi
  done
  _pch_list=$(printf '%s, ' "$@")
  usage_error "$_pch_what must be one of ${_pch_list%, }, not '$_pch_value'"
}

# parse_count_list VAR WHAT LIST MIN MAX: LIST is comma-separated whole
# numbers from MIN to MAX, none twice; sets the array VAR to them.
parse_count_list() {
  local -n _pcl_out=$1
  local _pcl_what=$2 _pcl_list=$3 _pcl_item _pcl_n _pcl_seen=" "
  local -a _pcl_items=()
  [[ -n $_pcl_list && $_pcl_list != ,* && $_pcl_list != *, && $_pcl_list != *,,* ]] ||
    usage_error "$_pcl_what must be a comma-separated list such as 1,4,16, not '$_pcl_list'"
  _pcl_out=()
  IFS=, read -r -a _pcl_items <<<"$_pcl_list"
  for _pcl_item in "${_pcl_items[@]}"; do
    parse_count _pcl_n "$_pcl_what '$_pcl_list': each" "$_pcl_item" "$4" "$5"
    [[ $_pcl_seen != *" $_pcl_n "* ]] || usage_error "$_pcl_what '$_pcl_list' names $_pcl_n twice"
    _pcl_seen+="$_pcl_n "
    _pcl_out+=("$_pcl_n")
  done
}

# parse_conf VAR WHAT VALUE: VALUE is KEY=VALUE with a configuration key name
# before the '='; sets VAR to it.
parse_conf() {
  [[ $3 =~ ^[A-Za-z0-9_.-]+=.* ]] || usage_error "$2 '$3' is not KEY=VALUE"
  printf -v "$1" '%s' "$3"
}
