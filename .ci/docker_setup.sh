#!/usr/bin/env bash
# Docker for the docker-sandbox probes: install docker.io, start dockerd in the background, wait for it,
# build the sandbox image from Debian packages (`fdegym sandbox build-image`: debootstrap + docker import).
# Never fails CI: if the daemon cannot start or the image cannot be built, it says so LOUDLY and exits 0,
# and the docker tests skip with a reason that names the fix.
set -uo pipefail

loud() {
  echo "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!"
  echo "!!! DOCKER SANDBOX UNAVAILABLE: $*"
  echo "!!! The docker probes in tests/sandbox will be SKIPPED (bwrap probes still run)."
  echo "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!"
  exit 0
}

SUDO=""
if [ "$(id -u)" != 0 ]; then
  command -v sudo >/dev/null || loud "not root and no sudo: cannot install or start dockerd"
  SUDO="sudo -n"
fi

if ! command -v dockerd >/dev/null || ! command -v debootstrap >/dev/null; then
  echo "== apt-get install docker.io debootstrap"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq >/dev/null || loud "apt-get update failed"
  $SUDO apt-get install -y -qq docker.io debootstrap >/dev/null || loud "apt-get install docker.io debootstrap failed"
fi

if ! docker info >/dev/null 2>&1; then
  echo "== starting dockerd in the background (log: /tmp/fdegym-dockerd.log)"
  # No bridge/iptables: every sandbox container uses network_mode=none.
  $SUDO sh -c 'nohup dockerd --iptables=false --ip6tables=false --bridge=none >/tmp/fdegym-dockerd.log 2>&1 &'
  for _ in $(seq 1 60); do
    docker info >/dev/null 2>&1 && break
    sleep 1
  done
  docker info >/dev/null 2>&1 || loud "dockerd did not answer within 60 s; last log lines: $(tail -5 /tmp/fdegym-dockerd.log 2>/dev/null)"
fi
echo "== docker $(docker version --format '{{.Server.Version}}' 2>/dev/null) is up"

echo "== fdegym sandbox build-image"
$SUDO env "PATH=$PATH" fdegym sandbox build-image || loud "fdegym sandbox build-image failed (see above)"
python3 -c "from fdegym_env.sandbox.docker_backend import docker_available as d; ok, why = d(); print('== docker backend:', why); raise SystemExit(0 if ok else 1)" \
  || loud "the image was built but the docker backend is not usable"
exit 0
