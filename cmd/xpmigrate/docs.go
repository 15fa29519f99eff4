package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/xpmigrate/xpmigrate/convert"
	"github.com/xpmigrate/xpmigrate/internal/docgen"
	"github.com/xpmigrate/xpmigrate/internal/errkind"
	"github.com/xpmigrate/xpmigrate/render/verify"
)

// defaultDocsDir is where `make docs` keeps the generated reference.
const defaultDocsDir = "docs/reference"

// newDocsCmd returns the hidden `docs` command, which writes the command and
// diagnostics reference (`make docs`) or checks that it is current
// (`make check-docs`).
func newDocsCmd(s streams) *cobra.Command {
	var check bool
	cmd := &cobra.Command{
		Use:    "docs [DIR]",
		Short:  "Write the Markdown command and diagnostics reference",
		Hidden: true,
		Long: `Write a Markdown page for every command, an index, and the diagnostics
reference (from the converter's registry) into DIR (default docs/reference).
Pages generated earlier whose command is gone are removed; other files in
DIR are left alone.

With --check nothing is written: the command lists the pages that are
missing, stale or obsolete and exits 3 if there are any.`,
		Example: `  # Regenerate the reference (make docs)
  xpmigrate docs

  # Fail when the reference is stale (make check-docs)
  xpmigrate docs --check docs/reference`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := defaultDocsDir
			if len(args) == 1 {
				dir = args[0]
			}
			files, err := referenceFiles(cmd.Root())
			if err != nil {
				return err
			}
			if check {
				return checkDocs(s, dir, files)
			}
			changes, err := docgen.Write(dir, files)
			if err != nil {
				return err
			}
			for _, c := range changes {
				fmt.Fprintf(s.ErrOut, "%-9s %s\n", verbFor(c.Kind), filepath.Join(dir, filepath.FromSlash(c.Name)))
			}
			fmt.Fprintf(s.ErrOut, "%s: %d pages, %d changed\n", dir, len(files), len(changes))
			return nil
		},
	}
	cmd.Flags().BoolVar(&check, "check", false, "write nothing; exit 3 if any page is missing, stale or obsolete")
	return cmd
}

func checkDocs(s streams, dir string, files []docgen.File) error {
	changes, err := docgen.Diff(os.DirFS(dir), files)
	if err != nil {
		return err
	}
	if len(changes) == 0 {
		return nil
	}
	for _, c := range changes {
		fmt.Fprintf(s.ErrOut, "%-9s %s\n", c.Kind, filepath.Join(dir, filepath.FromSlash(c.Name)))
	}
	return errkind.Findingsf("%s is out of date (%d pages): run make docs", dir, len(changes))
}

func verbFor(k docgen.ChangeKind) string {
	switch k {
	case docgen.Added:
		return "created"
	case docgen.Removed:
		return "removed"
	default:
		return "updated"
	}
}

// referenceFiles generates the reference for the command tree under root.
func referenceFiles(root *cobra.Command) ([]docgen.File, error) {
	diags, err := docgen.Diagnostics(diagnosticsDoc())
	if err != nil {
		return nil, err
	}
	// Execute adds these lazily; add them so the pages show what --help shows.
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd()
	return docgen.Reference(commandDoc(root), diags, gapsDoc()), nil
}

// gapsDoc describes verify's catalogue for docgen.
func gapsDoc() docgen.Gaps {
	var g docgen.Gaps
	for _, c := range verify.GapCodes {
		g.Gaps = append(g.Gaps, docgen.Gap{Code: c.Code, Title: c.Title, Class: string(c.Class), Classes: c.Classes, Detected: c.Detected, Why: c.Why})
	}
	for _, c := range verify.IntendedChanges {
		g.Intended = append(g.Intended, docgen.Intended{Code: c.Code, Title: c.Title, Fixes: c.Fixes})
	}
	return g
}

// commandDoc describes a cobra command and its visible subcommands for
// docgen.
func commandDoc(c *cobra.Command) docgen.Command {
	c.InitDefaultHelpFlag()
	d := docgen.Command{
		Path:           c.CommandPath(),
		Short:          c.Short,
		Long:           c.Long,
		Example:        c.Example,
		Flags:          flagUsages(c, c.NonInheritedFlags()),
		InheritedFlags: flagUsages(c, c.InheritedFlags()),
	}
	if c.Runnable() {
		d.Usage = c.UseLine()
	}
	for _, ch := range c.Commands() {
		if !ch.IsAvailableCommand() || ch.IsAdditionalHelpTopicCommand() {
			continue
		}
		d.Children = append(d.Children, commandDoc(ch))
	}
	return d
}

// machineDefaults are flag defaults computed from the machine, shown in the
// reference as what they mean rather than as the value where `make docs`
// ran, so the reference is the same everywhere. Keyed by command path and
// flag name.
var machineDefaults = map[string]struct {
	value func() string
	text  string
}{
	"xpmigrate migrate --jobs": {value: func() string { return strconv.Itoa(runtime.NumCPU()) }, text: "number of CPUs"},
}

// flagUsages formats the visible flags of fs as --help does, with
// machine-dependent defaults replaced by their meaning.
func flagUsages(c *cobra.Command, fs *pflag.FlagSet) string {
	out := pflag.NewFlagSet(c.Name(), pflag.ContinueOnError)
	fs.VisitAll(func(f *pflag.Flag) {
		if f.Hidden {
			return
		}
		cp := *f
		if md, ok := machineDefaults[c.CommandPath()+" --"+f.Name]; ok && f.DefValue == md.value() {
			cp.DefValue = md.text
		}
		out.AddFlag(&cp)
	})
	return strings.TrimRight(out.FlagUsages(), "\n")
}

// diagnosticsDoc describes the converter's registry, with each code's
// explanation, for docgen.
func diagnosticsDoc() []docgen.Diagnostic {
	out := make([]docgen.Diagnostic, 0, len(convert.Registry))
	for _, ci := range convert.Registry {
		meaning, fix, _ := convert.Explain(ci.Code)
		out = append(out, docgen.Diagnostic{Code: string(ci.Code), Severity: string(ci.Severity), Summary: ci.Summary, Meaning: meaning, Fix: fix})
	}
	return out
}
