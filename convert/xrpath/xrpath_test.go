package xrpath

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestClassify(t *testing.T) {
	cases := map[string]struct {
		reason string
		path   string
		want   Class
	}{
		"Plain":           {reason: "A field of the XR's own schema is no machinery.", path: "spec.parameters.size", want: Plain},
		"ClaimNamespace":  {reason: "The claim's namespace.", path: "spec.claimRef.namespace", want: ClaimNamespace},
		"ClaimName":       {reason: "The claim's name.", path: "spec.claimRef.name", want: ClaimName},
		"ClaimRef":        {reason: "Anything else of the claim reference.", path: "spec.claimRef.kind", want: ClaimRef},
		"Machinery":       {reason: "A field v2 keeps under spec.crossplane.", path: "spec.compositionRef.name", want: Machinery},
		"SecretNamespace": {reason: "The connection Secret's namespace.", path: "spec.writeConnectionSecretToRef.namespace", want: SecretNamespace},
		"SecretRef":       {reason: "The connection Secret reference itself.", path: "spec.writeConnectionSecretToRef", want: SecretRef},
		"ClaimNameLabel":  {reason: "The claim-name label.", path: "metadata.labels[crossplane.io/claim-name]", want: ClaimNameLabel},
		"ClaimNSLabel":    {reason: "The claim-namespace label.", path: "metadata.labels[crossplane.io/claim-namespace]", want: ClaimNSLabel},
		"ClaimLabel":      {reason: "Another claim label.", path: "metadata.labels[crossplane.io/claim-uid]", want: ClaimLabel},
		"UID":             {reason: "The XR's uid.", path: "metadata.uid", want: UID},
		"Unparsable":      {reason: "A path that does not parse is plain (C216 reports it).", path: "spec[", want: Plain},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, _ := Classify(tc.path)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\nClassify(%q): -want, +got:\n%s", tc.reason, tc.path, diff)
			}
		})
	}
}
