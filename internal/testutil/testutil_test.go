package testutil

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// recorder is a testing.TB that records failures instead of failing.
type recorder struct {
	testing.TB
	failures []string
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.failures = append(r.failures, fmt.Sprintf(format, args...))
}

func (r *recorder) Fatalf(format string, args ...any) {
	r.Errorf(format, args...)
	runtime.Goexit()
}

// record runs f with a recorder, in a goroutine so that Fatalf can stop it.
func record(t *testing.T, f func(tb testing.TB)) []string {
	r := &recorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		f(r)
	}()
	<-done
	return r.failures
}

func TestCompareGolden(t *testing.T) {
	cases := map[string]struct {
		reason string
		golden *string // nil: no golden file
		got    string
		fails  bool
	}{
		"Equal":           {reason: "The same bytes compare equal.", golden: ptr("a\nb\n"), got: "a\nb\n"},
		"CRLFGolden":      {reason: "A golden file checked out with CRLF line endings compares equal.", golden: ptr("a\r\nb\r\n"), got: "a\nb\n"},
		"CRLFOutput":      {reason: "Output with CRLF line endings compares equal to an LF golden file.", golden: ptr("a\nb\n"), got: "a\r\nb\r\n"},
		"Different":       {reason: "Different text fails.", golden: ptr("a\nb\n"), got: "a\nc\n", fails: true},
		"LoneCR":          {reason: "Only CRLF pairs are normalised: a lone CR is a difference.", golden: ptr("a\nb\n"), got: "a\rb\n", fails: true},
		"NoGoldenFile":    {reason: "A missing golden file fails.", got: "a\n", fails: true},
		"TrailingNewline": {reason: "A missing final newline is a difference.", golden: ptr("a\n"), got: "a", fails: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "x.golden")
			if tc.golden != nil {
				if err := os.WriteFile(path, []byte(*tc.golden), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			failures := record(t, func(tb testing.TB) { CompareGolden(tb, path, []byte(tc.got)) })
			if got := len(failures) > 0; got != tc.fails {
				t.Errorf("%s\nCompareGolden(...): failed %t, want %t: %q", tc.reason, got, tc.fails, failures)
			}
		})
	}
}

func ptr(s string) *string { return &s }

func TestLookupCorpus(t *testing.T) {
	root := RepoRoot(t)
	abs := t.TempDir()
	cases := map[string]struct {
		reason string
		env    string
		want   string
		ok     bool
	}{
		"Default":  {reason: "Unset, the corpus is ../shared/corpus relative to the repository root.", want: filepath.Join(root, "..", "shared", "corpus")},
		"Relative": {reason: "A relative value is relative to the repository root.", env: "internal/testutil", want: filepath.Join(root, "internal", "testutil"), ok: true},
		"Absolute": {reason: "An absolute value is used as it is.", env: abs, want: abs, ok: true},
		"Missing":  {reason: "A directory that does not exist is reported absent.", env: filepath.Join(abs, "none"), want: filepath.Join(abs, "none")},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			t.Setenv(CorpusEnv, tc.env)
			got, ok := LookupCorpus(t)
			if name == "Default" {
				// Whether the default exists depends on the checkout.
				_, err := os.Stat(tc.want)
				tc.ok = err == nil
			}
			if diff := cmp.Diff(tc.want, got); diff != "" || ok != tc.ok {
				t.Errorf("%s\nLookupCorpus(...): ok %t, want %t; -want, +got:\n%s", tc.reason, ok, tc.ok, diff)
			}
		})
	}
}

func TestRepoRoot(t *testing.T) {
	if _, err := os.Stat(filepath.Join(RepoRoot(t), "internal", "testutil", "testutil.go")); err != nil {
		t.Errorf("RepoRoot(...) is not the module root: %v", err)
	}
}

func TestFencedBlocks(t *testing.T) {
	md := "# Title\n\n```sh test\nxpmigrate version\n```\n\ntext\n\n````yaml\na: |\n  ```\n````\n\n```\nplain\n```\n"
	want := []FencedBlock{
		{Lang: "sh", Tags: []string{"test"}, Text: "xpmigrate version"},
		{Lang: "yaml", Tags: []string{}, Text: "a: |\n  ```"},
		{Text: "plain"},
	}
	if diff := cmp.Diff(want, FencedBlocks(md)); diff != "" {
		t.Errorf("FencedBlocks(...): -want, +got:\n%s", diff)
	}
}
