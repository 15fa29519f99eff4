package main

import (
	"time"

	"github.com/pkg/errors"
)

// Bounds of the numeric flags: each is far above what a run needs, and
// below what would exhaust memory or never end (docs/safety.md).
const (
	maxSynthesize = 1000           // --synthesize: generated samples per Composition
	maxSamples    = 1000           // --max-samples: examples per Composition (negative: all)
	maxJobs       = 256            // --jobs: files at once
	maxLoops      = 100            // --loops: reconciles simulated
	minTimeout    = time.Second    // --timeout
	maxTimeout    = 24 * time.Hour // --timeout
)

// inRange returns a usage error (exit 2) naming the flag and its range
// when v is outside [lo, hi].
func inRange(flag string, v, lo, hi int) error {
	if v < lo || v > hi {
		return usageError{err: errors.Errorf("--%s must be between %d and %d, not %d", flag, lo, hi, v)}
	}
	return nil
}

// durationInRange is inRange for durations.
func durationInRange(flag string, v, lo, hi time.Duration) error {
	if v < lo || v > hi {
		return usageError{err: errors.Errorf("--%s must be between %s and %s, not %s", flag, lo, hi, v)}
	}
	return nil
}

// firstError returns the first non-nil error.
func firstError(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
