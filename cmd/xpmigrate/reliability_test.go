//go:build unix

package main

import (
	"bytes"
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/xpmigrate/xpmigrate/convert/migrate"
	"github.com/xpmigrate/xpmigrate/internal/testutil"
)

// writeSpecial writes name → content under dir; content "<fifo>" makes a
// FIFO, "<socket>" a listening Unix socket.
func writeSpecial(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if data == "<socket>" {
			// Socket paths are short: bind a relative one.
			wd, _ := os.Getwd()
			if err := os.Chdir(filepath.Dir(p)); err != nil {
				t.Fatal(err)
			}
			l, err := net.Listen("unix", filepath.Base(p))
			_ = os.Chdir(wd)
			if err != nil {
				t.Skipf("cannot make a socket: %v", err)
			}
			t.Cleanup(func() { _ = l.Close() })
			continue
		}
		if data == "<fifo>" {
			if err := syscall.Mkfifo(p, 0o644); err != nil {
				t.Skipf("cannot make a FIFO: %v", err)
			}
			continue
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestSpecialFiles(t *testing.T) {
	planTestdata := filepath.Join(testutil.RepoRoot(t), "convert", "migrate", "plan", "testdata")
	type want struct {
		code int
		// stderr must contain each of these.
		stderr []string
	}
	cases := map[string]struct {
		reason string
		files  map[string]string
		args   []string
		want   want
	}{
		"ConvertFIFOInput": {
			reason: "A FIFO given as convert's input is refused (exit 2) and named, not waited on.",
			files:  map[string]string{"in.yaml": "<fifo>"},
			args:   []string{"convert", "in.yaml"},
			want:   want{code: exitInvalid, stderr: []string{"in.yaml", "a FIFO"}},
		},
		"ConvertSocketInput": {
			reason: "A socket given as convert's input is refused (exit 2) and named.",
			files:  map[string]string{"in.yaml": "<socket>"},
			args:   []string{"convert", "in.yaml"},
			want:   want{code: exitInvalid, stderr: []string{"in.yaml", "a socket"}},
		},
		"MigrateSocketsAndFIFOsInTree": {
			reason: "Sockets and FIFOs anywhere in the tree are skipped and reported; the rest migrates.",
			files:  map[string]string{"comp.yaml": migrateLegacy, "a/s.yaml": "<socket>", "a/b/f.json": "<fifo>", "a/b/README": "<fifo>"},
			args:   []string{"migrate", "--verify=false", "."},
			want:   want{code: exitOK, stderr: []string{"a/s.yaml: not-regular (a socket", "a/b/f.json: not-regular (a FIFO", "a/b/README: not-regular (a FIFO", "1 converted"}},
		},
		"ConvertFIFOConfiguration": {
			reason: "A FIFO named by --configuration is refused (exit 2).",
			files:  map[string]string{"comp.yaml": migrateLegacy, "cfg.yaml": "<fifo>"},
			args:   []string{"convert", "comp.yaml", "--configuration", "cfg.yaml"},
			want:   want{code: exitInvalid, stderr: []string{"cfg.yaml", "a FIFO"}},
		},
		"ConvertFIFOCrossplaneYAMLBeside": {
			reason: "A FIFO crossplane.yaml beside the input is not read: the conversion goes on without it.",
			files:  map[string]string{"comp.yaml": migrateLegacy, "crossplane.yaml": "<fifo>"},
			args:   []string{"convert", "comp.yaml"},
			want:   want{code: exitOK},
		},
		"VerifyFIFOComposition": {
			reason: "A FIFO given as the Composition to verify is refused (exit 2).",
			files:  map[string]string{"comp.yaml": "<fifo>"},
			args:   []string{"verify", "comp.yaml"},
			want:   want{code: exitInvalid, stderr: []string{"comp.yaml", "a FIFO"}},
		},
		"VerifyFIFOsBeside": {
			reason: "FIFOs beside the Composition and in examples/ are not read while looking for examples.",
			files:  map[string]string{"comp.yaml": migrateLegacy, "xr.yaml": migrateXR, "fifo.yaml": "<fifo>", "examples/x.yaml": "<fifo>"},
			args:   []string{"verify", "comp.yaml"},
			want:   want{code: exitOK},
		},
		"VerifyFIFOSamples": {
			reason: "A FIFO given as --xr is refused (exit 2).",
			files:  map[string]string{"comp.yaml": migrateLegacy, "xr.yaml": "<fifo>"},
			args:   []string{"verify", "comp.yaml", "--xr", "xr.yaml"},
			want:   want{code: exitInvalid, stderr: []string{"xr.yaml", "a FIFO"}},
		},
		"RenderFIFOXR": {
			reason: "A FIFO given as render's XR is refused (exit 2).",
			files:  map[string]string{"comp.yaml": migrateLegacy, "xr.yaml": "<fifo>"},
			args:   []string{"render", "xr.yaml", "comp.yaml"},
			want:   want{code: exitInvalid, stderr: []string{"xr.yaml", "a FIFO"}},
		},
		"ConvertFIFOProviderCRDs": {
			reason: "A FIFO given as --provider-crds is refused (exit 2) and named, not waited on.",
			files:  map[string]string{"comp.yaml": migrateLegacy, "crds.yaml": "<fifo>"},
			args:   []string{"convert", "comp.yaml", "--target", "v2", "--provider-crds", "crds.yaml"},
			want:   want{code: exitInvalid, stderr: []string{"crds.yaml", "a FIFO"}},
		},
		"ConvertFIFOInProviderCRDsDir": {
			reason: "A FIFO inside a --provider-crds directory is refused (exit 2) and named.",
			files:  map[string]string{"comp.yaml": migrateLegacy, "crds/a.yaml": "<fifo>"},
			args:   []string{"convert", "comp.yaml", "--target", "v2", "--provider-crds", "crds"},
			want:   want{code: exitInvalid, stderr: []string{"crds/a.yaml", "a FIFO"}},
		},
		"ConvertFIFOXRD": {
			reason: "A FIFO given as convert --xrd is refused (exit 2) and named.",
			files:  map[string]string{"comp.yaml": migrateLegacy, "xrd.yaml": "<fifo>"},
			args:   []string{"convert", "comp.yaml", "--xrd", "xrd.yaml"},
			want:   want{code: exitInvalid, stderr: []string{"xrd.yaml", "a FIFO"}},
		},
		"MigrateFIFOProviderCRDs": {
			reason: "A FIFO given as migrate --provider-crds is refused (exit 2) and named.",
			files:  map[string]string{"repo/comp.yaml": migrateLegacy, "crds.yaml": "<fifo>"},
			args:   []string{"migrate", "--dry-run", "--verify=false", "--target", "v2", "--provider-crds", "crds.yaml", "repo"},
			want:   want{code: exitInvalid, stderr: []string{"crds.yaml", "a FIFO"}},
		},
		"MigrateFIFOInProviderCRDsDir": {
			reason: "A FIFO inside a migrate --provider-crds directory is refused (exit 2) and named.",
			files:  map[string]string{"repo/comp.yaml": migrateLegacy, "crds/sub/a.yml": "<fifo>"},
			args:   []string{"migrate", "--dry-run", "--verify=false", "--target", "v2", "--provider-crds", "crds", "repo"},
			want:   want{code: exitInvalid, stderr: []string{"crds/sub/a.yml", "a FIFO"}},
		},
		"PlanFIFOProviderCRDs": {
			reason: "A FIFO given as plan v2 --provider-crds is refused (exit 2) and named.",
			files:  map[string]string{"crds.yaml": "<fifo>"},
			args:   []string{"plan", "v2", "--out", "move", "--from", "<plan>/platform.yaml", "--from", "<plan>/live.yaml", "--provider-crds", "crds.yaml"},
			want:   want{code: exitInvalid, stderr: []string{"crds.yaml", "a FIFO"}},
		},
		"VerifyFIFOExtraResources": {
			reason: "A FIFO given as verify -e is refused (exit 2) and named.",
			files:  map[string]string{"comp.yaml": migrateLegacy, "xr.yaml": migrateXR, "extra.yaml": "<fifo>"},
			args:   []string{"verify", "comp.yaml", "--xr", "xr.yaml", "-e", "extra.yaml"},
			want:   want{code: exitInvalid, stderr: []string{"extra.yaml", "a FIFO"}},
		},
		"VerifyFIFOKubeconfig": {
			reason: "A FIFO given as verify --kubeconfig is refused (exit 2) and named, before client-go reads it.",
			files:  map[string]string{"comp.yaml": migrateLegacy, "kubeconfig": "<fifo>"},
			args:   []string{"verify", "comp.yaml", "--cluster", "--kubeconfig", "kubeconfig"},
			want:   want{code: exitInvalid, stderr: []string{"kubeconfig", "a FIFO"}},
		},
		"MigrateFIFOKubeconfig": {
			reason: "A FIFO given as migrate --kubeconfig is refused (exit 2) and named.",
			files:  map[string]string{"repo/comp.yaml": migrateLegacy, "kubeconfig": "<fifo>"},
			args:   []string{"migrate", "--dry-run", "--verify=false", "--cluster", "--kubeconfig", "kubeconfig", "repo"},
			want:   want{code: exitInvalid, stderr: []string{"kubeconfig", "a FIFO"}},
		},
		"MigrateFIFOGitignore": {
			reason: "A FIFO named .gitignore does not hang migrate; it is reported as skipped.",
			files:  map[string]string{"comp.yaml": migrateLegacy, ".gitignore": "<fifo>"},
			args:   []string{"migrate", "--dry-run", "--verify=false", "."},
			want:   want{code: exitOK, stderr: []string{".gitignore: not-regular (a FIFO"}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			writeSpecial(t, dir, tc.files)
			t.Chdir(dir)
			args := make([]string, len(tc.args))
			for i, a := range tc.args {
				args[i] = strings.ReplaceAll(a, "<plan>", planTestdata)
			}
			code, _, stderr := runWithin(t, args...)
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

// stuckConverter blocks until release is closed, as a read of a FIFO or a
// hung network file system would; it closes entered when called.
type stuckConverter struct {
	entered chan struct{}
	once    sync.Once
	release chan struct{}
}

func (c *stuckConverter) Convert(ctx context.Context, _ migrate.ConvertRequest) (*migrate.ConvertResponse, error) {
	c.once.Do(func() { close(c.entered) })
	<-c.release
	return nil, ctx.Err()
}

func TestMigrateCancelDoesNotWaitForAStuckFile(t *testing.T) {
	dir := migrateTree(t, map[string]string{"comp.yaml": migrateLegacy})
	conv := &stuckConverter{entered: make(chan struct{}), release: make(chan struct{})}
	defer close(conv.release)
	deps := migrateDeps{converter: func(*migrateOptions) migrate.Converter { return conv }}

	var out, errOut bytes.Buffer
	s := streams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut}
	root := newRootCmd(s)
	if c, _, err := root.Find([]string{"migrate"}); err == nil && c != root {
		root.RemoveCommand(c)
	}
	root.AddCommand(newMigrateCmdWith(s, deps))
	root.SetArgs([]string{"migrate", "--verify=false", dir})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		<-conv.entered
		cancel() // What Ctrl-C does.
	}()
	errc := make(chan error, 1)
	go func() { errc <- root.ExecuteContext(ctx) }()
	select {
	case err := <-errc:
		if exitCode(err) != exitError {
			t.Errorf("migrate cancelled while a file is stuck: got %v, want exit %d", err, exitError)
		}
		b, rerr := os.ReadFile(filepath.Join(dir, "comp.yaml"))
		if rerr != nil || string(b) != migrateLegacy {
			t.Errorf("migrate cancelled while a file is stuck: comp.yaml changed (%v)", rerr)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("migrate cancelled while a file is stuck: still running after 30s")
	}
}

// TestMigrateSIGTERMEndsTheRun holds migrate to ending on the first
// SIGTERM, whatever it is blocked on: here a conversion that never
// returns, as a read of a FIFO did.
func TestMigrateSIGTERMEndsTheRun(t *testing.T) {
	dir := migrateTree(t, map[string]string{"comp.yaml": migrateLegacy})
	conv := &stuckConverter{entered: make(chan struct{}), release: make(chan struct{})}
	defer close(conv.release)
	deps := migrateDeps{converter: func(*migrateOptions) migrate.Converter { return conv }}

	var out, errOut bytes.Buffer
	s := streams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut}
	root := newRootCmd(s)
	if c, _, err := root.Find([]string{"migrate"}); err == nil && c != root {
		root.RemoveCommand(c)
	}
	root.AddCommand(newMigrateCmdWith(s, deps))
	root.SetArgs([]string{"migrate", "--verify=false", dir})
	go func() {
		<-conv.entered
		// The command's handler catches it: the test process lives on.
		_ = syscall.Kill(os.Getpid(), syscall.SIGTERM)
	}()
	errc := make(chan error, 1)
	go func() { errc <- root.Execute() }()
	select {
	case err := <-errc:
		if exitCode(err) != exitError {
			t.Errorf("migrate on SIGTERM: got %v, want exit %d", err, exitError)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("migrate on SIGTERM: still running after 30s")
	}
}

func TestUntilCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	block := make(chan struct{})
	defer close(block)
	errc := make(chan error, 1)
	go func() { errc <- untilCancelled(ctx, func() error { <-block; return nil }) }()
	cancel()
	select {
	case err := <-errc:
		if err == nil {
			t.Error("untilCancelled of a step that never ends: got no error, want cancelled")
		}
	case <-time.After(30 * time.Second):
		t.Fatal("untilCancelled of a step that never ends: waited for it")
	}
	if err := untilCancelled(context.Background(), func() error { return nil }); err != nil {
		t.Errorf("untilCancelled of a step that ends: got %v", err)
	}
}
