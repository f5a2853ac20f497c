#!/usr/bin/env bash
# A throw-away single-node Slurm cluster on this machine, for testing what
# tessera submits with sbatch (make check-slurm).
#
#   scripts/slurm-local.sh up          install slurm-wlm and munge if missing,
#                                      start munged, slurmctld and slurmd from a
#                                      generated config in a temporary directory,
#                                      wait for the node to be idle, print
#                                      "export SLURM_CONF=..."
#   scripts/slurm-local.sh down [DIR]  stop that cluster's daemons, jobs and steps
#                                      and remove its directory
#   scripts/slurm-local.sh run CMD...  up, CMD with SLURM_CONF exported, down
#                                      (also on failure or Ctrl-C); CMD's status
#   scripts/slurm-local.sh install     only install the packages
#
# Needs root (the daemons and the jobs run as root) and Debian's packages
# (bookworm: Slurm 22.05, MUNGE 0.5.15). Nothing global is used: munged gets
# its own key and socket (AuthInfo=socket=... in slurm.conf), the daemons and
# the clients read SLURM_CONF, ports are chosen free, no systemd, no cgroups
# (proctrack/linuxproc, task/none), no accounting. /etc/slurm and /etc/munge
# are not touched.
#
# Environment: TSR_SLURM_TIMEOUT  seconds for each wait (default 60)
#              TSR_SLURM_BASE     parent of the temporary directory (default $TMPDIR or /tmp)
set -euo pipefail

TIMEOUT=${TSR_SLURM_TIMEOUT:-60}
BASE=${TSR_SLURM_BASE:-${TMPDIR:-/tmp}}
# the directory of the cluster a plain 'up' started, so that 'down' (and the
# next 'up') find it; 'run' clusters are not named there but record their
# owner (DIR/owner): several 'run's can go on at once, and one whose owner
# died (kill -9) is stopped by the next 'up' or 'run'
POINTER=$BASE/tessera-slurm.current
PACKAGES=(slurm-wlm munge)   # slurm-wlm: slurmctld, slurmd, slurm-client

say() { echo "slurm-local: $*" >&2; }
die() { say "error: $*"; exit 1; }

need_root() {
  [ "$(id -u)" -eq 0 ] || die "must run as root (the test cluster's daemons and jobs run as root)"
}

# --- packages ---------------------------------------------------------------
install_packages() {
  local missing=() p t0
  for p in "${PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [ ${#missing[@]} -eq 0 ]; then return 0; fi
  command -v apt-get >/dev/null || die "apt-get not found: install ${missing[*]} (Slurm and MUNGE) by hand"
  t0=$(date +%s)
  say "installing ${missing[*]}"
  # no service of the packages may start a daemon with the global key or config:
  # a policy-rc.d that denies every start while apt runs (unless one exists)
  local policy=/usr/sbin/policy-rc.d made_policy=0
  if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\nexit 101\n' > "$policy"; chmod 755 "$policy"; made_policy=1
  fi
  local rc=0
  {
    export DEBIAN_FRONTEND=noninteractive
    apt-get -o DPkg::Lock::Timeout=300 update -qq && apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  } || rc=$?
  if [ $made_policy = 1 ]; then rm -f "$policy"; fi
  [ $rc -eq 0 ] || die "apt-get install ${missing[*]} failed ($rc)"
  say "installed in $(( $(date +%s) - t0 )) s"
}

# --- helpers ----------------------------------------------------------------
port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# two free consecutive ports from a range that is not Slurm's default 6817/6818
pick_ports() {
  local p tries=0
  while :; do
    p=$(( 20000 + (RANDOM % 20000) * 2 ))
    if port_free "$p" && port_free $((p + 1)); then echo "$p"; return 0; fi
    tries=$((tries + 1)); [ $tries -lt 50 ] || die "no free port pair found"
  done
}

# wait_for SECONDS WHAT CMD...: poll CMD every 0.5 s until it succeeds
wait_for() {
  local secs=$1 what=$2; shift 2
  local deadline=$(( $(date +%s) + secs ))
  until "$@" >/dev/null 2>&1; do
    if [ "$(date +%s)" -ge "$deadline" ]; then say "timed out after ${secs} s waiting for $what"; return 1; fi
    sleep 0.5
  done
}

