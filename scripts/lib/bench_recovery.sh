# shellcheck shell=bash
# bench recovery: how long a killed RegionServer's regions take to serve
# again, with the memstore rebuilt from persistent memory (HBASE-20003,
# SKIP_WAL puts) against WAL split and replay of the same edits (SYNC_WAL
# puts, no pmem). Same cluster layout for both: the local cluster
# (cluster.sh) with 2 RegionServers and retained assignment, every region of
# the table on rs1, hbase:meta and the rest on rs2; rs1 is killed with
# SIGKILL and restarted at once, and the time runs from the restart until a
# get succeeds on every region. Steps run through CrashTool (crash.sh).

bench_recovery_usage() {
  cat <<'USAGE'
usage: scripts/harness bench recovery [--sizes 128m,1g] [--modes pmem,wal]
         [--reps 1] [--regions 8] [--value-size 1024] [--threads 8]
         [--build stock|patched] [--rs-heap 6g] [--timeout 1800]
For each size (memstore data of the table, all on rs1): load it, kill -9
rs1, restart it, and time until every region serves a get.
  pmem  the persistent-memory option on, SKIP_WAL puts: memstore rebuilt
  wal   the option off, SYNC_WAL puts: WAL split and replay
Results in work/bench/recovery/STAMP (results.csv, summary.md).
USAGE
}

