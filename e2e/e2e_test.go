//go:build e2e

package e2e

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
	"go.yaml.in/yaml/v3"

	"github.com/xpmigrate/xpmigrate/internal/testutil"
)

// binary is xpmigrate built once from this checkout for every script of
// the test binary.
var binary struct {
	once sync.Once
	dir  string
	err  error
}

func TestMain(m *testing.M) {
	flag.Parse()
	code := m.Run()
	if binary.dir != "" {
		_ = os.RemoveAll(binary.dir)
	}
	os.Exit(code)
}

// TestE2E runs the scripts of testdata/script.
func TestE2E(t *testing.T) {
	runSuite(t, filepath.Join("testdata", "script"), nil)
}

// runSuite runs every script of dir with xpmigrate on PATH; setup, when
// given, adds to each script's environment (a suite's own services).
func runSuite(t *testing.T, dir string, setup func(*testscript.Env) error) {
	root := testutil.RepoRoot(t)
	bin := buildXpmigrate(t)
	goEnv := goEnvironment(t)
	testscript.Run(t, testscript.Params{
		Dir:                dir,
		RequireUniqueNames: true,
		UpdateScripts:      testutil.Update(),
		Cmds:               commands,
		Setup: func(e *testscript.Env) error {
			e.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
			e.Setenv("REPO", root)
			e.Setenv("NO_COLOR", "1")
			// git with a fixed identity and no user or system
			// configuration.
			for k, v := range map[string]string{
				"GIT_CONFIG_GLOBAL": os.DevNull, "GIT_CONFIG_SYSTEM": os.DevNull, "GIT_CONFIG_NOSYSTEM": "1",
				"GIT_AUTHOR_NAME": "test", "GIT_AUTHOR_EMAIL": "test@example.org",
				"GIT_COMMITTER_NAME": "test", "GIT_COMMITTER_EMAIL": "test@example.org",
			} {
				e.Setenv(k, v)
			}
			// The scripts that build (the action's install step, the
			// release flags) use this machine's module and build caches.
			for k, v := range goEnv {
				e.Setenv(k, v)
			}
			if setup != nil {
				return setup(e)
			}
			return nil
		},
	})
}

// buildXpmigrate returns the directory of xpmigrate, found once for every
// script: $XPMIGRATE_BIN (the Makefile's one build, linked into a
// temporary directory under the name the scripts call) or, unset, built
// from the checkout (testutil.BuildXpmigrate).
func buildXpmigrate(t *testing.T) string {
	t.Helper()
	binary.once.Do(func() {
		dir, err := os.MkdirTemp("", "xpmigrate-e2e-")
		if err != nil {
			binary.err = err
			return
		}
		binary.dir = dir
		bin, err := testutil.BuildXpmigrate(dir)
		if err != nil {
			binary.err = fmt.Errorf("cannot build xpmigrate: %w", err)
			return
		}
		if filepath.Dir(bin) != dir {
			binary.err = os.Symlink(bin, filepath.Join(dir, "xpmigrate"+exeSuffix()))
		}
	})
	if binary.err != nil {
		t.Fatal(binary.err)
	}
	return binary.dir
}

// goEnvironment returns the go command's caches and module settings, for
// scripts whose HOME is not the user's.
func goEnvironment(t *testing.T) map[string]string {
	t.Helper()
	out, err := exec.Command("go", "env", "-json", "GOCACHE", "GOMODCACHE", "GOPATH", "GOPROXY", "GOFLAGS",
		"GONOSUMDB", "GONOPROXY", "GOPRIVATE", "GOSUMDB", "GOTOOLCHAIN").Output()
	if err != nil {
		t.Fatalf("go env: %v", err)
	}
	env := map[string]string{}
	if err := json.Unmarshal(out, &env); err != nil {
		t.Fatalf("go env -json: %v", err)
	}
	for k, v := range env {
		if v == "" {
			delete(env, k)
		}
	}
	return env
}

func exeSuffix() string {
	if runtime.GOOS == "windows" {
		return ".exe"
	}
	return ""
}

