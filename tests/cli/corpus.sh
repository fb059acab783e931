#!/usr/bin/env bash
# The bad-input corpus (tests/cli/corpus/*/*.case, format in tests/cli/corpus/README.md) run through the real
# `ppl` binary. Per case: its files are written into a fresh folder, its setup runs there, the folder is
# fingerprinted, `ppl ARGS` runs in it, and then
#   - the exit code must be the expected one;
#   - for exits 1 and 2 stderr must be exactly one line containing the expected fragment (file:line or key); for
#     0, 3 and 4 stderr must be empty and the fragment must appear on stdout;
#   - no file may have changed or appeared except the case's `writes:` list (so no *.tmp.* debris);
#   - for `run` cases, `ppl validate` with the same job and --set flags (run first, on the untouched folder) must
#     exit 2 with the same fragment when the run exits 2, and 0 otherwise, writing nothing.
# Cases run in parallel. Cases named in corpus/known_failures.txt are reported as known failures (the area that
# owns the fix is named there) and fail the test once they pass, so the list is always the set of failing cases.
#
# Usage: corpus.sh PPL_BINARY CORPUS_DIR [-j N] [-k] [CASE-SUBSTRING...]
#        corpus.sh --extract CORPUS_DIR OUT_DIR     (every case's files into OUT_DIR/<group>/<name>/, for fuzz seeds)
#   -j N  parallel cases (default: nproc)       -k  keep the work folder and print its path
# Environment: PPL_CORPUS_VMEM_KB (default 4194304): the address-space limit of each ppl process (not applied to
# sanitizer builds, whose shadow memory needs more), so a header that makes ppl reserve gigabytes fails the case
# instead of the machine.
set -u
set -o pipefail

