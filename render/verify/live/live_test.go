package live

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"

	"github.com/xpmigrate/xpmigrate/convert"
	"github.com/xpmigrate/xpmigrate/convert/v2native"
	"github.com/xpmigrate/xpmigrate/internal/cluster"
	"github.com/xpmigrate/xpmigrate/internal/crossplane"
	"github.com/xpmigrate/xpmigrate/render/verify"
)

const legacyYAML = `apiVersion: apiextensions.crossplane.io/v1
kind: Composition
metadata:
  name: buckets
spec:
  compositeTypeRef:
    apiVersion: example.org/v1alpha1
    kind: XThing
  resources:
  - name: bucket
    base:
      apiVersion: example.org/v1
      kind: Bucket
      spec:
        forProvider:
          region: us-east-1
    patches:
    - type: FromCompositeFieldPath
      fromFieldPath: spec.size
      toFieldPath: spec.forProvider.size
    - type: ToCompositeFieldPath
      fromFieldPath: status.atProvider.arn
      toFieldPath: status.arn
`

func obj(t *testing.T, s string) *unstructured.Unstructured {
	t.Helper()
	o := map[string]any{}
	if err := yaml.Unmarshal([]byte(s), &o); err != nil {
		t.Fatal(err)
	}
	return &unstructured.Unstructured{Object: o}
}

// composite is XR x (size small) and its Bucket as the legacy composer
// wrote it, with forProvider as given.
func composite(t *testing.T, arn, forProvider string) *cluster.Composite {
	xr := obj(t, `apiVersion: example.org/v1alpha1
kind: XThing
metadata:
  name: x
  uid: u-1
  labels: {crossplane.io/composite: x}
spec:
  size: small
  compositionRef: {name: buckets}
  resourceRefs: [{apiVersion: example.org/v1, kind: Bucket, name: x-bucket}]
status:
  arn: `+arn+`
  conditions:
  - {type: Synced, status: "True", reason: ReconcileSuccess}
  - {type: Ready, status: "True", reason: Available}
`)
	bucket := obj(t, `apiVersion: example.org/v1
kind: Bucket
metadata:
  name: x-bucket
  labels: {crossplane.io/composite: x, crossplane.io/claim-name: "", crossplane.io/claim-namespace: ""}
  annotations: {crossplane.io/composition-resource-name: bucket}
  ownerReferences: [{apiVersion: example.org/v1alpha1, kind: XThing, name: x, uid: u-1, controller: true, blockOwnerDeletion: true}]
spec:
  forProvider: `+forProvider+`
status:
  atProvider: {arn: "arn:x"}
  conditions:
  - {type: Ready, status: "True", reason: Available}
`)
	return &cluster.Composite{XR: xr, Composed: []cluster.Composed{{
		Ref: cluster.Ref{APIVersion: "example.org/v1", Kind: "Bucket", Name: "x-bucket"}, State: cluster.Found, Object: bucket, ResourceName: "bucket",
	}}}
}

// claimed1 gives c the claim team-a/x (a Thing) in state, with the claim's
// spec and status as given.
func claimed1(t *testing.T, c *cluster.Composite, state cluster.State, claim string) *cluster.Composite {
	t.Helper()
	if err := unstructured.SetNestedStringMap(c.XR.Object, map[string]string{"apiVersion": "example.org/v1alpha1", "kind": "Thing", "namespace": "team-a", "name": "x"}, "spec", "claimRef"); err != nil {
		t.Fatal(err)
	}
	c.ClaimState = state
	if state == cluster.Found {
		c.Claim = obj(t, "apiVersion: example.org/v1alpha1\nkind: Thing\nmetadata: {namespace: team-a, name: x}\n")
		for k, v := range obj(t, claim).Object {
			c.Claim.Object[k] = v
		}
	}
	return c
}