// commands are the scripts' own commands, besides testscript's.
var commands = map[string]func(ts *testscript.TestScript, neg bool, args []string){
	"cptree":     cmdCptree,
	"replace":    cmdReplace,
	"stdout2env": cmdStdout2env,
	"mdblocks":   cmdMdblocks,
	"filesmatch": cmdFilesmatch,
	"hook":       cmdHook,
	"action":     cmdAction,
	"ldflags":    cmdLdflags,
}

// noNeg fails a script that negates a command that cannot be negated.
func noNeg(ts *testscript.TestScript, neg bool, name string) {
	if neg {
		ts.Fatalf("unsupported: ! %s", name)
	}
}

// cptree src dst: copy the regular files under src to dst.
func cmdCptree(ts *testscript.TestScript, neg bool, args []string) {
	noNeg(ts, neg, "cptree")
	if len(args) != 2 {
		ts.Fatalf("usage: cptree src dst")
	}
	src, dst := ts.MkAbs(args[0]), ts.MkAbs(args[1])
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		q := filepath.Join(dst, rel)
		if err := os.MkdirAll(filepath.Dir(q), 0o750); err != nil {
			return err
		}
		return os.WriteFile(q, b, 0o644)
	})
	ts.Check(err)
}

// replace file old new: replace the first old in file with new; old must
// be there.
func cmdReplace(ts *testscript.TestScript, neg bool, args []string) {
	noNeg(ts, neg, "replace")
	if len(args) != 3 {
		ts.Fatalf("usage: replace file old new")
	}
	text := ts.ReadFile(args[0])
	if !strings.Contains(text, args[1]) {
		ts.Fatalf("%s has no %q to replace", args[0], args[1])
	}
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), []byte(strings.Replace(text, args[1], args[2], 1)), 0o644))
}

// stdout2env name: set the variable to the last command's stdout, trimmed.
func cmdStdout2env(ts *testscript.TestScript, neg bool, args []string) {
	noNeg(ts, neg, "stdout2env")
	if len(args) != 1 {
		ts.Fatalf("usage: stdout2env name")
	}
	ts.Setenv(args[0], strings.TrimSpace(ts.ReadFile("stdout")))
}

// mdblocks [-min=N] file lang tag: print the fenced blocks of a Markdown
// file whose info string is lang followed by tag, in order, each ending
// in a newline; fail when there are fewer than N.
func cmdMdblocks(ts *testscript.TestScript, neg bool, args []string) {
	noNeg(ts, neg, "mdblocks")
	minimum := 0
	if len(args) > 0 && strings.HasPrefix(args[0], "-min=") {
		n, err := strconv.Atoi(strings.TrimPrefix(args[0], "-min="))
		ts.Check(err)
		minimum, args = n, args[1:]
	}
	if len(args) != 3 {
		ts.Fatalf("usage: mdblocks [-min=N] file lang tag")
	}
	n := 0
	for _, b := range testutil.FencedBlocks(ts.ReadFile(args[0])) {
		if b.Lang == args[1] && slices.Contains(b.Tags, args[2]) {
			fmt.Fprintln(ts.Stdout(), b.Text)
			n++
		}
	}
	if n < minimum {
		ts.Fatalf("%s has %d %s %s blocks, want at least %d: is the tagging broken?", args[0], n, args[1], args[2], minimum)
	}
}

// filesmatch [-count=N] glob pattern: every file the glob matches (N of
// them, with -count) matches the regular expression; with !, none does.
func cmdFilesmatch(ts *testscript.TestScript, neg bool, args []string) {
	count := -1
	if len(args) > 0 && strings.HasPrefix(args[0], "-count=") {
		n, err := strconv.Atoi(strings.TrimPrefix(args[0], "-count="))
		ts.Check(err)
		count, args = n, args[1:]
	}
	if len(args) != 2 {
		ts.Fatalf("usage: filesmatch [-count=N] glob pattern")
	}
	files, err := filepath.Glob(ts.MkAbs(args[0]))
	ts.Check(err)
	if count >= 0 && len(files) != count {
		ts.Fatalf("%s matches %d files, want %d: %q", args[0], len(files), count, files)
	}
	re, err := regexp.Compile(args[1])
	ts.Check(err)
	for _, f := range files {
		if re.MatchString(ts.ReadFile(f)) == neg {
			ts.Fatalf("%s: matches %q: %t, want %t", f, args[1], neg, !neg)
		}
	}
}

