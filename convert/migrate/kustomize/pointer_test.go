package kustomize

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestPipelinePointer(t *testing.T) {
	type want struct {
		p  string
		ok bool
	}
	cases := map[string]struct {
		reason string
		in     string
		step   int
		want   want
	}{
		"Base": {
			reason: "A template's base is copied as it is.",
			in:     "/spec/resources/0/base/spec/forProvider/size", step: 1,
			want: want{"/spec/pipeline/1/input/resources/0/base/spec/forProvider/size", true},
		},
		"WholeBase": {
			reason: "So is the whole base.",
			in:     "/spec/resources/2/base",
			want:   want{"/spec/pipeline/0/input/resources/2/base", true},
		},
		"PatchFieldPath": {
			reason: "A patch's field paths keep their form.",
			in:     "/spec/resources/0/patches/3/toFieldPath",
			want:   want{"/spec/pipeline/0/input/resources/0/patches/3/toFieldPath", true},
		},
		"PatchSetFieldPath": {
			reason: "So do a patch set's.",
			in:     "/spec/patchSets/1/patches/0/fromFieldPath", step: 1,
			want: want{"/spec/pipeline/1/input/patchSets/1/patches/0/fromFieldPath", true},
		},
		"PatchPolicy": {
			reason: "Policies change form (mergeOptions become toFieldPath).",
			in:     "/spec/resources/0/patches/1/policy",
		},
		"WholeTemplate": {
			reason: "A whole template may need a name and converted patches.",
			in:     "/spec/resources/0",
		},
		"Append": {
			reason: "An appended template is in legacy form.",
			in:     "/spec/resources/-",
		},
		"Name": {
			reason: "Names of unnamed templates are made up by the converter.",
			in:     "/spec/resources/0/name",
		},
		"Environment": {
			reason: "The environment moves to another step in another shape.",
			in:     "/spec/environment/environmentConfigs/0",
		},
		"NotComposition": {
			reason: "Other paths are not this function's business.",
			in:     "/metadata/name",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			p, ok := PipelinePointer(tc.in, tc.step)
			if diff := cmp.Diff(tc.want, want{p, ok}, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("%s\npipelinePointer(%q, %d): -want, +got:\n%s", tc.reason, tc.in, tc.step, diff)
			}
		})
	}
}

func TestApplyTextEdits(t *testing.T) {
	cases := map[string]struct {
		reason  string
		in      string
		edits   []TextEdit
		want    string
		wantErr bool
	}{
		"PlainAndQuoted": {
			reason: "Each scalar is replaced in place, its quotes and the comment after it kept.",
			in:     "- op: add\n  path: /a # here\n- op: remove\n  path: \"/a\"\n",
			edits:  []TextEdit{{Line: 2, Col: 9, old: "/a", new: "/b/c"}, {Line: 4, Col: 9, old: "/a", new: "/b/c"}},
			want:   "- op: add\n  path: /b/c # here\n- op: remove\n  path: \"/b/c\"\n",
		},
		"SameLine": {
			reason: "Two edits on one line both land.",
			in:     "[{op: copy, from: /a, path: /a/x}]\n",
			edits:  []TextEdit{{Line: 1, Col: 19, old: "/a", new: "/p/a"}, {Line: 1, Col: 29, old: "/a/x", new: "/p/a/x"}},
			want:   "[{op: copy, from: /p/a, path: /p/a/x}]\n",
		},
		"NotThere": {
			reason:  "An edit whose scalar is not where it says changes nothing.",
			in:      "path: /a\n",
			edits:   []TextEdit{{Line: 1, Col: 3, old: "/a", new: "/b"}},
			wantErr: true,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := ApplyTextEdits([]byte(tc.in), tc.edits)
			if (err != nil) != tc.wantErr {
				t.Fatalf("%s\napplyTextEdits(...): want error %v, got %v", tc.reason, tc.wantErr, err)
			}
			if tc.wantErr {
				return
			}
			if diff := cmp.Diff(tc.want, string(got)); diff != "" {
				t.Errorf("%s\napplyTextEdits(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// TestRewriteKustomizeOut checks that with Options.Out the rewritten patch
// is in the copy and the tree stays as it was.
