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

// TestConverterWarnings: the converter's warnings reach the summary on
// stderr (file:line: code: message) and the GitHub annotations (at their
// own line), once each.
func TestConverterWarnings(t *testing.T) {
	w := Diagnostic{Code: "C204", Severity: SeverityWarning, Document: 0, Line: 15, Message: "named the unnamed templates"}
	res := &Result{Files: []FileResult{{Path: "a.yaml", Status: FileConverted, Diagnostics: []Diagnostic{
		w, w, // the same warning twice
		{Code: "C313", Severity: SeverityInfo, Line: 20, Message: "transform type inferred"},
		{Code: "C209", Severity: SeverityWarning, Line: 30, Message: "XR write outside status"},
	}}}}
	var sum, gh bytes.Buffer
	if err := WriteSummary(&sum, res); err != nil {
		t.Fatal(err)
	}
	if err := WriteGitHub(&gh, res, "."); err != nil {
		t.Fatal(err)
	}
	wantSum := "converter warnings: 2\n  a.yaml:15: C204: named the unnamed templates\n  a.yaml:30: C209: XR write outside status\n"
	if !bytes.Contains(sum.Bytes(), []byte(wantSum)) {
		t.Errorf("WriteSummary(...): want\n%s\nin:\n%s", wantSum, sum.String())
	}
	wantGH := "::warning file=a.yaml,line=15::C204 named the unnamed templates\n::warning file=a.yaml,line=30::C209 XR write outside status\n"
	if diff := cmp.Diff(wantGH, gh.String()); diff != "" {
		t.Errorf("WriteGitHub(...): -want, +got:\n%s", diff)
	}
}
