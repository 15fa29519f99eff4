package manifest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pkg/errors"

	"github.com/xpmigrate/xpmigrate/internal/errkind"
	"github.com/xpmigrate/xpmigrate/internal/regularfile"
)

// nested returns a YAML document whose field x holds depth-1 nested flow
// lists (the document's own map is the first level).
func nested(depth int) string {
	return "apiVersion: v1\nkind: ConfigMap\nx: " + strings.Repeat("[", depth-1) + strings.Repeat("]", depth-1) + "\n"
}

func TestDepthBound(t *testing.T) {
	defer SetLimits(Limits{MaxDepth: 50})()
	type want struct {
		depthErr *DepthError
		ok       bool
	}
	cases := map[string]struct {
		reason string
		doc    string
		want   want
	}{
		"AtTheLimit": {
			reason: "A document nested exactly as deep as the limit is read.",
			doc:    nested(50),
			want:   want{ok: true},
		},
		"OverTheLimit": {
			reason: "A document nested one level deeper than the limit is refused, with its depth.",
			doc:    nested(51),
			want:   want{depthErr: &DepthError{Depth: 51, Limit: 50}},
		},
		"FarOverTheLimit": {
			reason: "A document nested 9,990 levels deep (what the API server still takes) is refused.",
			doc:    nested(9990),
			want:   want{depthErr: &DepthError{Depth: 9990, Limit: 50}},
		},
		"BlockStyle": {
			reason: "Block-style nesting (- - - …) counts as flow-style nesting does.",
			doc:    "x:\n" + strings.Repeat("- ", 60) + "a\n",
			want:   want{depthErr: &DepthError{Depth: 61, Limit: 50}},
		},
		"BracketsInStrings": {
			reason: "Brackets inside strings are text, not nesting.",
			doc:    "x: '" + strings.Repeat("[", 100) + "'\ny: \"\\\"[[[[\"\n",
			want:   want{ok: true},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			for _, read := range []struct {
				name string
				fn   func([]byte) error
			}{
				{"DecodeObject", func(b []byte) error { _, err := DecodeObject(b); return err }},
				{"DecodeValue", func(b []byte) error { _, err := DecodeValue(b); return err }},
				{"Node", func(b []byte) error { _, err := Document{Raw: b}.Node(); return err }},
			} {
				err := read.fn([]byte(tc.doc))
				got := want{ok: err == nil}
				var de *DepthError
				if errors.As(err, &de) {
					got.depthErr = de
				}
				if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(want{})); diff != "" {
					t.Errorf("%s\n%s(): -want, +got:\n%s\n(error %v)", tc.reason, read.name, diff, err)
				}
			}
		})
	}
}

func TestDepthErrorNamesFileAndDocument(t *testing.T) {
	defer SetLimits(Limits{MaxDepth: 20})()
	p := filepath.Join(t.TempDir(), "deep.yaml")
	if err := os.WriteFile(p, []byte("a: 1\n---\n"+nested(30)), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := LoadFile(p)
	var de *DocumentError
	if !errors.As(err, &de) || !errkind.IsInvalidInput(err) || !IsDepthError(err) {
		t.Fatalf("LoadFile(%q): got %v, want an invalid input DocumentError wrapping a DepthError", p, err)
	}
	got := []any{de.Source, de.Document, de.Line}
	if diff := cmp.Diff([]any{p, 2, 3}, got); diff != "" {
		t.Errorf("LoadFile(%q): -want, +got (source, document, line):\n%s", p, diff)
	}
	if !strings.Contains(err.Error(), "30 levels deep") {
		t.Errorf("LoadFile(%q): %v does not name the depth", p, err)
	}
}

// TestDepthBoundMemory holds the nesting bound to its purpose: refusing a
// document nested 9,990 levels deep costs memory in proportion to its
// size, not to the square of its depth.
func TestDepthBoundMemory(t *testing.T) {
	doc := []byte(nested(9990))
	allocs := testing.AllocsPerRun(5, func() { _, _ = DecodeObject(doc) })
	// sigs.k8s.io/yaml's parser allocates a few objects per level.
	if limit := float64(20 * 9990); allocs > limit {
		t.Errorf("DecodeObject of a document nested 9,990 levels deep: %.0f allocations, want at most %.0f", allocs, limit)
	}
}

func TestFileSizeBound(t *testing.T) {
	defer SetLimits(Limits{MaxFileSize: 1 << 10})()
	dir := t.TempDir()
	small := filepath.Join(dir, "small.yaml")
	large := filepath.Join(dir, "large.yaml")
	if err := os.WriteFile(small, []byte("a: 1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(large, []byte("a: "+strings.Repeat("x", 2<<10)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := map[string]struct {
		reason   string
		read     func() error
		tooLarge bool
	}{
		"SmallFile": {reason: "A file within the bound is read.", read: func() error { _, err := LoadFile(small); return err }},
		"LargeFile": {reason: "A file over the bound is refused unread.", read: func() error { _, err := LoadFile(large); return err }, tooLarge: true},
		"LargeStream": {reason: "A stream over the bound is refused once the bound is crossed.", read: func() error {
			_, err := LoadStream(strings.NewReader(strings.Repeat("#\n", 1<<10)), "<stdin>")
			return err
		}, tooLarge: true},
		"ReadFile": {reason: "ReadFile applies the bound.", read: func() error { _, err := ReadFile(large); return err }, tooLarge: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			err := tc.read()
			if regularfile.IsTooLarge(err) != tc.tooLarge || (err != nil) != tc.tooLarge {
				t.Errorf("%s\ngot error %v, want too large %t", tc.reason, err, tc.tooLarge)
			}
			if tc.tooLarge && !errkind.IsInvalidInput(err) && name != "ReadFile" {
				t.Errorf("%s\ngot %v, want invalid input (exit 2)", tc.reason, err)
			}
		})
	}
}
