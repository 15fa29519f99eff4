package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// baseLegacy is a legacy Composition named name whose bucket's class is
// mapped from the XR's size.
func baseLegacy(name string) string {
	return `apiVersion: apiextensions.crossplane.io/v1
kind: Composition
metadata:
  name: ` + name + `
spec:
  compositeTypeRef:
    apiVersion: example.org/v1
    kind: X` + strings.ToUpper(name[:1]) + name[1:] + `
  resources:
  - name: bucket
    base:
      apiVersion: s3.example.org/v1
      kind: Bucket
      spec:
        forProvider: {}
    patches:
    - fromFieldPath: spec.size
      toFieldPath: spec.forProvider.class
      transforms:
      - type: map
        map:
          small: STANDARD
          large: GLACIER
`
}

// baseXR is an example XR for the Composition named name.
func baseXR(name string) string {
	return `apiVersion: example.org/v1
kind: X` + strings.ToUpper(name[:1]) + name[1:] + `
metadata:
  name: ` + name + `-example
spec:
  size: small
`
}

// baseHandConverted is a by-hand conversion of baseLegacy("hand"): another
// step name, another order of keys, comments; the same behaviour.
const baseHandConverted = `# Converted by hand.
apiVersion: apiextensions.crossplane.io/v1
kind: Composition
metadata:
  name: hand
spec:
  mode: Pipeline
  compositeTypeRef:
    apiVersion: example.org/v1
    kind: XHand
  pipeline:
  - step: compose
    functionRef:
      name: function-patch-and-transform
    input:
      apiVersion: pt.fn.crossplane.io/v1beta1
      kind: Resources
      resources:
      - name: bucket
        base:
          apiVersion: s3.example.org/v1
          kind: Bucket
          spec:
            forProvider: {}
        patches:
        - type: FromCompositeFieldPath
          fromFieldPath: spec.size
          toFieldPath: spec.forProvider.class
          transforms:
          - type: map
            map:
              large: GLACIER
              small: STANDARD
`

// baseHelm is a legacy Composition inside a Helm template.
const baseHelm = `apiVersion: apiextensions.crossplane.io/v1
kind: Composition
metadata:
  name: {{ .Values.name }}
spec:
  compositeTypeRef:
    apiVersion: example.org/v1
    kind: XChart
  resources:
  - name: bucket
    base:
      apiVersion: s3.example.org/v1
      kind: Bucket
`

// TestMigrateBase: the CI gate sees committed conversions. At commit A a
// repository holds legacy Compositions; commit B converts them (one
// correctly with xpmigrate, one with a transform changed afterwards, one by
// hand) and adds a legacy Composition inside a Helm template. `migrate
// --check --base A` fails naming exactly the changed Composition and the
// Helm template, and passes once both are fixed.
func TestMigrateBase(t *testing.T) {
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
		return strings.TrimSpace(string(out))
	}
	write := func(rel, data string) {
		t.Helper()
		p := filepath.Join(repo, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gitRun("init", "-q", "-b", "main")
	for _, n := range []string{"good", "changed", "hand"} {
		write(n+"/composition.yaml", baseLegacy(n))
		write(n+"/examples/xr.yaml", baseXR(n))
	}
	gitRun("add", "-A")
	gitRun("commit", "-q", "-m", "A: legacy")
	a := gitRun("rev-parse", "HEAD")

	// B: convert with xpmigrate, then break one conversion and replace
	// another by a hand conversion; add a Helm-templated legacy one.
	if code, _, stderr := executeMigrate(t, migrateDeps{}, repo); code != exitOK {
		t.Fatalf("migrate (to make commit B): exit %d\n%s", code, stderr)
	}
	b, err := os.ReadFile(filepath.Join(repo, "changed/composition.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	broken := strings.Replace(string(b), "large: GLACIER", "large: DEEP_ARCHIVE", 1)
	broken = strings.Replace(broken, "small: STANDARD", "small: INTELLIGENT_TIERING", 1)
	if broken == string(b) {
		t.Fatalf("the conversion of changed/composition.yaml has no map to change:\n%s", b)
	}
	write("changed/composition.yaml", broken)
	write("hand/composition.yaml", baseHandConverted)
	write("chart/templates/composition.yaml", baseHelm)
	gitRun("add", "-A")
	gitRun("commit", "-q", "-m", "B: converted")

	code, stdout, stderr := executeMigrate(t, migrateDeps{}, "--check", "--base", a, "--format", "github", repo)
	if code != exitDifferences {
		t.Errorf("migrate --check --base A: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, exitDifferences, stdout, stderr)
	}
	all := stdout + stderr
	for _, want := range []string{"changed/composition.yaml", "chart/templates/composition.yaml"} {
		if !strings.Contains(all, want) {
			t.Errorf("migrate --check --base A: output does not name %s:\nstdout:\n%s\nstderr:\n%s", want, stdout, stderr)
		}
	}
	for _, bad := range []string{"good/composition.yaml", "hand/composition.yaml"} {
		for _, l := range strings.Split(stdout, "\n") {
			if strings.HasPrefix(l, "::error") && strings.Contains(l, bad) {
				t.Errorf("migrate --check --base A: an error for %s, which is a faithful conversion: %s", bad, l)
			}
		}
	}
	if !strings.Contains(stderr, "different") {
		t.Errorf("migrate --check --base A: the changed conversion is not reported as different:\n%s", stderr)
	}

	// verify --base reads the legacy form of one Composition from git.
	code, stdout, stderr = executeVerify(t, []string{filepath.Join(repo, "changed/composition.yaml"), "--base", a})
	if code != exitDifferences || !strings.Contains(stdout, "FAIL changed: different") {
		t.Errorf("verify changed/composition.yaml --base A: exit %d, want %d and FAIL\nstdout:\n%s\nstderr:\n%s", code, exitDifferences, stdout, stderr)
	}
	code, stdout, stderr = executeVerify(t, []string{filepath.Join(repo, "hand/composition.yaml"), "--base", a, "--require-verified"})
	if code != exitOK || !strings.Contains(stdout, "PASS hand: equivalent") || !strings.Contains(stdout, a+":hand/composition.yaml#0") {
		t.Errorf("verify hand/composition.yaml --base A: exit %d, want 0, PASS and the base named\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if code, _, stderr := executeVerify(t, []string{filepath.Join(repo, "chart/templates/composition.yaml"), "--base", a}); code != exitInvalid {
		t.Errorf("verify --base A on a Composition that was not legacy at A: exit %d, want %d\n%s", code, exitInvalid, stderr)
	}

	// Fix both: restore the map, convert the template by hand.
	write("changed/composition.yaml", string(b))
	write("chart/templates/composition.yaml", strings.Replace(baseHandConverted, "name: hand", "name: {{ .Values.name }}", 1))
	gitRun("add", "-A")
	gitRun("commit", "-q", "-m", "C: fixed")
	code, stdout, stderr = executeMigrate(t, migrateDeps{}, "--check", "--base", a, "--require-verified", repo)
	if code != exitOK {
		t.Errorf("migrate --check --base A after the fixes: exit %d, want 0\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stderr, "3 equivalent") {
		t.Errorf("migrate --check --base A after the fixes: want the three conversions verified equivalent:\n%s", stderr)
	}

	// A base that names no commit is bad usage.
	if code, _, stderr := executeMigrate(t, migrateDeps{}, "--check", "--base", "no-such-ref", repo); code != exitInvalid {
		t.Errorf("migrate --base no-such-ref: exit %d, want %d\n%s", code, exitInvalid, stderr)
	}
}
