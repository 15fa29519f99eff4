package main

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/spf13/cobra"
	"go.yaml.in/yaml/v3"

	"github.com/xpmigrate/xpmigrate/internal/docgen"
	"github.com/xpmigrate/xpmigrate/internal/testutil"
)

// docsRoot returns the command tree with the hidden docs command, whether
// or not newRootCmd registers it.
func docsRoot(s streams) *cobra.Command {
	root := newRootCmd(s)
	if c, _, err := root.Find([]string{"docs"}); err != nil || c == root {
		root.AddCommand(newDocsCmd(s))
	}
	return root
}

// executeDocs runs the tree of docsRoot with args and returns stdout,
// stderr and the error.
func executeDocs(args ...string) (string, string, error) {
	var out, errb bytes.Buffer
	root := docsRoot(streams{In: strings.NewReader(""), Out: &out, ErrOut: &errb})
	root.SetArgs(args)
	err := root.Execute()
	return out.String(), errb.String(), err
}

// runCLI runs xpmigrate in process, as main does, and returns the exit
// code, stdout and stderr.
func runCLI(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(args, streams{In: strings.NewReader(""), Out: &out, ErrOut: &errb})
	return code, out.String(), errb.String()
}

// TestReferenceDocs is `make check-docs`: the pages under docs/reference
// are what the command tree and convert.Registry generate. With -update
// (`make docs`) it rewrites them instead.
func TestReferenceDocs(t *testing.T) {
	dir := filepath.Join(testutil.RepoRoot(t), "docs", "reference")
	if testutil.Update() {
		if _, stderr, err := executeDocs("docs", dir); err != nil {
			t.Fatalf("xpmigrate docs: %v\n%s", err, stderr)
		}
		return
	}
	if _, stderr, err := executeDocs("docs", "--check", dir); err != nil {
		t.Errorf("xpmigrate docs --check: %v\n%s\nRun `make docs` and commit docs/reference.", err, stderr)
	}
}

