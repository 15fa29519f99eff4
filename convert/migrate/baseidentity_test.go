package migrate

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/xpmigrate/xpmigrate/convert"
	"github.com/xpmigrate/xpmigrate/internal/crossplane"
)

// identityLegacy is a legacy Composition whose bucket's class is mapped
// from the XR's size, and identityXR an example of its type.
const (
	identityLegacy = `apiVersion: apiextensions.crossplane.io/v1
kind: Composition
metadata:
  name: bucket
spec:
  compositeTypeRef:
    apiVersion: example.org/v1
    kind: XBucket
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
	identityXR = `apiVersion: example.org/v1
kind: XBucket
metadata:
  name: example
spec:
  size: small
`
)

// TestMigrateBaseIdentity is issue 23 item 5b: the --base gate finds the
// legacy form of a conversion that was renamed, moved to another file, or
// named as a v2 conversion (NAME-v2), by the file's git history and the
// Composition's type as well as its name. A pull request that renames a
// converted Composition while changing a transform no longer passes.
func TestMigrateBaseIdentity(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	type want struct {
		Base         string
		Verification VerifyStatus
		Safe         bool
	}
	cases := map[string]struct {
		reason string
		// edit turns the converted repository into the pull request's:
		// converted is the conversion of identityLegacy.
		edit func(t *testing.T, g *gitRepo, converted string)
		// target is the gate's.
		target crossplane.Target
		want   want
	}{
		"Renamed": {
			reason: "A conversion renamed and changed in the same file is verified against the legacy Composition of its file and type.",
			edit: func(t *testing.T, g *gitRepo, converted string) {
				g.write(t, "a/composition.yaml", changeMap(t, rename(t, converted, "bucket-renamed")))
			},
			want: want{Base: "a/composition.yaml#0", Verification: VerifyDifferences},
		},
		"RenamedFaithful": {
			reason: "A faithful conversion renamed is equivalent: the gate passes.",
			edit: func(t *testing.T, g *gitRepo, converted string) {
				g.write(t, "a/composition.yaml", rename(t, converted, "bucket-renamed"))
			},
			want: want{Base: "a/composition.yaml#0", Verification: VerifyEquivalent, Safe: true},
		},
		"MovedAndRenamed": {
			reason: "A conversion moved to another file (a git rename) and renamed is found by the file's history.",
			edit: func(t *testing.T, g *gitRepo, converted string) {
				if err := os.MkdirAll(filepath.Join(g.dir, "b"), 0o755); err != nil {
					t.Fatal(err)
				}
				g.run(t, "mv", "a/composition.yaml", "b/moved.yaml")
				g.write(t, "b/moved.yaml", changeMap(t, rename(t, converted, "other")))
			},
			want: want{Base: "a/composition.yaml#0", Verification: VerifyDifferences},
		},
		"V2Name": {
			reason: "A conversion named as a v2 one (NAME-v2, with its mapping annotation) is matched to NAME.",
			edit: func(t *testing.T, g *gitRepo, converted string) {
				v2 := strings.Replace(rename(t, converted, "bucket-v2"), "  name: bucket-v2\n",
					"  name: bucket-v2\n  annotations:\n    xpmigrate.io/v2-mapping: '{\"from\":{\"apiVersion\":\"example.org/v1\",\"kind\":\"XBucket\"},\"to\":{\"apiVersion\":\"example.org/v1\",\"kind\":\"Bucket\"}}'\n", 1)
				v2 = strings.Replace(v2, "    kind: XBucket\n", "    kind: Bucket\n", 1)
				g.write(t, "a/composition.yaml", changeMap(t, v2))
			},
			target: crossplane.V2,
			want:   want{Base: "a/composition.yaml#0", Verification: VerifyDifferences},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			g := newGitRepo(t)
			g.write(t, "a/composition.yaml", identityLegacy)
			g.write(t, "a/examples/xr.yaml", identityXR)
			base := g.commit(t, "legacy")
			// Wired as the CLI does by default: the tree installs the
			// function the conversion uses, so the gate can check it.
			if _, err := Run(context.Background(), Options{Root: g.dir, Converter: NewConverter(convert.Options{}), WireFunctions: true, Jobs: 1}); err != nil {
				t.Fatalf("Run(...) to convert: %v", err)
			}
			converted, err := os.ReadFile(filepath.Join(g.dir, "a/composition.yaml"))
			if err != nil {
				t.Fatal(err)
			}
			tc.edit(t, g, string(converted))
			g.commit(t, "pull request")

			res, err := Run(context.Background(), Options{Root: g.dir, Base: base, Check: true, Write: WriteNone, Verify: true, Target: tc.target,
				Converter: NewConverter(convert.Options{}), Verifier: NewVerifier(false), Jobs: 1})
			if err != nil {
				t.Fatalf("Run(... --check --base ...): %v", err)
			}
			got := want{Safe: strings.HasSuffix(Headline(res), "safe to merge? yes")}
			for _, c := range res.Compositions {
				got.Base = strings.TrimPrefix(c.Base, base+":")
				if c.Verification != nil {
					got.Verification = c.Verification.Status
				}
			}
			for _, c := range res.Compositions {
				if c.Verification != nil && c.Verification.Status == VerifyError {
					t.Logf("%+v", c.Verification)
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\nRun(... --check --base ...): -want, +got:\n%s\n%s", tc.reason, diff, Headline(res))
			}
		})
	}
}

// rename renames the Composition of a document.
func rename(t *testing.T, doc, name string) string {
	t.Helper()
	out := strings.Replace(doc, "  name: bucket\n", "  name: "+name+"\n", 1)
	if out == doc {
		t.Fatalf("no metadata.name to rename in:\n%s", doc)
	}
	return out
}

// changeMap changes the map transform of a converted Composition.
func changeMap(t *testing.T, doc string) string {
	t.Helper()
	out := strings.Replace(doc, "large: GLACIER", "large: DEEP_ARCHIVE", 1)
	out = strings.Replace(out, "small: STANDARD", "small: INTELLIGENT_TIERING", 1)
	if out == doc {
		t.Fatalf("no map transform to change in:\n%s", doc)
	}
	return out
}

// A gitRepo is a temporary git repository, run without the user's or the
// system's configuration.
type gitRepo struct{ dir string }

func newGitRepo(t *testing.T) *gitRepo {
	t.Helper()
	g := &gitRepo{dir: t.TempDir()}
	g.run(t, "init", "-q", "-b", "main")
	return g
}

func (g *gitRepo) run(t *testing.T, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", g.dir, "-c", "user.name=test", "-c", "user.email=test@example.org", "-c", "commit.gpgsign=false"}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_SYSTEM=/dev/null")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func (g *gitRepo) write(t *testing.T, rel, data string) {
	t.Helper()
	p := filepath.Join(g.dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func (g *gitRepo) commit(t *testing.T, msg string) string {
	t.Helper()
	g.run(t, "add", "-A")
	g.run(t, "commit", "-q", "-m", msg)
	return g.run(t, "rev-parse", "HEAD")
}
