#!/bin/sh
# Runs a command (exec: the same process, so signals and kill reach it) with jemalloc preloaded
# when the machine has it. DuckDB's Node build has no allocator of its own, and glibc's malloc
# keeps what DuckDB frees in per-thread arenas: the same 10M build peaked at 2.3 GB in one run
# and 3.8 GB in another. Under jemalloc a 1M build peaked 200-300 MB lower and ran a little
# faster (docs/etl.md, "Memory"; docs/scale.md).
#   ETL_MALLOC=auto (default): jemalloc when installed (Debian: libjemalloc2), else glibc's malloc
#   ETL_MALLOC=jemalloc: jemalloc or exit 2     ETL_MALLOC=system: glibc's malloc
#   ETL_JEMALLOC=/path/libjemalloc.so.2: the library to use instead of looking in the usual places
mode=${ETL_MALLOC:-auto}
case "$mode" in
  auto|jemalloc|system) ;;
  *) echo "ETL_MALLOC must be auto, jemalloc or system, not \"$mode\"" >&2; exit 2 ;;
esac
if [ "$mode" != system ]; then
  lib=""
  if [ -n "${ETL_JEMALLOC:-}" ]; then
    if [ -r "$ETL_JEMALLOC" ]; then lib=$ETL_JEMALLOC; else
      echo "ETL_JEMALLOC=$ETL_JEMALLOC: no such readable file" >&2; exit 2
    fi
  else
    for f in /usr/lib/x86_64-linux-gnu/libjemalloc.so.2 /usr/lib/aarch64-linux-gnu/libjemalloc.so.2 /usr/lib64/libjemalloc.so.2 /usr/lib/libjemalloc.so.2; do
      if [ -r "$f" ]; then lib=$f; break; fi
    done
  fi
  if [ -n "$lib" ]; then
    export LD_PRELOAD="$lib${LD_PRELOAD:+ $LD_PRELOAD}"
    # Freed pages back to the system within about a second, by jemalloc's own thread. With its
    # default 10 s decay the 10M build still peaked at 3,367 MB: DuckDB frees and re-allocates
    # its blocks across threads as it evicts and reloads tables, and in postcodes' few seconds
    # a GB and a half of them waited to be purged. With these it peaked at 2.1 GB. A MALLOC_CONF
    # already set is kept.
    export MALLOC_CONF="${MALLOC_CONF:-background_thread:true,dirty_decay_ms:1000,muzzy_decay_ms:0}"
  elif [ "$mode" = jemalloc ]; then
    echo "ETL_MALLOC=jemalloc but libjemalloc.so.2 is not installed (Debian: apt-get install libjemalloc2)" >&2; exit 2
  fi
fi
exec "$@"
