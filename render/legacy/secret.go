package legacy

import (
	"encoding/base64"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/xpmigrate/xpmigrate/internal/xp"
)

// ConnectionSecret returns the Secret the reconcile would publish an XR's
// connection details to (docs/semantics/legacy.md#publishing-connection-details), or nil when the XR has no
// spec.writeConnectionSecretToRef. xr is the XR as persisted (an Outcome's
// EffectiveXR) and details the published details (an Outcome's
// ConnectionDetails, already filtered by the XRD's connectionSecretKeys).
//
// The Secret is applied by create or JSON merge patch, so keys already in
// the cluster's Secret stay; the returned object holds only the
// keys of this reconcile. Data values are base64-encoded, as in YAML.
func ConnectionSecret(xr map[string]any, details map[string][]byte) map[string]any {
	ref := writeConnectionSecretToRef(xr)
	if ref == nil {
		return nil
	}
	u := &unstructured.Unstructured{Object: xr}
	data := make(map[string]any, len(details))
	for k, v := range details {
		data[k] = base64.StdEncoding.EncodeToString(v)
	}
	return map[string]any{
		"apiVersion": "v1",
		"kind":       "Secret",
		"metadata": map[string]any{
			"name":      ref.Name,
			"namespace": ref.Namespace,
			"ownerReferences": []any{map[string]any{
				"apiVersion":         u.GetAPIVersion(),
				"kind":               u.GetKind(),
				"name":               u.GetName(),
				"uid":                string(u.GetUID()),
				"controller":         true,
				"blockOwnerDeletion": true,
			}},
		},
		"type": xp.SecretTypeConnection,
		"data": data,
	}
}
