#!/usr/bin/env bash
# A real kube-apiserver (and etcd) for xpmigrate's e2e tests.
#
#   hack/kube-apiserver.sh build   build kube-apiserver once into the cache (prints its path)
#   hack/kube-apiserver.sh path    print the cached binary's path; fail when it is not built
#   hack/kube-apiserver.sh etcd    install Debian's etcd-server when etcd is missing (root only)
#   hack/kube-apiserver.sh env     print the variables the e2e tests read (eval-able)
#   hack/kube-apiserver.sh start   run etcd + kube-apiserver with Crossplane's CRDs in the
#                                  background (internal/kubetest), print the kubeconfigs
#   hack/kube-apiserver.sh stop    stop what start started
#
# kube-apiserver is built from the module k8s.io/kubernetes at $KUBE_VERSION via
# the Go module proxy; k8s.io/kubernetes cannot be required on its own, so each
# of its 31 staging modules is pinned with a replace to the matching v0.x tag.
# The binary goes to ${XPMIGRATE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/xpmigrate}/
# kube-apiserver/$KUBE_VERSION/, outside the repository, and is reused when present. The first
# build compiles about 2,000 packages (15-45 minutes on 2 cores); the tests start
# and stop their own etcd and API server (internal/kubetest).
set -euo pipefail

KUBE_VERSION=v1.34.4 # internal/kubetest.KubeVersion
STAGING_VERSION=v0${KUBE_VERSION#v1}
CACHE=${XPMIGRATE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/xpmigrate}
OUT=$CACHE/kube-apiserver/$KUBE_VERSION
BIN=$OUT/kube-apiserver

STAGING=(
  api apiextensions-apiserver apimachinery apiserver cli-runtime client-go
  cloud-provider cluster-bootstrap code-generator component-base component-helpers
  controller-manager cri-api cri-client csi-translation-lib dynamic-resource-allocation
  endpointslice externaljwt kms kube-aggregator kube-controller-manager kube-proxy
  kube-scheduler kubectl kubelet metrics mount-utils pod-security-admission
  sample-apiserver sample-cli-plugin sample-controller
)

build() {
  if [ -x "$BIN" ]; then echo "$BIN"; return 0; fi
  command -v go >/dev/null || { echo "kube-apiserver.sh: go not found" >&2; exit 1; }
  mkdir -p "$OUT"
  # Build in a scratch module beside the binary; a lock keeps two builds apart.
  local mod=$OUT/mod
  exec 9>"$OUT/.lock"
  flock 9
  if [ -x "$BIN" ]; then echo "$BIN"; return 0; fi
  rm -rf "$mod"
  mkdir -p "$mod"
  {
    echo "module xpmigrate.invalid/kube-apiserver"
    echo
    echo "go 1.24.0"
    echo
    echo "require k8s.io/kubernetes $KUBE_VERSION"
    echo
    echo "replace ("
    for m in "${STAGING[@]}"; do echo "	k8s.io/$m => k8s.io/$m $STAGING_VERSION"; done
    echo ")"
  } >"$mod/go.mod"
  echo "kube-apiserver.sh: building kube-apiserver $KUBE_VERSION into $OUT (the first build takes 15-45 minutes)" >&2
  local t0=$SECONDS
  (
    cd "$mod"
    export GOFLAGS=-mod=mod GOWORK=off
    go list -deps k8s.io/kubernetes/cmd/kube-apiserver >/dev/null
    nice -n "${NICE:-10}" go build -trimpath -ldflags="-s -w" -o "$BIN.tmp" k8s.io/kubernetes/cmd/kube-apiserver
  )
  mv "$BIN.tmp" "$BIN"
  echo "kube-apiserver.sh: built in $((SECONDS - t0)) s" >&2
  echo "$BIN"
}

etcd_install() {
  if command -v etcd >/dev/null; then command -v etcd; return 0; fi
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
    echo "kube-apiserver.sh: etcd not found; install Debian's etcd-server (apt-get install etcd-server)" >&2
    exit 1
  fi
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq etcd-server >/dev/null
  command -v etcd
}

RUN=${XPMIGRATE_KUBE_RUN:-${TMPDIR:-/tmp}/xpmigrate-kube-apiserver}

start() {
  [ -f "$RUN/pid" ] && kill -0 "$(cat "$RUN/pid")" 2>/dev/null && { cat "$RUN/out"; return 0; }
  build >/dev/null
  etcd_install >/dev/null
  mkdir -p "$RUN"
  local root
  root=$(cd "$(dirname "$0")/.." && pwd)
  (cd "$root" && go build -o "$RUN/serve" hack/kube-apiserver-serve.go)
  XPMIGRATE_KUBE_APISERVER=$BIN "$RUN/serve" >"$RUN/out" 2>&1 &
  echo $! >"$RUN/pid"
  for _ in $(seq 1 1200); do
    grep -q '^reader:' "$RUN/out" 2>/dev/null && { cat "$RUN/out"; return 0; }
    kill -0 "$(cat "$RUN/pid")" 2>/dev/null || break
    sleep 0.1
  done
  cat "$RUN/out" >&2
  exit 1
}

stop() {
  [ -f "$RUN/pid" ] || return 0
  local pid
  pid=$(cat "$RUN/pid")
  kill "$pid" 2>/dev/null || true
  for _ in $(seq 1 600); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  rm -f "$RUN/pid"
}

case "${1:-}" in
start) start ;;
stop) stop ;;
build) build ;;
path) [ -x "$BIN" ] || { echo "kube-apiserver.sh: $BIN not built; run hack/kube-apiserver.sh build" >&2; exit 1; }; echo "$BIN" ;;
etcd) etcd_install ;;
env)
  echo "export XPMIGRATE_KUBE_APISERVER=$BIN"
  echo "export XPMIGRATE_ETCD=$(command -v etcd || echo /usr/bin/etcd)"
  ;;
*) sed -n '2,12p' "$0" >&2; exit 2 ;;
esac
