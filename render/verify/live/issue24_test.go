package live

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/xpmigrate/xpmigrate/render/verify"
)

// definitionsCluster is a fakeCluster that also lists XRDs, as
// cluster.Reader does.
type definitionsCluster struct {
	fakeCluster
	xrds []*unstructured.Unstructured
}

func (d *definitionsCluster) Definitions(context.Context) ([]*unstructured.Unstructured, error) {
	return d.xrds, nil
}

func xrdOf(group, kind string) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apiextensions.crossplane.io/v1",
		"kind":       "CompositeResourceDefinition",
		"metadata":   map[string]any{"name": "x." + group},
		"spec":       map[string]any{"group": group, "names": map[string]any{"kind": kind}},
	}}
}

// TestIssue24Item3ClusterXRD: verify --cluster converts on the fly with
// the cluster's XRD of the Composition's type, as convert --xrd and
// migrate convert with the XRD they are given or find.
func TestIssue24Item3ClusterXRD(t *testing.T) {
	cases := map[string]struct {
		reason string
		c      Cluster
		given  map[string]any
		want   string
	}{
		"FromTheCluster": {
			reason: "The cluster's XRD of the XR type reaches the converter; another type's does not.",
			c:      &definitionsCluster{xrds: []*unstructured.Unstructured{xrdOf("other.org", "XThing"), xrdOf("example.org", "XThing")}},
			want:   "x.example.org",
		},
		"Given": {
			reason: "An XRD given in the options wins.",
			c:      &definitionsCluster{xrds: []*unstructured.Unstructured{xrdOf("example.org", "XThing")}},
			given:  xrdOf("example.org", "XThing").Object,
			want:   "x.example.org",
		},
		"NoneInTheCluster": {
			reason: "No XRD of the type: the converter gets none.",
			c:      &definitionsCluster{},
		},
		"CannotList": {
			reason: "A cluster that cannot list XRDs: the converter gets none.",
			c:      &fakeCluster{},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var got string
			o := Options{}
			o.Verify.XRD = tc.given
			o.Verify.Convert = func(req verify.ConvertRequest) ([]byte, error) {
				got, _, _ = unstructured.NestedString(req.XRD, "metadata", "name")
				return testConvert(t)(req)
			}
			legacy := verify.Document{Path: "legacy.yaml", Data: []byte(legacyYAML)}
			if _, err := Verify(context.Background(), tc.c, legacy, verify.Document{}, o); err != nil {
				t.Fatalf("Verify(...): %v", err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("\n%s\nVerify(...): the converter's XRD: -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}
