package testutil

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/pkg/errors"
)

// BinEnv names the environment variable that hands the e2e tests a
// prebuilt xpmigrate. The Makefile's e2e targets build bin/xpmigrate once
// and set it, so that no test package builds its own binary.
const BinEnv = "XPMIGRATE_BIN"

// xpmigratePkg is the command the e2e tests run.
const xpmigratePkg = "github.com/xpmigrate/xpmigrate/cmd/xpmigrate"

// BuildXpmigrate returns the xpmigrate command for the e2e tests that run
// the binary. With $XPMIGRATE_BIN set it builds nothing and returns that
// path, after checking that it is an absolute path to an executable file
// that no source file linked into it is newer than (a stale binary is an
// error, never used). Unset, it builds the command into dir, so that `go
// test` alone still works.
func BuildXpmigrate(dir string) (string, error) {
	if bin := os.Getenv(BinEnv); bin != "" {
		return bin, checkPrebuilt(bin)
	}
	bin := filepath.Join(dir, "xpmigrate"+exeSuffix())
	//nolint:gosec // A test helper: builds this module's command into a directory the test chose.
	if out, err := exec.Command("go", "build", "-o", bin, xpmigratePkg).CombinedOutput(); err != nil {
		return "", errors.Wrapf(err, "go build: %s", out)
	}
	return bin, nil
}

// checkPrebuilt fails unless bin is an absolute path to an executable
// regular file at least as new as every Go and embedded file of this module
// that the command links, go.mod and go.sum. `go build -o` sets the
// output's modification time even when the binary was up to date, so a
// binary the Makefile has just built always passes.
func checkPrebuilt(bin string) error {
	if !filepath.IsAbs(bin) {
		return errors.Errorf("$%s=%q: not an absolute path", BinEnv, bin)
	}
	fi, err := os.Stat(bin) //nolint:gosec // G703: the developer's own setting, read by tests only.
	if err != nil {
		return errors.Wrapf(err, "$%s", BinEnv)
	}
	if !fi.Mode().IsRegular() || runtime.GOOS != "windows" && fi.Mode().Perm()&0o111 == 0 {
		return errors.Errorf("$%s=%q: not an executable file", BinEnv, bin)
	}
	sources, err := commandSources()
	if err != nil {
		return err
	}
	var newer []string
	for _, src := range sources {
		st, err := os.Stat(src)
		if err != nil {
			return errors.Wrapf(err, "cannot check whether $%s is stale", BinEnv)
		}
		if st.ModTime().After(fi.ModTime()) {
			newer = append(newer, src)
		}
	}
	if len(newer) != 0 {
		return errors.Errorf("$%s=%q is stale: %d source files are newer, first %q; rebuild it (make build) or unset %s",
			BinEnv, bin, len(newer), newer[0], BinEnv)
	}
	return nil
}

// commandSources lists the files of this module that go build reads to
// link the command: the Go, cgo and embedded files of every package of the
// main module it depends on, go.mod and go.sum.
func commandSources() ([]string, error) {
	const format = `{{if and .Module .Module.Main}}` +
		`{{range .GoFiles}}{{$.Dir}}/{{.}}{{"\n"}}{{end}}` +
		`{{range .CgoFiles}}{{$.Dir}}/{{.}}{{"\n"}}{{end}}` +
		`{{range .EmbedFiles}}{{$.Dir}}/{{.}}{{"\n"}}{{end}}` +
		`{{.Module.GoMod}}{{"\n"}}{{end}}`
	var stderr bytes.Buffer
	cmd := exec.Command("go", "list", "-deps", "-f", format, xpmigratePkg)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, errors.Wrapf(err, "cannot list the sources of %s: %s", xpmigratePkg, stderr.String())
	}
	seen := map[string]bool{}
	var files []string
	for _, f := range strings.Split(string(out), "\n") {
		if f == "" || seen[f] {
			continue
		}
		seen[f] = true
		files = append(files, filepath.FromSlash(f))
		if filepath.Base(f) == "go.mod" {
			if sum := filepath.Join(filepath.Dir(f), "go.sum"); !seen[sum] {
				seen[sum] = true
				files = append(files, sum)
			}
		}
	}
	if len(files) == 0 {
		return nil, errors.Errorf("go list: no source files for %s", xpmigratePkg)
	}
	return files, nil
}

func exeSuffix() string {
	if runtime.GOOS == "windows" {
		return ".exe"
	}
	return ""
}
