package legacy

import (
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// An objectKey identifies an object in the cluster model: API group, kind,
// namespace and name. Versions of one group share storage, so they are
// not part of the key.
type objectKey struct {
	group, kind, namespace, name string
}

func keyOf(apiVersion, kind, namespace, name string) objectKey {
	group := ""
	if gv, err := schema.ParseGroupVersion(apiVersion); err == nil {
		group = gv.Group
	} else if i := strings.Index(apiVersion, "/"); i >= 0 {
		group = apiVersion[:i]
	}
	return objectKey{group: group, kind: kind, namespace: namespace, name: name}
}

// unnamespaced is k without its namespace: the key lookups are indexed by.
func (k objectKey) unnamespaced() objectKey {
	k.namespace = ""
	return k
}

// matches reports whether an object with key o is the one k looks up. A
// lookup without a namespace (a cluster-scoped object's reference, or one
// that was written without its namespace) matches an object in any
// namespace.
func (k objectKey) matches(o objectKey) bool {
	return k.group == o.group && k.kind == o.kind && k.name == o.name &&
		(k.namespace == "" || k.namespace == o.namespace)
}
