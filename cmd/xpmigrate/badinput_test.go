package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// cmdAliasBomb is a "billion laughs" Composition (387 million nodes once
// expanded); the alias that crosses the expansion budget is on line 15.
const cmdAliasBomb = `apiVersion: apiextensions.crossplane.io/v1
kind: Composition
metadata:
  name: bomb
spec:
  compositeTypeRef:
    apiVersion: example.org/v1
    kind: XBomb
  a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
  b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
  c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
  d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
  e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
  f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
  g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]
  h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]
  i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]
  resources: []
`

// runWithin runs xpmigrate args in process and fails the test if it has
// not returned within a generous deadline (a hang, not slowness).
func runWithin(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	s := streams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut}
	code := make(chan int, 1)
	go func() { code <- run(args, s) }()
	select {
	case c := <-code:
		return c, out.String(), errOut.String()
	case <-time.After(30 * time.Second):
		t.Fatalf("xpmigrate %s: still running after 30s", strings.Join(args, " "))
	}
	return 0, "", ""
}

// TestBadInputExitCodes holds the one rule for every command: input that
// cannot be used (not YAML, an alias bomb, not a file) exits 2 and names
// the file (and the line where there is one); usage mistakes exit 2.
func TestBadInputExitCodes(t *testing.T) {
	type want struct {
		code   int
		stderr []string
	}
	cases := map[string]struct {
		reason string
		files  map[string]string
		args   []string
		want   want
	}{
		"MigrateAliasBomb": {
			reason: "migrate refuses an alias bomb as the other readers do: exit 2, naming the file and line.",
			files:  map[string]string{"repo/bomb.yaml": cmdAliasBomb, "repo/comp.yaml": migrateLegacy},
			args:   []string{"migrate", "--dry-run", "--verify=false", "repo"},
			want:   want{code: exitInvalid, stderr: []string{"bomb.yaml", "line 15", "alias"}},
		},
		"ConvertAliasBomb": {
			reason: "convert refuses an alias bomb as input it cannot read: exit 2, naming the file and line.",
			files:  map[string]string{"bomb.yaml": cmdAliasBomb},
			args:   []string{"convert", "bomb.yaml"},
			want:   want{code: exitInvalid, stderr: []string{"bomb.yaml:15:", "alias"}},
		},
		"VerifyAliasBomb": {
			reason: "verify refuses an alias bomb: exit 2, naming the file.",
			files:  map[string]string{"bomb.yaml": cmdAliasBomb},
			args:   []string{"verify", "bomb.yaml"},
			want:   want{code: exitInvalid, stderr: []string{"bomb.yaml", "alias"}},
		},
		"RenderAliasBomb": {
			reason: "render refuses an alias bomb: exit 2, naming the file.",
			files:  map[string]string{"bomb.yaml": cmdAliasBomb, "xr.yaml": migrateXR},
			args:   []string{"render", "xr.yaml", "bomb.yaml"},
			want:   want{code: exitInvalid, stderr: []string{"bomb.yaml", "alias"}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			for n, body := range tc.files {
				p := filepath.Join(dir, filepath.FromSlash(n))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			t.Chdir(dir)
			code, _, stderr := runWithin(t, tc.args...)
			if code != tc.want.code {
				t.Errorf("%s\nxpmigrate %s: exit %d, want %d; stderr:\n%s", tc.reason, strings.Join(tc.args, " "), code, tc.want.code, stderr)
			}
			for _, s := range tc.want.stderr {
				if !strings.Contains(stderr, s) {
					t.Errorf("%s\nxpmigrate %s: stderr does not contain %q:\n%s", tc.reason, strings.Join(tc.args, " "), s, stderr)
				}
			}
		})
	}
}