func TestDocsCommand(t *testing.T) {
	dir := t.TempDir()
	hand := filepath.Join(dir, "notes.md")
	if err := os.WriteFile(hand, []byte("written by hand\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, stderr, err := executeDocs("docs", dir); err != nil {
		t.Fatalf("docs %s: %v\n%s", dir, err, stderr)
	}
	if _, stderr, err := executeDocs("docs", "--check", dir); err != nil {
		t.Fatalf("docs --check right after docs: %v\n%s", err, stderr)
	}

	// A stale page and an obsolete generated one fail the check with exit 3.
	if err := os.WriteFile(filepath.Join(dir, "xpmigrate.md"), []byte(docgen.Marker+"\nold\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "xpmigrate_gone.md"), []byte(docgen.Marker+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, stderr, err := executeDocs("docs", "--check", dir)
	if exitCode(err) != exitDifferences {
		t.Fatalf("docs --check on a stale directory: got %v, want exit %d", err, exitDifferences)
	}
	var listed []string
	for _, l := range strings.Split(strings.TrimSpace(stderr), "\n") {
		listed = append(listed, strings.Join(strings.Fields(l), " "))
	}
	want := []string{
		"stale " + filepath.Join(dir, "xpmigrate.md"),
		"obsolete " + filepath.Join(dir, "xpmigrate_gone.md"),
	}
	if diff := cmp.Diff(want, listed); diff != "" {
		t.Errorf("docs --check lists the pages to regenerate: -want, +got:\n%s", diff)
	}

	// docs repairs it, and leaves the hand-written file alone.
	if _, stderr, err := executeDocs("docs", dir); err != nil {
		t.Fatalf("docs %s: %v\n%s", dir, err, stderr)
	}
	if _, stderr, err := executeDocs("docs", "--check", dir); err != nil {
		t.Errorf("docs --check after docs: %v\n%s", err, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "xpmigrate_gone.md")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the obsolete page is still there (stat: %v)", err)
	}
	if b, err := os.ReadFile(hand); err != nil || string(b) != "written by hand\n" {
		t.Errorf("the hand-written file changed: %q, %v", b, err)
	}
}

// TestCompletion checks the completion scripts' contents; the e2e suite
// (e2e/testdata/script/completion.txtar) has each shell parse its script.
func TestCompletion(t *testing.T) {
	cases := map[string]struct {
		reason string
		shell  string
		marker string
	}{
		"Bash":       {reason: "bash completion V2", shell: "bash", marker: "__start_xpmigrate"},
		"Zsh":        {reason: "a zsh completion function", shell: "zsh", marker: "#compdef xpmigrate"},
		"Fish":       {reason: "fish complete commands", shell: "fish", marker: "complete -c xpmigrate"},
		"PowerShell": {reason: "a PowerShell argument completer", shell: "powershell", marker: "Register-ArgumentCompleter"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			code, stdout, stderr := runCLI("completion", tc.shell)
			if code != exitOK {
				t.Fatalf("%s\nxpmigrate completion %s: exit %d\n%s", tc.reason, tc.shell, code, stderr)
			}
			if !strings.Contains(stdout, tc.marker) {
				t.Errorf("%s\nxpmigrate completion %s: the script has no %q", tc.reason, tc.shell, tc.marker)
			}
		})
	}
}

// TestCompletionCandidates drives the hidden __complete command that every
// completion script calls.
func TestCompletionCandidates(t *testing.T) {
	cases := map[string]struct {
		reason string
		args   []string
		want   []string
	}{
		"Commands": {reason: "command names complete", args: []string{"__complete", "ve"}, want: []string{"verify", "version"}},
		"Flags":    {reason: "flag names complete", args: []string{"__complete", "migrate", "--ch"}, want: []string{"--check"}},
		"Shells":   {reason: "the completion command offers the four shells", args: []string{"__complete", "completion", ""}, want: []string{"bash", "fish", "powershell", "zsh"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			code, stdout, stderr := runCLI(tc.args...)
			if code != exitOK {
				t.Fatalf("%s\nxpmigrate %s: exit %d\n%s", tc.reason, strings.Join(tc.args, " "), code, stderr)
			}
			var got []string
			for _, l := range strings.Split(stdout, "\n") {
				if l == "" || strings.HasPrefix(l, ":") {
					continue
				}
				got = append(got, strings.SplitN(l, "\t", 2)[0])
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\nxpmigrate %s: -want, +got:\n%s", tc.reason, strings.Join(tc.args, " "), diff)
			}
		})
	}
}

// missingExamples are the commands whose --help has no Examples section
// yet; their owners were told. Remove a command from the list when it gets
// examples.
var missingExamples = map[string]bool{
	"xpmigrate":                       true, // root.go
	"xpmigrate completion":            true, // cobra's default completion command
	"xpmigrate completion bash":       true,
	"xpmigrate completion fish":       true,
	"xpmigrate completion powershell": true,
	"xpmigrate completion zsh":        true,
}

// TestHelpExamples checks that every command's --help has examples, and
// that every example is a command line xpmigrate accepts.
func TestHelpExamples(t *testing.T) {
	root := docsRoot(streams{In: strings.NewReader(""), Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}})
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd()
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		path := c.CommandPath()
		switch {
		case strings.TrimSpace(c.Example) == "" && !missingExamples[path]:
			t.Errorf("%s --help has no examples", path)
		case strings.TrimSpace(c.Example) != "" && missingExamples[path]:
			t.Errorf("%s --help has examples now: remove it from missingExamples", path)
		}
		for _, args := range commandLines(c.Example) {
			if err := checkCommandLine(args); err != nil {
				t.Errorf("%s --help: example %q: %v", path, strings.Join(args, " "), err)
			}
		}
		for _, ch := range c.Commands() {
			if ch.IsAvailableCommand() || ch.Name() == "docs" {
				walk(ch)
			}
		}
	}
	walk(root)
}

