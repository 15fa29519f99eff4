package verify

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSampleObservedState: a sample's own observed resources replace
// Options.Observed for that sample only; a sample without them keeps
// Options'.
func TestSampleObservedState(t *testing.T) {
	dir := "testdata/gaps/observed-not-applied/"
	legacy := Document{Path: "legacy.yaml", Data: readFile(t, dir+"legacy.yaml")}
	conv := Document{Path: "converted.yaml", Data: readFile(t, dir+"converted.yaml")}
	xr := objects(t, string(readFile(t, dir+"xr.yaml")))[0]
	observed := objects(t, string(readFile(t, dir+"observed.yaml")))

	verdict := func(samples []Sample, o Options) []Verdict {
		t.Helper()
		r, err := Verify(context.Background(), legacy, conv, samples, o)
		if err != nil {
			t.Fatalf("Verify(...): %v", err)
		}
		var got []Verdict
		for _, s := range r.Samples {
			got = append(got, s.Verdict)
		}
		return got
	}
	with := verdict([]Sample{{Name: "a", XR: xr}}, Options{Observed: observed})[0]
	without := verdict([]Sample{{Name: "a", XR: xr}}, Options{})[0]
	if with == without {
		t.Fatalf("the fixture must give different verdicts with and without observed resources; both %s", with)
	}

	cases := map[string]struct {
		reason  string
		samples []Sample
		o       Options
		want    []Verdict
	}{
		"OwnObservedReplacesNone": {
			reason:  "A sample's own observed resources are used when Options has none; a sample without keeps Options'.",
			samples: []Sample{{Name: "own", XR: xr, Observed: observed}, {Name: "shared", XR: xr}},
			want:    []Verdict{with, without},
		},
		"EmptyOwnObservedReplacesShared": {
			reason:  "An empty but non-nil list of observed resources means the XR has none, whatever Options holds.",
			samples: []Sample{{Name: "own", XR: xr, Observed: []map[string]any{}}, {Name: "shared", XR: xr}},
			o:       Options{Observed: observed},
			want:    []Verdict{without, with},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, verdict(tc.samples, tc.o)); diff != "" {
				t.Errorf("\n%s\nVerify(...): sample verdicts: -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}
