package migrate

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestProgress(t *testing.T) {
	files := []FileResult{
		{Path: "a.yaml", Status: FileConverted},
		{Path: "b.yaml", Status: FileUnchanged},
		{Path: "c.yaml", Status: FileSkipped, Reason: ReasonTemplate, Detail: "Helm"},
	}
	cases := map[string]struct {
		reason string
		tty    bool
		width  int
		want   string
	}{
		"Plain": {
			reason: "Without a terminal: a line per file that is not unchanged, nothing else.",
			want:   "converted      a.yaml\nskipped        c.yaml: template (Helm)\n",
		},
		"Terminal": {
			reason: "On a terminal: one bar line redrawn in place, the current file cut to the width, cleared at the end, then the files that are not unchanged, as without a terminal.",
			tty:    true,
			width:  40,
			want: "\r\x1b[K[>                       ] 0/3 " +
				"\r\x1b[K[>                       ] 0/3 …/a.yaml" +
				"\r\x1b[K[========>               ] 1/3 …/a.yaml" +
				"\r\x1b[K[================>       ] 2/3 …/a.yaml" +
				"\r\x1b[K[========================] 3/3 …/a.yaml" +
				"\r\x1b[K" +
				"converted      a.yaml\nskipped        c.yaml: template (Helm)\n",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var b bytes.Buffer
			p := NewProgress(&b, tc.tty, tc.width)
			p.Scanned(len(files))
			p.Started("a/very/very/long/a.yaml")
			for i := range files {
				p.Done(&files[i], i+1, len(files))
			}
			p.Finished(&Result{Files: files})
			if diff := cmp.Diff(tc.want, b.String()); diff != "" {
				t.Errorf("%s\nprogress output: -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}