# parse_case CASE_FILE DEST: writes the case's files into DEST and sets expect_code, expect_text, args, setup,
# fsize, writes, case_env.
parse_case() {
  local file=$1 dest=$2 line section=""
  expect_code="" expect_text="" args="run job.yaml" setup="" fsize="" writes="" case_env=""
  while IFS= read -r line || [ -n "$line" ]; do
    if [[ $line == "--- "* ]]; then
      section=$dest/${line#--- }
      mkdir -p "$(dirname "$section")"
      : >"$section"
    elif [ -n "$section" ]; then
      printf '%s\n' "$line" >>"$section"
    else
      case $line in
        expect:*)
          line=${line#expect:}
          line=${line# }
          expect_code=${line%% *}
          expect_text=${line#"$expect_code"}
          expect_text=${expect_text# }
          ;;
        args:*) args=${line#args: } ;;
        setup:*) setup=${line#setup: } ;;
        fsize:*) fsize=${line#fsize: } ;;
        writes:*) writes=${line#writes: } ;;
        env:*) case_env=${line#env: } ;;
        '#'* | '') ;;
        *) echo "$file: unrecognised header line '$line'" >&2; return 1 ;;
      esac
    fi
  done <"$file"
  [[ $expect_code =~ ^[0-9]+$ ]] || { echo "$file: missing or bad 'expect: CODE FRAGMENT' line" >&2; return 1; }
}

# The state of a folder: "path<TAB>type mode" per entry, then "path<TAB>sha256" per regular file.
fingerprint() {
  (cd "$1" && find . -mindepth 1 -printf '%p\t%y %m\n' | LC_ALL=C sort &&
    find . -type f -print0 | xargs -0 -r sha256sum | awk '{ h = $1; sub(/^[^ ]+  /, ""); print $0 "\t" h }' |
    LC_ALL=C sort)
}

# invoke DIR OUT ERR ARGS...: runs ppl in DIR with the case's limits; prints the exit code. stdout and stderr reach
# their files through pipes, so a case's file-size limit applies to what ppl writes, not to its messages.
invoke() {
  local dir=$1 out=$2 err=$3
  shift 3
  {
    {
      (
        cd "$dir" || exit 125
        # A file-size limit makes writes fail with EFBIG (SIGXFSZ ignored) even for root, who ignores permissions.
        if [ -n "$fsize" ]; then trap '' XFSZ && ulimit -f "$fsize"; fi
        [ -n "$vmem_kb" ] && ulimit -v "$vmem_kb"
        # shellcheck disable=SC2086  # the case's NAME=VALUE words, after (so over) the defaults
        exec env OMP_NUM_THREADS=1 OMP_PROC_BIND=false $case_env timeout 120 "$ppl" "$@"
      ) 2>&1 1>&3 3>&-
      echo $? >"$err.rc"
    } | cat >"$err"
  } 3>&1 | cat >"$out"
  cat "$err.rc"
}

# compare_states BEFORE AFTER [WRITES]: the entries that differ between two fingerprints, ignoring the files in
# WRITES (which must exist in AFTER); prints nothing when they match.
compare_states() {
  local w drop='BEGIN { n = split(w, a, " "); for (i = 1; i <= n; i++) skip["./" a[i]] = 1 } !($1 in skip)'
  for w in ${3:-}; do
    grep -q "^./$w"$'\t'"f " "$2" || echo "'$w' was not written;"
  done
  diff <(awk -F'\t' -v w="${3:-}" "$drop" "$1") <(awk -F'\t' -v w="${3:-}" "$drop" "$2") | grep '^[<>] ' | cut -f1 |
    tr '\n' ' '
}

# check_one CASE_FILE: runs one case in $work; prints "PASS name" or "FAIL name: reasons" (details in name.log).
check_one() {
  local file=$1 name
  name=${file#"$corpus"/}
  name=${name%.case}
  local base=$work/${name//\//__}
  local dir=$base.d problems=() changed
  mkdir -p "$dir"
  if ! parse_case "$file" "$dir" 2>"$base.parse"; then
    echo "FAIL $name: $(cat "$base.parse")"
    return
  fi
  if [ -n "$setup" ] && ! (cd "$dir" && bash -c "$setup") >"$base.setup" 2>&1; then
    echo "FAIL $name: setup failed: $(head -c 300 "$base.setup")"
    return
  fi
  fingerprint "$dir" >"$base.before"
  local argv
  eval "argv=($args)"

  # First `ppl validate` (on the untouched folder), for `run` cases: it must agree with the run (2 and the same
  # fragment for bad input, 0 otherwise) and write nothing.
  if [ "${argv[0]:-}" = run ]; then
    local vargs=(validate) a
    for a in "${argv[@]:1}"; do
      [ "$a" = -q ] || [ "$a" = --quiet ] || vargs+=("$a")
    done
    local want=0 vrc
    [ "$expect_code" = 2 ] && want=2
    vrc=$(invoke "$dir" "$base.vout" "$base.verr" "${vargs[@]}" 2>/dev/null)  # no "Aborted" notices from bash
    [ "$vrc" = "$want" ] || problems+=("validate: exit $vrc, want $want")
    if [ "$want" = 2 ]; then
      grep -qF -- "$expect_text" "$base.verr" || problems+=("validate: stderr lacks '$expect_text'")
    fi
    fingerprint "$dir" >"$base.vafter"
    changed=$(compare_states "$base.before" "$base.vafter")
    [ -z "$changed" ] || problems+=("validate changed files: $changed")
    # Put the folder back for the run if validate changed it.
    [ -z "$changed" ] || { rm -rf "$dir" && mkdir "$dir" && parse_case "$file" "$dir" &&
      (cd "$dir" && bash -c "$setup") >/dev/null 2>&1; }
  fi

  local rc
  rc=$(invoke "$dir" "$base.out" "$base.err" "${argv[@]}" 2>/dev/null)
  fingerprint "$dir" >"$base.after"
  [ "$rc" = "$expect_code" ] || problems+=("exit $rc, want $expect_code")
  if [ "$expect_code" = 1 ] || [ "$expect_code" = 2 ]; then
    local lines
    lines=$(awk 'END { print NR }' "$base.err")  # a last line without '\n' counts too
    [ "$lines" = 1 ] || problems+=("stderr has $lines lines, want 1")
    grep -qF -- "$expect_text" "$base.err" || problems+=("stderr lacks '$expect_text'")
  else
    [ -s "$base.err" ] && problems+=("stderr not empty")
    grep -qF -- "$expect_text" "$base.out" || problems+=("stdout lacks '$expect_text'")
  fi
  # Nothing may change or appear except the case's `writes:` files.
  changed=$(compare_states "$base.before" "$base.after" "$writes")
  [ -z "$changed" ] || problems+=("files changed or appeared: $changed")

  {
    echo "case: $file"
    echo "args: $args (exit $rc)"
    echo "stderr: $(head -c 2000 "$base.err")"
    [ -f "$base.verr" ] && echo "validate stderr: $(head -c 2000 "$base.verr")"
  } >"$base.log"
  if [ ${#problems[@]} -eq 0 ]; then
    echo "PASS $name"
  else
    local IFS=';'
    echo "FAIL $name: ${problems[*]}; stderr: $(head -c 300 "$base.err" | tr '\n' ' ')"
  fi
}

if [ "${1:-}" = --extract ]; then  # each case's files, setup run, as the runner would see them
  corpus=$2
  for file in "$corpus"/*/*.case; do
    name=${file#"$corpus"/}
    dest=$3/${name%.case}
    mkdir -p "$dest"
    parse_case "$file" "$dest" || exit 1
    [ -z "$setup" ] || (cd "$dest" && bash -c "$setup") >/dev/null 2>&1 || true
  done
  exit 0
fi

if [ "${1:-}" = --one ]; then  # internal: one case, for the parallel driver below
  ppl=$2 corpus=$3 work=$4 vmem_kb=$5
  check_one "$6"
  exit 0
fi

[ $# -ge 2 ] || { sed -n '2,20p' "$0"; exit 2; }
ppl=$(realpath "$1")
corpus=$(realpath "$2")
shift 2
jobs=$(nproc)
keep=0
filters=()
while [ $# -gt 0 ]; do
  case $1 in
    -j) jobs=$2; shift ;;
    -k) keep=1 ;;
    *) filters+=("$1") ;;
  esac
  shift
done
vmem_kb=${PPL_CORPUS_VMEM_KB:-4194304}
# Sanitizer builds reserve terabytes of shadow address space; they report huge allocations themselves
# (ASAN_OPTIONS max_allocation_size_mb in the openmp-asan test preset).
if ldd "$ppl" 2>/dev/null | grep -E 'lib(a|ub|t)san' >/dev/null; then vmem_kb=""; fi

work=$(mktemp -d "${TMPDIR:-/tmp}/ppl-corpus.XXXXXX")
[ "$keep" = 1 ] && echo "work folder: $work" || trap 'rm -rf "$work"' EXIT

cases=()
for file in "$corpus"/*/*.case; do
  if [ ${#filters[@]} -gt 0 ]; then
    match=0
    for f in "${filters[@]}"; do [[ ${file#"$corpus"/} == *"$f"* ]] && match=1; done
    [ $match = 1 ] || continue
  fi
  cases+=("$file")
done
[ ${#cases[@]} -gt 0 ] || { echo "no cases in $corpus"; exit 1; }

start=$SECONDS
printf '%s\0' "${cases[@]}" | xargs -0 -n 1 -P "$jobs" bash "$0" --one "$ppl" "$corpus" "$work" "$vmem_kb" \
  >"$work/results.txt"

# known_failures.txt: "group/name  area: why" lines ('#' comments).
declare -A known=()
if [ -f "$corpus/known_failures.txt" ]; then
  while read -r kname kwhy; do
    [[ -z $kname || $kname == '#'* ]] || known[$kname]=$kwhy
  done <"$corpus/known_failures.txt"
fi

pass=0 fail=0 kfail=0 fixed=0
while read -r verdict name rest; do
  name=${name%:}
  if [ "$verdict" = PASS ]; then
    if [ -n "${known[$name]+x}" ]; then
      echo "FIXED (remove it from known_failures.txt): $name"
      fixed=$((fixed + 1))
    else
      pass=$((pass + 1))
    fi
  elif [ -n "${known[$name]+x}" ]; then
    echo "known failure [${known[$name]}] $name: $rest"
    kfail=$((kfail + 1))
  else
    echo "FAIL $name: $rest"
    fail=$((fail + 1))
  fi
done < <(LC_ALL=C sort -k2 "$work/results.txt")
echo "corpus: ${#cases[@]} cases, $pass passed, $fail failed, $kfail known failures, $fixed fixed" \
  "($((SECONDS - start)) s, $jobs in parallel)"
[ $fail -eq 0 ] && [ $fixed -eq 0 ]
