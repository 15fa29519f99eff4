package format

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/xpmigrate/xpmigrate/render/verify"
)

// d46Case writes a Composition of n composed resources, the first with a
// Required ToComposite patch whose source is absent (D46: the legacy
// reconcile fails, so no resource is synced), its faithful conversion
// and an XR, and verifies them.
func d46Case(t *testing.T, n int) *verify.Report {
	t.Helper()
	var legacy, converted strings.Builder
	legacy.WriteString("apiVersion: apiextensions.crossplane.io/v1\nkind: Composition\nmetadata:\n  name: xqueues\nspec:\n  compositeTypeRef:\n    apiVersion: example.org/v1\n    kind: XQueue\n  resources:\n")
	converted.WriteString("apiVersion: apiextensions.crossplane.io/v1\nkind: Composition\nmetadata:\n  name: xqueues\nspec:\n  compositeTypeRef:\n    apiVersion: example.org/v1\n    kind: XQueue\n  mode: Pipeline\n  pipeline:\n  - step: patch-and-transform\n    functionRef:\n      name: function-patch-and-transform\n    input:\n      apiVersion: pt.fn.crossplane.io/v1beta1\n      kind: Resources\n      resources:\n")
	for i := range n {
		res := fmt.Sprintf("- name: r%d\n  base:\n    apiVersion: nop.crossplane.io/v1alpha1\n    kind: NopResource\n    spec:\n      forProvider: {}\n", i)
		if i == 0 {
			res += "  patches:\n  - type: ToCompositeFieldPath\n    fromFieldPath: status.atProvider.url\n    toFieldPath: status.queueUrl\n    policy:\n      fromFieldPath: Required\n"
		}
		for _, l := range strings.SplitAfter(strings.TrimSuffix(res, "\n"), "\n") {
			legacy.WriteString("  " + l)
			converted.WriteString("      " + l)
		}
		legacy.WriteString("\n")
		converted.WriteString("\n")
	}
	xr := map[string]any{"apiVersion": "example.org/v1", "kind": "XQueue", "metadata": map[string]any{"name": "q1"}, "spec": map[string]any{"size": "small"}}
	r, err := verify.Verify(context.Background(),
		verify.Document{Path: "legacy.yaml", Data: []byte(legacy.String())},
		verify.Document{Path: "converted.yaml", Data: []byte(converted.String())},
		[]verify.Sample{{Name: "xr.yaml#1", Source: "xr.yaml", XR: xr}}, verify.Options{})
	if err != nil {
		t.Fatalf("Verify(...): %v", err)
	}
	return r
}

// TestIssue24Item7D46OneFinding (issue 24 item 7): a root cause that makes
// every composed resource differ (D46, a Required ToComposite patch that
// fails the legacy reconcile, so no resource is synced) is one finding
// listing the resources in every format, not one per resource; each
// resource's difference is still attributed and proven on its own.
func TestIssue24Item7D46OneFinding(t *testing.T) {
	const n = 12
	r := d46Case(t, n)
	var want []string
	for i := range n {
		want = append(want, fmt.Sprintf("r%d", i))
	}

	// Attribution stays per path: every resource's difference is D46,
	// proven by its own counterfactual render.
	var proven []string
	for _, d := range r.Samples[0].Differences {
		if d.Aspect == verify.AspectSynced && d.Gap != nil && d.Gap.Code == "D46" && d.Gap.Proven {
			proven = append(proven, d.Resource)
		}
	}
	if diff := cmp.Diff(want, proven); diff != "" {
		t.Errorf("the synced differences proven D46, path by path: -want, +got:\n%s", diff)
	}

	listed := `12 resources "r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "r10", "r11" synced`
	cases := map[string]struct {
		reason string
		format Format
		// findings counts the findings about the resources' synced flag.
		findings func(t *testing.T, out []byte) (int, []string)
	}{
		"Text": {
			reason: "The text report shows one finding, its title listing the resources.",
			format: Text,
			findings: func(_ *testing.T, out []byte) (int, []string) {
				var got []string
				for _, l := range strings.Split(string(out), "\n") {
					if strings.HasPrefix(l, "✗ ") && strings.Contains(l, "synced") && !strings.Contains(l, "condition") {
						got = append(got, l)
					}
				}
				return len(got), got
			},
		},
		"JSON": {
			reason: "The JSON report has one difference, listing the resources.",
			format: JSON,
			findings: func(t *testing.T, out []byte) (int, []string) {
				var doc struct {
					Samples []struct {
						Differences []struct {
							Aspect    string   `json:"aspect"`
							Resources []string `json:"resources"`
						} `json:"differences"`
					} `json:"samples"`
				}
				if err := json.Unmarshal(out, &doc); err != nil {
					t.Fatal(err)
				}
				count, res := 0, []string(nil)
				for _, d := range doc.Samples[0].Differences {
					if d.Aspect == "synced" {
						count++
						res = d.Resources
					}
				}
				return count, res
			},
		},
		"SARIF": {
			reason: "SARIF has one result, whose properties list the resources.",
			format: SARIF,
			findings: func(t *testing.T, out []byte) (int, []string) {
				var doc struct {
					Runs []struct {
						Results []struct {
							Properties struct {
								Aspect    string   `json:"aspect"`
								Resources []string `json:"resources"`
							} `json:"properties"`
						} `json:"results"`
					} `json:"runs"`
				}
				if err := json.Unmarshal(out, &doc); err != nil {
					t.Fatal(err)
				}
				count, res := 0, []string(nil)
				for _, r := range doc.Runs[0].Results {
					if r.Properties.Aspect == "synced" {
						count++
						res = r.Properties.Resources
					}
				}
				return count, res
			},
		},
		"GitHub": {
			reason: "GitHub gets one annotation.",
			format: GitHub,
			findings: func(_ *testing.T, out []byte) (int, []string) {
				var got []string
				for _, l := range strings.Split(string(out), "\n") {
					if strings.Contains(l, "synced") && !strings.Contains(l, "condition Synced") {
						got = append(got, l)
					}
				}
				return len(got), got
			},
		},
		"JUnit": {
			reason: "The JUnit failure text holds one finding, and counts every difference.",
			format: JUnit,
			findings: func(t *testing.T, out []byte) (int, []string) {
				if !strings.Contains(string(out), fmt.Sprintf("known-gaps: %d differences fail verification", n+3)) {
					t.Errorf("JUnit: the failure does not count the %d differences:\n%s", n+3, out)
				}
				return strings.Count(string(out), `synced (reconciles`), nil
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var b bytes.Buffer
			if err := Write(&b, r, Options{Format: tc.format}); err != nil {
				t.Fatal(err)
			}
			count, got := tc.findings(t, b.Bytes())
			if count != 1 {
				t.Errorf("%s\nWrite(%s): %d findings about the resources' synced flag, want 1:\n%s", tc.reason, tc.format, count, strings.Join(got, "\n"))
			}
			switch tc.format {
			case JSON, SARIF:
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("%s\nWrite(%s): the finding's resources: -want, +got:\n%s", tc.reason, tc.format, diff)
				}
			case Text:
				if len(got) == 1 && !strings.Contains(got[0], listed) {
					t.Errorf("%s\nWrite(%s): the finding %q does not list the resources (%s)", tc.reason, tc.format, got[0], listed)
				}
			}
		})
	}
}
