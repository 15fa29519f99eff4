package cluster

import (
	"github.com/pkg/errors"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
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
