package migrate

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A txtar archive (golang.org/x/tools/txtar's format): a comment, then
// files, each introduced by a line "-- name --". Written here because the
// module does not depend on x/tools.
type txtar struct {
	Comment string
	Files   []txtarFile
}

type txtarFile struct {
	Name string
	Data string
}

func parseTxtar(data string) txtar {
	var a txtar
	var cur *txtarFile
	var buf strings.Builder
	flush := func() {
		if cur == nil {
			a.Comment = buf.String()
		} else {
			cur.Data = buf.String()
			a.Files = append(a.Files, *cur)
		}
		buf.Reset()
	}
	for _, line := range strings.SplitAfter(data, "\n") {
		if name, ok := txtarMarker(line); ok {
			flush()
			cur = &txtarFile{Name: name}
			continue
		}
		buf.WriteString(line)
	}
	flush()
	return a
}

func txtarMarker(line string) (string, bool) {
	l := strings.TrimRight(line, "\r\n")
	if !strings.HasPrefix(l, "-- ") || !strings.HasSuffix(l, " --") || len(l) < 7 {
		return "", false
	}
	return strings.TrimSpace(l[3 : len(l)-3]), true
}

func formatTxtar(a txtar) string {
	var b strings.Builder
	b.WriteString(a.Comment)
	for _, f := range a.Files {
		b.WriteString("-- " + f.Name + " --\n")
		b.WriteString(f.Data)
		if f.Data != "" && !strings.HasSuffix(f.Data, "\n") {
			b.WriteString("\n")
		}
	}
	return b.String()
}

// section returns the files under prefix/ with the prefix removed.
func (a txtar) section(prefix string) map[string]string {
	out := map[string]string{}
	for _, f := range a.Files {
		if rest, ok := strings.CutPrefix(f.Name, prefix+"/"); ok {
			out[rest] = f.Data
		}
	}
	return out
}

func (a txtar) file(name string) (string, bool) {
	for _, f := range a.Files {
		if f.Name == name {
			return f.Data, true
		}
	}
	return "", false
}

// writeTree writes files under dir.
func writeTree(t *testing.T, dir string, files map[string]string) {
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

// readTree reads every regular file under dir (symlinks are reported as
// "-> target").
func readTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			out[rel] = "-> " + target + "\n"
		case d.Type().IsRegular():
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			out[rel] = string(b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestTxtarRoundTrip(t *testing.T) {
	cases := map[string]struct {
		reason string
		in     string
		want   txtar
	}{
		"CommentAndFiles": {
			reason: "A comment, then files with their content up to the next marker.",
			in:     "args\n-- a.yaml --\nx: 1\n-- dir/b.yaml --\ny: 2\n",
			want:   txtar{Comment: "args\n", Files: []txtarFile{{"a.yaml", "x: 1\n"}, {"dir/b.yaml", "y: 2\n"}}},
		},
		"EmptyFile": {
			reason: "A marker followed by another marker is an empty file.",
			in:     "-- a --\n-- b --\nz\n",
			want:   txtar{Files: []txtarFile{{"a", ""}, {"b", "z\n"}}},
		},
		"NotAMarker": {
			reason: "A line that only looks like a marker in part is content.",
			in:     "-- a --\n--x--\n- -- b\n",
			want:   txtar{Files: []txtarFile{{"a", "--x--\n- -- b\n"}}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := parseTxtar(tc.in)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\nparseTxtar(...): -want, +got:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(tc.in, formatTxtar(got)); diff != "" {
				t.Errorf("%s\nformatTxtar(parseTxtar(...)): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// sortedKeys returns m's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
