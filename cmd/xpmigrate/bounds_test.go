package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/xpmigrate/xpmigrate/internal/testutil"
)

// deepXR is migrateXR with a field nested depth lists deep.
func deepXR(depth int) string {
	return migrateXR + "  deep: " + strings.Repeat("[", depth) + strings.Repeat("]", depth) + "\n"
}

// padded is a document followed by a comment that makes it size bytes.
func padded(doc string, size int) string {
	return doc + "#" + strings.Repeat("x", size-len(doc)-2) + "\n"
}

// TestInputBounds holds the bounds of docs/safety.md: nesting depth, file
// size and the object count of plan v2 --from, each with its flag.
func TestInputBounds(t *testing.T) {
	planTestdata := filepath.Join(testutil.RepoRoot(t), "convert", "migrate", "plan", "testdata")
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
		"VerifyDeepXR": {
			reason: "A sample XR nested deeper than --max-depth (1000 by default) is refused, naming the file, the document and the depth.",
			files:  map[string]string{"comp.yaml": migrateLegacy, "xr.yaml": deepXR(1100)},
			args:   []string{"verify", "comp.yaml", "--xr", "xr.yaml"},
			want:   want{code: exitInvalid, stderr: []string{"xr.yaml", "document 1", "1102 levels deep", "limit of 1000 (--max-depth)"}},
		},
		"VerifyDeepXRWithinARaisedBound": {
			reason: "--max-depth raises the bound: the same XR is verified.",
			files:  map[string]string{"comp.yaml": migrateLegacy, "xr.yaml": deepXR(1100)},
			args:   []string{"verify", "comp.yaml", "--xr", "xr.yaml", "--max-depth", "2000"},
			want:   want{code: exitOK},
		},
		"ConvertDeepComposition": {
			reason: "A Composition nested deeper than --max-depth is refused by convert.",
			files:  map[string]string{"comp.yaml": migrateLegacy + "  deep: " + strings.Repeat("[", 60) + strings.Repeat("]", 60) + "\n"},
			args:   []string{"convert", "comp.yaml", "--max-depth", "50"},
			want:   want{code: exitInvalid, stderr: []string{"comp.yaml", "levels deep", "--max-depth"}},
		},
		"MaxDepthOutOfRange": {
			reason: "--max-depth is 1 to 10000, the API server's own bound.",
			files:  map[string]string{"comp.yaml": migrateLegacy},
			args:   []string{"convert", "comp.yaml", "--max-depth", "10001"},
			want:   want{code: exitInvalid, stderr: []string{"--max-depth must be between 1 and 10000"}},
		},
		"ConvertLargeFile": {
			reason: "A file larger than --max-file-size is refused unread.",
			files:  map[string]string{"comp.yaml": padded(migrateLegacy, 8<<10)},
			args:   []string{"convert", "comp.yaml", "--max-file-size", "4Ki"},
			want:   want{code: exitInvalid, stderr: []string{"comp.yaml", "8192 bytes", "limit of 4096 bytes (--max-file-size)"}},
		},
		"VerifyLargeExtraResources": {
			reason: "verify -e applies --max-file-size too.",
			files:  map[string]string{"comp.yaml": migrateLegacy, "xr.yaml": migrateXR, "extra.yaml": padded("a: 1\n", 8<<10)},
			args:   []string{"verify", "comp.yaml", "--xr", "xr.yaml", "-e", "extra.yaml", "--max-file-size", "4Ki"},
			want:   want{code: exitInvalid, stderr: []string{"extra.yaml", "--max-file-size"}},
		},
		"MigrateSkipsLargeFile": {
			reason: "migrate skips a file over the bound that holds no Composition, unparsed, and converts the rest.",
			files:  map[string]string{"comp.yaml": migrateLegacy, "big.yaml": padded("apiVersion: v1\nkind: ConfigMap\n", 8<<10)},
			args:   []string{"migrate", "--dry-run", "--verify=false", "--max-file-size", "4Ki", "."},
			want:   want{code: exitOK, stderr: []string{"big.yaml: too-large", "1 Composition converted"}},
		},
		"MigrateFailsOnLargeLegacyComposition": {
			reason: "A file over the bound that holds a legacy Composition fails the run: the gate never passes on what it did not read.",
			files:  map[string]string{"comp.yaml": padded(migrateLegacy, 8<<10)},
			args:   []string{"migrate", "--check", "--verify=false", "--max-file-size", "4Ki", "."},
			want:   want{code: exitError, stderr: []string{"comp.yaml: too-large", "raise --max-file-size"}},
		},
		"MaxFileSizeNotASize": {
			reason: "--max-file-size takes bytes or Ki, Mi, Gi.",
			files:  map[string]string{"comp.yaml": migrateLegacy},
			args:   []string{"convert", "comp.yaml", "--max-file-size", "3MB"},
			want:   want{code: exitInvalid, stderr: []string{"not a size"}},
		},
		"PlanMaxObjects": {
			reason: "plan v2 --from refuses exports of more objects than --max-objects.",
			args:   []string{"plan", "v2", "--out", "move", "--from", "<plan>/platform.yaml", "--from", "<plan>/live.yaml", "--max-objects", "3"},
			want:   want{code: exitInvalid, stderr: []string{"more than 3 objects (--max-objects)"}},
		},
		"MaxResponseSizeNeedsCluster": {
			reason: "--max-response-size bounds cluster reads: it needs --cluster.",
			files:  map[string]string{"comp.yaml": migrateLegacy},
			args:   []string{"verify", "comp.yaml", "--max-response-size", "1Mi"},
			want:   want{code: exitInvalid, stderr: []string{"--max-response-size needs --cluster"}},
		},
		"MigrateTimeoutNeedsCluster": {
			reason: "migrate --timeout bounds the cluster check: it needs --cluster.",
			files:  map[string]string{"comp.yaml": migrateLegacy},
			args:   []string{"migrate", "--dry-run", "--timeout", "1m", "."},
			want:   want{code: exitInvalid, stderr: []string{"--timeout bounds the cluster check"}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			writeBoundFiles(t, dir, tc.files)
			t.Chdir(dir)
			args := make([]string, len(tc.args))
			for i, a := range tc.args {
				args[i] = strings.ReplaceAll(a, "<plan>", planTestdata)
			}
			code, _, stderr := runWithin(t, args...)
			if code != tc.want.code {
				t.Errorf("%s\nxpmigrate %s: exit %d, want %d; stderr:\n%s", tc.reason, strings.Join(args, " "), code, tc.want.code, stderr)
			}
			for _, s := range tc.want.stderr {
				if !strings.Contains(stderr, s) {
					t.Errorf("%s\nxpmigrate %s: stderr does not contain %q:\n%s", tc.reason, strings.Join(args, " "), s, stderr)
				}
			}
		})
	}
}

func writeBoundFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