// exitStatus returns a finished command's exit status.
func exitStatus(ts *testscript.TestScript, err error) int {
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		return ee.ExitCode()
	default:
		ts.Fatalf("cannot run: %v", err)
		return -1
	}
}

// statusFlag takes a leading -status=N from args (default 0).
func statusFlag(ts *testscript.TestScript, args []string) (int, []string) {
	if len(args) > 0 && strings.HasPrefix(args[0], "-status=") {
		n, err := strconv.Atoi(strings.TrimPrefix(args[0], "-status="))
		ts.Check(err)
		return n, args[1:]
	}
	return 0, args
}

// hook is one entry of .pre-commit-hooks.yaml.
type hook struct {
	ID    string `yaml:"id"`
	Entry string `yaml:"entry"`
}

// hook [-status=N] id: run the entry of the hook of $REPO's
// .pre-commit-hooks.yaml as pre-commit does (split into words, no shell,
// no file names) in the current directory; it must exit with N.
func cmdHook(ts *testscript.TestScript, neg bool, args []string) {
	noNeg(ts, neg, "hook")
	want, args := statusFlag(ts, args)
	if len(args) != 1 {
		ts.Fatalf("usage: hook [-status=N] id")
	}
	var hooks []hook
	ts.Check(yaml.Unmarshal([]byte(ts.ReadFile(filepath.Join(ts.Getenv("REPO"), ".pre-commit-hooks.yaml"))), &hooks))
	i := slices.IndexFunc(hooks, func(h hook) bool { return h.ID == args[0] })
	if i < 0 {
		ts.Fatalf("no hook %q", args[0])
	}
	entry := strings.Fields(hooks[i].Entry)
	if got := exitStatus(ts, ts.Exec(entry[0], entry[1:]...)); got != want {
		ts.Fatalf("%s: exit %d, want %d", hooks[i].Entry, got, want)
	}
}

// ldflags key=value...: print the linker flags of .goreleaser.yaml's build
// with each {{.key}} replaced by its value.
func cmdLdflags(ts *testscript.TestScript, neg bool, args []string) {
	noNeg(ts, neg, "ldflags")
	var g struct {
		Builds []struct {
			Ldflags []string `yaml:"ldflags"`
		} `yaml:"builds"`
	}
	ts.Check(yaml.Unmarshal([]byte(ts.ReadFile(filepath.Join(ts.Getenv("REPO"), ".goreleaser.yaml"))), &g))
	if len(g.Builds) != 1 {
		ts.Fatalf(".goreleaser.yaml has %d builds, want 1", len(g.Builds))
	}
	var pairs []string
	for _, a := range args {
		k, v, ok := strings.Cut(a, "=")
		if !ok {
			ts.Fatalf("usage: ldflags key=value...")
		}
		pairs = append(pairs, "{{."+k+"}}", v)
	}
	fmt.Fprint(ts.Stdout(), strings.NewReplacer(pairs...).Replace(strings.Join(g.Builds[0].Ldflags, " ")))
}

// scriptEnv is the process environment with the script's variables over
// it, for the commands that start processes themselves.
func scriptEnv(ts *testscript.TestScript, keys ...string) []string {
	env := os.Environ()
	for _, k := range append([]string{"PATH", "HOME", "TMPDIR", "WORK", "REPO", "NO_COLOR",
		"GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_CONFIG_NOSYSTEM", "GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL",
		"GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL",
		"GOCACHE", "GOMODCACHE", "GOPATH", "GOPROXY", "GOFLAGS", "GONOSUMDB", "GONOPROXY", "GOPRIVATE", "GOSUMDB", "GOTOOLCHAIN"}, keys...) {
		if v := ts.Getenv(k); v != "" {
			env = append(env, k+"="+v)
		}
	}
	return env
}
