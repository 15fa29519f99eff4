package live

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pkg/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/xpmigrate/xpmigrate/internal/cluster"
	"github.com/xpmigrate/xpmigrate/internal/errkind"
	"github.com/xpmigrate/xpmigrate/render/verify"
)

// fakeLister holds the Compositions of a cluster.
type fakeLister struct {
	comps   []*unstructured.Unstructured
	missing []cluster.Permission
	err     error
}

func (f *fakeLister) Compositions(context.Context) ([]*unstructured.Unstructured, error) {
	return f.comps, f.err
}

func (f *fakeLister) Missing() []cluster.Permission { return f.missing }

// storedComposition is legacyYAML named name, in the given mode ("" for
// none), with the API server's bookkeeping.
func storedComposition(t *testing.T, name, mode string) *unstructured.Unstructured {
	t.Helper()
	c := obj(t, legacyYAML)
	c.SetName(name)
	c.SetResourceVersion("7")
	if mode != "" {
		if err := unstructured.SetNestedField(c.Object, mode, "spec", "mode"); err != nil {
			t.Fatal(err)
		}
	}
	return c
}

// TestVerifyStored: runVerifyFromCluster's loop (issue 27, item 5) is the
// live check's: the stored legacy Compositions are selected, the cluster
// is opened once, each is checked in name order between Start and
// Finish, one that cannot be checked gets a report and the others go on,
// and the outcome is aggregated.
func TestVerifyStored(t *testing.T) {
	comps := []*unstructured.Unstructured{
		storedComposition(t, "b", "Resources"), storedComposition(t, "p", "Pipeline"), storedComposition(t, "a", ""),
	}
	type out struct {
		Opened    []bool
		Skipped   []Skipped
		Events    []string
		Reports   []string
		Verdicts  []string
		Unchecked []string
		Err       string
		Invalid   bool
		Findings  bool
	}
	cases := map[string]struct {
		reason  string
		lister  *fakeLister
		names   []string
		failing string // the Composition whose conversion fails
		cancel  bool   // the failing conversion also cancels the run
		want    out
	}{
		"EveryLegacyCompositionInNameOrder": {
			reason: "Without names every legacy Composition is checked, sorted by name, between Start and Finish; Pipeline ones are skipped; the cluster is opened once. No XR runs them: unverified, which fails only with --require-verified.",
			lister: &fakeLister{comps: comps},
			want: out{
				Opened:   []bool{false},
				Skipped:  []Skipped{{Name: "p", Reason: "mode: Pipeline, not a legacy Composition"}},
				Events:   []string{"start Composition a (cluster)", "finish", "start Composition b (cluster)", "finish"},
				Reports:  []string{"a", "b"},
				Verdicts: []string{Unverified, Unverified},
			},
		},
		"NamesSelect": {
			reason: "Names select the Compositions checked.",
			lister: &fakeLister{comps: comps},
			names:  []string{"b"},
			want: out{
				Opened: []bool{false}, Events: []string{"start Composition b (cluster)", "finish"},
				Reports: []string{"b"}, Verdicts: []string{Unverified},
			},
		},
		"UncheckedCompositionReportedOthersGoOn": {
			reason:  "A Composition that cannot be converted gets a not-checked report, the next one is still checked, and the run fails naming it.",
			lister:  &fakeLister{comps: comps},
			failing: "a",
			want: out{
				Opened:  []bool{false},
				Skipped: []Skipped{{Name: "p", Reason: "mode: Pipeline, not a legacy Composition"}},
				Events:  []string{"start Composition a (cluster)", "finish", "start Composition b (cluster)", "finish"},
				Reports: []string{"a", "b"}, Verdicts: []string{NotChecked, Unverified}, Unchecked: []string{"a"},
				Err: "cannot verify 1 of 2 Compositions against the cluster: a (see their reports)",
			},
		},
		"CancelledRunStops": {
			reason:  "A cancelled run stops at the Composition it was checking, with an error and no result.",
			lister:  &fakeLister{comps: comps},
			failing: "a",
			cancel:  true,
			want: out{
				Opened:  []bool{false},
				Skipped: []Skipped{{Name: "p", Reason: "mode: Pipeline, not a legacy Composition"}},
				Events:  []string{"start Composition a (cluster)", "finish"},
				Err:     "cannot verify Composition a (cluster) against the cluster: cannot convert Composition a (cluster): cancelled",
			},
		},
		"MissingPermission": {
			reason: "A cluster that forbids listing Compositions is an error naming the permission; the XRs are not read.",
			lister: &fakeLister{missing: []cluster.Permission{{Verb: "list", Group: "apiextensions.crossplane.io", Resource: "compositions"}}},
			want:   out{Err: "cannot read the cluster's Compositions: missing permission list compositions.apiextensions.crossplane.io (cluster-wide)"},
		},
		"ListFails": {
			reason: "A failing list is an error.",
			lister: &fakeLister{err: errors.New("boom")},
			want:   out{Err: "cannot read the cluster's Compositions: boom"},
		},
		"UnknownNameIsInvalidInput": {
			reason: "A name the cluster has no Composition of is invalid input, found before the cluster is opened.",
			lister: &fakeLister{comps: comps},
			names:  []string{"nope"},
			want:   out{Invalid: true, Err: `Composition "nope" is not in the cluster (or the kubeconfig's user may not list Compositions)`},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var got out
			conv := testConvert(t)
			o := StoredOptions{
				Names:   tc.names,
				Skipped: func(s Skipped) { got.Skipped = append(got.Skipped, s) },
				Start:   func(p string) { got.Events = append(got.Events, "start "+p) },
				Finish:  func() { got.Events = append(got.Events, "finish") },
			}
			o.Verify.Convert = func(req verify.ConvertRequest) ([]byte, error) {
				if tc.failing != "" && strings.Contains(string(req.Composition), "name: "+tc.failing+"\n") {
					if tc.cancel {
						cancel()
						return nil, errors.New("cancelled")
					}
					return nil, errors.New("C117 unknown patchSetName")
				}
				return conv(req)
			}
			open := func(secrets bool) (Cluster, error) {
				got.Opened = append(got.Opened, secrets)
				return &fakeCluster{}, nil
			}
			res, err := VerifyStored(ctx, tc.lister, open, o)
			if res != nil {
				for _, r := range res.Reports {
					got.Reports = append(got.Reports, r.Composition)
					got.Verdicts = append(got.Verdicts, r.Verdict)
				}
				got.Unchecked = res.Unchecked
				err = res.Err(false)
			}
			if err != nil {
				got.Err = err.Error()
				got.Invalid = errkind.IsInvalidInput(err)
				got.Findings = errkind.IsFindings(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("\n%s\nVerifyStored(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// TestStoredResultErr: the outcome of a run over several Compositions is
// the worst of their reports.
func TestStoredResultErr(t *testing.T) {
	pass := &Report{Verdict: Equivalent, Conversion: &verify.Report{Verdict: verify.Equivalent}}
	unverified := &Report{Verdict: Unverified, Conversion: &verify.Report{Verdict: verify.Unverified}}
	type out struct {
		Err      bool
		Findings bool
	}
	cases := map[string]struct {
		reason          string
		res             StoredResult
		requireVerified bool
		want            out
	}{
		"AllPass": {
			reason: "Every report passes: no error.",
			res:    StoredResult{Reports: []*Report{pass, pass}},
		},
		"NoReports": {
			reason: "No legacy Composition in the cluster: nothing fails.",
			res:    StoredResult{},
		},
		"UnverifiedPassesByDefault": {
			reason: "An unverified Composition passes without --require-verified.",
			res:    StoredResult{Reports: []*Report{pass, unverified}},
		},
		"UnverifiedFailsWhenRequired": {
			reason:          "With --require-verified one unverified Composition fails the run (findings: exit 3).",
			res:             StoredResult{Reports: []*Report{pass, unverified}},
			requireVerified: true,
			want:            out{Err: true, Findings: true},
		},
		"UncheckedIsAnError": {
			reason: "A Composition that could not be checked is an error (exit 1), not a finding.",
			res:    StoredResult{Reports: []*Report{pass}, Unchecked: []string{"a"}},
			want:   out{Err: true},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			err := tc.res.Err(tc.requireVerified)
			got := out{Err: err != nil, Findings: errkind.IsFindings(err)}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("\n%s\nErr(%t): -want, +got:\n%s", tc.reason, tc.requireVerified, diff)
			}
		})
	}
}
