package errkind

import (
	"testing"

	"github.com/pkg/errors"
)

// marked is a library error type that is invalid input by its method.
type marked struct{ invalid bool }

func (m *marked) Error() string      { return "marked" }
func (m *marked) InvalidInput() bool { return m.invalid }

func TestKinds(t *testing.T) {
	cases := map[string]struct {
		reason       string
		err          error
		wantInvalid  bool
		wantFindings bool
	}{
		"Nil": {
			reason: "No error is neither kind.",
		},
		"Plain": {
			reason: "An error of no kind is a failure of the work.",
			err:    errors.New("boom"),
		},
		"InvalidInput": {
			reason:      "InvalidInput marks an error as invalid input.",
			err:         InvalidInput(errors.New("bad")),
			wantInvalid: true,
		},
		"WrappedInvalidInput": {
			reason:      "Wrapping keeps the kind.",
			err:         errors.Wrap(InvalidInputf("bad %d", 1), "cannot load"),
			wantInvalid: true,
		},
		"MarkedType": {
			reason:      "A library type with InvalidInput() true is invalid input.",
			err:         errors.Wrap(&marked{invalid: true}, "cannot render"),
			wantInvalid: true,
		},
		"MarkedFalse": {
			reason: "A library type whose InvalidInput() is false is not.",
			err:    &marked{},
		},
		"Findings": {
			reason:       "Findings fail a run that did its work.",
			err:          Findingsf("%d files would change", 2),
			wantFindings: true,
		},
		"SilentFindings": {
			reason:       "Findings without a description are findings too.",
			err:          Findings(nil),
			wantFindings: true,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := IsInvalidInput(tc.err); got != tc.wantInvalid {
				t.Errorf("\n%s\nIsInvalidInput(%v): want %t, got %t", tc.reason, tc.err, tc.wantInvalid, got)
			}
			if got := IsFindings(tc.err); got != tc.wantFindings {
				t.Errorf("\n%s\nIsFindings(%v): want %t, got %t", tc.reason, tc.err, tc.wantFindings, got)
			}
		})
	}
}

func TestMessages(t *testing.T) {
	cases := map[string]struct {
		reason string
		err    error
		want   string
	}{
		"InvalidInput": {reason: "The kind adds nothing to the message.", err: InvalidInput(errors.New("bad input")), want: "bad input"},
		"Findings":     {reason: "The kind adds nothing to the message.", err: Findingsf("a.yaml would change"), want: "a.yaml would change"},
		"Silent":       {reason: "Findings the output already described have no message.", err: Findings(nil), want: ""},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := tc.err.Error(); got != tc.want {
				t.Errorf("\n%s\nError(): want %q, got %q", tc.reason, tc.want, got)
			}
		})
	}
}

func TestInvalidInputNil(t *testing.T) {
	if err := InvalidInput(nil); err != nil {
		t.Errorf("InvalidInput(nil): want nil, got %v", err)
	}
}
