package engine

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/xpmigrate/xpmigrate/internal/errkind"
)

func TestLoadRequest(t *testing.T) {
	files := map[string]string{
		"xr.yaml":       loopXR,
		"comp.yaml":     loopLegacy,
		"empty.yaml":    "",
		"bad.yaml":      "a: [\n",
		"ctx.json":      `{"a": 1}`,
		"observed.yaml": "apiVersion: s3.example.org/v1\nkind: Bucket\nmetadata:\n  name: b\n---\napiVersion: s3.example.org/v1\nkind: Bucket\nmetadata:\n  name: c\n",
	}
	type want struct {
		invalid  bool
		observed int
		context  map[string]any
	}
	cases := map[string]struct {
		reason string
		s      Sources
		want   want
	}{
		"XRAndComposition": {
			reason: "An XR and a Composition are a request.",
			s:      Sources{XR: "xr.yaml", Composition: "comp.yaml"},
		},
		"Observed": {
			reason: "Observed resources are every object of their file.",
			s:      Sources{XR: "xr.yaml", Composition: "comp.yaml", Observed: "observed.yaml"},
			want:   want{observed: 2},
		},
		"Context": {
			reason: "Context values win over context files.",
			s: Sources{XR: "xr.yaml", Composition: "comp.yaml", ContextFiles: map[string]string{"k": "ctx.json", "f": "ctx.json"},
				ContextValues: map[string]string{"k": `"v"`}},
			want: want{context: map[string]any{"k": "v", "f": map[string]any{"a": float64(1)}}},
		},
		"MissingXR": {
			reason: "A missing file is invalid input.",
			s:      Sources{XR: "none.yaml", Composition: "comp.yaml"},
			want:   want{invalid: true},
		},
		"EmptyComposition": {
			reason: "A file with no document is invalid input.",
			s:      Sources{XR: "xr.yaml", Composition: "empty.yaml"},
			want:   want{invalid: true},
		},
		"BadExtra": {
			reason: "Extra resources that are not YAML are invalid input.",
			s:      Sources{XR: "xr.yaml", Composition: "comp.yaml", Extra: "bad.yaml"},
			want:   want{invalid: true},
		},
		"BadContext": {
			reason: "A context value that is not JSON is invalid input.",
			s:      Sources{XR: "xr.yaml", Composition: "comp.yaml", ContextValues: map[string]string{"k": "{"}},
			want:   want{invalid: true},
		},
	}
	dir := t.TempDir()
	for n, body := range files {
		if err := os.WriteFile(filepath.Join(dir, n), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	abs := func(p string) string {
		if p == "" {
			return ""
		}
		return filepath.Join(dir, p)
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			s := tc.s
			s.XR, s.Composition, s.Observed, s.Extra = abs(s.XR), abs(s.Composition), abs(s.Observed), abs(s.Extra)
			cf := map[string]string{}
			for k, p := range s.ContextFiles {
				cf[k] = abs(p)
			}
			s.ContextFiles = cf
			req, err := LoadRequest(s)
			got := want{invalid: errkind.IsInvalidInput(err), observed: len(req.Observed), context: req.Context}
			if err != nil && !got.invalid {
				t.Fatalf("\n%s\nLoadRequest(...): %v is not invalid input", tc.reason, err)
			}
			if err == nil && (req.XR == nil || req.Composition == nil) {
				t.Errorf("\n%s\nLoadRequest(...): no XR or Composition", tc.reason)
			}
			if err != nil {
				got.observed, got.context = 0, nil
			}
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("\n%s\nLoadRequest(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}
