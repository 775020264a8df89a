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
# zeros, and are bounds-checked before bash arithmetic could overflow.

# need_value OPTION NARGS: OPTION has a value after it (NARGS is $# at OPTION).
need_value() {
  [[ $2 -ge 2 ]] || usage_error "$1 needs a value"
}

# parse_count VAR WHAT VALUE MIN MAX: VALUE is a whole decimal number from MIN
# to MAX (leading zeros are decimal, never octal); sets VAR to it. Otherwise a
# usage error that names WHAT, before anything is started.
parse_count() {
  local var=$1 what=$2 value=$3 min=$4 max=$5 digits
  [[ $value =~ ^[0-9]+$ ]] || usage_error "$what must be a whole number from $min to $max, not '$value'"
  digits=${value#"${value%%[!0]*}"}
  # 18 digits stay below 2^63: longer ones are out of range before bash could overflow.
  [[ ${#digits} -le 18 ]] || usage_error "$what must be a whole number from $min to $max, not '$value'"
  value=$((10#${digits:-0}))
  ((value >= min && value <= max)) || usage_error "$what must be a whole number from $min to $max, not '$3'"
  printf -v "$var" '%s' "$value"
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
  local var=$1 what=$2 value=$3 min=$4 max=$5 bytes
  if ! bytes=$(size_bytes "$value") || ((bytes < min || bytes > max)); then
    usage_error "$what must be a size from $(fmt_size "$min") to $(fmt_size "$max") such as 128m or 1g, not '$value'"
  fi
  printf -v "$var" '%s' "$bytes"
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
  local var=$1 what=$2 value=$3 c
  shift 3
  for c in "$@"; do
    if [[ $value == "$c" ]]; then
      printf -v "$var" '%s' "$value"
      return 0
    fi
  done
  local list
  list=$(printf '%s, ' "$@")
  usage_error "$what must be one of ${list%, }, not '$value'"
}

# parse_count_list VAR WHAT LIST MIN MAX: LIST is comma-separated whole
# numbers from MIN to MAX, none twice; sets the array VAR to them.
parse_count_list() {
  local -n pcl_out=$1
  local what=$2 list=$3 min=$4 max=$5 item n seen=" "
  local -a items=()
  [[ -n $list && $list != ,* && $list != *, && $list != *,,* ]] ||
    usage_error "$what must be a comma-separated list such as 1,4,16, not '$list'"
  pcl_out=()
  IFS=, read -r -a items <<<"$list"
  for item in "${items[@]}"; do
    parse_count n "$what '$list': each" "$item" "$min" "$max"
    [[ $seen != *" $n "* ]] || usage_error "$what '$list' names $n twice"
    seen+="$n "
    pcl_out+=("$n")
  done
}

# parse_conf VAR WHAT VALUE: VALUE is KEY=VALUE with a configuration key name
# before the '='; sets VAR to it.
parse_conf() {
  [[ $3 =~ ^[A-Za-z0-9_.-]+=.* ]] || usage_error "$2 '$3' is not KEY=VALUE"
  printf -v "$1" '%s' "$3"
}
