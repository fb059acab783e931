#!/usr/bin/env bash
# Bad input to the `ppl` command: each case must exit 2 with a one-line error naming the place, and write nothing.
set -u
ppl=$1
dir=$2
fail=0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1

expect() {  # expect <exit code> <pattern> -- command...
  local want=$1 pattern=$2
  shift 3
  local out rc
  out=$("$@" 2>&1)
  rc=$?
  if [ "$rc" -ne "$want" ] || ! grep -qF -- "$pattern" <<<"$out"; then
    echo "FAIL: $* -> exit $rc (want $want), output: $out (want: $pattern)"
    fail=1
  else
    echo "ok: $* -> $rc: $(head -1 <<<"$out")"
  fi
}

expect 2 "missing.yaml: cannot open the job file" -- "$ppl" run missing.yaml
expect 2 "bad_yaml.yaml:3:4: invalid YAML" -- "$ppl" run "$dir/bad_yaml.yaml"
expect 2 "unknown job kind 'potentail': did you mean 'potential'? available in this build:" -- "$ppl" run "$dir/unknown_kind.yaml"
expect 2 "unknown_key.yaml:3:1: unknown key 'outptu': did you mean 'output'? valid keys: job, output" -- "$ppl" run "$dir/unknown_key.yaml"
expect 2 "wrong_type.yaml:2:9: 'output' must be a string, got a list" -- "$ppl" validate "$dir/wrong_type.yaml"
expect 2 "--set outptu: unknown key 'outptu'" -- "$ppl" run "$dir/info.yaml" --set outptu=x
expect 2 "job is required" -- "$ppl" run
expect 0 "info.yaml: ok" -- "$ppl" validate "$dir/info.yaml"
expect 0 "(host threads: 1)" -- "$ppl" run "$dir/info.yaml" --set output=info.json --kokkos-threads=1
expect 0 "Usage" -- "$ppl" --help
# Standard output that cannot be written (a full disk, here /dev/full): exit 1 and one line on stderr, not exit 0
# with the report lost.
to_full() { "$ppl" "$@" >/dev/full; }
if [ -w /dev/full ]; then
  for sub in info strategies "validate $dir/info.yaml"; do
    # shellcheck disable=SC2086
    expect 1 "ppl: error: cannot write the standard output" -- to_full $sub
    # shellcheck disable=SC2086
    lines=$(to_full $sub 2>&1 | wc -l)
    [ "$lines" -eq 1 ] || { echo "FAIL: ppl $sub > /dev/full: $lines lines on stderr"; fail=1; }
  done
fi
if [ -n "$(ls -A | grep -v '^info.json$')" ]; then
  echo "FAIL: files left behind: $(ls -A)"
  fail=1
fi
[ -s info.json ] || { echo "FAIL: info.json not written"; fail=1; }
exit $fail