// TestCheck checks one live XR (the per-XR step of Verify, over values:
// reading the cluster is tested against a real API server in the e2e tier).
func TestCheck(t *testing.T) {
	type want struct {
		Conversion verify.Verdict
		Emulation  []string
		Drift      []string
		Notes      []string
	}
	cases := map[string]struct {
		reason string
		live   *cluster.Composite
		want   want
	}{
		"Reproduced": {
			reason: "A live XR the legacy render reproduces, whose conversion is equivalent, has no finding.",
			live:   composite(t, "arn:x", "{region: us-east-1, size: small}"),
			want:   want{Conversion: verify.Equivalent},
		},
		"HandEdit": {
			reason: "A field the template owns edited by hand is an emulation difference, a field no template sets is drift; neither touches the conversion.",
			live:   composite(t, "arn:x", "{region: eu-west-1, size: small, tags: {a: b}}"),
			want: want{
				Conversion: verify.Equivalent,
				Emulation:  []string{`bucket (Bucket x-bucket) spec.forProvider.region: live "eu-west-1", rendered "us-east-1"`},
				Drift:      []string{`bucket (Bucket x-bucket) spec.forProvider.tags.a: live "b", rendered (none)`},
			},
		},
		"ClaimInStep": {
			reason: "A claim whose status carries the rendered XR status and whose spec is the XR's has no finding.",
			live:   claimed1(t, composite(t, "arn:x", "{region: us-east-1, size: small}"), cluster.Found, "{spec: {size: small, resourceRef: {name: x}}, status: {arn: 'arn:x', conditions: [{type: Ready, status: 'True'}]}}"),
			want:   want{Conversion: verify.Equivalent},
		},
		"ClaimStatusStale": {
			reason: "A claim whose status lacks or differs from what the render wrote to the XR's status is an emulation difference; a status field no render writes is drift.",
			live:   claimed1(t, composite(t, "arn:x", "{region: us-east-1, size: small}"), cluster.Found, "{spec: {size: small}, status: {arn: 'arn:old', extra: e}}"),
			want: want{
				Conversion: verify.Equivalent,
				Emulation:  []string{`claim team-a/x status.arn: live "arn:old", rendered "arn:x"`},
				Drift:      []string{`claim team-a/x status.extra: live "e", rendered (none)`},
			},
		},
		"ClaimSpecNotOnXR": {
			reason: "A claim spec field the XR's spec does not carry is an emulation difference (the claim syncer copies it); the claim's own fields are not compared.",
			live:   claimed1(t, composite(t, "arn:x", "{region: us-east-1, size: small}"), cluster.Found, "{spec: {size: large, compositeDeletePolicy: Foreground, writeConnectionSecretToRef: {name: s}}, status: {arn: 'arn:x'}}"),
			want: want{
				Conversion: verify.Equivalent,
				Emulation:  []string{`claim team-a/x spec.size: the claim has "large", the XR "small": the claim syncer copies the claim's spec to the XR`},
			},
		},
		"ClaimForbidden": {
			reason: "A claim that could not be read is a note, not a finding.",
			live:   claimed1(t, composite(t, "arn:x", "{region: us-east-1, size: small}"), cluster.Forbidden, ""),
			want:   want{Conversion: verify.Equivalent, Notes: []string{"claim team-a/x: Forbidden, not compared"}},
		},
		"XRStatusNotWrittenByPatch": {
			reason: "An XR status field that differs from what its ToComposite patch writes is an emulation difference.",
			live:   composite(t, "arn:stale", "{region: us-east-1, size: small}"),
			want: want{
				Conversion: verify.Equivalent,
				Emulation:  []string{`XR status.arn: live "arn:stale", rendered "arn:x"`},
			},
		},
	}
	legacy := verify.Document{Path: "legacy.yaml", Data: []byte(legacyYAML)}
	converted, err := testConvert(t)(verify.ConvertRequest{Composition: legacy.Data, Target: crossplane.V1})
	if err != nil {
		t.Fatal(err)
	}
	comp, err := composition(legacy)
	if err != nil {
		t.Fatal(err)
	}
	p := &pair{legacy: legacy, converted: verify.Document{Path: "converted.yaml", Data: converted}, obj: comp.Object}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			x, vr, err := check(context.Background(), p, tc.live, nil, Options{})
			if err != nil {
				t.Fatalf("check(...): %v", err)
			}
			got := want{Conversion: vr.Verdict}
			for _, f := range x.Emulation {
				got.Emulation = append(got.Emulation, f.String())
			}
			if x.EmulationError != "" {
				got.Emulation = append(got.Emulation, "error: "+x.EmulationError)
			}
			for _, f := range x.Drift {
				got.Drift = append(got.Drift, f.String())
			}
			got.Notes = x.Notes
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("\n%s\ncheck(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// testConvert converts with xpmigrate's converter, as the command does.
func testConvert(t testing.TB) verify.Converter {
	return func(req verify.ConvertRequest) ([]byte, error) {
		res, err := v2native.Convert(req.Composition, convert.Options{Target: req.Target, AckUnnamed: true})
		if err != nil {
			return nil, err
		}
		if res.Failed() {
			t.Fatalf("convert: %v", res.Diagnostics)
		}
		return res.Output, nil
	}
}

// fakeCluster hands over its composites in order, as the reader does.
type fakeCluster struct{ composites []*cluster.Composite }

func (f *fakeCluster) Composites(ctx context.Context, _ *unstructured.Unstructured, fn func(*cluster.Composite) error) error {
	for _, c := range f.composites {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := fn(c); err != nil {
			return err
		}
	}
	return nil
}

func (f *fakeCluster) EnvironmentConfigs(context.Context) ([]*unstructured.Unstructured, error) {
	return nil, nil
}

func (f *fakeCluster) Missing() []cluster.Permission { return nil }

// named is composite(...) renamed to XR name and Bucket name-bucket.
func named(t *testing.T, name, arn, forProvider string) *cluster.Composite {
	c := composite(t, arn, forProvider)
	c.XR.SetName(name)
	c.XR.SetLabels(map[string]string{"crossplane.io/composite": name})
	if err := unstructured.SetNestedSlice(c.XR.Object, []any{map[string]any{"apiVersion": "example.org/v1", "kind": "Bucket", "name": name + "-bucket"}}, "spec", "resourceRefs"); err != nil {
		t.Fatal(err)
	}
	b := c.Composed[0].Object
	b.SetName(name + "-bucket")
	b.SetLabels(map[string]string{"crossplane.io/composite": name, "crossplane.io/claim-name": "", "crossplane.io/claim-namespace": ""})
	c.Composed[0].Ref.Name = name + "-bucket"
	return c
}

// TestVerifyStreams: Verify folds each XR into the report as it comes:
// beyond Options.Detailed the XRs with findings keep a compact record, the
// findings of every XR are aggregated by object and path, and the report
// is the same whatever the number of workers rendering at once.
func TestVerifyStreams(t *testing.T) {
	var composites []*cluster.Composite
	for i := range 12 {
		name := fmt.Sprintf("x-%02d", i)
		switch {
		case i%3 == 1:
			// Hand edited: an emulation difference and a drifted field.
			composites = append(composites, named(t, name, "arn:x", "{region: eu-west-1, size: small, tags: {a: b}}"))
		default:
			composites = append(composites, named(t, name, "arn:x", "{region: us-east-1, size: small}"))
		}
	}
	legacy := verify.Document{Path: "legacy.yaml", Data: []byte(legacyYAML)}
	type want struct {
		Verdict                       string
		XRs, EmulationXRs, Unlisted   int
		Emulation, Drift              int
		Listed                        []string
		Compact                       []string
		EmulationFindings, DriftFinds []string
		Samples                       int
	}
	run := func(workers, detailed int) *Report {
		t.Helper()
		o := Options{Workers: workers, Detailed: detailed}
		o.Verify.Convert = testConvert(t)
		rep, err := Verify(context.Background(), &fakeCluster{composites: composites}, legacy, verify.Document{}, o)
		if err != nil {
			t.Fatalf("Verify(...): %v", err)
		}
		return rep
	}
	cases := map[string]struct {
		reason   string
		detailed int
		want     want
	}{
		"TwoListed": {
			reason:   "With Detailed 2, the first two hand-edited XRs are listed in full; the other two keep counts; the aggregates hold all four.",
			detailed: 2,
			want: want{
				Verdict: EmulationDifferences, XRs: 12, EmulationXRs: 4, Unlisted: 2, Emulation: 4, Drift: 4,
				Listed: []string{"x-01 1 1", "x-04 1 1"}, Compact: []string{"x-07 1 1", "x-10 1 1"},
				EmulationFindings: []string{`bucket (Bucket) spec.forProvider.region: 4 XRs (x-01, x-04, x-07, …)`},
				DriftFinds:        []string{`bucket (Bucket) spec.forProvider.tags.a: 4 XRs (x-01, x-04, x-07, …)`},
				Samples:           12,
			},
		},
		"Every": {
			reason:   "With a negative Detailed every XR is listed in full.",
			detailed: -1,
			want: want{
				Verdict: EmulationDifferences, XRs: 12, EmulationXRs: 4, Emulation: 4, Drift: 4,
				Listed:            []string{"x-01 1 1", "x-04 1 1", "x-07 1 1", "x-10 1 1"},
				EmulationFindings: []string{`bucket (Bucket) spec.forProvider.region: 4 XRs (x-01, x-04, x-07, …)`},
				DriftFinds:        []string{`bucket (Bucket) spec.forProvider.tags.a: 4 XRs (x-01, x-04, x-07, …)`},
				Samples:           12,
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			rep := run(1, tc.detailed)
			got := want{Verdict: rep.Verdict, XRs: rep.XRs, EmulationXRs: rep.EmulationXRs, Unlisted: rep.Unlisted, Emulation: rep.Emulation, Drift: rep.Drift, Samples: len(rep.Conversion.Samples)}
			for _, x := range rep.Composites {
				line := fmt.Sprintf("%s %d %d", x.Name, x.EmulationCount, x.DriftCount)
				switch {
				case x.Unlisted && len(x.Emulation)+len(x.Drift)+len(x.Notes) == 0:
					got.Compact = append(got.Compact, line)
				case x.Unlisted:
					t.Errorf("XR %s is unlisted, but keeps its findings", x.Name)
				case x.EmulationCount != len(x.Emulation) || x.DriftCount != len(x.Drift):
					t.Errorf("XR %s is listed, but its counts %d, %d are not its findings' %d, %d", x.Name, x.EmulationCount, x.DriftCount, len(x.Emulation), len(x.Drift))
				case x.EmulationCount+x.DriftCount > 0:
					got.Listed = append(got.Listed, line)
				}
			}
			for _, f := range rep.EmulationFindings {
				got.EmulationFindings = append(got.EmulationFindings, f.String())
			}
			for _, f := range rep.DriftFindings {
				got.DriftFinds = append(got.DriftFinds, f.String())
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("\n%s\nVerify(...): -want, +got:\n%s", tc.reason, diff)
			}
			// Rendering four XRs at once gives the same report.
			par := run(4, tc.detailed)
			if diff := cmp.Diff(rep, par, cmpopts.IgnoreUnexported(Finding{}, verify.Difference{})); diff != "" {
				t.Errorf("\n%s\nVerify(...) with 4 workers: -1 worker, +4 workers:\n%s", tc.reason, diff)
			}
		})
	}
}

// TestTallies: findings aggregate by object (without the live object's
// name) and path, whatever values they show; an XR counts once per tally,
// and the first few XRs are named.
func TestTallies(t *testing.T) {
	var ts tallies
	for i := range 5 {
		xr := fmt.Sprintf("x-%d", i)
		c := &cluster.Composite{XR: obj(t, fmt.Sprintf("{spec: {size: s%d}}", i)), ClaimState: cluster.Found,
			Claim: obj(t, fmt.Sprintf("{spec: {size: c%d}}", i))}
		x := &XR{Name: xr, Claim: "team-a/" + xr}
		claimed(x, nil, c)
		// The same finding twice on one XR counts once.
		ts.addFindings(xr, append(x.Emulation, x.Emulation...))
		ts.addFindings(xr, []Finding{{Object: fmt.Sprintf("bucket (Bucket %s-bucket)", xr), group: "bucket (Bucket)", Path: "spec.forProvider.size", Live: i}})
	}
	var got []string
	for _, tl := range ts.sorted() {
		got = append(got, tl.String())
	}
	want := []string{
		"bucket (Bucket) spec.forProvider.size: 5 XRs (x-0, x-1, x-2, …)",
		"claim spec.size: the XR's spec does not carry the claim's value (the claim syncer copies it): 5 XRs (x-0, x-1, x-2, …)",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("tallies: -want, +got:\n%s", diff)
	}
}