show_logs() {
  local dir=$1 f
  for f in "$dir"/log/*; do
    [ -s "$f" ] || continue
    echo "----- $f (last 40 lines) -----" >&2
    tail -n 40 "$f" >&2
  done
  if [ -n "${SLURM_CONF:-}" ] && command -v scontrol >/dev/null; then
    echo "----- scontrol show node -----" >&2
    timeout 10 scontrol show node >&2 2>&1 || true
  fi
}

# pids of processes whose environment names this cluster's slurm.conf or whose
# command line names its directory: its daemons, slurmstepd and job processes
cluster_pids() {
  local dir=$1 p
  for p in /proc/[0-9]*; do
    p=${p#/proc/}
    [ "$p" != $$ ] || continue
    if grep -qzxF "SLURM_CONF=$dir/slurm.conf" "/proc/$p/environ" 2>/dev/null ||
       grep -qzF "$dir/" "/proc/$p/cmdline" 2>/dev/null; then
      echo "$p"
    fi
  done
}

# running (a zombie waiting for init to reap it is not)
pid_alive() {
  local st
  [ -n "$1" ] && st=$(sed -n 's/.*) \(.\).*/\1/p' "/proc/$1/stat" 2>/dev/null) && [ -n "$st" ] && [ "$st" != Z ]
}

# --- down -------------------------------------------------------------------
down() {
  local dir=${1:-}
  if [ -z "$dir" ]; then
    [ -f "$POINTER" ] || return 0
    dir=$(cat "$POINTER")
    [ -d "$dir" ] || { rm -f "$POINTER"; return 0; }
  fi
  [ -d "$dir" ] || return 0
  case $dir in "$BASE"/tessera-slurm.*) ;; *) die "refusing to remove $dir (not a slurm-local directory)";; esac
  export SLURM_CONF=$dir/slurm.conf
  # cancel what is left, then stop slurmd, slurmctld and munged in that order
  if [ -f "$dir/slurmctld.pid" ] && pid_alive "$(cat "$dir/slurmctld.pid")"; then
    timeout 10 scancel --user="$(id -un)" >/dev/null 2>&1 || true
  fi
  local name pid
  for name in slurmd slurmctld munged; do
    pid=$(cat "$dir/$name.pid" 2>/dev/null || true)
    if pid_alive "$pid"; then kill -TERM "$pid" 2>/dev/null || true; fi
  done
  local deadline=$(( $(date +%s) + 15 )) left
  while :; do
    left=$(cluster_pids "$dir")
    for name in slurmd slurmctld munged; do
      pid=$(cat "$dir/$name.pid" 2>/dev/null || true)
      if pid_alive "$pid"; then left="$left $pid"; fi
    done
    left=$(echo $left)
    [ -n "$left" ] || break
    if [ "$(date +%s)" -ge "$deadline" ]; then
      say "killing what did not stop: $left"
      kill -KILL $left 2>/dev/null || true
      sleep 0.5
      break
    fi
    kill -TERM $left 2>/dev/null || true
    sleep 0.3
  done
  rm -rf "$dir"
  if [ -f "$POINTER" ] && [ "$(cat "$POINTER")" = "$dir" ]; then rm -f "$POINTER"; fi
  say "stopped, $dir removed"
}

