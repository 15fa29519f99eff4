package main

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/spf13/cobra"
	"go.yaml.in/yaml/v3"

	"github.com/xpmigrate/xpmigrate/internal/docgen"
)

// repoRoot is the module root, from this package's directory.
var repoRoot = filepath.Join("..", "..")

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

var update = flag.Bool("update", false, "rewrite docs/reference from the command tree (make docs)")

// TestReferenceDocs is `make check-docs`: the pages under docs/reference
// are what the command tree and convert.Registry generate. With -update
// (`make docs`) it rewrites them instead.
func TestReferenceDocs(t *testing.T) {
	dir := filepath.Join(repoRoot, "docs", "reference")
	if *update {
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

func TestCompletion(t *testing.T) {
	cases := map[string]struct {
		reason string
		shell  string
		marker string
		check  []string // a syntax check, run when the shell is installed
	}{
		"Bash":       {reason: "bash completion V2", shell: "bash", marker: "__start_xpmigrate", check: []string{"bash", "-n"}},
		"Zsh":        {reason: "a zsh completion function", shell: "zsh", marker: "#compdef xpmigrate", check: []string{"zsh", "-n"}},
		"Fish":       {reason: "fish complete commands", shell: "fish", marker: "complete -c xpmigrate", check: []string{"fish", "--no-execute"}},
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
			if len(tc.check) == 0 {
				return
			}
			if _, err := exec.LookPath(tc.check[0]); err != nil {
				return
			}
			f := filepath.Join(t.TempDir(), "completion")
			if err := os.WriteFile(f, []byte(stdout), 0o600); err != nil {
				t.Fatal(err)
			}
			if out, err := exec.Command(tc.check[0], append(tc.check[1:], f)...).CombinedOutput(); err != nil {
				t.Errorf("%s\n%s does not parse the script: %v\n%s", tc.reason, tc.check[0], err, out)
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
	pages, err := filepath.Glob(filepath.Join(repoRoot, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	pages = append(pages, filepath.Join(repoRoot, "README.md"))
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
		for _, blk := range fencedBlocks(string(b)) {
			switch blk.lang {
			case "sh", "bash", "shell":
				snippets = append(snippets, snippet{text: blk.text, whole: true})
			}
		}
		prose := string(b)
		for _, blk := range fencedBlocks(prose) {
			prose = strings.Replace(prose, blk.text, "", 1)
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

// A fencedBlock is a fenced code block of a Markdown page.
type fencedBlock struct {
	lang string   // the first word of the info string
	tags []string // the other words
	text string
}

func fencedBlocks(md string) []fencedBlock {
	var out []fencedBlock
	sc := bufio.NewScanner(strings.NewReader(md))
	var cur *fencedBlock
	var fence string
	var body []string
	for sc.Scan() {
		l := sc.Text()
		trimmed := strings.TrimLeft(l, " ")
		switch {
		case cur == nil && strings.HasPrefix(trimmed, "```"):
			fence = trimmed[:len(trimmed)-len(strings.TrimLeft(trimmed, "`"))]
			info := strings.Fields(strings.TrimPrefix(trimmed, fence))
			cur = &fencedBlock{}
			if len(info) > 0 {
				cur.lang, cur.tags = info[0], info[1:]
			}
			body = nil
		case cur != nil && strings.TrimSpace(l) == fence:
			cur.text = strings.Join(body, "\n")
			out = append(out, *cur)
			cur = nil
		case cur != nil:
			body = append(body, l)
		}
	}
	return out
}

// buildXpmigrate builds the command into a fresh directory, with ldflags
// when given, and returns the directory.
func buildXpmigrate(t *testing.T, ldflags string) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds xpmigrate")
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	dir := t.TempDir()
	args := []string{"build", "-o", filepath.Join(dir, "xpmigrate"+exeSuffix())}
	if ldflags != "" {
		args = append(args, "-ldflags", ldflags)
	}
	out, err := exec.Command(gobin, append(args, ".")...).CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return dir
}

func exeSuffix() string {
	if runtime.GOOS == "windows" {
		return ".exe"
	}
	return ""
}

func needBash(t *testing.T) string {
	t.Helper()
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	return bash
}

// pathWith returns an environment whose PATH starts with dirs.
func pathWith(env []string, dirs ...string) []string {
	out := slices.DeleteFunc(slices.Clone(env), func(e string) bool { return strings.HasPrefix(e, "PATH=") })
	return append(out, "PATH="+strings.Join(append(dirs, os.Getenv("PATH")), string(os.PathListSeparator)))
}

// copyFile copies src to dst with mode.
func copyFile(t *testing.T, src, dst string, mode os.FileMode) {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o750); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, b, mode); err != nil {
		t.Fatal(err)
	}
}

// copyTree copies the files under src to dst.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		copyFile(t, p, filepath.Join(dst, rel), 0o644)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// exampleRepo copies the bundled example repository (testdata/example-repo:
// three legacy Compositions with their XRDs and examples) to a temporary
// directory. With migrated, xpmigrate (from bin) has migrated the copy.
func exampleRepo(t *testing.T, bin string, migrated bool) string {
	t.Helper()
	repo := t.TempDir()
	copyTree(t, filepath.Join(repoRoot, "testdata", "example-repo"), repo)
	if migrated {
		cmd := exec.Command(filepath.Join(bin, "xpmigrate"+exeSuffix()), "migrate")
		cmd.Dir = repo
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("xpmigrate migrate: %v\n%s", err, out)
		}
	}
	return repo
}

// exitStatus returns a finished command's exit status.
func exitStatus(t *testing.T, err error) int {
	t.Helper()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		return ee.ExitCode()
	default:
		t.Fatalf("cannot run: %v", err)
		return -1
	}
}

// TestGettingStarted follows docs/getting-started.md literally: the
// install blocks are checked and stood in for by a fresh build, then every
// `sh test` block runs, in order, in one bash session that starts in a copy
// of the checkout's example repository, as a new user's terminal would, and
// must end in a verified migration.
func TestGettingStarted(t *testing.T) {
	bash := needBash(t)
	bin := buildXpmigrate(t, "")
	page, err := os.ReadFile(filepath.Join(repoRoot, "docs", "getting-started.md"))
	if err != nil {
		t.Fatal(err)
	}
	module := modulePath(t)

	var script []string
	var install string
	for _, b := range fencedBlocks(string(page)) {
		if b.lang != "sh" {
			continue
		}
		switch {
		case slices.Contains(b.tags, "install"):
			install += b.text + "\n"
		case slices.Contains(b.tags, "test"):
			script = append(script, b.text)
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

	// A checkout, as far as the walkthrough uses it: the example repository.
	checkout := t.TempDir()
	copyTree(t, filepath.Join(repoRoot, "testdata", "example-repo"), filepath.Join(checkout, "testdata", "example-repo"))
	tmp := t.TempDir()
	cmd := exec.Command(bash, "--noprofile", "--norc", "-euo", "pipefail", "-c", strings.Join(script, "\n"))
	cmd.Dir = checkout
	cmd.Env = append(pathWith(os.Environ(), bin), "TMPDIR="+tmp, "NO_COLOR=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the getting-started commands fail: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "PASS") {
		t.Errorf("xpmigrate verify never passed:\n%s", out)
	}

	// The migrated copy holds only Pipeline Compositions.
	var migrated []string
	_ = filepath.WalkDir(tmp, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && d.Name() == "composition.yaml" && strings.Contains(filepath.ToSlash(p), "/platform/") {
			migrated = append(migrated, p)
		}
		return nil
	})
	if len(migrated) != 3 {
		t.Fatalf("found %d compositions in the migrated copy, want 3", len(migrated))
	}
	for _, p := range migrated {
		if b, err := os.ReadFile(p); err != nil || !strings.Contains(string(b), "mode: Pipeline") {
			t.Errorf("%s is not a Pipeline Composition (%v)", p, err)
		}
	}
}

// modulePath reads the module path from go.mod, and checks that
// `go install <module>/cmd/xpmigrate@<version>` can work: the go command
// refuses modules with replace or exclude directives.
func modulePath(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot, "go.mod"))
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

// TestGitHubAction parses action.yml and runs its steps as the runner would
// (bash with -eo pipefail, the GITHUB_* files, inputs through env) against
// a small repository, with xpmigrate built from this checkout by the
// action's own install step. actions/setup-go is skipped: Go is here.
func TestGitHubAction(t *testing.T) {
	bash := needBash(t)
	if testing.Short() {
		t.Skip("builds xpmigrate")
	}
	b, err := os.ReadFile(filepath.Join(repoRoot, "action.yml"))
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
	source, err := filepath.Abs(repoRoot)
	if err != nil {
		t.Fatal(err)
	}

	// The steps before the check install xpmigrate; they run once, the
	// check once per case.
	check := slices.IndexFunc(a.Runs.Steps, func(s actionStep) bool { return s.ID == "check" })
	if check < 0 {
		t.Fatal("action.yml has no step with id check")
	}
	runner := &actionRunner{t: t, bash: bash, action: a, source: source, temp: t.TempDir()}
	if status, out := runner.steps(a.Runs.Steps[:check], t.TempDir(), nil); status != 0 {
		t.Fatalf("the action's install steps: exit %d\n%s", status, out)
	}
	if len(runner.path) == 0 {
		t.Fatal("the install steps added nothing to GITHUB_PATH")
	}
	bin := runner.path[0]

	cases := map[string]struct {
		reason   string
		migrated bool
		inputs   map[string]string
		want     int
		wantOut  string
		// pr commits the legacy repository as the pull request's base,
		// then converts it and commits that; breakIt changes a patch of
		// the conversion before.
		pr, breakIt bool
	}{
		"LegacyCompositionFails": {
			reason: "a legacy Composition not converted yet fails the check with exit 3",
			want:   exitDifferences,
		},
		"MigratedRepositoryPasses": {
			reason:   "a migrated repository whose conversions verify passes",
			migrated: true,
			want:     exitOK,
		},
		"ArgsSplitLikeAShell": {
			reason: "args reach migrate split as a shell splits them: the quoted glob excludes every Composition",
			inputs: map[string]string{"args": "--exclude '*/composition.yaml' --jobs 1"},
			want:   exitOK,
		},
		"PathAndTarget": {
			reason: "path and target reach migrate: the examples directory holds no Composition",
			inputs: map[string]string{"path": "network/examples", "target": "v2"},
			want:   exitOK,
		},
		"PullRequestConversionVerified": {
			reason:  "in a pull request that converts the Compositions, the action verifies them against the base commit",
			pr:      true,
			want:    exitOK,
			wantOut: "3 equivalent",
		},
		"PullRequestBrokenConversion": {
			reason:  "a committed conversion that changed a patch fails against the base commit",
			pr:      true,
			breakIt: true,
			want:    exitDifferences,
			wantOut: "database/composition.yaml",
		},
		"RequireVerified": {
			reason:  "require-verified reaches migrate: Compositions nothing verified fail the check, and say so",
			inputs:  map[string]string{"args": "--exclude '**/examples/'", "require-verified": "true"},
			want:    exitDifferences,
			wantOut: "--require-verified: 3 Compositions unverified",
		},
		"AcceptReachesMigrate": {
			reason:   "accept reaches migrate: an unknown gap code is refused as bad usage",
			migrated: true,
			inputs:   map[string]string{"accept": "D21,D99"},
			want:     exitInvalid,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			repo := exampleRepo(t, bin, tc.migrated)
			r := *runner
			r.t = t
			if tc.pr {
				r.prBase = pullRequest(t, bin, repo, tc.breakIt)
			}
			status, out := r.steps(a.Runs.Steps[check:], repo, tc.inputs)
			if status != tc.want {
				t.Errorf("%s\naction: exit %d, want %d\n%s", tc.reason, status, tc.want, out)
			}
			if !strings.Contains(out, tc.wantOut) {
				t.Errorf("%s\naction: output lacks %q:\n%s", tc.reason, tc.wantOut, out)
			}
			if o, _ := os.ReadFile(r.files["GITHUB_OUTPUT"]); !strings.Contains(string(o), "report=") {
				t.Errorf("%s\nthe action set no report output", tc.reason)
			}
			if tc.want != exitOK {
				return
			}
			if sum, _ := os.ReadFile(r.files["GITHUB_STEP_SUMMARY"]); len(bytes.TrimSpace(sum)) == 0 {
				t.Errorf("%s\nthe action wrote no job summary", tc.reason)
			}
		})
	}
}

// actionRunner runs the steps of a composite action roughly as the GitHub
// runner does: each run step in bash with -eo pipefail, inputs and
// expressions evaluated into the step's env, GITHUB_PATH lines prepended
// to PATH for later steps.
type actionRunner struct {
	t      *testing.T
	bash   string
	action action
	source string // github.action_path
	temp   string // RUNNER_TEMP, shared by every run
	path   []string
	files  map[string]string
	// prBase is github.event.pull_request.base.sha: empty outside a pull
	// request.
	prBase string
}

var actionExpr = regexp.MustCompile(`\$\{\{\s*([a-z]+)\.([A-Za-z0-9_.-]+)\s*\}\}`)

// steps runs the run steps in workspace and returns the last exit status
// and the output. A step that fails stops the run.
func (r *actionRunner) steps(steps []actionStep, workspace string, inputs map[string]string) (int, string) {
	t := r.t
	t.Helper()
	dir := t.TempDir()
	r.files = map[string]string{}
	for _, f := range []string{"GITHUB_PATH", "GITHUB_OUTPUT", "GITHUB_STEP_SUMMARY", "GITHUB_ENV"} {
		r.files[f] = filepath.Join(dir, f)
		if err := os.WriteFile(r.files[f], nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	var eval func(s string) string
	eval = func(s string) string {
		return actionExpr.ReplaceAllStringFunc(s, func(m string) string {
			p := actionExpr.FindStringSubmatch(m)
			switch {
			case p[1] == "inputs":
				if v, ok := inputs[p[2]]; ok {
					return v
				}
				d := r.action.Inputs[p[2]].Default
				if actionExpr.MatchString(d) {
					return eval(d)
				}
				return d
			case p[1] == "github" && p[2] == "action_path":
				return r.source
			case p[1] == "github" && p[2] == "workspace":
				return workspace
			case p[1] == "github" && p[2] == "event.pull_request.base.sha":
				return r.prBase
			}
			t.Fatalf("action.yml uses %s, which the test does not provide", m)
			return ""
		})
	}
	var out bytes.Buffer
	for _, s := range steps {
		if s.Run == "" {
			continue // uses: actions/setup-go; Go is here
		}
		script := filepath.Join(dir, "step.sh")
		if err := os.WriteFile(script, []byte(s.Run), 0o600); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(r.bash, "--noprofile", "--norc", "-eo", "pipefail", script)
		cmd.Dir = workspace
		cmd.Env = append(pathWith(os.Environ(), r.path...), "RUNNER_TEMP="+r.temp, "GITHUB_WORKSPACE="+workspace,
			"GITHUB_ACTION_PATH="+r.source, "NO_COLOR=1")
		for k, v := range r.files {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
		for k, v := range s.Env {
			cmd.Env = append(cmd.Env, k+"="+eval(v))
		}
		cmd.Stdout, cmd.Stderr = &out, &out
		if status := exitStatus(t, cmd.Run()); status != 0 {
			return status, out.String()
		}
		added, err := os.ReadFile(r.files["GITHUB_PATH"])
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(string(added), "\n") {
			if l != "" && !slices.Contains(r.path, l) {
				r.path = append([]string{l}, r.path...) // the runner prepends each line
			}
		}
	}
	return 0, out.String()
}

// hook is one entry of .pre-commit-hooks.yaml.
type hook struct {
	ID            string `yaml:"id"`
	Entry         string `yaml:"entry"`
	Language      string `yaml:"language"`
	Files         string `yaml:"files"`
	PassFilenames *bool  `yaml:"pass_filenames"`
}

// TestPreCommitHook parses .pre-commit-hooks.yaml and runs the
// xpmigrate-check hook's entry as pre-commit would (split into words, no
// shell, no file names) against a small repository.
func TestPreCommitHook(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(repoRoot, ".pre-commit-hooks.yaml"))
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
	if _, err := os.Stat(filepath.Join(repoRoot, "cmd", entry[0], "main.go")); err != nil {
		t.Errorf("entry runs %q, which is not a command of this module", entry[0])
	}
	if err := checkCommandLine(entry[1:]); err != nil {
		t.Errorf("entry %q: %v", h.Entry, err)
	}

	bin := buildXpmigrate(t, "")
	cases := map[string]struct {
		reason string
		// migrate converts the committed legacy repository in the work
		// tree (the change being committed).
		migrate bool
		// noCommit leaves the repository without a commit.
		noCommit bool
		want     int
	}{
		"LegacyCompositionFails":        {reason: "a legacy Composition fails the commit", want: exitDifferences},
		"ConversionVerifiedAgainstHEAD": {reason: "a commit that converts the legacy Compositions is verified against HEAD and passes", migrate: true, want: exitOK},
		"FirstCommit":                   {reason: "in a repository without a commit, --base HEAD has nothing to compare with: the legacy Compositions still fail", noCommit: true, want: exitDifferences},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			repo := exampleRepo(t, bin, false)
			gitIn(t, repo, "init", "-q")
			if !tc.noCommit {
				gitIn(t, repo, "add", "-A")
				gitIn(t, repo, "commit", "-q", "-m", "legacy")
			}
			if tc.migrate {
				m := exec.Command(filepath.Join(bin, "xpmigrate"+exeSuffix()), "migrate")
				m.Dir = repo
				if out, err := m.CombinedOutput(); err != nil {
					t.Fatalf("migrate: %v\n%s", err, out)
				}
			}
			cmd := exec.Command(filepath.Join(bin, entry[0]+exeSuffix()), entry[1:]...)
			cmd.Dir = repo
			cmd.Env = append(os.Environ(), "NO_COLOR=1")
			out, err := cmd.CombinedOutput()
			if got := exitStatus(t, err); got != tc.want {
				t.Errorf("%s\n%s: exit %d, want %d\n%s", tc.reason, h.Entry, got, tc.want, out)
			}
			if tc.migrate && !strings.Contains(string(out), "3 equivalent") {
				t.Errorf("%s\n%s: the conversions are not verified against HEAD:\n%s", tc.reason, h.Entry, out)
			}
		})
	}
}

// pullRequest makes repo a git repository whose first commit holds the
// legacy Compositions and whose second converts them (with one patch
// changed when breakIt), and returns the first commit.
func pullRequest(t *testing.T, bin, repo string, breakIt bool) string {
	t.Helper()
	gitIn(t, repo, "init", "-q")
	gitIn(t, repo, "add", "-A")
	gitIn(t, repo, "commit", "-q", "-m", "legacy")
	out, err := exec.Command("git", "-C", repo, "rev-parse", "HEAD").Output()
	if err != nil {
		t.Fatal(err)
	}
	m := exec.Command(filepath.Join(bin, "xpmigrate"+exeSuffix()), "migrate")
	m.Dir = repo
	if o, err := m.CombinedOutput(); err != nil {
		t.Fatalf("migrate: %v\n%s", err, o)
	}
	if breakIt {
		p := filepath.Join(repo, "database", "composition.yaml")
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		broken := strings.Replace(string(b), "toFieldPath: spec.forProvider.region", "toFieldPath: spec.forProvider.zone", 1)
		if broken == string(b) {
			t.Fatal("database/composition.yaml has no region patch to break")
		}
		if err := os.WriteFile(p, []byte(broken), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gitIn(t, repo, "add", "-A")
	gitIn(t, repo, "commit", "-q", "-m", "converted")
	return strings.TrimSpace(string(out))
}

// gitIn runs git in dir with a fixed identity and no user configuration.
func gitIn(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=test", "-c", "user.email=test@example.org", "-c", "commit.gpgsign=false"}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_SYSTEM=/dev/null")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
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
// same six targets, pure Go) and checks that the release linker flags
// reach the version command.
func TestReleaseConfig(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(repoRoot, ".goreleaser.yaml"))
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
	mk, err := os.ReadFile(filepath.Join(repoRoot, "Makefile"))
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

	bin := buildXpmigrate(t, strings.NewReplacer("{{.Version}}", "1.2.3", "{{.Commit}}", "0123abc").Replace(ldflags))
	out, err := exec.Command(filepath.Join(bin, "xpmigrate"+exeSuffix()), "version").CombinedOutput()
	if err != nil {
		t.Fatalf("xpmigrate version: %v\n%s", err, out)
	}
	if got, want := string(out), "xpmigrate 1.2.3 (commit 0123abc)\n"; got != want {
		t.Errorf("xpmigrate version built with the release ldflags: got %q, want %q", got, want)
	}
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
		m, err := filepath.Glob(filepath.Join(repoRoot, filepath.FromSlash(glob)))
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
		for _, blk := range fencedBlocks(text) {
			text = strings.Replace(text, blk.text, "", 1)
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
	for _, blk := range fencedBlocks(md) {
		md = strings.Replace(md, blk.text, "", 1)
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
		b, err := os.ReadFile(filepath.Join(repoRoot, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := yaml.Unmarshal(b, v); err != nil {
			t.Fatalf("cannot parse %s: %v", f, err)
		}
	}
	pages, err := filepath.Glob(filepath.Join(repoRoot, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	workflows, precommits := 0, 0
	for _, p := range pages {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, blk := range fencedBlocks(string(b)) {
			if blk.lang != "yaml" {
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
			if err := yaml.Unmarshal([]byte(blk.text), &doc); err != nil {
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
