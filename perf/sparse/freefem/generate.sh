#!/usr/bin/env bash
# The 2016 BiCG paper's systems (Table 1: stenosis M1-M4, FSI M5-M8) and their small instances, generated with
# FreeFem++ (stenosis.edp, fsi.edp; docs/performance.md, "The paper's own systems") as Matrix Market files:
#   NAME.mtx.gz (real general coordinate) and NAME.rhs.mtx.gz (array, n x 1).
#
#   perf/sparse/freefem/generate.sh [--count] [--out DIR] NAME...
#     NAME: M1 ... M8 (Table 1's sizes), stenosis-small and fsi-small (the instances in data/matrices), or
#           stenosis:N / fsi:N (N points on the tube's circumference, the mesh parameter).
#     --count  assemble and print rows and nonzeros per row against Table 1, write nothing.
#     --rows   print the rows alone (the mesh and the space, no assembly: seconds), write nothing.
#     --out    where the files go (default $PPL_FREEFEM_CACHE, else build/freefem in the repository, where
#              configs/studies/bicg_paper_freefem.yaml reads them). A file already there is kept (a cache: delete
#              it to regenerate).
# Each matrix is checked against Table 1 (rows within 5%, nonzeros per row within 2) and the result printed.
# Debian's freefem++ is installed if missing (apt-get; never needed by ppl's build or tests). Generation is one
# FreeFem++ process per matrix (sequential); M8 needs about 20 GB of memory.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${PPL_FREEFEM_CACHE:-$here/../../../build/freefem}
count=0
names=()
while [ $# -gt 0 ]; do
  case "$1" in
    --count) count=1 ;;
    --rows) count=2 ;;
    --out) out=$2; shift ;;
    -h | --help) sed -n '2,15p' "$0"; exit 0 ;;
    -*) echo "generate.sh: unknown option '$1'" >&2; exit 2 ;;
    *) names+=("$1") ;;
  esac
  shift
done
[ ${#names[@]} -gt 0 ] || { echo "generate.sh: name at least one matrix (M1 ... M8, stenosis-small, fsi-small)" >&2; exit 2; }

# name -> "script circumference-points table1-rows table1-nonzeros-per-row" (0 0: no Table 1 entry). The points
# were chosen as the integers whose rows come nearest to Table 1's.
spec() {
  case "$1" in
    M1) echo "stenosis 70 496555 26.7" ;;
    M2) echo "stenosis 78 654497 26.9" ;;
    M3) echo "stenosis 91 1088031 27.2" ;;
    M4) echo "stenosis 98 1312695 27.4" ;;
    M5) echo "fsi 48 714555 84.4" ;;
    M6) echo "fsi 59 1230723 84.8" ;;
    M7) echo "fsi 67 1766187 85.0" ;;
    M8) echo "fsi 80 3126555 85.3" ;;
    stenosis-small) echo "stenosis 24 0 0" ;;
    fsi-small) echo "fsi 8 0 0" ;;
    stenosis:[0-9]*) echo "stenosis ${1#stenosis:} 0 0" ;;
    fsi:[0-9]*) echo "fsi ${1#fsi:} 0 0" ;;
    *) return 1 ;;
  esac
}

if ! command -v FreeFem++ >/dev/null || ! [ -e /usr/lib/freefem++/msh3.so ]; then
  echo "generate.sh: installing Debian's freefem++ (a data generator only)" >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends freefem++ libfreefem++ >&2
