package report

import (
	"fmt"
	"io"
	"path"
	"sort"
	"strings"

	"github.com/pkg/errors"

	"github.com/xpmigrate/xpmigrate/convert/migrate"
	"github.com/xpmigrate/xpmigrate/internal/junit"
	"github.com/xpmigrate/xpmigrate/internal/sarif"
)

// Output formats of a run for CI systems, written on stdout by `migrate
// --format`: the same problems as WriteGitHub, in JUnit XML and SARIF 2.1.0;
// FormatJSON is the JSON report.
const (
	FormatText   = "text"
	FormatGitHub = "github"
	FormatJSON   = "json"
	FormatJUnit  = "junit"
	FormatSARIF  = "sarif"
)

// Formats lists the output formats of WriteFormat.
var Formats = []string{FormatText, FormatGitHub, FormatJSON, FormatJUnit, FormatSARIF}

// WriteFormat writes the run in a format for CI systems. FormatText writes
// nothing (the summary goes to stderr). root prefixes file paths.
func WriteFormat(w io.Writer, format string, res *migrate.Result, root string) error {
	return writeFormat(w, format, res, root, nil)
}

// writeFormat is WriteFormat with the cluster check's entries when cl is
// not nil.
func writeFormat(w io.Writer, format string, res *migrate.Result, root string, cl *Cluster) error {
	switch format {
	case FormatText:
		return nil
	case FormatGitHub:
		if err := WriteGitHub(w, res, root); err != nil || cl == nil {
			return err
		}
		_, err := io.WriteString(w, cl.GitHub)
		return err
	case FormatJSON:
		return write(w, JSON, res, cl)
	case FormatJUnit:
		return writeJUnit(w, res, root, cl)
	case FormatSARIF:
		return writeSARIF(w, res, root, cl)
	}
	return errors.Errorf("unknown format %q: want one of %s", format, strings.Join(Formats, ", "))
}

// writeJUnit writes one test case per Composition (and per failed file
// without one): it fails on an error-level problem, is skipped when its
// verification proved nothing, and carries warnings and notices as output.
func writeJUnit(w io.Writer, res *migrate.Result, root string, cl *Cluster) error {
	byComp := map[string][]problem{}
	byFile := map[string][]problem{}
	for _, p := range problems(res) {
		if p.Composition != "" {
			k := p.File + "\x00" + p.Composition
			byComp[k] = append(byComp[k], p)
			continue
		}
		byFile[p.File] = append(byFile[p.File], p)
	}
	suite := junit.Suite{Name: "xpmigrate migrate"}
	add := func(c junit.Case, ps []problem, unverified string) {
		var fail, info strings.Builder
		for _, p := range ps {
			b := &info
			if p.Level == "error" {
				b = &fail
			}
			fmt.Fprintf(b, "%s: %s\n", p.Level, p.Message)
		}
		switch {
		case fail.Len() > 0:
			c.Failure = &junit.Failure{Message: strings.SplitN(fail.String(), "\n", 2)[0], Type: "xpmigrate", Text: fail.String()}
		case unverified != "":
			c.Skipped = &junit.Skipped{Message: unverified}
		}
		c.SystemOut = info.String()
		suite.Add(c)
	}
	for _, c := range res.Compositions {
		unverified := ""
		if v := c.Verification; v != nil && v.Status == migrate.VerifyUnverified {
			unverified = "unverified: " + v.Reason
		}
		add(junit.Case{Name: fmt.Sprintf("%s (%s#%d)", c.Name, c.File, c.Document), Classname: "migrate." + strings.ReplaceAll(c.File, "/", "."), File: path.Join(root, c.File)},
			byComp[c.File+"\x00"+c.Name], unverified)
	}
	files := make([]string, 0, len(byFile))
	for f := range byFile {
		files = append(files, f)
	}
	sort.Strings(files)
	for _, f := range files {
		add(junit.Case{Name: f, Classname: "migrate.files", File: path.Join(root, f)}, byFile[f], "")
	}
	doc := junit.Suites{Name: "xpmigrate"}
	doc.Add(suite)
	if cl != nil {
		for _, s := range cl.JUnit {
			doc.Add(s)
		}
	}
	return junit.Write(w, doc)
}

// ruleTexts describe the rules that are not diagnostic or gap codes.
var ruleTexts = map[string]string{
	"file-failed":        "xpmigrate cannot migrate the file.",
	"held-back":          "The file converts, but a conversion in it fails verification, so it was not written.",
	"composition-failed": "The converter refuses the Composition.",
	"not-migrated":       "The Composition still needs converting.",
	"verification-error": "The equivalence check could not run.",
	"unverified":         "No sample proved anything about the conversion.",
	"inconclusive":       "Both sides failed to render a sample.",
	"unexplained":        "The conversion renders differently from the legacy Composition, and no known gap explains it.",
}

// writeSARIF writes the run's problems as SARIF 2.1.0 results, one rule per
// code.
func writeSARIF(w io.Writer, res *migrate.Result, root string, cl *Cluster) error {
	rules := map[string]sarif.Rule{}
	var results []sarif.Result
	for _, p := range problems(res) {
		if _, ok := rules[p.Rule]; !ok {
			text := ruleTexts[p.Rule]
			if text == "" {
				text = "xpmigrate code " + p.Rule + " (see the diagnostics and gaps reference)."
			}
			rules[p.Rule] = sarif.Rule{ID: p.Rule, ShortDescription: sarif.Message{Text: text}, Help: sarif.Message{Text: text}}
		}
		level := p.Level
		if level == "notice" {
			level = "note"
		}
		results = append(results, sarif.Result{RuleID: p.Rule, Level: level,
			Message: sarif.Message{Text: p.Message}, Locations: sarif.At(path.Join(root, p.File), p.Line)})
	}
	// The cluster check's rules join the run's; a code both use is
	// described once, by the run.
	if cl != nil {
		for _, r := range cl.SARIFRules {
			if _, ok := rules[r.ID]; !ok {
				rules[r.ID] = r
			}
		}
		results = append(results, cl.SARIFResults...)
	}
	sorted, indexed := sarif.Index(rules, results)
	return sarif.Write(w, sarif.New(sarif.Driver{Name: "xpmigrate migrate", Rules: sorted}, indexed))
}
