package migrate

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/xpmigrate/xpmigrate/internal/cluster"
	"github.com/xpmigrate/xpmigrate/internal/crossplane"
	"github.com/xpmigrate/xpmigrate/internal/testutil"
	"github.com/xpmigrate/xpmigrate/render/verify"
	"github.com/xpmigrate/xpmigrate/render/verify/live"
)

// emptyCluster runs no XR.
type emptyCluster struct{}

func (emptyCluster) Composites(context.Context, *unstructured.Unstructured, func(*cluster.Composite) error) error {
	return nil
}

func (emptyCluster) EnvironmentConfigs(context.Context) ([]*unstructured.Unstructured, error) {
	return nil, nil
}

func (emptyCluster) Missing() []cluster.Permission { return nil }

func TestCheckCluster(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(testutil.RepoRoot(t), "testdata", "demo", "composition.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	clusterCheckLegacy := string(b)
	c, err := VerifyConverter(verify.ConvertRequest{Composition: b, Target: crossplane.V1})
	if err != nil {
		t.Fatal(err)
	}
	converted := string(c)
	cases := map[string]struct {
		reason      string
		comps       []CompositionResult
		wantCalls   int
		wantReports []string
	}{
		"NothingConverted": {
			reason:    "A run that changed no legacy Composition reads no cluster.",
			comps:     []CompositionResult{{Legacy: true, Item: -1, File: "a.yaml", Before: clusterCheckLegacy, After: clusterCheckLegacy}},
			wantCalls: 0,
		},
		"ListItemSkipped": {
			reason:    "An item of a kind: List document has no document of its own to check.",
			comps:     []CompositionResult{{Legacy: true, Item: 0, File: "a.yaml", Before: clusterCheckLegacy, After: converted}},
			wantCalls: 0,
		},
		"OneReportPerConvertedComposition": {
			reason: "Each converted legacy Composition is checked once, named <file>#<document from 1>, in the run's order; the cluster is read once.",
			comps: []CompositionResult{
				{Legacy: true, Item: -1, File: "b.yaml", Document: 1, Before: clusterCheckLegacy, After: converted},
				{Legacy: false, Item: -1, File: "c.yaml", Before: converted, After: converted},
				{Legacy: true, Item: -1, File: "a.yaml", Before: clusterCheckLegacy, After: converted},
			},
			wantCalls:   1,
			wantReports: []string{"b.yaml#2", "a.yaml#1"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			calls := 0
			newCluster := func(bool) (live.Cluster, error) {
				calls++
				return emptyCluster{}, nil
			}
			reports, err := CheckCluster(context.Background(), &Result{Compositions: tc.comps}, newCluster, live.Options{})
			if err != nil {
				t.Fatalf("\n%s\nCheckCluster(...): %v", tc.reason, err)
			}
			var got []string
			for _, r := range reports {
				got = append(got, r.Legacy)
			}
			if diff := cmp.Diff(tc.wantReports, got); diff != "" {
				t.Errorf("\n%s\nCheckCluster(...): -want reports, +got:\n%s", tc.reason, diff)
			}
			if calls != tc.wantCalls {
				t.Errorf("\n%s\nCheckCluster(...): want %d cluster reads, got %d", tc.reason, tc.wantCalls, calls)
			}
		})
	}
}
