package main

import (
	"fmt"
	"io"
	"os"

	"github.com/pkg/errors"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/xpmigrate/xpmigrate/internal/errkind"
	"github.com/xpmigrate/xpmigrate/internal/logsafe"
)

// Exit codes shared by every command.
const (
	exitOK          = 0 // success
	exitError       = 1 // an error while doing the work
	exitInvalid     = 2 // invalid input or usage
	exitDifferences = 3 // changes needed (--check) or differences found (verify)
)

// streams holds the three standard streams and what they are connected
// to, so commands can be tested with buffers, and decide progress bars
// and colour from one place.
type streams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer

	// InTTY, OutTTY and ErrTTY report whether each stream is a terminal;
	// ErrWidth is the error stream's terminal width (0: unknown).
	InTTY, OutTTY, ErrTTY bool
	ErrWidth              int
	// NoColor is set by the NO_COLOR environment variable.
	NoColor bool
}

func defaultStreams() streams {
	s := streams{In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr}
	s.InTTY = term.IsTerminal(int(os.Stdin.Fd()))
	s.OutTTY = term.IsTerminal(int(os.Stdout.Fd()))
	if s.ErrTTY = term.IsTerminal(int(os.Stderr.Fd())); s.ErrTTY {
		if w, _, err := term.GetSize(int(os.Stderr.Fd())); err == nil {
			s.ErrWidth = w
		}
	}
	_, s.NoColor = os.LookupEnv("NO_COLOR")
	return s
}

// exitCode maps the outcome of a command to the exit code: the only place
// errors become exit codes, by their kind (internal/errkind).
func exitCode(err error) int {
	switch {
	case err == nil:
		return exitOK
	case errkind.IsFindings(err):
		return exitDifferences
	case errkind.IsInvalidInput(err):
		return exitInvalid
	}
	return exitError
}

// reportError writes err to w as the last line of a run: nothing for none, or
// for findings the output already described.
func reportError(w io.Writer, err error) {
	if err != nil && err.Error() != "" {
		fmt.Fprintf(w, "xpmigrate: %s\n", logsafe.Escape(err.Error()))
	}
}

// run builds the command tree, runs it with args, reports the error and
// returns the exit code.
func run(args []string, s streams) int {
	root := newRootCmd(s)
	root.SetArgs(args)
	err := root.Execute()
	reportError(s.ErrOut, err)
	return exitCode(err)
}

func newRootCmd(s streams) *cobra.Command {
	root := &cobra.Command{
		Use:   "xpmigrate",
		Short: "Migrate legacy Crossplane Compositions to pipelines, and prove nothing changed",
		Long: `xpmigrate converts mode: Resources Compositions (native patch-and-transform,
patchSets, connection details, readiness and the native composition environment)
into mode: Pipeline Compositions that use function-patch-and-transform and
function-environment-configs, renders both in process, and compares them.`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	// --version prints what `xpmigrate version` prints.
	v, c := buildVersion()
	root.Version = v
	root.SetVersionTemplate(fmt.Sprintf("xpmigrate %s (commit %s)\n", v, c))
	root.SetIn(s.In)
	root.SetOut(s.Out)
	root.SetErr(s.ErrOut)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error {
		var ee *enumError
		if errors.As(err, &ee) {
			return errkind.InvalidInput(ee)
		}
		return errkind.InvalidInput(err)
	})

	// Every run sets the bounds of its readers from its own flags (the
	// defaults when not given).
	var bounds inputBounds
	addInputBoundFlags(root.PersistentFlags(), &bounds)
	root.PersistentPreRunE = func(*cobra.Command, []string) error {
		_, err := bounds.apply()
		return err
	}

	root.AddCommand(newVersionCmd(s), newRenderCmd(s), newVerifyCmd(s), newConvertCmd(s, nil), newMigrateCmd(s), newPlanCmd(s), newDocsCmd(s))
	return root
}
