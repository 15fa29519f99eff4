package cluster

import (
	"io/fs"

	"github.com/pkg/errors"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/xpmigrate/xpmigrate/internal/errkind"
	"github.com/xpmigrate/xpmigrate/internal/regularfile"
)

// Kubeconfig selects a cluster as kubectl does.
type Kubeconfig struct {
	// Path is --kubeconfig. When empty, client-go's default loading rules
	// apply: $KUBECONFIG (a list of files, merged), then ~/.kube/config,
	// then the in-cluster service account.
	Path string
	// Context is --context; the current context when empty.
	Context string
}

// LoadConfig builds a client configuration with client-go's standard loading
// rules (exec and auth-provider plugins included). It returns the namespace
// of the selected context too ("default" when the context names none); the
// caller decides whether it filters anything.
func LoadConfig(k Kubeconfig) (*rest.Config, string, error) {
	rules := clientcmd.NewDefaultClientConfigLoadingRules()
	rules.ExplicitPath = k.Path
	if err := checkKubeconfigFiles(rules); err != nil {
		return nil, "", err
	}
	cc := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(rules, &clientcmd.ConfigOverrides{CurrentContext: k.Context})
	cfg, err := cc.ClientConfig()
	if err != nil {
		return nil, "", errors.Wrap(err, "cannot load the kubeconfig")
	}
	ns, _, err := cc.Namespace()
	if err != nil {
		return nil, "", errors.Wrap(err, "cannot read the kubeconfig's namespace")
	}
	return cfg, ns, nil
}

// checkKubeconfigFiles refuses a kubeconfig file that is not a regular file
// (a FIFO would block client-go's read for ever) with an invalid input
// error naming it: the explicit path, else every file of $KUBECONFIG and
// ~/.kube/config that exists.
func checkKubeconfigFiles(rules *clientcmd.ClientConfigLoadingRules) error {
	paths := rules.Precedence
	if rules.ExplicitPath != "" {
		paths = []string{rules.ExplicitPath}
	}
	for _, p := range paths {
		f, err := regularfile.Open(p)
		switch {
		case err == nil:
			_ = f.Close()
		case regularfile.IsNotRegular(err):
			return errkind.InvalidInput(errors.Wrap(err, "cannot load the kubeconfig"))
		case errors.Is(err, fs.ErrNotExist):
			// client-go reports a missing explicit file, and skips the
			// others.
		default:
			return errkind.InvalidInput(errors.Wrapf(err, "cannot load the kubeconfig %q", p))
		}
	}
	return nil
}
