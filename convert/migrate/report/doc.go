// Package report writes the Result of a migrate run for people and for CI
// systems: the report file of `xpmigrate migrate --report` (JSON, Markdown,
// or one self-contained HTML page with side-by-side diffs), and the formats
// of `--format` on stdout (GitHub workflow commands, JUnit XML, SARIF 2.1.0,
// the JSON report). Every writer is a pure function of the Result: no
// clock, environment or absolute path, so reports are byte-identical across
// runs. The human summary on stderr is migrate.WriteSummary.
package report
