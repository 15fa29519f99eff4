package kubetest

import (
	"os"
	"os/exec"
	"path/filepath"

	"github.com/pkg/errors"
)

// KubeVersion is the Kubernetes release hack/kube-apiserver.sh builds.
const KubeVersion = "v1.34.4"

// Binaries are the two programs Start runs.
type Binaries struct {
	APIServer string
	Etcd      string
}

// FindBinaries resolves the binaries as hack/kube-apiserver.sh places them:
// $XPMIGRATE_KUBE_APISERVER, else the build cache
// (${XPMIGRATE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/xpmigrate}/kube-apiserver/<version>/kube-apiserver);
// $XPMIGRATE_ETCD, else etcd on PATH.
func FindBinaries() (Binaries, error) {
	b := Binaries{APIServer: os.Getenv("XPMIGRATE_KUBE_APISERVER"), Etcd: os.Getenv("XPMIGRATE_ETCD")}
	if b.APIServer == "" {
		cache := os.Getenv("XPMIGRATE_CACHE")
		if cache == "" {
			base := os.Getenv("XDG_CACHE_HOME")
			if base == "" {
				home, err := os.UserHomeDir()
				if err != nil {
					return b, errors.Wrap(err, "cannot find the home directory")
				}
				base = filepath.Join(home, ".cache")
			}
			cache = filepath.Join(base, "xpmigrate")
		}
		b.APIServer = filepath.Join(cache, "kube-apiserver", KubeVersion, "kube-apiserver")
	}
	if _, err := os.Stat(b.APIServer); err != nil { //nolint:gosec // G703: the test harness's own configuration names the binary
		return b, errors.Wrapf(err, "cannot find kube-apiserver %q: run hack/kube-apiserver.sh build", b.APIServer)
	}
	if b.Etcd == "" {
		p, err := exec.LookPath("etcd")
		if err != nil {
			return b, errors.Wrap(err, "cannot find etcd: install Debian's etcd-server (hack/kube-apiserver.sh etcd)")
		}
		b.Etcd = p
	}
	return b, nil
}
