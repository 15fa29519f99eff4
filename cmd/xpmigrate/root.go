package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"
)

// Exit codes shared by every command.
const (
	exitOK          = 0 // success
	exitError       = 1 // an error while doing the work
	exitInvalid     = 2 // invalid input or usage
	exitDifferences = 3 // changes needed (--check) or differences found (verify)
)

// streams holds the three standard streams, so commands can be tested with
// buffers.
type streams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer
}

func defaultStreams() streams {
	return streams{In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr}
}

// usageError marks an error as bad usage or invalid input (exit 2).
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

// exitCodeError carries a specific exit code with an optional message.
type exitCodeError struct {
	code int
	err  error
}

func (e exitCodeError) Error() string {
	if e.err == nil {
		return ""
	}
	return e.err.Error()
}
func (e exitCodeError) Unwrap() error { return e.err }

// run builds the command tree, runs it with args and maps the outcome to an
// exit code. It is the only place errors become exit codes.
func run(args []string, s streams) int {
	root := newRootCmd(s)
	root.SetArgs(args)
	err := root.Execute()
	if err == nil {
		return exitOK
	}
	var ec exitCodeError
	if errors.As(err, &ec) {
		if ec.err != nil {
			fmt.Fprintf(s.ErrOut, "xpmigrate: %v\n", ec.err)
		}
		return ec.code
	}
	fmt.Fprintf(s.ErrOut, "xpmigrate: %v\n", err)
	var ue usageError
	if errors.As(err, &ue) {
		return exitInvalid
	}
	return exitError
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
		return usageError{err: err}
	})

	root.AddCommand(newVersionCmd(s), newRenderCmd(s), newVerifyCmd(s), newConvertCmd(s, nil), newMigrateCmd(s), newDocsCmd(s))
	return root
}
