package v2native

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestClassifyXRPath(t *testing.T) {
	cases := map[string]struct {
		reason string
		path   string
		want   XRPathClass
	}{
		"Plain":           {reason: "A field of the XR's own schema is no machinery.", path: "spec.parameters.size", want: XRPathPlain},
		"ClaimNamespace":  {reason: "The claim's namespace.", path: "spec.claimRef.namespace", want: XRPathClaimNamespace},
		"ClaimName":       {reason: "The claim's name.", path: "spec.claimRef.name", want: XRPathClaimName},
		"ClaimRef":        {reason: "Anything else of the claim reference.", path: "spec.claimRef.kind", want: XRPathClaimRef},
		"Machinery":       {reason: "A field v2 keeps under spec.crossplane.", path: "spec.compositionRef.name", want: XRPathMachinery},
		"SecretNamespace": {reason: "The connection Secret's namespace.", path: "spec.writeConnectionSecretToRef.namespace", want: XRPathSecretNamespace},
		"SecretRef":       {reason: "The connection Secret reference itself.", path: "spec.writeConnectionSecretToRef", want: XRPathSecretRef},
		"ClaimNameLabel":  {reason: "The claim-name label.", path: "metadata.labels[crossplane.io/claim-name]", want: XRPathClaimNameLabel},
		"ClaimNSLabel":    {reason: "The claim-namespace label.", path: "metadata.labels[crossplane.io/claim-namespace]", want: XRPathClaimNSLabel},
		"ClaimLabel":      {reason: "Another claim label.", path: "metadata.labels[crossplane.io/claim-uid]", want: XRPathClaimLabel},
		"UID":             {reason: "The XR's uid.", path: "metadata.uid", want: XRPathUID},
		"Unparsable":      {reason: "A path that does not parse is plain (C216 reports it).", path: "spec[", want: XRPathPlain},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, _ := ClassifyXRPath(tc.path)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\nClassifyXRPath(%q): -want, +got:\n%s", tc.reason, tc.path, diff)
			}
		})
	}
}

func TestClusterScopedKind(t *testing.T) {
	cases := map[string]struct {
		reason           string
		apiVersion, kind string
		want             bool
	}{
		"CoreNamespace":   {reason: "A Namespace is cluster-scoped.", apiVersion: "v1", kind: "Namespace", want: true},
		"CoreConfigMap":   {reason: "A ConfigMap is namespaced.", apiVersion: "v1", kind: "ConfigMap", want: false},
		"WholeGroup":      {reason: "Every kind of pkg.crossplane.io is cluster-scoped.", apiVersion: "pkg.crossplane.io/v1", kind: "Provider", want: true},
		"ManagedResource": {reason: "Managed resources are not listed: v2 composes their namespaced twins.", apiVersion: "s3.aws.upbound.io/v1beta1", kind: "Bucket", want: false},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, ClusterScopedKind(tc.apiVersion, tc.kind)); diff != "" {
				t.Errorf("%s\nClusterScopedKind(%q, %q): -want, +got:\n%s", tc.reason, tc.apiVersion, tc.kind, diff)
			}
		})
	}
}
