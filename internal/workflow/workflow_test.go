package workflow

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestAnnotation(t *testing.T) {
	cases := map[string]struct {
		reason string
		a      Annotation
		want   string
	}{
		"Full": {
			reason: "File, line and title, in that order.",
			a:      Annotation{Level: Error, File: "apis/x.yaml", Line: 12, Title: "s1: spec.size", Message: "differs"},
			want:   "::error file=apis/x.yaml,line=12,title=s1%3A spec.size::differs",
		},
		"NoLine": {
			reason: "A line that is not known (0) is left out, not written as line=0.",
			a:      Annotation{Level: Warning, File: "a.yaml", Message: "m"},
			want:   "::warning file=a.yaml::m",
		},
		"TitleOnly": {
			reason: "An annotation of no file has its properties without a leading comma.",
			a:      Annotation{Level: Warning, Title: "cluster: missing permission", Message: "m"},
			want:   "::warning title=cluster%3A missing permission::m",
		},
		"Bare": {
			reason: "No property at all: the level and the message.",
			a:      Annotation{Level: Notice, Message: "m"},
			want:   "::notice::m",
		},
		"Escaped": {
			reason: "A property's comma and colon, and a message's line break, cannot end the command or start another.",
			a:      Annotation{Level: Error, File: "a,b:c.yaml", Title: "t,1", Message: "x\n::set-output name=ok::true"},
			want:   "::error file=a%2Cb%3Ac.yaml,title=t%2C1::x%0A::set-output name=ok::true",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, tc.a.String()); diff != "" {
				t.Errorf("\n%s\nAnnotation.String(): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}
