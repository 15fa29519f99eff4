package report

import (
	"html/template"

	"github.com/xpmigrate/xpmigrate/internal/junit"
	"github.com/xpmigrate/xpmigrate/internal/sarif"
)

// A Cluster is the cluster check of `migrate --cluster` (render/verify/live),
// rendered in each format by its own writer, which sits above this package:
// the report places it. Each part may be empty.
type Cluster struct {
	// JSON is the value of the JSON report's "cluster" field.
	JSON any
	// Markdown is a "## " section, appended to the Markdown report.
	Markdown string
	// HTML is a <section id="cluster">, appended to the HTML report (and
	// linked from its navigation); its writer escapes what it holds.
	HTML template.HTML
	// GitHub are workflow command lines, appended to the GitHub output.
	GitHub string
	// JUnit are test suites, appended to the JUnit output's.
	JUnit []junit.Suite
	// SARIFRules and SARIFResults join the SARIF run (results point at
	// their rule by RuleID; RuleIndex is set here). A rule id the run
	// uses already keeps the run's description.
	SARIFRules   []sarif.Rule
	SARIFResults []sarif.Result
}

// EscapeMarkdown makes text inert in the Markdown report (markdown.Escape),
// for writers of sections that join it.
func EscapeMarkdown(s string) string { return mdEscape(s) }

// MarkdownCode writes s as a Markdown code span no backtick in s closes.
func MarkdownCode(s string) string { return mdCode(s) }

// OneLine shortens a value to one line of at most 80 bytes for a table
// cell, "(absent)" when empty.
func OneLine(s string) string { return oneLine(s) }