# bench_recovery_row_bytes TAG VALUE_SIZE: the memstore data of one row: a
# KeyValue of the key PP-TAG-SEQUENCE (RowKeys), family f, qualifier q and
# the value.
bench_recovery_row_bytes() {
  local key=$((2 + 1 + ${#1} + 1 + 12))
  printf '%s' $((4 + 4 + 2 + key + 1 + 1 + 1 + 8 + 1 + $2))
}

bench_recovery() {
  local sizes_arg=128m,1g modes_arg=pmem,wal reps=1 regions=8 value_size=1024 threads=8
  local build=patched rs_heap=${HARNESS_BENCH_RECOVERY_RS_HEAP:-6g} timeout=1800
  local heap_b
  while [[ $# -gt 0 ]]; do
    case $1 in
      --sizes | --modes | --reps | --regions | --value-size | --threads | --build | --rs-heap | --timeout)
        [[ $# -ge 2 ]] || usage_error "bench recovery: $1 needs a value"
        case $1 in
          --sizes) sizes_arg=$2 ;;
          --modes) modes_arg=$2 ;;
          --reps) parse_count reps "bench recovery: --reps" "$2" 1 100 ;;
          --regions) parse_count regions "bench recovery: --regions" "$2" 1 1296 ;;
          --value-size) parse_count value_size "bench recovery: --value-size" "$2" 1 10485760 ;;
          --threads) parse_count threads "bench recovery: --threads" "$2" 1 1000 ;;
          --timeout) parse_count timeout "bench recovery: --timeout" "$2" 10 86400 ;;
          --build)
            [[ $2 == stock || $2 == patched ]] || usage_error "bench recovery: unknown build '$2' (stock or patched)"
            build=$2
            ;;
          --rs-heap)
            parse_size heap_b "bench recovery: --rs-heap" "$2" $((256 << 20)) $((1 << 40))
            rs_heap=$2
            ;;
        esac
        shift 2
        ;;
      -h | --help)
        bench_recovery_usage
        return 0
        ;;
      *) usage_error "bench recovery: unknown option '$1'" ;;
    esac
  done
  cluster_check_env
  local -a sizes=() modes=() size_b=()
  local s b max_b=0
  IFS=, read -r -a sizes <<<"$sizes_arg"
  [[ ${#sizes[@]} -gt 0 ]] || usage_error "bench recovery: --sizes needs a list such as 128m,1g"
  for s in "${sizes[@]}"; do
    parse_size b "bench recovery: each of --sizes" "$s" $((1 << 20)) $((1 << 40))
    size_b+=("$b")
    [[ $b -le $max_b ]] || max_b=$b
  done
  IFS=, read -r -a modes <<<"$modes_arg"
  [[ ${#modes[@]} -gt 0 ]] || usage_error "bench recovery: --modes needs pmem, wal or both"
  local m pmem_wanted=0
  for m in "${modes[@]}"; do
    [[ $m == pmem || $m == wal ]] || usage_error "bench recovery: unknown mode '$m' (pmem or wal)"
    [[ $m != pmem ]] || pmem_wanted=1
  done
  parse_size heap_b "bench recovery: --rs-heap" "$rs_heap" $((256 << 20)) $((1 << 40))
  # The memstore must hold the largest size without a flush: 0.6 of the heap,
  # less a margin for the chunks' slack and the replay.
  if ((max_b * 2 > heap_b * 6 / 10)); then
    usage_error "bench recovery: --rs-heap $rs_heap is too small for $((max_b >> 20)) MiB of memstore data (needs at least $(((max_b * 2 * 10 / 6 >> 30) + 1))g)"
  fi
  export LC_NUMERIC=C
  require_java
  CRASH_KIND="bench recovery"
  crash_preflight "$build" "$pmem_wanted" 2
  crash_classpath "$build"
  CRASH_TIMEOUT=$timeout
  CRASH_TABLE_NAME=harness_recovery
  crash_run_dir bench/recovery
  local run=$CRASH_RUN
  trap 'crash_cleanup "failed (exit status $?)"' EXIT
  trap 'crash_cleanup "was interrupted"; exit 130' INT
  trap 'crash_cleanup "was terminated"; exit 143' TERM HUP

  # The whole table in the memstore of one RegionServer until the kill.
  local -a common=(--conf "hbase.hregion.memstore.flush.size=$((8 << 30))"
    --conf hbase.regionserver.global.memstore.size=0.6 --conf hfile.block.cache.size=0.1
    --conf hbase.regionserver.optionalcacheflushinterval=0 --conf hbase.regionserver.maxlogs=512
    --conf hbase.hregion.memstore.block.multiplier=4)
  local pmem_size=$((max_b * 2 + (1 << 30)))
  {
    printf 'started: %s\nbuild: %s (%s)\nsizes: %s\nmodes: %s\nreps: %s\nregions: %s\n' \
      "$(date '+%Y-%m-%d %H:%M:%S')" "$build" "$(build_version "$build")" "$sizes_arg" "$modes_arg" "$reps" "$regions"
    printf 'value size: %s\nthreads: %s\nRegionServer heap: %s\nserver settings: %s\npmem size per RegionServer: %s\n' \
      "$value_size" "$threads" "$rs_heap" "${common[*]}" "$pmem_size"
    printf 'machine: %s cores, %s\nload average at the start: %s\n' "$(nproc)" \
      "$(awk '/MemTotal/ { printf "%.0f GiB RAM", $2 / 1048576 }' /proc/meminfo)" "$(cut -d' ' -f1-3 /proc/loadavg)"
  } >"$run/run.txt"
  info "bench recovery: run folder $run"
  printf 'mode,size,rep,rows,memstore_mb,storefile_mb,load_s,rs_up_s,online_s,sampled,lost\n' >"$run/results.csv.partial"
  export HARNESS_CLUSTER_RS_HEAP=$rs_heap
  local i rep mode label rows port1 failures=0
  for mode in "${modes[@]}"; do
    local -a start=(cluster start --build "$build" --regionservers 2 --retain-assignment "${common[@]}")
    local durability=SYNC_WAL
    if [[ $mode == pmem ]]; then
      start+=(--pmem --conf "$PMEM_SIZE_KEY=$pmem_size")
      durability=SKIP_WAL
    fi
    info "bench recovery: [$mode] starting the cluster"
    crash_use_cluster "$run/cluster-$mode"
    CRASH_STARTED=1
    crash_harness "${start[@]}"
    port1=$(role_port rs1)
    for ((i = 0; i < ${#sizes[@]}; i++)); do
      label=${sizes[$i]}
      for ((rep = 1; rep <= reps; rep++)); do
        local tag="$mode$label$rep" t_up row_b
        tag=${tag//[!A-Za-z0-9]/}
        row_b=$(bench_recovery_row_bytes "$tag" "$value_size")
        rows=$(((size_b[i] + row_b - 1) / row_b))
        info "bench recovery: [$mode $label rep $rep] $rows rows with $durability onto rs1"
        crash_tool create --regions "$regions"
        crash_tool gather --port "$port1"
        crash_tool load --rows "$rows" --tag "$tag" --threads "$threads" --batch 100 --value-size "$value_size" \
          --durability "$durability" --ledger "$run/acked-$tag.txt"
        local load_s mem_b file_b
        load_s=$(crash_field seconds)
        crash_tool memstore
        mem_b=$(crash_field bytes)
        file_b=$(crash_field storefile_bytes)
        if [[ $file_b -gt 0 ]]; then
          info "bench recovery: [$mode $label rep $rep] warning: $((file_b >> 20)) MiB were flushed during the load"
        fi
        local layout off
        layout=$(crash_layout)
        off=$(awk -v p=",$port1," 'index($2, p) == 0' <<<"$layout" | wc -l)
        [[ $off -eq 0 ]] || crash_fail "bench recovery: $off regions of the table are not on rs1 before the kill"
        info "bench recovery: [$mode $label rep $rep] $((mem_b >> 20)) MiB in the memstore of rs1; kill -9 rs1, restart"
        crash_kill_restart "$tag" rs1
        t_up=$CRASH_UP_MS
        info "bench recovery: [$mode $label rep $rep] every region serves $(crash_secs "$CRASH_ONLINE_MS") s after the restart began (rs1 up after $(crash_secs "$t_up") s)"
        local rc=0 lost
        crash_tool verify --ledger "$run/acked-$tag.txt" --value-size "$value_size" --sample 10000 \
          --missing "$run/lost-$tag.txt" || rc=$?
        lost=$(($(crash_field missing) + $(crash_field wrong)))
        if [[ $lost -ne 0 ]]; then
          failures=$((failures + 1))
          info "bench recovery: [$mode $label rep $rep] $lost of $(crash_field checked) sampled acknowledged rows are lost or wrong"
        fi
        printf '%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n' "$mode" "$label" "$rep" "$rows" "$((mem_b >> 20))" \
          "$((file_b >> 20))" "$load_s" "$(crash_secs "$t_up")" "$(crash_secs "$CRASH_ONLINE_MS")" \
          "$(crash_field checked)" "$lost" >>"$run/results.csv.partial"
        crash_tool drop
      done
    done
    info "bench recovery: [$mode] stopping the cluster"
    crash_cluster_down
    CRASH_STARTED=0
  done
  mv "$run/results.csv.partial" "$run/results.csv"
  bench_recovery_summary "$run/results.csv" "${sizes[@]}" >"$run/summary.md"
  echo
  cat "$run/summary.md"
  echo "run folder: $run"
  CRASH_DONE=1
  rm -f "$run/INCOMPLETE" "$run/tool.out"
  crash_cleanup done
  [[ $failures -eq 0 ]] || die "bench recovery: acknowledged rows were lost in $failures measurements (lost column of $run/results.csv)"
}

# bench_recovery_summary CSV SIZE...: the medians per mode and size, and the ratio.
bench_recovery_summary() {
  local csv=$1
  shift
  printf '# Recovery of a killed RegionServer: memstore rebuilt from persistent memory against WAL replay\n\n'
  printf 'Time from the restart of the killed RegionServer until a get succeeds on every region of the table\n'
  printf '(median over the repetitions; "after RS up": from the RegionServer serving until then).\n\n'
  printf '| size | memstore MiB | pmem rebuild s | WAL replay s | WAL / pmem | pmem after RS up s | WAL after RS up s | WAL / pmem after RS up | lost |\n'
  printf '|---|---|---|---|---|---|---|---|---|\n'
  local s
  for s in "$@"; do
    awk -F, -v size="$s" '
      function median(arr, n,   i, j, t) {
        for (i = 2; i <= n; i++) { t = arr[i]; for (j = i - 1; j >= 1 && arr[j] > t; j--) arr[j + 1] = arr[j]; arr[j + 1] = t }
        return n % 2 ? arr[(n + 1) / 2] : (arr[n / 2] + arr[n / 2 + 1]) / 2
      }
      NR > 1 && $2 == size {
        m = $1; n[m]++; on[m, n[m]] = $9; after[m, n[m]] = $9 - $8; mem[m] = $5; lost += $11
      }
      END {
        for (m in n) {
          for (i = 1; i <= n[m]; i++) { a[i] = on[m, i]; b[i] = after[m, i] }
          med[m] = median(a, n[m]); meda[m] = median(b, n[m])
        }
        p = ("pmem" in n) ? sprintf("%.1f", med["pmem"]) : "-"
        w = ("wal" in n) ? sprintf("%.1f", med["wal"]) : "-"
        pa = ("pmem" in n) ? sprintf("%.1f", meda["pmem"]) : "-"
        wa = ("wal" in n) ? sprintf("%.1f", meda["wal"]) : "-"
        r = (("pmem" in n) && ("wal" in n) && med["pmem"] > 0) ? sprintf("%.1fx", med["wal"] / med["pmem"]) : "-"
        ra = (("pmem" in n) && ("wal" in n) && meda["pmem"] > 0) ? sprintf("%.1fx", meda["wal"] / meda["pmem"]) : "-"
        mm = ("pmem" in mem) ? mem["pmem"] : mem["wal"]
        printf "| %s | %s | %s | %s | %s | %s | %s | %s | %d |\n", size, mm, p, w, r, pa, wa, ra, lost
      }' "$csv"
  done
  printf '\nEvery row: results.csv (load_s is the time the load took; storefile_mb > 0 means a flush happened during the load).\n'
}
