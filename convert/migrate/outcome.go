package migrate

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/pkg/errors"

	"github.com/xpmigrate/xpmigrate/internal/errkind"
)

// InvalidInput reports that unusable options are invalid input (exit 2).
func (e *InvalidOptionsError) InvalidInput() bool { return true }

// InvalidInput reports that an unreadable base revision is invalid input
// (exit 2).
func (e *BaseError) InvalidInput() bool { return true }

// Err returns how a finished run ends, given Run's error, from its
// Verdict: nil when it passed; an errkind invalid input error when a file
// was refused as unusable input; an errkind findings error when a
// verification fails or a Function problem makes the converted
// Compositions fail in the cluster, or, with check, a legacy Composition
// is left or a file would change, or, with requireVerified, the verdict is
// "not proven"; any other error when the run was cancelled or a file or
// Composition failed.
func (r *Result) Err(runErr error, check, requireVerified bool) error {
	v := r.Verdict()
	switch {
	case r.Cancelled:
		return errors.New("cancelled: files not processed were left as they were")
	case runErr != nil:
		return errors.Wrap(runErr, "cannot migrate")
	case len(r.Refused()) > 0:
		f := r.Refused()[0]
		return errkind.InvalidInputf("%s: %s: refused (%d files refused)", f.Path, f.Detail, len(r.Refused()))
	case r.Failed():
		return errors.Errorf("%d files and %d Compositions failed, %d verifications could not run",
			r.Summary.Failed, r.Summary.FailedCompositions, r.Summary.VerifyErrors)
	case r.HasDifferences():
		return errkind.Findingsf("%d verifications fail: %d render differently from their legacy form, the others have breaking gaps nobody accepted", r.Summary.Failing, r.Summary.Differences)
	case r.Summary.FunctionProblems > 0:
		return errkind.Findingsf("%d Function problems: the Compositions would fail in the cluster (see the M409, M410 and M414 findings)", r.Summary.FunctionProblems)
	case check && r.HasLegacyLeft():
		return errkind.Findingsf("%d files still hold a legacy Composition (see the M402 findings); exempt one on purpose with --allow-legacy", r.Summary.LegacyLeft)
	case requireVerified && v.Safe == SafeNotProven:
		return errkind.Findingsf("--require-verified: not proven: %s", strings.Join(v.Unproven, ", "))
	case check && r.Changed():
		return errkind.Findingsf("%d files would change", r.Summary.Converted)
	}
	return nil
}

// RunWithin is Run that returns at most grace after ctx is cancelled:
// Ctrl-C ends the command within that time whatever a file operation waits
// for. When the run has not returned by then, the result is nil and the
// error says so; every write is a rename, so a file left behind is either
// old or new. Without a result the error is ready for the user (invalid
// options and base revisions as they are, others as "cannot migrate");
// with one, Result.Err says how the run ends.
func RunWithin(ctx context.Context, o Options, grace time.Duration) (*Result, error) {
	res, err := runWithin(ctx, o, grace)
	var sr *stillRunningError
	if res == nil && err != nil && !errkind.IsInvalidInput(err) && !errors.As(err, &sr) {
		err = errors.Wrap(err, "cannot migrate")
	}
	return res, err
}

func runWithin(ctx context.Context, o Options, grace time.Duration) (*Result, error) {
	type outcome struct {
		res *Result
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		res, err := Run(ctx, o)
		done <- outcome{res, err}
	}()
	select {
	case out := <-done:
		return out.res, out.err
	case <-ctx.Done():
	}
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case out := <-done:
		return out.res, out.err
	case <-t.C:
		return nil, &stillRunningError{grace: grace}
	}
}

// A stillRunningError is a cancelled run RunWithin stopped waiting for.
type stillRunningError struct{ grace time.Duration }

func (e *stillRunningError) Error() string {
	return fmt.Sprintf("cancelled: stopped waiting %s for the files in progress; every file is either old or new", e.grace)
}