// TestDocsCommandLines checks every xpmigrate command line in the
// hand-written docs (shell blocks and inline code) against the CLI, so a
// renamed flag cannot leave the docs behind.
func TestDocsCommandLines(t *testing.T) {
	pages, err := filepath.Glob(filepath.Join(testutil.RepoRoot(t), "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	pages = append(pages, filepath.Join(testutil.RepoRoot(t), "README.md"))
	inline := regexp.MustCompile("`(xpmigrate [^`]+)`")
	checked := 0
	for _, p := range pages {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		// Shell blocks hold whole command lines; inline code may just name
		// a command and some of its flags.
		type snippet struct {
			text  string
			whole bool
		}
		var snippets []snippet
		for _, blk := range testutil.FencedBlocks(string(b)) {
			switch blk.Lang {
			case "sh", "bash", "shell":
				snippets = append(snippets, snippet{text: blk.Text, whole: true})
			}
		}
		prose := string(b)
		for _, blk := range testutil.FencedBlocks(prose) {
			prose = strings.Replace(prose, blk.Text, "", 1)
		}
		for _, m := range inline.FindAllStringSubmatch(prose, -1) {
			if strings.ContainsAny(m[1], "<…") || strings.Contains(m[1], "...") {
				continue // a placeholder, not a command line
			}
			snippets = append(snippets, snippet{text: m[1]})
		}
		for _, s := range snippets {
			for _, args := range commandLines(s.text) {
				checked++
				check := checkCommandLine
				if !s.whole {
					check = checkFlags
				}
				if err := check(args); err != nil {
					t.Errorf("%s: %q: %v", filepath.Base(p), strings.Join(args, " "), err)
				}
			}
		}
	}
	if checked < 20 {
		t.Errorf("only %d command lines found in the docs; is the extraction broken?", checked)
	}
}

// checkCommandLine reports whether xpmigrate would accept args (the words
// after the program name): the command exists, the flags parse and the
// arguments are the right number.
func checkCommandLine(args []string) error {
	c, err := parseCommandLine(args)
	if err != nil || c == nil {
		return err
	}
	if !c.Runnable() {
		return errors.New("not a runnable command")
	}
	return c.ValidateArgs(c.Flags().Args())
}

// checkFlags reports whether args name a command and flags it has.
func checkFlags(args []string) error {
	_, err := parseCommandLine(args)
	return err
}

// parseCommandLine finds the command args invoke and parses its flags. It
// returns a nil command for a request for help.
func parseCommandLine(args []string) (*cobra.Command, error) {
	root := docsRoot(streams{In: strings.NewReader(""), Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}})
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd()
	c, rest, err := root.Find(args)
	if err != nil {
		return nil, err
	}
	c.InitDefaultHelpFlag()
	if err := c.ParseFlags(rest); err != nil {
		return nil, err
	}
	if h, _ := c.Flags().GetBool("help"); h {
		return nil, nil
	}
	return c, nil
}

// commandLines returns the xpmigrate invocations in a shell snippet, each
// as the words after `xpmigrate`: quotes removed, comments, redirections
// and the other commands of a pipeline, list or substitution left out.
func commandLines(script string) [][]string {
	script = strings.ReplaceAll(script, "\\\n", " ")
	var out [][]string
	for _, line := range strings.Split(script, "\n") {
		for _, words := range simpleCommands(line) {
			for len(words) > 0 && regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*=`).MatchString(words[0]) {
				words = words[1:] // VAR=value prefixes
			}
			if len(words) > 0 && (words[0] == "xpmigrate" || strings.HasSuffix(words[0], "/xpmigrate")) {
				out = append(out, words[1:])
			}
		}
	}
	return out
}

// simpleCommands splits one shell line into the words of its simple
// commands. It knows quotes, comments, the operators | || && ; & and the
// substitutions $( ) and <( ), and drops redirections with their target.
func simpleCommands(line string) [][]string {
	var cmds [][]string
	var words []string
	var cur strings.Builder
	inWord, skipNext := false, false
	endWord := func() {
		if !inWord {
			return
		}
		w := cur.String()
		cur.Reset()
		inWord = false
		if skipNext {
			skipNext = false
			return
		}
		words = append(words, w)
	}
	endCmd := func() {
		endWord()
		if len(words) > 0 {
			cmds = append(cmds, words)
		}
		words = nil
	}
	for i := 0; i < len(line); i++ {
		ch := line[i]
		switch {
		case ch == '\'':
			j := strings.IndexByte(line[i+1:], '\'')
			if j < 0 {
				j = len(line) - i - 1
			}
			cur.WriteString(line[i+1 : i+1+j])
			inWord = true
			i += j + 1
		case ch == '"':
			j := strings.IndexByte(line[i+1:], '"')
			if j < 0 {
				j = len(line) - i - 1
			}
			cur.WriteString(line[i+1 : i+1+j])
			inWord = true
			i += j + 1
		case ch == '#' && !inWord:
			endCmd()
			return cmds
		case ch == ' ' || ch == '\t':
			endWord()
		case ch == '|' || ch == ';' || ch == '&' || ch == ')' || ch == '(':
			if ch == '&' && i+1 < len(line) && line[i+1] == '>' { // &> file
				endWord()
				skipNext = true
				i++
				continue
			}
			endCmd()
		case (ch == '$' || ch == '<') && i+1 < len(line) && line[i+1] == '(':
			endCmd()
			i++
		case ch == '>' || ch == '<':
			if inWord && strings.Trim(cur.String(), "0123456789") == "" { // 2>
				cur.Reset()
				inWord = false
			} else {
				endWord()
			}
			for i+1 < len(line) && line[i+1] == '>' {
				i++
			}
			if i+1 < len(line) && line[i+1] == '&' { // >&2
				i++
				for i+1 < len(line) && line[i+1] >= '0' && line[i+1] <= '9' {
					i++
				}
				continue
			}
			skipNext = true
		default:
			cur.WriteByte(ch)
			inWord = true
		}
	}
	endCmd()
	return cmds
}

func TestCommandLines(t *testing.T) {
	cases := map[string]struct {
		reason string
		script string
		want   [][]string
	}{
		"Plain": {
			reason: "words and quotes",
			script: `xpmigrate migrate --include 'apis/**' --exclude "**/examples/"`,
			want:   [][]string{{"migrate", "--include", "apis/**", "--exclude", "**/examples/"}},
		},
		"Redirections": {
			reason: "redirections and their targets are not arguments",
			script: "xpmigrate convert --phase1 composition.yaml > phase1.yaml 2>&1\nxpmigrate render a b 2> err.txt",
			want:   [][]string{{"convert", "--phase1", "composition.yaml"}, {"render", "a", "b"}},
		},
		"Pipelines": {
			reason: "only the xpmigrate part of a pipeline, a list or a substitution",
			script: "kubectl get composition x -o yaml | xpmigrate convert - && echo ok\nsource <(xpmigrate completion bash)\ndiff <(xpmigrate render x c) \\\n  <(xpmigrate render x p)",
			want:   [][]string{{"convert", "-"}, {"completion", "bash"}, {"render", "x", "c"}, {"render", "x", "p"}},
		},
		"Comments": {
			reason: "comments end the line",
			script: "# xpmigrate nothing\nxpmigrate version   # prints the version",
			want:   [][]string{{"version"}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, commandLines(tc.script)); diff != "" {
				t.Errorf("%s\ncommandLines(...): -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// TestGettingStartedPage checks what docs/getting-started.md promises
// before the e2e suite (e2e/testdata/script/getting_started.txtar) runs
// its walkthrough: the install blocks build from a checkout, no release is
// installed or pinned, and the walkthrough is tagged.
func TestGettingStartedPage(t *testing.T) {
	page, err := os.ReadFile(filepath.Join(testutil.RepoRoot(t), "docs", "getting-started.md"))
	if err != nil {
		t.Fatal(err)
	}
	module := modulePath(t)

	var script []string
	var install string
	for _, b := range testutil.FencedBlocks(string(page)) {
		if b.Lang != "sh" {
			continue
		}
		switch {
		case slices.Contains(b.Tags, "install"):
			install += b.Text + "\n"
		case slices.Contains(b.Tags, "test"):
			script = append(script, b.Text)
		}
	}
	// No release exists: the page must not promise one.
	if strings.Contains(string(page), "go install "+module) || regexp.MustCompile(`@v\d+\.\d+`).MatchString(string(page)) || strings.Contains(string(page), "rev: v") {
		t.Errorf("getting-started.md installs or pins a release, and none exists: build from a checkout, pin to a commit")
	}
	if !strings.Contains(install, "make build") || !strings.Contains(install, "bin") {
		t.Errorf("getting-started.md builds from source with make build into bin/")
	}
	if len(script) < 5 {
		t.Fatalf("getting-started.md has %d `sh test` blocks; is the tagging broken?", len(script))
	}
}

// modulePath reads the module path from go.mod, and checks that
// `go install <module>/cmd/xpmigrate@<version>` can work: the go command
// refuses modules with replace or exclude directives.
func modulePath(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(testutil.RepoRoot(t), "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	module := ""
	for _, l := range strings.Split(string(b), "\n") {
		f := strings.Fields(l)
		switch {
		case len(f) == 2 && f[0] == "module":
			module = f[1]
		case len(f) > 0 && (f[0] == "replace" || f[0] == "exclude"):
			t.Errorf("go.mod has a %s directive: go install %s/cmd/xpmigrate@<version> refuses it", f[0], module)
		}
	}
	if module != "github.com/xpmigrate/xpmigrate" {
		t.Errorf("module path is %q, want github.com/xpmigrate/xpmigrate", module)
	}
	return module
}

// action is the part of action.yml the test reads.
type action struct {
	Runs struct {
		Using string       `yaml:"using"`
		Steps []actionStep `yaml:"steps"`
	} `yaml:"runs"`
	Inputs map[string]struct {
		Default string `yaml:"default"`
	} `yaml:"inputs"`
}

// actionStep is one step of a composite action.
type actionStep struct {
	Name  string            `yaml:"name"`
	ID    string            `yaml:"id"`
	If    string            `yaml:"if"`
	Uses  string            `yaml:"uses"`
	Shell string            `yaml:"shell"`
	Run   string            `yaml:"run"`
	Env   map[string]string `yaml:"env"`
}

// TestGitHubActionConfig parses action.yml and checks what the e2e suite
// (e2e/testdata/script/action.txtar, which runs its steps as the runner
// would) relies on: a composite action with the documented inputs, bash
// steps that take every input through env, a step that runs the check.
func TestGitHubActionConfig(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(testutil.RepoRoot(t), "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var a action
	if err := yaml.Unmarshal(b, &a); err != nil {
		t.Fatalf("cannot parse action.yml: %v", err)
	}
	if a.Runs.Using != "composite" {
		t.Fatalf("runs.using is %q, want composite", a.Runs.Using)
	}
	for _, in := range []string{"version", "path", "target", "args"} {
		if _, ok := a.Inputs[in]; !ok {
			t.Errorf("action.yml has no input %q", in)
		}
	}
	ran := false
	for _, s := range a.Runs.Steps {
		if s.Run == "" {
			continue
		}
		if s.Shell != "bash" {
			t.Errorf("step %q: shell %q, want bash", s.Name, s.Shell)
		}
		if strings.Contains(s.Run, "${{") {
			t.Errorf("step %q expands an expression inside its script; pass it through env", s.Name)
		}
		ran = ran || strings.Contains(s.Run, "xpmigrate migrate --check --verify")
	}
	if !ran {
		t.Errorf("no step runs xpmigrate migrate --check --verify")
	}
	if !slices.ContainsFunc(a.Runs.Steps, func(s actionStep) bool { return s.ID == "check" }) {
		t.Fatal("action.yml has no step with id check")
	}
}

// hook is one entry of .pre-commit-hooks.yaml.
type hook struct {
	ID            string `yaml:"id"`
	Entry         string `yaml:"entry"`
	Language      string `yaml:"language"`
	Files         string `yaml:"files"`
	PassFilenames *bool  `yaml:"pass_filenames"`
}

// TestPreCommitHookConfig parses .pre-commit-hooks.yaml and checks the
// xpmigrate-check hook as pre-commit reads it; the e2e suite
// (e2e/testdata/script/pre_commit.txtar) runs its entry.
func TestPreCommitHookConfig(t *testing.T) {
	root := testutil.RepoRoot(t)
	b, err := os.ReadFile(filepath.Join(root, ".pre-commit-hooks.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var hooks []hook
	if err := yaml.Unmarshal(b, &hooks); err != nil {
		t.Fatalf("cannot parse .pre-commit-hooks.yaml: %v", err)
	}
	i := slices.IndexFunc(hooks, func(h hook) bool { return h.ID == "xpmigrate-check" })
	if i < 0 {
		t.Fatal("no xpmigrate-check hook")
	}
	h := hooks[i]
	if h.Language != "golang" {
		t.Errorf("language %q, want golang", h.Language)
	}
	if h.PassFilenames == nil || *h.PassFilenames {
		t.Errorf("pass_filenames must be false: migrate takes one directory, not the changed files")
	}
	files := regexp.MustCompile(h.Files)
	for f, want := range map[string]bool{"apis/x/composition.yaml": true, "a.yml": true, "b.json": true, "main.go": false} {
		if files.MatchString(f) != want {
			t.Errorf("files %q matches %s: %t, want %t", h.Files, f, !want, want)
		}
	}
	entry := strings.Fields(h.Entry)
	if strings.ContainsAny(h.Entry, `'"\$`) || len(entry) < 2 {
		t.Fatalf("entry %q: pre-commit runs it without a shell; keep it to plain words", h.Entry)
	}
	// pre-commit installs a golang hook with `go install ./...`, so the
	// entry's program must be a main package of this module.
	if _, err := os.Stat(filepath.Join(root, "cmd", entry[0], "main.go")); err != nil {
		t.Errorf("entry runs %q, which is not a command of this module", entry[0])
	}
	if err := checkCommandLine(entry[1:]); err != nil {
		t.Errorf("entry %q: %v", h.Entry, err)
	}
}

// goreleaser is the part of .goreleaser.yaml the test reads.
type goreleaser struct {
	Builds []struct {
		Main    string   `yaml:"main"`
		Binary  string   `yaml:"binary"`
		Env     []string `yaml:"env"`
		Goos    []string `yaml:"goos"`
		Goarch  []string `yaml:"goarch"`
		Ldflags []string `yaml:"ldflags"`
	} `yaml:"builds"`
}

// TestReleaseConfig keeps .goreleaser.yaml and `make cross` in step (the
// same six targets, pure Go, the same linker flags); the e2e suite
// (e2e/testdata/script/release_ldflags.txtar) builds with the release
// linker flags and checks that they reach the version command.
func TestReleaseConfig(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(testutil.RepoRoot(t), ".goreleaser.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var g goreleaser
	if err := yaml.Unmarshal(b, &g); err != nil {
		t.Fatalf("cannot parse .goreleaser.yaml: %v", err)
	}
	if len(g.Builds) != 1 {
		t.Fatalf(".goreleaser.yaml has %d builds, want 1", len(g.Builds))
	}
	build := g.Builds[0]
	if build.Main != "./cmd/xpmigrate" || build.Binary != "xpmigrate" || !slices.Contains(build.Env, "CGO_ENABLED=0") {
		t.Errorf("build: main %q, binary %q, env %q; want ./cmd/xpmigrate, xpmigrate, CGO_ENABLED=0", build.Main, build.Binary, build.Env)
	}
	var release []string
	for _, goos := range build.Goos {
		for _, arch := range build.Goarch {
			release = append(release, goos+"/"+arch)
		}
	}
	mk, err := os.ReadFile(filepath.Join(testutil.RepoRoot(t), "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^CROSS_TARGETS\s*:=\s*(.*)$`).FindSubmatch(mk)
	if m == nil {
		t.Fatal("Makefile has no CROSS_TARGETS")
	}
	cross := strings.Fields(string(m[1]))
	slices.Sort(release)
	slices.Sort(cross)
	want := []string{"darwin/amd64", "darwin/arm64", "linux/amd64", "linux/arm64", "windows/amd64", "windows/arm64"}
	if diff := cmp.Diff(want, release); diff != "" {
		t.Errorf(".goreleaser.yaml targets: -want, +got:\n%s", diff)
	}
	if diff := cmp.Diff(want, cross); diff != "" {
		t.Errorf("make cross targets: -want, +got:\n%s", diff)
	}

	ldflags := strings.Join(build.Ldflags, " ")
	for _, x := range []string{"-X main.version={{.Version}}", "-X main.commit={{.Commit}}"} {
		if !strings.Contains(ldflags, x) {
			t.Errorf(".goreleaser.yaml ldflags %q lack %q", ldflags, x)
		}
		if !strings.Contains(string(mk), strings.NewReplacer("{{.Version}}", "$(VERSION)", "{{.Commit}}", "$(COMMIT)").Replace(x)) {
			t.Errorf("Makefile LDFLAGS lack the equivalent of %q", x)
		}
	}
	modulePath(t)
}

// TestVersion checks the version command of a plain build.
func TestVersion(t *testing.T) {
	code, stdout, stderr := runCLI("version")
	if code != exitOK {
		t.Fatalf("xpmigrate version: exit %d\n%s", code, stderr)
	}
	if !regexp.MustCompile(`^xpmigrate \S+ \(commit \S+\)\n$`).MatchString(stdout) {
		t.Errorf("xpmigrate version printed %q, want `xpmigrate <version> (commit <commit>)`", stdout)
	}
}

// TestDocsLinks checks that every relative link of the docs (the generated
// reference included) and of the README points to a file that exists, and
// to a heading of it when the link has an anchor.
func TestDocsLinks(t *testing.T) {
	var pages []string
	for _, glob := range []string{"README.md", "docs/*.md", "docs/reference/*.md"} {
		m, err := filepath.Glob(filepath.Join(testutil.RepoRoot(t), filepath.FromSlash(glob)))
		if err != nil {
			t.Fatal(err)
		}
		pages = append(pages, m...)
	}
	link := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	for _, p := range pages {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		text := string(b)
		for _, blk := range testutil.FencedBlocks(text) {
			text = strings.Replace(text, blk.Text, "", 1)
		}
		for _, m := range link.FindAllStringSubmatch(text, -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			file, anchor, _ := strings.Cut(target, "#")
			dest := p
			if file != "" {
				dest = filepath.Join(filepath.Dir(p), filepath.FromSlash(file))
			}
			fi, err := os.Stat(dest)
			if err != nil {
				t.Errorf("%s: link %q: %v", p, target, err)
				continue
			}
			if anchor == "" || fi.IsDir() {
				continue
			}
			d, err := os.ReadFile(dest)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Contains(headingAnchors(string(d)), anchor) {
				t.Errorf("%s: link %q: %s has no heading with that anchor", p, target, dest)
			}
		}
	}
}

// headingAnchors returns the anchors GitHub gives the headings of a page:
// lower case, punctuation dropped, spaces as hyphens.
func headingAnchors(md string) []string {
	for _, blk := range testutil.FencedBlocks(md) {
		md = strings.Replace(md, blk.Text, "", 1)
	}
	var out []string
	for _, l := range strings.Split(md, "\n") {
		if !strings.HasPrefix(l, "#") {
			continue
		}
		h := strings.ToLower(strings.TrimSpace(strings.TrimLeft(l, "#")))
		var b strings.Builder
		for _, r := range h {
			switch {
			case r == ' ':
				b.WriteRune('-')
			case r == '-' || r == '_' || (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') || r > 127:
				b.WriteRune(r)
			}
		}
		out = append(out, b.String())
	}
	return out
}

// TestDocsCIConfig checks the workflow and pre-commit snippets of the docs
// against action.yml and .pre-commit-hooks.yaml: only inputs the action
// has, only hooks that exist.
func TestDocsCIConfig(t *testing.T) {
	var a action
	var hooks []hook
	for f, v := range map[string]any{"action.yml": &a, ".pre-commit-hooks.yaml": &hooks} {
		b, err := os.ReadFile(filepath.Join(testutil.RepoRoot(t), f))
		if err != nil {
			t.Fatal(err)
		}
		if err := yaml.Unmarshal(b, v); err != nil {
			t.Fatalf("cannot parse %s: %v", f, err)
		}
	}
	pages, err := filepath.Glob(filepath.Join(testutil.RepoRoot(t), "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	workflows, precommits := 0, 0
	for _, p := range pages {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, blk := range testutil.FencedBlocks(string(b)) {
			if blk.Lang != "yaml" {
				continue
			}
			var doc struct {
				Jobs map[string]struct {
					Steps []struct {
						Uses string            `yaml:"uses"`
						With map[string]string `yaml:"with"`
					} `yaml:"steps"`
				} `yaml:"jobs"`
				Repos []struct {
					Repo  string `yaml:"repo"`
					Hooks []struct {
						ID string `yaml:"id"`
					} `yaml:"hooks"`
				} `yaml:"repos"`
			}
			if err := yaml.Unmarshal([]byte(blk.Text), &doc); err != nil {
				continue // not a workflow or a pre-commit configuration
			}
			for _, j := range doc.Jobs {
				for _, s := range j.Steps {
					// The action from a checkout of xpmigrate pinned to
					// a commit: no release exists to name.
					if s.Uses != "./.xpmigrate" {
						continue
					}
					workflows++
					for in := range s.With {
						if _, ok := a.Inputs[in]; !ok {
							t.Errorf("%s: the workflow sets input %q, which action.yml does not have", filepath.Base(p), in)
						}
					}
				}
			}
			for _, r := range doc.Repos {
				for _, h := range r.Hooks {
					if !strings.HasPrefix(h.ID, "xpmigrate") {
						continue
					}
					precommits++
					if !slices.ContainsFunc(hooks, func(x hook) bool { return x.ID == h.ID }) {
						t.Errorf("%s: the pre-commit configuration uses hook %q, which .pre-commit-hooks.yaml does not have", filepath.Base(p), h.ID)
					}
				}
			}
		}
	}
	if workflows == 0 || precommits == 0 {
		t.Errorf("the docs show %d workflows and %d pre-commit configurations using xpmigrate, want at least one of each", workflows, precommits)
	}
}