# --- up ---------------------------------------------------------------------
up() {
  need_root
  install_packages
  local b
  for b in munged slurmctld slurmd sinfo sbatch scontrol; do
    command -v "$b" >/dev/null || die "$b not found after installing ${PACKAGES[*]}"
  done
  local dir=${1:-} owner=${2:-} d o
  # clusters left over: a 'run' whose owner is gone, the last plain 'up'
  for d in "$BASE"/tessera-slurm.*/; do
    d=${d%/}
    [ -d "$d" ] && [ "$d" != "$dir" ] || continue
    o=$(cat "$d/owner" 2>/dev/null || true)
    if [ -n "$o" ] && ! kill -0 "$o" 2>/dev/null; then say "stopping the cluster left in $d"; down "$d"; fi
  done
  if [ -z "$owner" ] && [ -f "$POINTER" ]; then say "stopping the cluster left in $(cat "$POINTER")"; down; fi

  if [ -z "$dir" ]; then dir=$(mktemp -d "$BASE/tessera-slurm.XXXXXX"); fi
  # 711: munged wants every directory above its socket searchable
  chmod 711 "$dir"
  if [ -n "$owner" ]; then echo "$owner" > "$dir/owner"; else echo "$dir" > "$POINTER"; fi
  mkdir -m 700 "$dir/state" "$dir/spool" "$dir/log"
  mkdir -m 711 "$dir/munge"
  export SLURM_CONF=$dir/slurm.conf
  local fail=0

  # MUNGE with its own key and socket
  dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
  chmod 400 "$dir/munge/munge.key"
  local sock=$dir/munge/munge.socket
  if ! munged --force --socket="$sock" --key-file="$dir/munge/munge.key" \
              --pid-file="$dir/munged.pid" --log-file="$dir/log/munged.log" \
              --seed-file="$dir/munge/munged.seed" >>"$dir/log/munged.out" 2>&1 </dev/null; then
    say "munged did not start"; show_logs "$dir"; down "$dir"; exit 1
  fi
  wait_for "$TIMEOUT" "munged's socket" test -S "$sock" || { show_logs "$dir"; down "$dir"; exit 1; }
  if ! munge --socket="$sock" -n </dev/null | unmunge --socket="$sock" >/dev/null 2>&1; then
    say "munge/unmunge round trip failed"; show_logs "$dir"; down "$dir"; exit 1
  fi

  # this host, with the CPUs and memory slurmd itself detects (a node that
  # claims more than slurmd finds is drained); the name must be the short host name
  local host hw cpus mem
  host=$(hostname -s)
  hw=$(slurmd -C 2>/dev/null | head -n 1 || true)
  cpus=$(sed -n 's/.* CPUs=\([0-9]*\).*/\1/p' <<<"$hw")
  mem=$(sed -n 's/.* RealMemory=\([0-9]*\).*/\1/p' <<<"$hw")
  [ -n "$cpus" ] || cpus=$(nproc)
  [ -n "$mem" ] || mem=$(( $(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 ))
  # the board/socket/core layout from slurmd -C too when it gave one
  local layout
  layout=$(grep -o 'Boards=[0-9]* SocketsPerBoard=[0-9]* CoresPerSocket=[0-9]* ThreadsPerCore=[0-9]*' <<<"$hw" || true)

  local port
  port=$(pick_ports)
  cat > "$dir/slurm.conf" <<EOF
# generated by scripts/slurm-local.sh: a single-node test cluster, all as root
ClusterName=tessera-local
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$sock
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SwitchType=switch/none
MpiDefault=none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MailProg=/bin/true
KillWait=5
MinJobAge=600
InactiveLimit=0
SlurmdTimeout=60
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus ${layout} RealMemory=$mem State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF

  # both daemons detach and write their pid files; -i: ignore state of earlier runs
  if ! slurmctld -i </dev/null >>"$dir/log/slurmctld.out" 2>&1; then
    say "slurmctld did not start"; fail=1
  elif ! wait_for "$TIMEOUT" "slurmctld to answer (scontrol ping)" bash -c 'scontrol ping | grep -q "is UP"'; then
    fail=1
  elif ! slurmd </dev/null >>"$dir/log/slurmd.out" 2>&1; then
    say "slurmd did not start"; fail=1
  elif ! wait_for "$TIMEOUT" "node $host to be idle (sinfo)" \
         bash -c "sinfo -h -N -n '$host' -o '%t' | grep -qx idle"; then
    fail=1
  fi
  if [ $fail = 1 ]; then
    show_logs "$dir"; down "$dir"; exit 1
  fi
  say "up: node $host ($cpus CPUs, $mem MB), slurmctld port $port, directory $dir"
  echo "export SLURM_CONF=$dir/slurm.conf"
}

# --- run --------------------------------------------------------------------
run() {
  [ $# -gt 0 ] || die "usage: $0 run CMD [ARGS...]"
  local dir
  cmd_pid=
  run_dir=$(mktemp -d "$BASE/tessera-slurm.XXXXXX")
  echo $$ > "$run_dir/owner"
  trap 'down "$run_dir"' EXIT
  # on Ctrl-C or kill: stop CMD, then the EXIT trap stops the cluster (and
  # whatever CMD started in it: every process with its SLURM_CONF)
  trap 'if [ -n "$cmd_pid" ]; then kill -TERM "$cmd_pid" 2>/dev/null || true; fi; exit 130' INT
  trap 'if [ -n "$cmd_pid" ]; then kill -TERM "$cmd_pid" 2>/dev/null || true; fi; exit 143' TERM
  up "$run_dir" $$ >/dev/null   # exports SLURM_CONF
  local rc=0
  # in the background so that the traps run at once, not when CMD ends
  "$@" &
  cmd_pid=$!
  wait "$cmd_pid" || rc=$?
  cmd_pid=
  if [ $rc -ne 0 ]; then
    dir=$(dirname "$SLURM_CONF")
    say "'$*' failed ($rc); the daemons' logs:"
    show_logs "$dir"
  fi
  return $rc
}

case ${1:-} in
  up)      shift; up "$@" ;;
  down)    shift; down "$@" ;;
  run)     shift; run "$@" ;;
  install) need_root; install_packages ;;
  *) echo "usage: $0 up | down [DIR] | run CMD [ARGS...] | install" >&2; exit 2 ;;
esac
