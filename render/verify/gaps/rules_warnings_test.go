package gaps_test

import (
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/xpmigrate/xpmigrate/render/verify/verifytest"
)

// TestWarningGapRules renders each testdata/gaps case of a converter
// warning (legacy.yaml, converted.yaml as `xpmigrate convert` writes it)
// and checks that every difference is classified by the rule that uses
// the warning's code.
func TestWarningGapRules(t *testing.T) {
	for name, tc := range warningGapRuleCases() {
		t.Run(name, func(t *testing.T) {
			c := verifytest.Load(t, filepath.Join("testdata", "gaps", tc.dir))
			got := summary(c.Verify(t))
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\nVerify(%s): -want, +got:\n%s", tc.reason, tc.dir, diff)
			}
		})
	}
}

func warningGapRuleCases() map[string]gapRuleCase {
	return map[string]gapRuleCase{
		"NumberVerbs": {
			reason: "C211 (%x in a combine), C215 (%T in a Format) and %s on an integer: int64 natively, float64 in the function (D30)",
			dir:    "number-verbs",
			want: []string{
				"resource r spec.forProvider.port: D30",
				"resource r spec.forProvider.sizeText: D30",
				"resource r spec.forProvider.sizeType: D30",
			},
		},
		"ReencodedNumber": {
			reason: "C220 (a combine's %s hex-encoded by %X, a Format's %v hashed by ToSha256) and C212 (%c): an integer printed as int64 natively and float64 in the function, unrecognisable in the output; the rule reads the patch's source (D30)",
			dir:    "reencoded-number",
			want: []string{
				"resource r spec.forProvider.hashed: D30",
				"resource r spec.forProvider.hexed: D30",
				"resource r spec.forProvider.rune: D30",
			},
		},
		"RepairedTransform": {
			reason: "C221: transforms without their type (C313) or math sub-type (C314) make native Crossplane refuse the Composition; the converter repaired them and the pipeline renders (D4)",
			dir:    "repaired-transform",
			want: []string{
				"error: D4", "presence r: D4", "xr spec.resourceRefs: D4", "condition Ready: D4", "condition Synced: D4",
			},
		},
		"UnparseablePath": {
			reason: "C216: an unparseable toFieldPath with a policy fails legacy at apply time, even with its source absent; the pipeline skips the patch (D46)",
			dir:    "unparseable-path",
			want:   []string{"error: D46", "synced r: D46", "condition Ready: D46", "condition Synced: D46"},
		},
		"BaseStatusIgnored": {
			reason: "a ToComposite patch reads a status field the base sets: both engines create the resource without it, so no difference",
			dir:    "base-status",
			want:   nil,
		},
		"ToCompositeFailure": {
			reason: "a ToComposite transform fails on both sides; legacy has applied the composed resource first (D46)",
			dir:    "to-composite-failure",
			want:   []string{"presence r: D46"},
		},
		"PolicyListKey": {
			reason: "C218: a patch with a policy writes tags[-1] where the base has a list; legacy's apply-time merge fails even with the source absent (D15)",
			dir:    "policy-list-key",
			want:   []string{"error: D15", "synced r: D15", "condition Ready: D15", "condition Synced: D15"},
		},
		"ConvertNumberFormat": {
			reason: "C219: a convert to int64 with format quantity passes legacy's int64 through and fails on the pipeline's float64 (D30)",
			dir:    "convert-number-format",
			want:   []string{"error: D30", "presence r: D30", "condition Ready: D30", "condition Synced: D30"},
		},
		"ObservedNotApplied": {
			reason: "a ToComposite patch fails on the observed resource the pipeline reads, not on the object legacy has just applied (D8)",
			dir:    "observed-not-applied",
			want:   []string{"error: D8", "presence r: D8", "xr status.replicas: D8", "condition Ready: D8", "condition Synced: D8"},
		},
		"NumberAsText": {
			reason: "a Regexp turns an integer into text: legacy the int64's digits, the pipeline the float64's exponent form (D30)",
			dir:    "number-as-text",
			want:   []string{"resource r spec.forProvider.serialPrefix: D30"},
		},
		"NumberMapKey": {
			reason: "C211: %x prints the port in hex natively and as a hex float in the function, and the map transform after it fails on that key (D30)",
			dir:    "number-map-key",
			want:   []string{"error: D30", "presence r: D30", "condition Ready: D30", "condition Synced: D30"},
		},
		"XRListWrite": {
			reason: "C217: a ToComposite patch writes status.zones[1] and no patch writes zones[0]; legacy keeps the XR's first item, the pipeline replaces the list (D6)",
			dir:    "xr-list-write",
			want:   []string{"xr status.zones[0]: D6"},
		},
	}
}
