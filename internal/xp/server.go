package xp

// ServerFields are the metadata fields the API server populates and no
// manifest or engine sets: a manifest that has them was exported from a
// cluster (`kubectl get -o yaml`), and a rendered object's are not compared.
var ServerFields = [...]string{"uid", "resourceVersion", "generation", "creationTimestamp", "managedFields", "selfLink"}

// AnnotationLastApplied is the annotation `kubectl apply` writes; like
// ServerFields it marks a manifest exported from a cluster.
const AnnotationLastApplied = "kubectl.kubernetes.io/last-applied-configuration"

// IsServerField reports whether the metadata field k is one of
// ServerFields.
func IsServerField(k string) bool {
	for _, f := range ServerFields {
		if k == f {
			return true
		}
	}
	return false
}
