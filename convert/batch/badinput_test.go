package batch

import (
	"testing"
	"time"
)

func TestMigrateBadInputTxtar(t *testing.T) {
	cases := map[string]txtarCase{
		"AliasBomb": {
			reason:  "An alias bomb is refused (alias-bomb, failed) by the scan, naming its line; the rest migrates.",
			archive: "alias-bomb.txtar",
			opts:    func(o *Options, _, _ string) { o.Verify = false },
			check: func(t *testing.T, _ string, res *Result, _ *hooks) {
				if got := len(res.Refused()); got != 2 {
					t.Errorf("Result.Refused(): got %d files, want 2", got)
				}
			},
		},
		"SyntaxErrors": {
			reason:  "A syntax error is reported at its line in the file.",
			archive: "syntax-errors.txtar",
			opts:    func(o *Options, _, _ string) { o.Verify = false },
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			done := make(chan struct{})
			go func() { defer close(done); runTxtarCase(t, tc) }()
			select {
			case <-done:
			case <-time.After(60 * time.Second):
				t.Fatalf("%s: still running after 60s", tc.reason)
			}
		})
	}
}
