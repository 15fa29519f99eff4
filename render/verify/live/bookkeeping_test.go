package live

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestBookkeeping pins the live fields the drift check never reports: the
// API server's and Crossplane's own. The external-create annotations are
// written by crossplane-runtime's managed reconciler on every managed
// resource it creates (found by the real-Crossplane tier: verify --cluster
// reported 32 drifted fields on the demo's 16 resources).
func TestBookkeeping(t *testing.T) {
	cases := map[string]struct {
		reason string
		path   string
		want   bool
	}{
		"CompositionResourceName": {reason: "core writes it", path: "metadata.annotations[crossplane.io/composition-resource-name]", want: true},
		"ExternalName":            {reason: "the provider writes it", path: "metadata.annotations[crossplane.io/external-name]", want: true},
		"ExternalCreatePending":   {reason: "the managed reconciler writes it before a Create", path: "metadata.annotations[crossplane.io/external-create-pending]", want: true},
		"ExternalCreateSucceeded": {reason: "the managed reconciler writes it after a Create", path: "metadata.annotations[crossplane.io/external-create-succeeded]", want: true},
		"ExternalCreateFailed":    {reason: "the managed reconciler writes it after a failed Create", path: "metadata.annotations[crossplane.io/external-create-failed]", want: true},
		"CompositeLabel":          {reason: "core writes it", path: "metadata.labels[crossplane.io/composite]", want: true},
		"UserAnnotation":          {reason: "an annotation someone set by hand is drift", path: "metadata.annotations[example.org/owner]", want: false},
		"Paused":                  {reason: "pausing is a user's act, drift to report", path: "metadata.annotations[crossplane.io/paused]", want: false},
		"SpecField":               {reason: "a spec field is drift", path: "spec.forProvider.region", want: false},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, bookkeeping(tc.path)); diff != "" {
				t.Errorf("%s\nbookkeeping(%q): -want, +got:\n%s", tc.reason, tc.path, diff)
			}
		})
	}
}
