package report

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/pkg/errors"

	"github.com/xpmigrate/xpmigrate/convert/migrate"
	"github.com/xpmigrate/xpmigrate/internal/atomicfile"
	"github.com/xpmigrate/xpmigrate/internal/logsafe"
)

// OutputOptions say what a finished run writes besides the summary.
type OutputOptions struct {
	// Root is the migrated tree, as Options.Root.
	Root string
	// Diff writes every file's diff to the output stream.
	Diff bool
	// Format is what the output stream gets (one of Formats).
	Format string
	// Report is a file to write the report to, in ReportFormat (see
	// FileFormat).
	Report, ReportFormat string
	// Cluster is the cluster check of migrate --cluster, joining the
	// Format output and the report; nil for none.
	Cluster *Cluster
}

// WriteOutputs writes what a finished run r reports: the stale temporary
// files found, the diffs (o.Diff) and the o.Format output on out, the
// summary on errOut, and the report file.
func WriteOutputs(out, errOut io.Writer, r *migrate.Result, o OutputOptions) error {
	if n := len(r.StaleTemporaries); n > 0 {
		what := "found %d temporary files left by an interrupted run (left as they are: this run does not write in place): %s\n"
		if r.StaleRemoved {
			what = "removed %d temporary files left by an interrupted run: %s\n"
		}
		logsafe.Fprintf(errOut, what, n, strings.Join(r.StaleTemporaries, ", "))
	}
	if o.Diff {
		for _, f := range r.Files {
			if f.Diff != "" {
				fmt.Fprint(out, f.Diff)
			}
		}
	}
	if err := migrate.WriteSummary(errOut, r); err != nil {
		return errors.Wrap(err, "cannot write the summary")
	}
	if err := writeFormat(out, o.Format, r, o.Root, o.Cluster); err != nil {
		return errors.Wrap(err, "cannot write the output")
	}
	if o.Report == "" {
		return nil
	}
	if err := writeFile(o.Report, o.ReportFormat, r, o.Cluster); err != nil {
		return err
	}
	logsafe.Fprintf(errOut, "report written to %s\n", o.Report)
	return nil
}

// WriteFile writes the report atomically: to a temporary file beside
// path, renamed over it.
func WriteFile(path, format string, r *migrate.Result) error {
	return writeFile(path, format, r, nil)
}

func writeFile(path, format string, r *migrate.Result, cl *Cluster) error {
	var b bytes.Buffer
	if err := write(&b, format, r, cl); err != nil {
		return err
	}
	if err := atomicfile.Write(path, b.Bytes(), 0o644, nil); err != nil {
		return errors.Wrapf(err, "cannot write report %q", path)
	}
	return nil
}
