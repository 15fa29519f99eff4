package migrate

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// safetyLegacy is a legacy Composition the fake converter converts.
const safetyLegacy = `apiVersion: apiextensions.crossplane.io/v1
kind: Composition
metadata:
  name: a
spec:
  compositeTypeRef:
    apiVersion: example.org/v1
    kind: XThing
  resources:
  - name: a
    base:
      apiVersion: v1
      kind: ConfigMap
`

// TestModifiedDuringRunNotOverwritten (docs/safety.md, "No half-written
// files"): a file changed by something else while it is converted keeps
// that change; the run reports it as modified.
func TestModifiedDuringRunNotOverwritten(t *testing.T) {
	root := t.TempDir()
	p := filepath.Join(root, "a.yaml")
	if err := os.WriteFile(p, []byte(safetyLegacy), 0o644); err != nil {
		t.Fatal(err)
	}
	edited := safetyLegacy + "# edited by someone else\n"
	conv := &fakeConverter{hook: func(string) {
		if err := os.WriteFile(p, []byte(edited), 0o644); err != nil {
			t.Error(err)
		}
	}}
	res, err := Run(context.Background(), Options{Root: root, Converter: conv, Verifier: &fakeVerifier{}, Jobs: 1})
	if err != nil {
		t.Fatalf("Run(...): %v", err)
	}
	got, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(edited, string(got)); diff != "" {
		t.Errorf("the file changed during the run was overwritten: -want, +got:\n%s", diff)
	}
	if len(res.Files) != 1 || res.Files[0].Reason != ReasonModified {
		t.Errorf("Run(...): want the file reported as %q, got %+v", ReasonModified, res.Files)
	}
}

// TestOutDirectoryRefused (docs/safety.md, "No writes outside the tree"):
// --out must be absent or empty, and must be neither the tree nor contain
// it; a refused --out leaves everything as it was.
func TestOutDirectoryRefused(t *testing.T) {
	cases := map[string]struct {
		reason string
		out    func(root, tmp string) string
		want   bool // refused
	}{
		"Absent": {
			reason: "An output directory that does not exist is created.",
			out:    func(_, tmp string) string { return filepath.Join(tmp, "new") },
		},
		"NotEmpty": {
			reason: "A directory that holds something is refused: nothing in it is overwritten.",
			out: func(_, tmp string) string {
				d := filepath.Join(tmp, "full")
				if err := os.MkdirAll(d, 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(d, "keep.txt"), []byte("keep"), 0o644); err != nil {
					t.Fatal(err)
				}
				return d
			},
			want: true,
		},
		"TheTree": {
			reason: "The tree itself is refused.",
			out:    func(root, _ string) string { return root },
			want:   true,
		},
		"ContainsTheTree": {
			reason: "A directory that contains the tree is refused.",
			out:    func(root, _ string) string { return filepath.Dir(root) },
			want:   true,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			tmp := t.TempDir()
			root := filepath.Join(tmp, "repo")
			if err := os.MkdirAll(root, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(root, "a.yaml"), []byte(safetyLegacy), 0o644); err != nil {
				t.Fatal(err)
			}
			out := tc.out(root, tmp)
			_, err := Run(context.Background(), Options{Root: root, Converter: &fakeConverter{}, Verifier: &fakeVerifier{}, Jobs: 1, Write: WriteOut, Out: out})
			var ie *InvalidOptionsError
			if got := errors.As(err, &ie); got != tc.want {
				t.Errorf("%s\nRun(--out %s): refused %t (%v), want %t", tc.reason, out, got, err, tc.want)
			}
			if b, err := os.ReadFile(filepath.Join(root, "a.yaml")); err != nil || string(b) != safetyLegacy {
				t.Errorf("%s\nRun(--out %s): the tree's file changed (%v)", tc.reason, out, err)
			}
		})
	}
}

// TestBaseGitSafety (docs/safety.md, "No network, no child process but
// git"): --base runs only git's plumbing, so no hook runs and the work
// tree, the index and HEAD stay as they were; a revision starting with "-"
// is refused before git runs, and one holding shell syntax is only ever a
// revision name.
func TestBaseGitSafety(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	repo := t.TempDir()
	gitRun := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", repo, "-c", "user.name=test", "-c", "user.email=test@example.org", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_SYSTEM=/dev/null")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	gitRun("init", "-q", "-b", "main")
	if err := os.WriteFile(filepath.Join(repo, "a.yaml"), []byte(safetyLegacy), 0o644); err != nil {
		t.Fatal(err)
	}
	gitRun("add", "-A")
	gitRun("commit", "-q", "-m", "legacy")
	// Uncommitted work, staged and not: it must survive.
	if err := os.WriteFile(filepath.Join(repo, "a.yaml"), []byte(safetyLegacy+"# work in progress\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo, "staged.yaml"), []byte("x: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gitRun("add", "staged.yaml")
	// Every hook git knows, each leaving a mark.
	marks := filepath.Join(t.TempDir(), "marks")
	hooks := filepath.Join(repo, ".git", "hooks")
	for _, h := range []string{"pre-commit", "post-checkout", "post-merge", "pre-push", "post-rewrite", "reference-transaction", "pre-auto-gc", "post-index-change", "fsmonitor-watchman"} {
		script := "#!/bin/sh\necho " + h + " >> " + marks + "\n"
		if err := os.WriteFile(filepath.Join(hooks, h), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	status := gitRun("status", "--porcelain=v1")
	head := gitRun("rev-parse", "HEAD")
	if err := os.Remove(marks); err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}

	b, err := readBase(context.Background(), repo, "HEAD")
	if err != nil {
		t.Fatalf("readBase(HEAD): %v", err)
	}
	if len(b.legacy["a"]) != 1 {
		t.Errorf("readBase(HEAD): want the legacy Composition a at the base, got %v", b.legacy)
	}
	if m, err := os.ReadFile(marks); err == nil {
		t.Errorf("readBase ran git hooks: %s", m)
	}
	if got := gitRun("status", "--porcelain=v1"); got != status {
		t.Errorf("readBase changed the work tree or the index: before %q, after %q", status, got)
	}
	if got := gitRun("rev-parse", "HEAD"); got != head {
		t.Errorf("readBase moved HEAD: before %s, after %s", head, got)
	}

	pwned := filepath.Join(t.TempDir(), "pwned")
	for _, ref := range []string{"-h", "--output=" + pwned, "--exec-path=/tmp", "$(touch " + pwned + ")", "`touch " + pwned + "`", "HEAD;touch " + pwned} {
		_, err := readBase(context.Background(), repo, ref)
		var be *BaseError
		if !errors.As(err, &be) {
			t.Errorf("readBase(%q): want a BaseError, got %v", ref, err)
		}
		if strings.HasPrefix(ref, "-") && !strings.Contains(err.Error(), "invalid base revision") {
			t.Errorf("readBase(%q): want it refused before git runs, got %v", ref, err)
		}
	}
	if _, err := os.Stat(pwned); err == nil {
		t.Errorf("a revision ran a command or wrote a file")
	}
}
