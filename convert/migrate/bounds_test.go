package migrate

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/xpmigrate/xpmigrate/internal/manifest"
	"github.com/xpmigrate/xpmigrate/internal/testutil"
)

// TestBaseSkipsLargeBlobs: a blob larger than the file size bound is never
// read from git at --base (a 300 MB file cost 3.8 GB), the others are.
func TestBaseSkipsLargeBlobs(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	defer manifest.SetLimits(manifest.Limits{MaxFileSize: 32 << 10})()
	repo := t.TempDir()
	gitRun := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", repo, "-c", "user.name=test", "-c", "user.email=test@example.org", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_SYSTEM=/dev/null")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	legacy := func(name string) string {
		return strings.Replace(testutil.ThingsLegacy, "name: things", "name: "+name, 1)
	}
	big := legacy("big") + "#" + strings.Repeat("x", 64<<10) + "\n"
	gitRun("init", "-q")
	for name, data := range map[string]string{"small.yaml": legacy("small"), "big.yaml": big} {
		if err := os.WriteFile(filepath.Join(repo, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gitRun("add", ".")
	gitRun("commit", "-qm", "base")

	b, err := readBase(context.Background(), repo, "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for name := range b.legacy {
		got = append(got, name)
	}
	sort.Strings(got)
	if diff := cmp.Diff([]string{"small"}, got); diff != "" {
		t.Errorf("readBase: legacy Compositions read: -want, +got:\n%s", diff)
	}
}
