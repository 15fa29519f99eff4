package plan

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pkg/errors"

	"github.com/xpmigrate/xpmigrate/internal/errkind"
)

// TestCheckStep: runPlanCheck's loop over the plan's XRs (issue 27, item
// 5) is the plan package's: each XR (or the one named) is checked in the
// plan's order, an XR whose plan has errors is blocked, and the outcome is
// a findings error when any XR is blocked.
func TestCheckStep(t *testing.T) {
	m, l, d := fixture(t, nil)
	p, err := Build(context.Background(), l, d, Options{Convert: convertOptions(t)})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.XRs) != 1 {
		t.Fatalf("the fixture plans %d XRs, want 1", len(p.XRs))
	}
	good := p.XRs[0].Dir
	// A second XR whose plan has errors: it has no step, and every check
	// blocks it.
	p.XRs = append(p.XRs, &XR{Dir: "team-b/broken", Errors: []string{"no external name"}})
	files, err := p.Files(d)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "move")
	if err := Write(dir, files); err != nil {
		t.Fatal(err)
	}
	brokenReason := []string{"the plan of team-b/broken has errors: it cannot be moved as planned"}

	type out struct {
		XRs      []XRCheck
		Blocked  int
		Err      string
		Invalid  bool
		Findings bool
		Opened   int
	}
	cases := map[string]struct {
		reason  string
		plan    string
		step    int
		xr      string
		openErr error
		// anyText compares the error's kind, not its text (which names
		// a temporary directory).
		anyText bool
		want    out
	}{
		"EveryXRInPlanOrder": {
			reason: "Step 1 is allowed for the XR whose objects exist; the XR with plan errors is blocked: findings (exit 3).",
			plan:   dir, step: StepProtect,
			want: out{
				XRs:     []XRCheck{{Dir: good}, {Dir: "team-b/broken", Reasons: brokenReason}},
				Blocked: 1, Err: "step 1 is not allowed for 1 of 2 XRs", Findings: true, Opened: 1,
			},
		},
		"OnlyTheNamedXR": {
			reason: "--xr checks only that XR: allowed, no error.",
			plan:   dir, step: StepProtect, xr: good,
			want: out{XRs: []XRCheck{{Dir: good}}, Opened: 1},
		},
		"UnknownXRIsInvalidInput": {
			reason: "An --xr the plan has no XR of is invalid input.",
			plan:   dir, step: StepProtect, xr: "team-c/none",
			want: out{Err: `the plan has no XR "team-c/none"`, Invalid: true, Opened: 1},
		},
		"UnreadablePlanIsInvalidInputBeforeOpening": {
			reason: "A directory without plan.json is invalid input, found before the store is opened.",
			plan:   t.TempDir(), step: StepProtect, anyText: true,
			want: out{Invalid: true},
		},
		"StoreThatCannotOpen": {
			reason: "An error opening the store is returned as it is.",
			plan:   dir, step: StepProtect, openErr: errors.New("no kubeconfig"),
			want: out{Err: "no kubeconfig", Opened: 1},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var got out
			res, err := CheckStep(context.Background(), CheckRequest{
				Plan: tc.plan, Step: tc.step, XR: tc.xr,
				Objects: func() (Objects, error) {
					got.Opened++
					if tc.openErr != nil {
						return nil, tc.openErr
					}
					return m, nil
				},
			})
			if res != nil {
				got.XRs, got.Blocked = res.XRs, res.Blocked()
				if err == nil {
					err = res.Err()
				}
			}
			if err != nil {
				got.Err = err.Error()
				got.Invalid = errkind.IsInvalidInput(err)
				got.Findings = errkind.IsFindings(err)
			}
			if tc.anyText {
				got.Err = ""
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("\n%s\nCheckStep(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// TestPlanErr: a plan with errors counts its failed XRs and is a findings
// error (exit 3); runPlanV2 no longer counts them itself (issue 27, item 5).
func TestPlanErr(t *testing.T) {
	cases := map[string]struct {
		reason       string
		plan         Plan
		wantFailed   int
		wantErr      string
		wantFindings bool
	}{
		"NoXR": {
			reason: "An empty plan has nothing failed.",
		},
		"AllPlanned": {
			reason: "XRs without errors: no error.",
			plan:   Plan{XRs: []*XR{{Dir: "a/x"}, {Dir: "a/y"}}},
		},
		"SomeFailed": {
			reason:       "One XR of three has errors: a findings error counting it.",
			plan:         Plan{XRs: []*XR{{Dir: "a/x"}, {Dir: "a/y", Errors: []string{"e1", "e2"}}, {Dir: "a/z"}}},
			wantFailed:   1,
			wantErr:      "1 of 3 XRs cannot be moved as planned",
			wantFindings: true,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			type out struct {
				Failed   int
				Err      string
				Findings bool
			}
			got := out{Failed: tc.plan.WithErrors()}
			if err := tc.plan.Err(); err != nil {
				got.Err, got.Findings = err.Error(), errkind.IsFindings(err)
			}
			if diff := cmp.Diff(out{tc.wantFailed, tc.wantErr, tc.wantFindings}, got); diff != "" {
				t.Errorf("\n%s\nWithErrors(), Err(): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}
