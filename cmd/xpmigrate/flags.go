package main

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/xpmigrate/xpmigrate/internal/errkind"
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

// enumValue is a flag that takes one of a fixed set of names, each
// standing for a value of T (a pflag.Value). Any other name fails parsing,
// a usage error (exit 2) that lists the names. Its type reads "string" in
// help, as for a string flag.
type enumValue[T comparable] struct {
	name   string
	p      *T
	names  []string
	values []T
}

func (e *enumValue[T]) String() string {
	if i := slices.Index(e.values, *e.p); i >= 0 {
		return e.names[i]
	}
	return ""
}

func (e *enumValue[T]) Set(s string) error {
	i := slices.Index(e.names, s)
	if i < 0 {
		return &enumError{flag: e.name, value: s, names: e.names}
	}
	*e.p = e.values[i]
	return nil
}

func (e *enumValue[T]) Type() string { return "string" }

// allowed returns the names the flag takes.
func (e *enumValue[T]) allowed() []string { return e.names }

// An enumError is a value outside an enum flag's names: a usage error
// whose message names the flag and what it takes (the flag error handler
// of the root command reports it without pflag's prefix).
type enumError struct {
	flag, value string
	names       []string
}

func (e *enumError) Error() string {
	var names []string
	for _, n := range e.names {
		if n != "" {
			names = append(names, n)
		}
	}
	list := "one of " + strings.Join(names, ", ")
	if len(names) == 2 {
		list = names[0] + " or " + names[1]
	}
	return fmt.Sprintf("--%s must be %s, not %q", e.flag, list, e.value)
}

// enumFlag defines a flag --name that sets *p to the value of the name
// given, one of names (values[i] for names[i]), starting from def.
func enumFlag[T comparable](f *pflag.FlagSet, p *T, name, shorthand string, def T, usage string, names []string, values []T) {
	*p = def
	f.VarP(&enumValue[T]{name: name, p: p, names: names, values: values}, name, shorthand, usage)
}

// stringEnumFlag is enumFlag for a string type whose values are their
// names.
func stringEnumFlag[T ~string](f *pflag.FlagSet, p *T, name string, def T, usage string, values ...T) {
	names := make([]string, len(values))
	for i, v := range values {
		names[i] = string(v)
	}
	enumFlag(f, p, name, "", def, usage, names, values)
}

// enumSliceValue is a comma-separated, repeatable flag whose every item is
// one of a fixed set of names, as a string slice flag (its type reads
// "strings" in help).
type enumSliceValue struct {
	name    string
	p       *[]string
	names   []string
	changed bool
}

func (e *enumSliceValue) String() string {
	if len(*e.p) == 0 {
		return ""
	}
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	_ = w.Write(*e.p)
	w.Flush()
	return "[" + strings.TrimSuffix(b.String(), "\n") + "]"
}

func (e *enumSliceValue) Set(s string) error {
	items, err := csv.NewReader(strings.NewReader(s)).Read()
	if err != nil {
		return err
	}
	for _, it := range items {
		if !slices.Contains(e.names, it) {
			return &enumError{flag: e.name, value: it, names: e.names}
		}
	}
	if !e.changed {
		*e.p = nil
	}
	*e.p = append(*e.p, items...)
	e.changed = true
	return nil
}

func (e *enumSliceValue) Type() string { return "stringSlice" }

// allowed returns the names the flag's items take.
func (e *enumSliceValue) allowed() []string { return e.names }

// enumSliceFlag defines a flag --name whose comma-separated items are each
// one of allowed.
func enumSliceFlag(f *pflag.FlagSet, p *[]string, name, usage string, allowed []string) {
	f.Var(&enumSliceValue{name: name, p: p, names: allowed}, name, usage)
}

// inRange returns a usage error (exit 2) naming the flag and its range
// when v is outside [lo, hi].
func inRange(flag string, v, lo, hi int) error {
	if v < lo || v > hi {
		return errkind.InvalidInputf("--%s must be between %d and %d, not %d", flag, lo, hi, v)
	}
	return nil
}

// durationInRange is inRange for durations.
func durationInRange(flag string, v, lo, hi time.Duration) error {
	if v < lo || v > hi {
		return errkind.InvalidInputf("--%s must be between %s and %s, not %s", flag, lo, hi, v)
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
