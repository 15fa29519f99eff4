#!/usr/bin/env bash
# The real Crossplane programs for xpmigrate's real-Crossplane e2e tier
# (e2e/crossplane, build tag e2e_crossplane; docs/test-tiers.md).
#
#   hack/crossplane.sh build [NAME...]  build the programs once into the cache (all when no NAME)
#   hack/crossplane.sh path NAME        print a built program's path; fail when it is not built
#   hack/crossplane.sh env              print the variables the e2e tests read (eval-able)
#   hack/crossplane.sh names            list the NAMEs
#
# NAMEs:
#   crossplane-v1            crossplane core v1.20.11 (github.com/crossplane/crossplane/cmd/crossplane)
#   crossplane-v2            crossplane core v2.3.4 (github.com/crossplane/crossplane/v2/cmd/crossplane)
#   function-pat             function-patch-and-transform v0.10.7
#   kube-controller-manager  k8s.io/kubernetes/cmd/kube-controller-manager at the
#                            kube-apiserver's version (hack/kube-apiserver.sh)
#
# Each is built from the Go module proxy in a scratch module that requires
# the tag (the tag's own go.mod pins every dependency; a dependency's replace
# directives do not apply, which only matters for crossplane v2, whose
# pinned apis/v2 pseudo-version carries the same code as its ./apis). Core's
# CRDs are copied from the module beside its binary (crds/). Everything goes
# to ${XPMIGRATE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/xpmigrate}/<name>/<version>/,
# outside the repository, is reused when present, and a lock keeps two builds
# of one program apart. Builds run under nice (NICE, default 10).
#
# function-environment-configs is not built: the Go module proxy refuses
# every version tried (v0.2.0 to v0.7.2, "not available"), so the tier has
# no real environment function yet.
set -euo pipefail

CROSSPLANE_V1=v1.20.11
CROSSPLANE_V2=v2.3.4
PAT_VERSION=v0.10.7
KUBE_VERSION=$(sed -n 's/^KUBE_VERSION=\(v[0-9.]*\).*/\1/p' "$(dirname "$0")/kube-apiserver.sh")
STAGING_VERSION=v0${KUBE_VERSION#v1}
CACHE=${XPMIGRATE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/xpmigrate}
NAMES=(crossplane-v1 crossplane-v2 function-pat kube-controller-manager)

# The Kubernetes staging modules, pinned as hack/kube-apiserver.sh pins them.
STAGING=(
  api apiextensions-apiserver apimachinery apiserver cli-runtime client-go
  cloud-provider cluster-bootstrap code-generator component-base component-helpers
  controller-manager cri-api cri-client csi-translation-lib dynamic-resource-allocation
  endpointslice externaljwt kms kube-aggregator kube-controller-manager kube-proxy
  kube-scheduler kubectl kubelet metrics mount-utils pod-security-admission
  sample-apiserver sample-cli-plugin sample-controller
)

# spec NAME sets MODULE VERSION PKG DIR BIN.
spec() {
  case "$1" in
  crossplane-v1) MODULE=github.com/crossplane/crossplane VERSION=$CROSSPLANE_V1 PKG=$MODULE/cmd/crossplane DIR=crossplane ;;
  crossplane-v2) MODULE=github.com/crossplane/crossplane/v2 VERSION=$CROSSPLANE_V2 PKG=$MODULE/cmd/crossplane DIR=crossplane ;;
  function-pat) MODULE=github.com/crossplane-contrib/function-patch-and-transform VERSION=$PAT_VERSION PKG=$MODULE DIR=function-patch-and-transform ;;
  kube-controller-manager) MODULE=k8s.io/kubernetes VERSION=$KUBE_VERSION PKG=$MODULE/cmd/kube-controller-manager DIR=kube-controller-manager ;;
  *) echo "crossplane.sh: unknown program $1 (hack/crossplane.sh names)" >&2; exit 2 ;;
  esac
  OUT=$CACHE/$DIR/$VERSION
  BIN=$OUT/${PKG##*/}
}

build_one() {
  spec "$1"
  if [ -x "$BIN" ]; then echo "$BIN"; return 0; fi
  command -v go >/dev/null || { echo "crossplane.sh: go not found" >&2; exit 1; }
  mkdir -p "$OUT"
  exec 9>"$OUT/.lock"
  flock 9
  if [ -x "$BIN" ]; then exec 9>&-; echo "$BIN"; return 0; fi
  local mod=$OUT/mod
  rm -rf "$mod"
  mkdir -p "$mod"
  {
    echo "module xpmigrate.invalid/$1"
    echo
    echo "go 1.25.0"
    echo
    echo "require $MODULE $VERSION"
    if [ "$MODULE" = k8s.io/kubernetes ]; then
      echo
      echo "replace ("
      for m in "${STAGING[@]}"; do echo "	k8s.io/$m => k8s.io/$m $STAGING_VERSION"; done
      echo ")"
    fi
  } >"$mod/go.mod"
  echo "crossplane.sh: building $1 ($MODULE $VERSION) into $OUT" >&2
  local t0=$SECONDS
  (
    cd "$mod"
    export GOFLAGS=-mod=mod GOWORK=off
    go list -deps "$PKG" >/dev/null
    nice -n "${NICE:-10}" go build -trimpath -ldflags="-s -w" -o "$BIN.tmp" "$PKG"
    case "$1" in
    crossplane-v*)
      # Core's CRDs ship in the module; the tests apply them server-side.
      local src
      src=$(go list -m -f '{{.Dir}}' "$MODULE")
      rm -rf "$OUT/crds"
      cp -R "$src/cluster/crds" "$OUT/crds"
      chmod -R u+w "$OUT/crds"
      ;;
    esac
  )
  mv "$BIN.tmp" "$BIN"
  echo "$((SECONDS - t0))" >"$OUT/build-seconds"
  echo "crossplane.sh: built $1 in $((SECONDS - t0)) s" >&2
  exec 9>&-
  echo "$BIN"
}

case "${1:-}" in
build)
  shift
  [ $# -gt 0 ] || set -- "${NAMES[@]}"
  for n in "$@"; do build_one "$n"; done
  ;;
path)
  [ $# -eq 2 ] || { echo "usage: hack/crossplane.sh path NAME" >&2; exit 2; }
  spec "$2"
  [ -x "$BIN" ] || { echo "crossplane.sh: $BIN not built; run hack/crossplane.sh build $2" >&2; exit 1; }
  echo "$BIN"
  ;;
env)
  for n in "${NAMES[@]}"; do
    spec "$n"
    var=XPMIGRATE_$(echo "$n" | tr 'a-z-' 'A-Z_')
    echo "export $var=$BIN"
  done
  ;;
names) printf '%s\n' "${NAMES[@]}" ;;
*) sed -n '2,16p' "$0" >&2; exit 2 ;;
esac