fi
# Debian's FreeFem++ 4.11 binary looks for its plugins (msh3) under /usr/lib/ff++/4.9/lib; the package puts them
# in /usr/lib/freefem++.
export FF_LOADPATH=${FF_LOADPATH:-/usr/lib/freefem++}
version=$(FreeFem++ -nw -h 2>&1 </dev/null | grep -o 'FreeFem++ v[0-9.]*' | head -1 | cut -d' ' -f2 || true)
package=$(dpkg-query -W -f='${Version}' freefem++ 2>/dev/null || echo unknown)
mkdir -p "$out"
out=$(cd "$out" && pwd)  # FreeFem++ runs in a temporary folder
status=0
for name in "${names[@]}"; do
  read -r script nc rows_t1 per_row_t1 <<<"$(spec "$name")" || { echo "generate.sh: unknown matrix '$name'" >&2; exit 2; }
  file=$out/${name/:/-}
  if [ "$count" = 0 ] && [ -s "$file.mtx.gz" ] && [ -s "$file.rhs.mtx.gz" ]; then
    echo "$name: $file.mtx.gz (cached)"
    continue
  fi
  tmp=$(mktemp -d "$out/.${name/:/-}.XXXXXX")
  trap 'rm -rf "$tmp"' EXIT
  start=$(date +%s)
  line=$(cd "$tmp" && FreeFem++ -nw -v 0 "$here/$script.edp" -nc "$nc" -out "$tmp/sys" -count "$count" | grep '^rows')
  read -r _ rows _ nnz _ per_row <<<"$line"
  verdict=""
  if [ "$rows_t1" != 0 ]; then
    verdict=$(python3 -c "
r, t, p, q = $rows, $rows_t1, $per_row, $per_row_t1
ok = abs(r - t) <= 0.05 * t and (p == 0 or abs(p - q) <= 2)
per_row = f', per row {p - q:+.2f}' if p else ''
print(f'Table 1: {t:,} rows, {q} per row; rows {100 * (r - t) / t:+.2f}%{per_row}: ' + ('within' if ok else 'OUTSIDE') + ' the bounds')
")
    case "$verdict" in *OUTSIDE*) status=1 ;; esac
  fi
  if [ "$count" = 2 ]; then
    printf '%s: %s, %s points, %s rows%s (%ss)\n' "$name" "$script" "$nc" "$rows" "${verdict:+; $verdict}" \
      "$(($(date +%s) - start))"
  else
    printf '%s: %s, %s points, %s rows, %s nonzeros, %.2f per row%s (%ss)\n' "$name" "$script" "$nc" "$rows" "$nnz" \
      "$per_row" "${verdict:+; $verdict}" "$(($(date +%s) - start))"
  fi
  if [ "$count" = 0 ]; then
    # FreeFem++'s matrix format: three comment lines, "n m symmetric nnz", then "i j a_ij" 1-based: the body of a
    # Matrix Market coordinate file as it stands.
    {
      printf '%%%%MatrixMarket matrix coordinate real general\n'
      printf '%% ppl %s (%s points on the circumference): perf/sparse/freefem/%s.edp, FreeFem++ %s (Debian %s)\n' \
        "$name" "$nc" "$script" "$version" "$package"
      sed -n 4p "$tmp/sys.A.ff" | awk '{print $1, $2, $4}'
      tail -n +5 "$tmp/sys.A.ff"
    } | gzip -6 -n >"$tmp/A.mtx.gz"
    # The vector: its length, then the values, five to a line.
    python3 - "$tmp/sys.b.ff" "$tmp/b.mtx" "$name" <<'PY'
import sys
tokens = open(sys.argv[1]).read().split()
n, values = int(tokens[0]), tokens[1:]
assert len(values) == n, (len(values), n)
with open(sys.argv[2], "w") as f:
    f.write("%%MatrixMarket matrix array real general\n")
    f.write(f"% ppl {sys.argv[3]}: the right-hand side\n{n} 1\n")
    f.write("\n".join(values) + "\n")
PY
    gzip -6 -n "$tmp/b.mtx"
    mv "$tmp/b.mtx.gz" "$file.rhs.mtx.gz"
    mv "$tmp/A.mtx.gz" "$file.mtx.gz"
    echo "  -> $file.mtx.gz, $file.rhs.mtx.gz"
  fi
  rm -rf "$tmp"
  trap - EXIT
done
exit $status
