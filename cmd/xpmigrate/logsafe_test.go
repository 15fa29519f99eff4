package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/xpmigrate/xpmigrate/internal/logsafe"
)

// hostileFile is a file name no terminal or CI log may see raw: a line
// break followed by a GitHub workflow command, an SGR sequence, a carriage
// return, a Unicode line separator and a raw C1 CSI byte.
const hostileFile = "h\n::set-output name=x::y\x1b[31m\r\u2028\x9b"

// hostileComposition is a legacy Composition named (in YAML escapes) as
// hostileFile is, whose patch the converter refuses, so that every
// command reports it.
const hostileComposition = `apiVersion: apiextensions.crossplane.io/v1
kind: Composition
metadata:
  name: "c\n::set-output name=n::v\e[31m\r\L\u009b"
spec:
  compositeTypeRef:
    apiVersion: example.org/v1
    kind: XThing
  resources:
  - name: "r\n::error::x"
    base:
      apiVersion: example.org/v1
      kind: Bucket
    patches:
    - type: Bogus
`

// goodComposition converts, and its XR kind is in hostileXRs.
const goodComposition = `apiVersion: apiextensions.crossplane.io/v1
kind: Composition
metadata:
  name: good
spec:
  compositeTypeRef:
    apiVersion: example.org/v1
    kind: XThing
  resources:
  - name: bucket
    base:
      apiVersion: example.org/v1
      kind: Bucket
`

// hostileXRs holds an XR without a name, which verify skips by path.
const hostileXRs = `apiVersion: example.org/v1
kind: XThing
spec: {}
---
apiVersion: example.org/v1
kind: XThing
metadata: {name: x}
`

// TestStderrEscapesData (issue 23 item 8b): names, paths and messages
// from data reach stderr (and the text printed on stdout) escaped, in
// every command: no raw control character (C0, DEL, C1, ESC), no line
// break or line separator from a name, no line that starts with "::" (a
// workflow command in GitHub Actions).
func TestStderrEscapesData(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	comp := write(filepath.Join("repo", hostileFile+".yaml"), hostileComposition)
	write(filepath.Join("repo", hostileFile+"-broken.yaml"), "key: [unclosed\n")
	good := write("good.yaml", goodComposition)
	xrs := write(hostileFile+"-xr.yaml", hostileXRs)

	td := filepath.Join("..", "..", "convert", "migrate", "plan", "testdata")
	live, err := os.ReadFile(filepath.Join(td, "live.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	hostileXR := `"orders\n::set-output name=x::y\e[31m\r\L\u009b"`
	liveText := strings.ReplaceAll(string(live), "name: orders-abcde\n", "name: "+hostileXR+"\n")
	liveText = strings.ReplaceAll(liveText, "name: orders-abcde}", "name: "+hostileXR+"}")
	hostileLive := write(hostileFile+"-live.yaml", liveText)

	cases := map[string]struct {
		reason string
		args   []string
		// want is a part of the escaped data stderr must show, so that
		// the test cannot pass by printing nothing.
		want string
		// workflowCommands: stdout holds GitHub workflow commands.
		workflowCommands bool
	}{
		"Migrate": {
			reason: "migrate's progress lines, summary and final error name the files and Compositions.",
			args:   []string{"migrate", "--dry-run", filepath.Join(dir, "repo")},
			want:   `h\n::set-output name=x::y\x1b[31m\r\u2028\x9b`,
		},
		"MigrateGitHub": {
			reason:           "migrate --format github writes workflow commands on stdout, escaped as GitHub decodes them.",
			args:             []string{"migrate", "--dry-run", "--format", "github", filepath.Join(dir, "repo")},
			want:             `h%0A%3A%3Aset-output`,
			workflowCommands: true,
		},
		"Verify": {
			reason: "verify's error names the file.",
			args:   []string{"verify", comp},
			want:   `h\n::set-output name=x::y\x1b[31m`,
		},
		"VerifySkipped": {
			reason: "verify lists the documents of --xr it skips by path.",
			args:   []string{"verify", "--xr", xrs, good},
			want:   `h\n::set-output`,
		},
		"Convert": {
			reason: "convert's findings and error name the file.",
			args:   []string{"convert", comp},
			want:   `h\n::set-output name=x::y\x1b[31m`,
		},
		"Plan": {
			reason: "plan v2 names the XRs of the export (on stdout and stderr).",
			args: []string{"plan", "v2", "--from", filepath.Join(td, "platform.yaml"), "--from", hostileLive,
				"--xr-naming", "new-group", "--xr-group", "v2.example.org", "--provider-crds", filepath.Join(td, "crds.yaml"), "--out", filepath.Join(dir, "plan")},
			want: `\n::set-output name=x::y\x1b[31m`,
		},
		"PlanMissing": {
			reason: "plan's error names a file that is not there.",
			args:   []string{"plan", "v2", "--from", filepath.Join(dir, hostileFile+"-missing.yaml"), "--out", filepath.Join(dir, "plan2")},
			want:   `h\n::set-output`,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, stdout, stderr := runWithin(t, tc.args...)
			for stream, text := range map[string]string{"stderr": stderr, "stdout": stdout} {
				for i, line := range strings.Split(text, "\n") {
					if stream == "stdout" && tc.workflowCommands {
						// The program's own workflow commands: their text,
						// from data, must be escaped.
						line = strings.TrimPrefix(line, "::")
					}
					if logsafe.Unsafe(line) {
						t.Errorf("%s\nxpmigrate %s: %s line %d is not escaped: %q", tc.reason, strings.Join(tc.args, " "), stream, i+1, line)
					}
				}
			}
			if !strings.Contains(stderr+stdout, tc.want) {
				t.Errorf("%s\nxpmigrate %s: the output does not show %q escaped:\nstdout:\n%s\nstderr:\n%s", tc.reason, strings.Join(tc.args, " "), tc.want, stdout, stderr)
			}
		})
	}
}
