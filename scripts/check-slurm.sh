#!/usr/bin/env bash
# make check-slurm: tessera's Slurm path tested on a real (single-node,
# localhost) Slurm cluster that scripts/slurm-local.sh installs, starts and
# tears down again, also on failure.
#   1. a plain job array (sbatch --array=0-3 --wrap ...): every task runs,
#      writes its file and ends COMPLETED with exit code 0;
#   2. if the build has `tessera sweep` with --slurm: a small sweep submitted
#      as a job array (--slurm --chunk 2), collected (--collect), must give
#      the same results.csv, byte for byte, as the same sweep run locally.
#      Without it, a note, and only 1 is checked.
# Usage: scripts/check-slurm.sh   (as root; BUILD=build-dir, default build;
#        TSR_SLURM_JOB_TIMEOUT: seconds a job may take, default 300)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
BUILD=${BUILD:-build}
TESSERA=${TESSERA:-$ROOT/$BUILD/tessera}
JOB_TIMEOUT=${TSR_SLURM_JOB_TIMEOUT:-300}

say() { echo "check-slurm: $*" >&2; }
fail() { say "FAIL: $*"; exit 1; }

# --- outside the cluster: start it, run this script inside it, time it ------
if [ "${1:-}" != --inside ]; then
  [ -x "$TESSERA" ] || fail "$TESSERA not found: build first (make build)"
  t0=$(date +%s.%N)
  rc=0
  TESSERA=$TESSERA bash "$ROOT/scripts/slurm-local.sh" run bash "$0" --inside || rc=$?
  secs=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
  if [ $rc -eq 0 ]; then echo "check-slurm: PASS in $secs s"; else echo "check-slurm: FAIL ($rc) after $secs s"; fi
  exit $rc
fi

# --- inside: SLURM_CONF names the test cluster ------------------------------
[ -n "${SLURM_CONF:-}" ] || fail "SLURM_CONF is not set (run without --inside)"
work=$(mktemp -d "${TMPDIR:-/tmp}/tessera-check-slurm.XXXXXX")
trap 'rm -rf "$work"' EXIT

# wait_jobs WHAT SINCE: every job of the (private) cluster has left the
# queue; then each job and array task with an id above SINCE must be
# COMPLETED with exit code 0:0 (finished jobs stay listed for MinJobAge)
wait_jobs() {
  local what=$1 since=$2 deadline=$(( $(date +%s) + JOB_TIMEOUT )) q
  while :; do
    q=$(squeue -h -o '%i %T' 2>&1) || fail "squeue failed: $q"
    [ -n "$q" ] || break
    if [ "$(date +%s)" -ge "$deadline" ]; then
      say "still queued after $JOB_TIMEOUT s:"; echo "$q" >&2
      scancel --user="$(id -un)" >/dev/null 2>&1 || true
      fail "$what did not finish within $JOB_TIMEOUT s"
    fi
    sleep 0.5
  done
  local jobs bad
  jobs=$(scontrol show job -o 2>&1) || fail "scontrol show job failed: $jobs"
  jobs=$(awk -v s="$since" '{ id = $1; sub(/^JobId=/, "", id); if (id + 0 > s) print }' <<<"$jobs")
  [ -n "$jobs" ] || fail "$what: no job found after submitting"
  bad=$(grep -v 'JobState=COMPLETED .*ExitCode=0:0 ' <<<"$jobs" || true)
  if [ -n "$bad" ]; then
    say "$what: jobs that did not complete with exit code 0:"
    sed -E 's/.*(JobId=[0-9]+).*(ArrayTaskId=[^ ]+).*(JobState=[A-Z_]+).*(ExitCode=[0-9:]+).*(StdOut=[^ ]+).*/  \1 \2 \3 \4 \5/' <<<"$bad" >&2
    for f in $(grep -o 'StdOut=[^ ]*' <<<"$bad" | cut -d= -f2 | sort -u); do
      [ -f "$f" ] && { echo "----- $f -----" >&2; tail -n 30 "$f" >&2; }
    done
    fail "$what failed"
  fi
}

# 1. a plain job array
t1=$(date +%s.%N)
mkdir "$work/array"
jid=$(sbatch --parsable --array=0-3 --job-name=tsr-check-array --chdir="$work/array" \
        --output="$work/array/task-%a.out" \
        --wrap 'echo "task $SLURM_ARRAY_TASK_ID of job $SLURM_ARRAY_JOB_ID on $(hostname)" > result-$SLURM_ARRAY_TASK_ID.txt') ||
  fail "sbatch of the job array failed"
say "job array $jid submitted"
wait_jobs "job array $jid" 0
for i in 0 1 2 3; do
  grep -qx "task $i of job ${jid%%;*} on .*" "$work/array/result-$i.txt" 2>/dev/null ||
    fail "array task $i did not write its file ($work/array/result-$i.txt)"
done
say "job array: 4 tasks COMPLETED, 4 files written ($(awk -v a="$t1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s)"

# 2. a sweep through Slurm against the same sweep run locally
if ! "$TESSERA" sweep --help >"$work/sweep-help.txt" 2>&1 || ! grep -q -- '--slurm' "$work/sweep-help.txt"; then
  say "note: this build has no 'tessera sweep --slurm' yet: only the plain job array was checked"
  exit 0
fi
# the sweep's jobs are those after the array's
last=$(scontrol show job -o | grep -o '^JobId=[0-9]*' | cut -d= -f2 | sort -n | tail -n 1)
t2=$(date +%s.%N)
cat > "$work/spec.json" <<'EOF'
{
  "name": "slurm-check",
  "workloads": ["sprites-2d"],
  "set": {"screen.width": 128, "screen.height": 96},
  "grid": {"caches.l2.size_bytes": [65536, 262144], "tiling.order": ["z-order", "scanline"]},
  "frames": 1
}
EOF
cd "$work"
"$TESSERA" sweep spec.json --slurm --chunk 2 --out A > slurm-submit.txt 2>&1 || {
  cat slurm-submit.txt >&2; fail "tessera sweep --slurm failed"; }
[ -f A/sweep.sbatch ] || fail "tessera sweep --slurm wrote no A/sweep.sbatch"
bash -n A/sweep.sbatch || fail "A/sweep.sbatch is not valid bash"
sbatch --test-only A/sweep.sbatch > test-only.txt 2>&1 || {
  cat test-only.txt >&2; fail "sbatch --test-only rejects A/sweep.sbatch"; }
say "sweep submitted: $(tr '\n' ' ' < slurm-submit.txt)"
wait_jobs "the sweep's job array" "$last"
"$TESSERA" sweep spec.json --collect --out A > collect.txt 2>&1 || {
  cat collect.txt >&2; fail "tessera sweep --collect failed"; }
[ -s A/results.csv ] || fail "A/results.csv is missing or empty after --collect"
"$TESSERA" sweep spec.json --out B > local.txt 2>&1 || {
  cat local.txt >&2; fail "the local tessera sweep failed"; }
[ -s B/results.csv ] || fail "B/results.csv is missing or empty after the local sweep"
if ! cmp A/results.csv B/results.csv; then
  diff A/results.csv B/results.csv | head -n 20 >&2 || true
  fail "results.csv through Slurm differs from the local run"
fi
say "sweep: $(($(wc -l < A/results.csv) - 1)) rows through Slurm equal the local run ($(awk -v a="$t2" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s)"
