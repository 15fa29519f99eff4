package report

import "testing"

func TestReportFormat(t *testing.T) {
	for name, want := range map[string]string{"r.json": JSON, "R.MD": Markdown, "x/r.markdown": Markdown, "r.html": HTML, "r.htm": HTML, "r.txt": ""} {
		got, err := FileFormat(name)
		if got != want || (want == "") != (err != nil) {
			t.Errorf("FileFormat(%q): want %q, got %q, %v", name, want, got, err)
		}
	}
}
