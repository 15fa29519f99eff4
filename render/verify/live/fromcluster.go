package live

import (
	"sort"

	"github.com/pkg/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"

	"github.com/xpmigrate/xpmigrate/internal/errkind"
	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	"github.com/xpmigrate/xpmigrate/internal/xp"
	"github.com/xpmigrate/xpmigrate/render/verify"
)

// A Skipped Composition of the cluster is not checked: it is not legacy.
type Skipped struct {
	Name   string
	Reason string
}

// FromCluster selects the legacy (mode: Resources, or no mode) Compositions
// among those read from a cluster, by name when names are given, sorted by
// name, and returns each as a document Verify takes. The API server's
// bookkeeping (status, metadata.uid, resourceVersion, generation,
// creationTimestamp, managedFields, selfLink, the last-applied annotation)
// is stripped; the defaults the CRD added stay, as the cluster runs them.
// Compositions of another mode are returned as Skipped. A name that is not
// among comps is invalid input.
func FromCluster(comps []*unstructured.Unstructured, names []string) ([]verify.Document, []Skipped, error) {
	byName := make(map[string]*unstructured.Unstructured, len(comps))
	for _, c := range comps {
		byName[c.GetName()] = c
	}
	want := names
	if len(want) == 0 {
		for n := range byName {
			want = append(want, n)
		}
	}
	want = append([]string(nil), want...)
	sort.Strings(want)
	var docs []verify.Document
	var skipped []Skipped
	for i, n := range want {
		if i > 0 && want[i-1] == n {
			continue
		}
		c, ok := byName[n]
		if !ok {
			return nil, nil, errkind.InvalidInputf("Composition %q is not in the cluster (or the kubeconfig's user may not list Compositions)", n)
		}
		mode, _, _ := unstructured.NestedString(c.Object, "spec", "mode")
		if mode != "" && mode != "Resources" {
			skipped = append(skipped, Skipped{Name: n, Reason: "mode: " + mode + ", not a legacy Composition"})
			continue
		}
		b, err := yaml.Marshal(stripServer(c.Object))
		if err != nil {
			return nil, nil, errors.Wrapf(err, "cannot encode Composition %s", n)
		}
		docs = append(docs, verify.Document{Path: "Composition " + n + " (cluster)", Data: b})
	}
	return docs, skipped, nil
}

// stripServer returns a copy of a live object without status and the API
// server's metadata.
func stripServer(obj map[string]any) map[string]any {
	out := jsonobj.DeepCopy(obj)
	delete(out, "status")
	md, ok := out["metadata"].(map[string]any)
	if !ok {
		return out
	}
	for _, k := range xp.ServerFields {
		delete(md, k)
	}
	if an, ok := md["annotations"].(map[string]any); ok {
		delete(an, xp.AnnotationLastApplied)
		if len(an) == 0 {
			delete(md, "annotations")
		}
	}
	return out
}

// Unchecked is the Report of a Composition that could not be checked
// (Verify returned err): its verdict is NotChecked, Error says why, and its
// conversion check is unverified for that reason. `verify --from-cluster`
// reports it and goes on with the other Compositions.
func Unchecked(legacy verify.Document, err error) *Report {
	name := legacy.Path
	if comp, cerr := composition(legacy); cerr == nil {
		name = comp.GetName()
	}
	return &Report{
		Composition: name, Legacy: legacy.Path, Verdict: NotChecked, Error: err.Error(),
		Conversion: &verify.Report{
			Legacy: legacy.Path, Composition: name, Verdict: verify.Unverified,
			Reason: "not checked: " + err.Error(), Samples: []verify.SampleReport{},
		},
		Composites: []XR{},
	}
}
