package migrate

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pkg/errors"

	"github.com/xpmigrate/xpmigrate/internal/errkind"
)

// kind names how a run ends, as the command line's exit code does.
func kind(err error) string {
	switch {
	case err == nil:
		return "ok"
	case errkind.IsFindings(err):
		return "findings"
	case errkind.IsInvalidInput(err):
		return "invalid"
	}
	return "error"
}

func TestResultErr(t *testing.T) {
	cases := map[string]struct {
		reason          string
		res             Result
		runErr          error
		check, required bool
		want            string
		wantMessage     string
	}{
		"Passed": {
			reason: "A run with nothing wrong passes, changes made or not.",
			res:    Result{Summary: Summary{Converted: 2}},
			want:   "ok",
		},
		"Cancelled": {
			reason:      "A cancelled run is an error, whatever else it found.",
			res:         Result{Cancelled: true, Summary: Summary{Failing: 1}},
			runErr:      context.Canceled,
			want:        "error",
			wantMessage: "cancelled: files not processed were left as they were",
		},
		"RunError": {
			reason: "Run's error is an error.",
			runErr: errors.New("boom"),
			want:   "error",
		},
		"Refused": {
			reason:      "A file refused as unusable input is invalid input, before failures.",
			res:         Result{Files: []FileResult{{Path: "a.yaml", Reason: ReasonAliasBomb, Detail: "aliases"}}, Summary: Summary{Failed: 1}},
			want:        "invalid",
			wantMessage: "a.yaml: aliases: refused (1 files refused)",
		},
		"Failed": {
			reason: "A failed Composition is an error, before differences.",
			res:    Result{Summary: Summary{FailedCompositions: 1, Failing: 1}},
			want:   "error",
		},
		"Differences": {
			reason: "A failing verification is a finding, with or without --check.",
			res:    Result{Summary: Summary{Failing: 1, Differences: 1}},
			want:   "findings",
		},
		"LegacyLeftChecked": {
			reason: "With --check a legacy Composition left is a finding.",
			res:    Result{Summary: Summary{LegacyLeft: 1}},
			check:  true,
			want:   "findings",
		},
		"LegacyLeftUnchecked": {
			reason: "Without --check a legacy Composition left passes.",
			res:    Result{Summary: Summary{LegacyLeft: 1}},
			want:   "ok",
		},
		"UnprovenRequired": {
			reason:   "With --require-verified an unverified Composition is a finding.",
			res:      Result{Summary: Summary{Unverified: 1}},
			required: true,
			want:     "findings",
		},
		"UnprovenNotRequired": {
			reason: "Without --require-verified an unverified Composition passes.",
			res:    Result{Summary: Summary{InconclusiveSamples: 1}},
			want:   "ok",
		},
		"ChangesChecked": {
			reason:      "With --check a file that would change is a finding.",
			res:         Result{Summary: Summary{Converted: 3}},
			check:       true,
			want:        "findings",
			wantMessage: "3 files would change",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			err := tc.res.Err(tc.runErr, tc.check, tc.required)
			if got := kind(err); got != tc.want {
				t.Errorf("\n%s\nErr(...): want %s, got %s (%v)", tc.reason, tc.want, got, err)
			}
			if tc.wantMessage != "" && (err == nil || err.Error() != tc.wantMessage) {
				t.Errorf("\n%s\nErr(...): want message %q, got %v", tc.reason, tc.wantMessage, err)
			}
		})
	}
}

func TestOptionErrorsAreInvalidInput(t *testing.T) {
	cases := map[string]struct {
		reason string
		err    error
	}{
		"InvalidOptions": {reason: "Unusable options are invalid input.", err: errors.Wrap(invalid("no converter"), "cannot migrate")},
		"Base":           {reason: "An unreadable base revision is invalid input.", err: &BaseError{err: errors.New("no commit")}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if !errkind.IsInvalidInput(tc.err) {
				t.Errorf("\n%s\nIsInvalidInput(%v): want true", tc.reason, tc.err)
			}
		})
	}
}

func TestRunWithin(t *testing.T) {
	t.Run("StuckFile", func(t *testing.T) {
		dir := t.TempDir()
		writeTree(t, dir, map[string]string{"a.yaml": unnamedLegacy})
		entered, release := make(chan struct{}), make(chan struct{})
		defer close(release)
		var once sync.Once
		conv := &fakeConverter{hook: func(string) { once.Do(func() { close(entered) }); <-release }}
		ctx, cancel := context.WithCancel(context.Background())
		go func() { <-entered; cancel() }()
		start := time.Now()
		res, err := RunWithin(ctx, Options{Root: dir, Write: WriteNone, Converter: conv, Jobs: 1}, 50*time.Millisecond)
		if res != nil || err == nil || !strings.HasPrefix(err.Error(), "cancelled: stopped waiting 50ms") {
			t.Errorf("RunWithin(a stuck file, cancelled): want no result and the stopped-waiting error, got %v, %v", res, err)
		}
		if d := time.Since(start); d > 20*time.Second {
			t.Errorf("RunWithin(a stuck file, cancelled): returned after %s", d)
		}
		if kind(err) != "error" {
			t.Errorf("RunWithin(a stuck file, cancelled): want an error of no kind, got %s", kind(err))
		}
	})
	t.Run("InvalidOptions", func(t *testing.T) {
		res, err := RunWithin(context.Background(), Options{Root: t.TempDir()}, time.Second)
		if res != nil || kind(err) != "invalid" || strings.HasPrefix(err.Error(), "cannot migrate") {
			t.Errorf("RunWithin(no converter): want invalid input as it is, got %v, %v", res, err)
		}
	})
}
