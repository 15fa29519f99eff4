package docgen

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

func TestMarkdown(t *testing.T) {
	cases := map[string]struct {
		reason string
		text   string
		want   string
	}{
		"Paragraphs": {
			reason: "wrapped lines stay one paragraph; blank lines separate paragraphs",
			text:   "Convert a file\nto a pipeline.\n\nThen verify it.",
			want:   "Convert a file\nto a pipeline.\n\nThen verify it.\n\n",
		},
		"Escapes": {
			reason: "Markdown characters in help text read literally",
			text:   "names: index (resource-<i>) or *kind*, see [x] and a_b",
			want:   "names: index (resource-\\<i\\>) or \\*kind\\*, see \\[x\\] and a\\_b\n\n",
		},
		"LineStarts": {
			reason: "a wrapped line that looks like a list item, heading or numbered item stays text",
			text:   "Exit codes:\n- not a list\n1. not numbered\n# not a heading either",
			want:   "Exit codes:\n\\- not a list\n1\\. not numbered\n\n**not a heading either**\n\n",
		},
		"Code": {
			reason: "an indented block is code, shown without its indentation and unescaped",
			text:   "To load completions:\n\n\tsource <(xpmigrate completion bash)\n\nDone.",
			want:   "To load completions:\n\n```\nsource <(xpmigrate completion bash)\n```\n\nDone.\n\n",
		},
		"Heading": {
			reason: "cobra's #### headings become bold lines",
			text:   "#### Linux:\n\n\txpmigrate completion bash > /etc/bash_completion.d/xpmigrate",
			want:   "**Linux:**\n\n```\nxpmigrate completion bash > /etc/bash_completion.d/xpmigrate\n```\n\n",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, markdown(tc.text)); diff != "" {
				t.Errorf("%s\nmarkdown(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestFence(t *testing.T) {
	got := fence("", "a ``` inside")
	want := "````\na ``` inside\n````\n\n"
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("a fence is longer than any backtick run inside: -want, +got:\n%s", diff)
	}
}

func TestDedent(t *testing.T) {
	got := dedent("\n  # Convert\n  xpmigrate convert a.yaml\n\n    --more\n\n")
	want := "# Convert\nxpmigrate convert a.yaml\n\n  --more"
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("dedent removes the common indentation and blank ends: -want, +got:\n%s", diff)
	}
}

var testTree = Command{
	Path:  "tool",
	Short: "A tool",
	Long:  "A tool that does things.",
	Flags: "  -h, --help   help for tool",
	Children: []Command{{
		Path:    "tool run",
		Short:   "Run it",
		Usage:   "tool run FILE [flags]",
		Example: "  # Run a file\n  tool run a.yaml",
		Flags:   "      --fast   go fast\n  -h, --help   help for run",
	}},
}

var testDiagnostics = []Diagnostic{
	{Code: "C101", Severity: "error", Summary: "bad apiVersion", Meaning: "It is bad.", Fix: "Fix it."},
	{Code: "C301", Severity: "info", Summary: "noted", Meaning: "Noted.", Fix: "Nothing."},
}

func TestReference(t *testing.T) {
	files := Reference(testTree, testDiagnostics)
	var names []string
	for _, f := range files {
		names = append(names, f.Name)
		if !strings.HasPrefix(string(f.Data), Marker+"\n") || !strings.HasSuffix(string(f.Data), "\n") || strings.HasSuffix(string(f.Data), "\n\n") {
			t.Errorf("%s: a page starts with the marker and ends with exactly one newline", f.Name)
		}
	}
	if diff := cmp.Diff([]string{"README.md", "diagnostics.md", "tool.md", "tool_run.md"}, names); diff != "" {
		t.Errorf("Reference(...) pages, sorted: -want, +got:\n%s", diff)
	}

	want := Marker + "\n\n" + `# tool run

Run it

## Usage

` + "```" + `
tool run FILE [flags]
` + "```" + `

## Examples

` + "```sh" + `
# Run a file
tool run a.yaml
` + "```" + `

## Flags

` + "```" + `
    --fast   go fast
-h, --help   help for run
` + "```" + `

## See also

* [` + "`tool`" + `](tool.md): A tool
`
	if diff := cmp.Diff(want, string(files[3].Data)); diff != "" {
		t.Errorf("the page of a subcommand: -want, +got:\n%s", diff)
	}
	for _, s := range []string{"### C101", "*error:* bad apiVersion", "**What to do:** Fix it.", "| [C301](#c301) | info | noted |"} {
		if !strings.Contains(string(files[1].Data), s) {
			t.Errorf("the diagnostics page lacks %q", s)
		}
	}

	// Deterministic: the same tree gives the same bytes.
	if diff := cmp.Diff(files, Reference(testTree, testDiagnostics)); diff != "" {
		t.Errorf("Reference is not deterministic: -first, +second:\n%s", diff)
	}
}

func TestDiff(t *testing.T) {
	files := Reference(testTree, testDiagnostics)
	current := fstest.MapFS{}
	for _, f := range files {
		current[f.Name] = &fstest.MapFile{Data: f.Data}
	}
	with := func(edit func(fstest.MapFS)) fstest.MapFS {
		out := fstest.MapFS{}
		for k, v := range current {
			out[k] = v
		}
		edit(out)
		return out
	}
	cases := map[string]struct {
		reason string
		fsys   fstest.MapFS
		want   []Change
	}{
		"Current": {
			reason: "a directory holding exactly the generated pages needs nothing",
			fsys:   current,
		},
		"Empty": {
			reason: "every page is missing from an empty directory",
			fsys:   fstest.MapFS{},
			want: []Change{
				{Name: "README.md", Kind: Added}, {Name: "diagnostics.md", Kind: Added},
				{Name: "tool.md", Kind: Added}, {Name: "tool_run.md", Kind: Added},
			},
		},
		"Stale": {
			reason: "a page that differs is stale",
			fsys:   with(func(m fstest.MapFS) { m["tool.md"] = &fstest.MapFile{Data: []byte(Marker + "\nold\n")} }),
			want:   []Change{{Name: "tool.md", Kind: Changed}},
		},
		"Obsolete": {
			reason: "a generated page of a command that is gone is obsolete",
			fsys:   with(func(m fstest.MapFS) { m["tool_gone.md"] = &fstest.MapFile{Data: []byte(Marker + "\n")} }),
			want:   []Change{{Name: "tool_gone.md", Kind: Removed}},
		},
		"HandWritten": {
			reason: "files without the marker, and other files, are not the generator's",
			fsys: with(func(m fstest.MapFS) {
				m["notes.md"] = &fstest.MapFile{Data: []byte("# Notes\n")}
				m["image.png"] = &fstest.MapFile{Data: []byte(Marker)}
				m["sub/x.md"] = &fstest.MapFile{Data: []byte(Marker)}
			}),
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := Diff(tc.fsys, files)
			if err != nil {
				t.Fatalf("%s\nDiff(...): %v", tc.reason, err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\nDiff(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestWrite(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "reference")
	files := Reference(testTree, testDiagnostics)
	changes, err := Write(dir, files)
	if err != nil {
		t.Fatalf("Write(...): %v", err)
	}
	if len(changes) != len(files) {
		t.Errorf("Write into a new directory: %d changes, want %d", len(changes), len(files))
	}
	if err := os.WriteFile(filepath.Join(dir, "tool_gone.md"), []byte(Marker+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "notes.md"), []byte("mine\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	changes, err = Write(dir, files)
	if err != nil {
		t.Fatalf("Write(...): %v", err)
	}
	if diff := cmp.Diff([]Change{{Name: "tool_gone.md", Kind: Removed}}, changes); diff != "" {
		t.Errorf("Write removes obsolete pages only: -want, +got:\n%s", diff)
	}
	left, err := Diff(os.DirFS(dir), files)
	if err != nil || len(left) != 0 {
		t.Errorf("after Write, Diff is %v, %v; want nothing", left, err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "notes.md")); err != nil || string(b) != "mine\n" {
		t.Errorf("Write touched a hand-written file: %q, %v", b, err)
	}
}

func TestDiagnostics(t *testing.T) {
	codes := []Diagnostic{
		{Code: "C101", Severity: "error", Summary: "a", Meaning: "m", Fix: "f"},
		{Code: "C301", Severity: "info", Summary: "b", Meaning: "m", Fix: "f"},
	}
	got, err := Diagnostics(codes)
	if err != nil || len(got) != 2 {
		t.Fatalf("Diagnostics(...): %v, %d codes; want no error, 2 codes", err, len(got))
	}
	// A code without an explanation is an error naming it.
	if _, err := Diagnostics(append(codes, Diagnostic{Code: "C999", Severity: "info", Summary: "new"})); err == nil || !strings.Contains(err.Error(), "C999") {
		t.Errorf("Diagnostics with an unexplained code: got %v, want an error naming C999", err)
	}
}
