package gaps

import (
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/xpmigrate/xpmigrate/internal/crossplane"
	"github.com/xpmigrate/xpmigrate/render"
)

// TestClassifyMergesReconciles drives Classify with the Compare function
// it is given: a difference seen in some reconciles is merged into one,
// with the reconciles it was seen in, and offered to the rules as a lag
// only when it vanished by the last reconcile.
func TestClassifyMergesReconciles(t *testing.T) {
	type want struct {
		FirstLoop, LastLoop int
		Transient           bool
		Code                string
		Class               GapClass
	}
	cases := map[string]struct {
		reason string
		// seen are the 1-based reconciles Compare reports the difference in.
		seen  []int
		loops int
		want  []want
	}{
		"LagCaughtUp": {
			reason: "A connection detail only legacy publishes in the first of two reconciles is the D26 lag: transient and benign.",
			seen:   []int{1},
			loops:  2,
			want:   []want{{FirstLoop: 1, LastLoop: 1, Transient: true, Code: "D26", Class: ClassBenign}},
		},
		"Persistent": {
			reason: "The same difference in every reconcile is no lag: no rule explains it.",
			seen:   []int{1, 2},
			loops:  2,
			want:   []want{{FirstLoop: 1, LastLoop: 2}},
		},
		"NoDifference": {
			reason: "Reconciles Compare finds equal give no difference.",
			loops:  3,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			// Each side's outcome says which reconcile it is.
			sides := func() []Side {
				out := make([]Side, tc.loops)
				for i := range out {
					out[i] = Side{Outcome: &render.Outcome{XR: map[string]any{"loop": i + 1}}}
				}
				return out
			}
			compare := func(l, _ Side, _ CompareOptions) []Difference {
				loop, _ := l.Outcome.XR["loop"].(int)
				for _, k := range tc.seen {
					if k == loop {
						d := Difference{Aspect: AspectConnection, Path: Path{{Field: "port"}}, Legacy: &Value{V: "5432"}}
						d.SetRaw(d.Legacy, d.Pipeline)
						return []Difference{d}
					}
				}
				return nil
			}
			names := func(i int) string { return "resource-" + strconv.Itoa(i) }
			c := &Context{
				LegacyModel:   LegacyModel(map[string]any{}, names),
				PipelineModel: PipelineModel(map[string]any{}),
				Names:         names,
				Target:        crossplane.V1,
				Legacy:        sides(),
				Pipeline:      sides(),
				Compare:       compare,
			}
			var got []want
			for _, d := range Classify(c) {
				w := want{FirstLoop: d.FirstLoop, LastLoop: d.LastLoop, Transient: d.Transient}
				if d.Gap != nil {
					w.Code, w.Class = d.Gap.Code, d.Gap.Class
				}
				got = append(got, w)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("\n%s\nClassify(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}
