package migrate

import (
	"testing"
	"time"

	"github.com/xpmigrate/xpmigrate/convert/migrate/tree"
	"github.com/xpmigrate/xpmigrate/internal/jsonobj"
	"github.com/xpmigrate/xpmigrate/internal/manifest"
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

// FuzzScan reads arbitrary files as the migrate scan does. It must end
// (aliases are bounded: a "billion laughs" file is refused, never
// expanded), give the same answer twice, and agree with the reader every
// other command uses on which documents are Compositions: a scan that
// disagrees converts what verify cannot read, or skips what it can.
func FuzzScan(f *testing.F) {
	for _, s := range []string{
		"apiVersion: apiextensions.crossplane.io/v1\nkind: Composition\nmetadata:\n  name: a\nspec:\n  resources: []\n",
		"a: 1\n---\napiVersion: apiextensions.crossplane.io/v1\nkind: Composition\nmetadata: &m\n  name: b\nspec:\n  x: *m\n",
		"apiVersion: v1\nkind: List\nitems:\n- apiVersion: apiextensions.crossplane.io/v1\n  kind: Composition\n  metadata: {name: c}\n",
		"kind: Composition\na: &a [1,2,3]\nb: [*a,*a,*a]\n",
		"#@ load(\"x\")\nkind: Composition\n",
		"x: {{ .Values }}\n",
	} {
		f.Add(s, false)
	}
	f.Add(`{"apiVersion":"apiextensions.crossplane.io/v1","kind":"Composition","metadata":{"name":"j"}}`, true)
	f.Fuzz(func(t *testing.T, in string, json bool) {
		rel := "f.yaml"
		if json {
			rel = "f.json"
		}
		scan := func() *tree.Scanned {
			s := &tree.Scanned{Entry: tree.Entry{Rel: rel}, Format: tree.FormatOf(rel)}
			s.Classify([]byte(in))
			return s
		}
		a, b := scan(), scan()
		if a.Reason != b.Reason || a.Detail != b.Detail || len(a.Docs) != len(b.Docs) || a.Compositions != b.Compositions {
			t.Fatalf("classify(%q) twice: %q %q %d docs, then %q %q %d docs", in, a.Reason, a.Detail, len(a.Docs), b.Reason, b.Detail, len(b.Docs))
		}
		if a.Reason != "" || json {
			return
		}
		// Every document the reader of verify and render decodes, the
		// scan calls a Composition exactly when that reader does.
		for _, d := range a.Docs {
			if d.Item >= 0 {
				continue
			}
			var raw []byte
			for _, r := range manifest.Split([]byte(in)) {
				if r.Index == d.Index {
					raw = r.Raw
				}
			}
			o, err := manifest.DecodeObject(raw)
			if err != nil || o == nil {
				continue
			}
			strict := tree.IsComposition(jsonobj.AsString(o["apiVersion"]), jsonobj.AsString(o["kind"]))
			if got := tree.IsComposition(d.APIVersion, d.Kind); got != strict {
				t.Fatalf("classify(%q): document %d is a Composition: scan %t, manifest.DecodeObject %t", in, d.Index, got, strict)
			}
		}
	})
}
