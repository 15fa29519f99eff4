package migrate_test

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/xpmigrate/xpmigrate/convert/migrate"
	"github.com/xpmigrate/xpmigrate/convert/migrate/report"
	"github.com/xpmigrate/xpmigrate/internal/testutil"
)

// TestReports compares the JSON and Markdown reports of two archives with
// their goldens (refreshed with -update), twice, to catch nondeterminism.
func TestReports(t *testing.T) {
	cases := map[string]struct {
		reason  string
		archive string
		format  string
	}{
		"VerifyJSON":     {reason: "Verdicts, samples and differences in JSON.", archive: "verify.txtar", format: report.JSON},
		"VerifyMarkdown": {reason: "Verdicts and differences in Markdown.", archive: "verify.txtar", format: report.Markdown},
		"SkippedJSON":    {reason: "Skipped files and leftover findings in JSON.", archive: "skipped.txtar", format: report.JSON},
		"KustomizeMD":    {reason: "Kustomize findings in Markdown.", archive: "kustomize.txtar", format: report.Markdown},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var got [2]string
			for i := range got {
				res := migrate.RunArchive(t, tc.archive, nil)
				var b bytes.Buffer
				if err := report.Write(&b, tc.format, res); err != nil {
					t.Fatal(err)
				}
				got[i] = b.String()
			}
			if diff := cmp.Diff(got[0], got[1]); diff != "" {
				t.Errorf("%s\nWriteReport(...): two runs differ: -first, +second:\n%s", tc.reason, diff)
			}
			if tc.format == report.JSON && !json.Valid([]byte(got[0])) {
				t.Errorf("%s\nWriteReport(...): invalid JSON", tc.reason)
			}
			golden := filepath.Join("testdata", "reports", name+"."+tc.format)
			testutil.Golden(t, golden, []byte(got[0]))
		})
	}
}
